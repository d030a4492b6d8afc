package diagnose

import (
	"errors"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// Issue 23: riskgate diagnose /dev/zero read without bound and died of "fatal
// error: out of memory". A line longer than the bound every input shares is
// refused once about that much of it has been read.
func TestReadRefusesAnEndlessLine(t *testing.T) {
	t.Parallel()
	z := &zeros{}
	_, err := Read(z, "/dev/zero")
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 1 || ie.Msg != linelimit.Message {
		t.Fatalf("error %v; want /dev/zero:1: %s", err, linelimit.Message)
	}
	if z.n > 2*linelimit.Max {
		t.Errorf("read %d MB before refusing; want at most %d", z.n>>20, 2*linelimit.Max>>20)
	}
}

// zeros reads NUL bytes forever, counting them (a stop at 1 GiB fails the test).
type zeros struct{ n int }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n > 1<<30 {
		return 0, errors.New("read 1 GiB: the bound did not hold")
	}
	clear(p)
	z.n += len(p)
	return len(p), nil
}
