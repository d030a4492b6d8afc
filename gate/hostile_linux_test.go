//go:build linux

package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// Issue 23: no command of riskgate prints a Go runtime stack trace, on any
// input or flag value. Each case runs the test binary as riskgate in a child
// process limited to a 2 GiB address space (childASLimitEnv), so that a
// reader that grows without bound dies of it, as it would on a CI runner,
// instead of taking the machine.

// childASLimit is the children's address space: 2 GiB, of which the Go
// runtime reserves about 1.2–1.6 GiB at start (heap arena hints, thread
// stacks): little room for anything unbounded.
const childASLimit = 2 << 30

// childRun is how a child riskgate ended.
type childRun struct {
	code           int
	stdout, stderr string
	elapsed        time.Duration
	timedOut       bool
}

// runChild runs riskgate (this test binary as riskgate) with args in dir,
// standard input from the file stdin ("" for none), under childASLimit,
// and kills it after timeout.
func runChild(t *testing.T, dir, stdin string, timeout time.Duration, args ...string) childRun {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), doctestMainEnv+"=1", doctestAppendEnv+"=", fmt.Sprintf("%s=%d", childASLimitEnv, childASLimit),
		"CI=", "GITHUB_ACTIONS=", "GITHUB_TOKEN=")
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out, errw bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	start := time.Now()
	err = cmd.Run()
	r := childRun{stdout: out.String(), stderr: errw.String(), elapsed: time.Since(start), timedOut: ctx.Err() != nil}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("riskgate %q: %v", args, err)
	}
	return r
}

var (
	usageHint       = regexp.MustCompile(`^Run '.*--help' for usage\.$`)
	validateSummary = regexp.MustCompile(`^riskgate: \d+ of \d+ policy files are invalid$`)
)

// stackTrace finds what the Go runtime prints when a program dies.
var stackTrace = regexp.MustCompile(`(?m)^(goroutine \d+ |panic: |fatal error: |runtime: |\s+/.*\.go:\d+)`)

// checkCleanEnd fails the test unless the child ended in bounded time, with
// no stack trace, and either with one of the statuses ok allows or with
// exit status 2 and one error line on standard error (besides the loader's
// notes, the "Run 'riskgate … --help'" line of a usage error, and policy
// validate's count of invalid files after their problems, compiler style).
func checkCleanEnd(t *testing.T, what string, r childRun, ok ...int) {
	t.Helper()
	if r.timedOut {
		t.Errorf("%s: still running after %v; want an end in bounded time", what, r.elapsed.Round(time.Second))
		return
	}
	if m := stackTrace.FindString(r.stderr); m != "" {
		t.Errorf("%s: exit %d with a Go runtime message (%q):\n%.1500s", what, r.code, m, r.stderr)
		return
	}
	if slices.Contains(ok, r.code) {
		return
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(r.stderr, "\n"), "\n") {
		if !strings.HasPrefix(l, "riskgate: note:") && !usageHint.MatchString(l) && !validateSummary.MatchString(l) {
			lines = append(lines, l)
		}
	}
	if r.code != exitError || len(lines) != 1 {
		t.Errorf("%s: exit %d, stderr %.600q; want exit 2 and one line", what, r.code, r.stderr)
	}
}

