package trec

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/riskgate/riskgate/internal/linelimit"
)

// runFingerprint is everything ReadRun returns, as text: the error, or the
// run id, line count, topics with their first lines, and each topic's
// ranking (docno, score bits, line).
func runFingerprint(run *Run, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "runid %q lines %d\n", run.RunID, run.Lines)
	for ti, id := range run.Topics() {
		fmt.Fprintf(&b, "topic %q first line %d:", id, run.firstLine[ti])
		seg, docs := run.ranked(int32(ti))
		for _, d := range docs {
			fmt.Fprintf(&b, " %q/%x/%d", seg.docnos.at(d.doc), math.Float64bits(d.score), seg.line(d))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestReadRunChunks: a run read in chunks of any size, in any number of
// parts parsed in parallel, is the run read in one piece (expected: readRun
// with a chunk larger than the file), errors included.
func TestReadRunChunks(t *testing.T) {
	t.Parallel()
	inputs := []string{
		fuzzRun,
		"q1 Q0 a 1 2.5 r\nq1 Q0 b 2 2.5 r\n",
		"q1 Q0 a 1 1 r",
		"\n\n# comment\n  \t\nq1 Q0 a 1 1 r\r\nq2 Q0 b 1 nan r2 extra fields\n# c\nq1 Q0 c 1 -1 r3\n\n",
		"q1 Q0 d1 1 3 r\nq2 Q0 d1 1 3 r\nq1 Q0 d2 1 3 r\nq2 Q0 d2 1 nan r\nq1 Q0 d3 1 3 x\nq3 Q0 " + strings.Repeat("long", 40) + " 1 1 y\n",
		"",
		"\n\n",
		"# only\n# comments",
		"q1 Q0 a 1 1 r\nq1 Q0 b 1\nq1 Q0 c 1 1 r\n",                   // too few fields on line 2
		"q1 Q0 a 1 1 r\n\n\nq1 Q0 b 1 1 r\nbad\n",                     // on line 5
		"q1 Q0 a 1 1 r\nq1 Q0 a 2 0 r\nq2 Q0 a 1 1 r\n",               // a duplicate is kept (Evaluate refuses it)
		"q1\tQ0\tb\t1\t0x1p3\tr\nq1 Q0 c 1 5abc r\nq1 Q0 d 1 inf r\n", // C atof
	}
	r := rand.New(rand.NewPCG(20, 1))
	for range 20 { // interleaved topics, ties, comments and blank lines
		var b strings.Builder
		for i := range 1 + r.IntN(300) {
			switch r.IntN(20) {
			case 0:
				b.WriteString("# comment\n")
			case 1:
				b.WriteString("\n")
			default:
				fmt.Fprintf(&b, "t%d Q0 d%d %d %d run%d\n", r.IntN(5), r.IntN(100), i, r.IntN(10), r.IntN(3))
			}
		}
		inputs = append(inputs, b.String())
	}
	for i, in := range inputs {
		want := runFingerprint(readRun(strings.NewReader(in), "run", reading{len(in) + 1, linelimit.Max}))
		for _, size := range []int{1, 2, 3, 7, 16, 64, 1 << 20} {
			got := runFingerprint(readRun(strings.NewReader(in), "run", reading{size, linelimit.Max}))
			if got != want {
				t.Errorf("input %d, chunks of %d bytes:\n%s\nwant\n%s", i, size, got, want)
			}
			got = runFingerprint(readRun(iotest.OneByteReader(strings.NewReader(in)), "run", reading{size, linelimit.Max}))
			if got != want {
				t.Errorf("input %d read a byte at a time, chunks of %d bytes:\n%s\nwant\n%s", i, size, got, want)
			}
			for parts := 2; parts <= 5; parts++ {
				got := runFingerprint(readRunParts(strings.NewReader(in), int64(len(in)), "run", parts, reading{size, linelimit.Max}))
				if got != want {
					t.Errorf("input %d in %d parts, chunks of %d bytes:\n%s\nwant\n%s", i, parts, size, got, want)
				}
			}
		}
	}
}

// failingReaderAt fails every read that reaches offset at.
type failingReaderAt struct {
	r   io.ReaderAt
	at  int64
	err error
}

func (f failingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.at {
		n, _ := f.r.ReadAt(p[:max(0, f.at-off)], off)
		return n, f.err
	}
	return f.r.ReadAt(p, off)
}

// TestReadRunReadError: an error reading the file comes after the errors
// of the lines read before it, and is returned with the file's name.
func TestReadRunReadError(t *testing.T) {
	t.Parallel()
	broken := errors.New("disk on fire")
	good, bad := "q1 Q0 a 1 1 r\nq1 Q0 b 1 1 r\nq1 Q0 c", "q1 Q0 a 1 1 r\nq1 Q0 b\nq1 Q0 c"
	for _, size := range []int{1, 5, 1 << 20} {
		in := io.MultiReader(strings.NewReader(good), iotest.ErrReader(broken))
		if _, err := readRun(in, "run", reading{size, linelimit.Max}); !errors.Is(err, broken) || !strings.HasPrefix(err.Error(), "run: ") {
			t.Errorf("chunks of %d: got %v, want the read error", size, err)
		}
		in = io.MultiReader(strings.NewReader(bad), iotest.ErrReader(broken))
		if _, err := readRun(in, "run", reading{size, linelimit.Max}); err == nil || !strings.HasPrefix(err.Error(), "run:2: 3 fields") {
			t.Errorf("chunks of %d: got %v, want the error of line 2", size, err)
		}
		for _, parts := range []int{2, 3} {
			n := int64(len(good) + 10)
			f := failingReaderAt{strings.NewReader(good + "\nq1 Q0 d 1 1 r\n"), int64(len(good)), broken}
			if _, err := readRunParts(f, n, "run", parts, reading{size, linelimit.Max}); !errors.Is(err, broken) || !strings.HasPrefix(err.Error(), "run: ") {
				t.Errorf("chunks of %d, %d parts: got %v, want the read error", size, parts, err)
			}
			f = failingReaderAt{strings.NewReader(bad + "\nq1 Q0 d 1 1 r\n"), int64(len(bad)), broken}
			if _, err := readRunParts(f, n, "run", parts, reading{size, linelimit.Max}); err == nil || !strings.HasPrefix(err.Error(), "run:2: 3 fields") {
				t.Errorf("chunks of %d, %d parts: got %v, want the error of line 2", size, parts, err)
			}
		}
	}
}
