package gate

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeRun100k writes a 100,000-line run named name whose last line ends
// in last (its run_id and anything after), and a qrels file judging it, and
// returns their paths. Issue 23, defect 10: a bad run id or an over-long
// line on the last line was named as line 1.
func writeRun100k(t *testing.T, dir, name, last string) (run, qrels string) {
	t.Helper()
	// The lines of fmt's "%d Q0 d%d %d %d r1\n" and "%d 0 d%d %d\n",
	// appended: a fifth of fmt's cost for the 400,000 lines of a test.
	b, q := make([]byte, 0, 3<<20), make([]byte, 0, 256<<10)
	num := func(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }
	for i := range 99_999 {
		b = append(num(b, 301+i/1000), " Q0 d"...)
		b = append(num(append(num(b, i), ' '), i%1000+1), ' ')
		b = append(num(b, 1000-i%1000), " r1\n"...)
		if i%7 == 0 {
			q = append(num(append(num(append(num(q, 301+i/1000), " 0 d"...), i), ' '), i%2), '\n')
		}
	}
	b = append(b, "400 Q0 x 1 1 "+last+"\n"...)
	run, qrels = filepath.Join(dir, name), filepath.Join(dir, "qrels.txt")
	if err := os.WriteFile(run, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(qrels, q, 0o644); err != nil {
		t.Fatal(err)
	}
	return run, qrels
}

func TestRunLastLineErrorsNameTheirLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, last, want string
	}{
		{"bad-id.run", "r\xff\xfe", `bad-id.run:100000: run_id (the system name) "r\xff\xfe" is not valid UTF-8 (byte 2)`},
		{"long-id.run", strings.Repeat("r", 600), "long-id.run:100000: run_id (the system name) of 600 bytes"},
	}
	if !testing.Short() { // writes a 17 MB file
		cases = append(cases, struct{ name, last, want string }{"long-line.run", "r1 " + strings.Repeat("z", 17<<20), "long-line.run:100000: line longer than 16 MB; expected one record per line"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			run, qrels := writeRun100k(t, dir, c.name, c.last)
			good, _ := writeRun100k(t, t.TempDir(), "good.run", "champ")
			code, out, stderr := runMain(t, "gate", "--champion", "champ", "--challenger", "r*", "--qrels", qrels, good, run)
			checkOneLineError(t, code, out, stderr, c.want)
		})
	}
}