// hostileFiles are the inputs every reading path is given: /dev/zero (no
// line ending, no end) and a sparse file of one 3 GiB line of NUL bytes.
func hostileFiles(t *testing.T) []string {
	t.Helper()
	big := filepath.Join(t.TempDir(), "one-3GiB-line")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Truncate(big, 3<<30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	return []string{"/dev/zero", big}
}

// childFixture writes small valid inputs of every kind into a new folder:
// qrels.txt and r1.run, r2.run (TREC), scores.csv (systems a, b, c, d over
// 6 topics), a result.json of riskgate gate --example, and the classifier
// files of testdata.
func childFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"qrels.txt": "q1 0 a 1\nq1 0 b 0\nq2 0 a 1\nq2 0 c 1\n",
		"r1.run":    "q1 Q0 a 1 2 r1\nq1 Q0 b 2 1 r1\nq2 Q0 c 1 2 r1\nq2 Q0 a 2 1 r1\n",
		"r2.run":    "q1 Q0 b 1 2 r2\nq1 Q0 a 2 1 r2\nq2 Q0 a 1 2 r2\nq2 Q0 c 2 1 r2\n",
	}
	var b strings.Builder
	b.WriteString("system,topic,score\n")
	for i, s := range []string{"a", "b", "c", "d"} {
		for j := range 6 {
			fmt.Fprintf(&b, "%s,t%d,%.3f\n", s, j, 0.2+0.05*float64(i)+0.1*float64(j%3))
		}
	}
	files["scores.csv"] = b.String()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"classify_truth.txt", "classify_a.txt", "classify_b.txt", "pair_small.csv", "compare_small.csv", "gate/example.result.json.golden"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readingPaths are the commands that read a file given by the user, with
// IN where the hostile file goes ("-": standard input is the hostile file).
var readingPaths = [][]string{
	{"eval", "-q", "IN", "r1.run"},
	{"eval", "qrels.txt", "IN"},
	{"eval", "-q", "qrels.txt", "r1.run", "-"},
	{"gate", "--champion", "a", "--challenger", "b", "IN"},
	{"gate", "--champion", "a", "--challenger", "b", "-"},
	{"gate", "--champion", "r1", "--challenger", "r2", "--qrels", "IN", "r1.run", "r2.run"},
	{"gate", "--champion", "r1", "--challenger", "r2", "--input-format", "run", "--qrels", "qrels.txt", "r1.run", "IN"},
	{"gate", "--example", "--policy", "IN"},
	{"compare", "--champion", "a", "--challenger", "b", "IN"},
	{"compare", "--champion", "r1", "--challenger", "r2", "--qrels", "IN", "r1.run", "r2.run"},
	{"fit", "--champion", "a", "--challenger", "b", "IN"},
	{"fit", "--champion", "a", "--challenger", "b", "--input-format", "csv-wide", "IN"},
	{"pair", "--champion", "a", "--challenger", "b", "IN"},
	{"pair", "--champion", "a", "--challenger", "b", "--input-format", "jsonl", "-"},
	{"classify", "--truth", "IN", "--a", "classify_a.txt", "--b", "classify_b.txt"},
	{"classify", "--truth", "classify_truth.txt", "--a", "IN", "--b", "classify_b.txt"},
	{"diagnose", "IN"},
	{"calibrate", "--champion", "a", "--challenger", "b", "--input-format", "trec_eval", "IN"},
	{"calibrate", "--example", "--policy", "IN"},
	{"policy", "validate", "IN"},
	{"policy", "explain", "IN"},
	{"publish", "--from", "IN"},
	{"publish", "--from", "example.result.json.golden", "--report-md", "IN"},
	{"publish", "--from", "example.result.json.golden", "--policy", "IN"},
	{"bench", "--quick", "--only", "^nomatch$", "--champion", "a", "--challenger", "b", "IN"},
	{"discriminate", "--measure", "map", "IN"},
	{"discriminate", "--qrels", "IN", "r1.run", "r2.run"},
	{"pool", "add", "--pool", "pool-scores", "IN"},
	{"pool", "add", "--pool", "pool-runs", "--qrels", "IN", "r1.run"},
}

// TestEveryReadingPathBounded: every command's reading path, on /dev/zero
// and on one 3 GiB line, ends in one line and exit 2 (issue 23, defect 1:
// riskgate eval grew to 4–5 GB and died with a stack trace).
func TestEveryReadingPathBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("runs about 50 child processes under an address-space limit; TestEvalReadsBounded is the short version")
	}
	t.Parallel()
	dir := childFixture(t)
	for _, in := range hostileFiles(t) {
		for _, path := range readingPaths {
			args, stdin := slices.Clone(path), ""
			for i, a := range args {
				if a == "IN" {
					args[i] = in
				}
			}
			if args[len(args)-1] == "-" {
				stdin = in
			}
			name := strings.Join(args, " ")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				r := runChild(t, dir, stdin, 2*time.Minute, args...)
				checkCleanEnd(t, name, r)
				t.Logf("%s: exit %d after %v: %s", name, r.code, r.elapsed.Round(time.Millisecond), strings.TrimSpace(r.stderr))
			})
		}
	}
}

