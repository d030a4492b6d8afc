package trec

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// A run of n lines whose last line is long bytes long (issue 23, defect
// 10: an over-long last line of a 100,000-line run was named as line 1).
func runEndingIn(n, long int) string {
	var b strings.Builder
	for i := range n - 1 {
		fmt.Fprintf(&b, "%d Q0 d%d %d %d r\n", 301+i/1000, i, i%1000+1, 1000-i%1000)
	}
	last := "400 Q0 x 1 1 r"
	return b.String() + last + strings.Repeat("z", long-len(last)) + "\n"
}

// Every reader of runs and qrels refuses a line longer than the bound at
// its own line number, having parsed none of it: in one piece, in chunks,
// in parallel parts, the line anywhere in the file. Expected numbers are
// the lines as written.
func TestLineLimitNamesTheLine(t *testing.T) {
	t.Parallel()
	const maxLine = 64
	for _, c := range []struct {
		name string
		text string
		line int
	}{
		{"last line of 100,000", runEndingIn(100_000, maxLine+1), 100_000},
		{"last line, no line ending", strings.TrimSuffix(runEndingIn(1000, 5*maxLine), "\n"), 1000},
		{"first line", strings.Repeat("y", maxLine+1) + "\nq1 Q0 a 1 1 r\n", 1},
		{"a comment line", "q1 Q0 a 1 1 r\n#" + strings.Repeat(" ", maxLine) + "\nq1 Q0 b 1 1 r\n", 2},
		{"blank line of spaces", "q1 Q0 a 1 1 r\n" + strings.Repeat(" ", 3*maxLine) + "\n", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := fmt.Sprintf("run:%d: %s", c.line, linelimit.Message)
			for _, chunk := range []int{7, maxLine, 1 << 20} {
				rd := reading{chunk, maxLine}
				if _, err := readRun(strings.NewReader(c.text), "run", rd); err == nil || err.Error() != want {
					t.Errorf("chunks of %d: %v; want %s", chunk, err, want)
				}
				for _, parts := range []int{2, 3, 8} {
					if _, err := readRunParts(strings.NewReader(c.text), int64(len(c.text)), "run", parts, rd); err == nil || err.Error() != want {
						t.Errorf("chunks of %d, %d parts: %v; want %s", chunk, parts, err, want)
					}
				}
			}
		})
	}
	// A line of exactly the bound is read.
	exact := "q1 Q0 a 1 1 r" + strings.Repeat(" ", maxLine-13) + "\nq1 Q0 b 1 1 r\n"
	if _, err := readRun(strings.NewReader(exact), "run", reading{5, maxLine}); err != nil {
		t.Errorf("a line of %d bytes: %v", maxLine, err)
	}
	qrels := "q1 0 a 1\nq1 0 b 0\n" + strings.Repeat("q", maxLine+1) + " 0 c 1\n"
	if _, err := readQrels(strings.NewReader(qrels), "qrels", reading{5, maxLine}); err == nil || err.Error() != "qrels:3: "+linelimit.Message {
		t.Errorf("qrels: %v", err)
	}
}

// The run id comes from the last data line, and Run says which.
func TestRunIDLine(t *testing.T) {
	t.Parallel()
	text := runEndingIn(100_000, 20) + "# a comment\n\n"
	for _, parts := range []int{1, 2, 5} {
		run, err := readRunParts(strings.NewReader(text), int64(len(text)), "run", parts, reading{1 << 10, linelimit.Max})
		if err != nil || run.RunIDLine != 100_000 || run.RunID != "r"+strings.Repeat("z", 6) {
			t.Errorf("%d parts: run id %q at line %d, %v; want line 100000", parts, run.RunID, run.RunIDLine, err)
		}
	}
}

// A file of one endless line (/dev/zero, a sparse file) is refused after
// reading at most about twice the bound, its tables never sized for the
// file (the reader reads the first 64 MiB only of a reader that never ends).
func TestEndlessLineRefused(t *testing.T) {
	t.Parallel()
	var read int64
	zero := &countingZero{n: &read}
	_, err := ReadQrels(zero, "/dev/zero")
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 1 || ie.Msg != linelimit.Message {
		t.Fatalf("error %v; want /dev/zero:1: %s", err, linelimit.Message)
	}
	if read > 4*linelimit.Max {
		t.Errorf("read %d MB before refusing; want at most %d", read>>20, 4*linelimit.Max>>20)
	}
	read = 0
	if _, err := ReadRun(zero, "/dev/zero"); err == nil || !strings.HasPrefix(err.Error(), "/dev/zero:1: line longer than") {
		t.Errorf("run: %v", err)
	}
}

// countingZero reads zero bytes forever, counting them.
type countingZero struct{ n *int64 }

func (z *countingZero) Read(p []byte) (int, error) {
	clear(p)
	*z.n += int64(len(p))
	if *z.n > 1<<30 {
		return 0, errors.New("read 1 GiB: the bound did not hold")
	}
	return len(p), nil
}
