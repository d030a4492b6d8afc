package linelimit

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestMessageNamesMax(t *testing.T) {
	if want := fmt.Sprintf("line longer than %d MB;", Max>>20); !strings.HasPrefix(Message, want) || Max%(1<<20) != 0 {
		t.Errorf("Message %q does not name Max = %d bytes (%q)", Message, Max, want)
	}
	if got := (&Error{Line: 7}).Error(); got != "line 7: "+Message {
		t.Errorf("Error() = %q", got)
	}
}

// readAll reads r in reads of 64 KiB, as a parser's buffer does.
func readAll(r io.Reader) error {
	buf := make([]byte, 64<<10)
	for {
		if _, err := r.Read(buf); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// The Reader refuses a line once more than Max bytes of it were delivered,
// naming it; lines within the bound pass, and a record must be marked as it
// goes (Mark), or its lines add up.
func TestReader(t *testing.T) {
	long := strings.Repeat("x", Max+2*64<<10) // past the bound by more than a read
	err := readAll(NewReader(strings.NewReader("a\nb\n"+long+"\nc\n"), false))
	var le *Error
	if !errors.As(err, &le) || le.Line != 3 {
		t.Errorf("error %v; want line 3", err)
	}
	ok := strings.Repeat("y", Max/2) + "\n" + strings.Repeat("y", Max/2) + "\n"
	if err := readAll(NewReader(strings.NewReader(ok), false)); err != nil {
		t.Errorf("lines of Max/2: %v", err)
	}
	// A record of two lines, Max/2 + 2 bytes each, grows past the bound
	// unless marked after each.
	rec := NewReader(strings.NewReader(ok+ok+ok), true)
	if err := readAll(rec); !errors.As(err, &le) {
		t.Errorf("unmarked records: %v; want an *Error", err)
	}
}