// TestEvalReadsBounded: riskgate eval reads qrels and runs through the
// gate's bounded reader (issue 23, defect 1): /dev/zero, a run of
// /dev/zero and a qrels file of one 3 GiB line are each refused with one
// line naming file:1 and the limit, exit 2, within seconds. On the landed
// code each grew to the address-space limit and died with "fatal error: out
// of memory" and a goroutine dump.
func TestEvalReadsBounded(t *testing.T) {
	t.Parallel()
	dir := childFixture(t)
	files := hostileFiles(t)
	for _, c := range []struct {
		args  []string
		stdin string
		file  string
	}{
		{[]string{"eval", "-q", "/dev/zero", "r1.run"}, "", "/dev/zero"},
		{[]string{"eval", "-q", "qrels.txt", "/dev/zero"}, "", "/dev/zero"},
		{[]string{"eval", "-q", "qrels.txt", "-"}, "/dev/zero", "stdin"},
		{[]string{"eval", "-q", files[1], "r1.run"}, "", files[1]},
		{[]string{"eval", "-q", "qrels.txt", files[1]}, "", files[1]},
	} {
		name := strings.Join(c.args, " ")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := runChild(t, dir, c.stdin, time.Minute, c.args...)
			t.Logf("exit %d after %v: %.300s", r.code, r.elapsed.Round(time.Millisecond), r.stderr)
			checkCleanEnd(t, name, r)
			if want := "riskgate: " + c.file + ":1: line longer than 16 MB; expected one record per line\n"; r.stderr != want {
				t.Errorf("stderr %.300q; want %q", r.stderr, want)
			}
			// About 0.5 s on the development machine at load 30; a generous
			// bound for a loaded CI runner.
			if r.elapsed > 20*time.Second {
				t.Errorf("refused after %v; want within seconds", r.elapsed)
			}
		})
	}
}

// TestCalibrateRepsBounded: riskgate calibrate --reps is capped, and bounded
// by the memory estimate as the gate is (issue 23, defect 3: --reps
// 300000000 died with "fatal error: runtime: out of memory" asking for 343
// GB, and 100000000 reached 2.8 GB in 8 s with no check).
func TestCalibrateRepsBounded(t *testing.T) {
	t.Parallel()
	dir := childFixture(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"calibrate", "--example", "--reps", "300000000"}, "riskgate: --reps 300000000: expected at most 1,000,000 pools per effect\n"},
		{[]string{"calibrate", "--example", "--reps", "100000000"}, "riskgate: --reps 100000000: expected at most 1,000,000 pools per effect\n"},
		// 5 effects × 10⁶ pools: 160 MB of verdicts, and one pool being
		// decided per core (each 7 MB: the example's size, one fit).
		{[]string{"calibrate", "--example", "--reps", "1000000", "--max-memory", "200MB"},
			"riskgate: this calibration would need about * MB of memory (mostly the verdicts of 5,000,000 pools: 160 MB), over the limit of 200 MB; raise the limit with --max-memory, or ask for fewer --reps, --effects or --risks\n"},
	} {
		name := strings.Join(c.args, " ")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := runChild(t, dir, "", time.Minute, c.args...)
			checkCleanEnd(t, name, r)
			head, tail, _ := strings.Cut(c.want, "*")
			if !strings.HasPrefix(r.stderr, head) || !strings.HasSuffix(r.stderr, tail) || r.elapsed > 20*time.Second {
				t.Errorf("after %v, stderr %q; want %q within seconds", r.elapsed, r.stderr, c.want)
			}
		})
	}
}
