package gate

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/internal/golden"
	"github.com/urfave/cli/v3"
)

// Helpers shared by the tests of every command in package gate.

// checkGolden compares got with testdata/name, or rewrites the file under -update.
func checkGolden(t testing.TB, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), []byte(got))
}

// checkGoldenRun runs riskgate with args, fails the test unless it exits 0,
// and compares its standard output with testdata/golden (checkGolden).
func checkGoldenRun(t *testing.T, golden string, args ...string) {
	t.Helper()
	code, out, errw := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	checkGolden(t, golden, out)
}

// runMain runs riskgate with args (without the program name) and empty
// standard input, and returns its exit status, stdout and stderr.
func runMain(t testing.TB, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	return runMainWithStdin(t, "", args...)
}

// runMainWithStdin is runMain with stdin as standard input.
func runMainWithStdin(t testing.TB, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	return runMainIn(t, testDeps(), stdin, args...)
}

// runMainEnv is runMain in the environment env (such as actionsEnv's)
// instead of an empty one.
func runMainEnv(t testing.TB, env map[string]string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	d := testDeps()
	d.getenv = func(k string) string { return env[k] }
	return runMainIn(t, d, "", args...)
}

// runMainIn runs riskgate with args, standard input stdin and the
// dependencies d.
func runMainIn(t testing.TB, d deps, stdin string, args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	status = mainWith(context.Background(), append([]string{"riskgate"}, args...), strings.NewReader(stdin), &out, &errw, d)
	return status, out.String(), errw.String()
}

// testDeps are the commands' dependencies in tests: the clock, no
// process-wide memory limit and an empty environment (none of the process's
// GitHub Actions variables), so that gates can run in parallel.
func testDeps() deps {
	return deps{now: time.Now, setMemoryLimit: func(int64) int64 { return math.MaxInt64 }, getenv: func(string) string { return "" }}
}

// runGateWith runs riskgate gate with args, as Main does (the exit status
// mapped from the error), after change has set dependencies of its options.
func runGateWith(t testing.TB, ctx context.Context, change func(o *gateOptions), args ...string) (status int, stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	s := &streams{In: strings.NewReader(""), Out: &out, Err: &errw}
	cmd := newGateCommand(s, testDeps(), func(ctx context.Context, o *gateOptions) error {
		change(o)
		return runGate(ctx, o, s)
	})
	cmd.ExitErrHandler = func(context.Context, *cli.Command, error) {} // Main maps errors to statuses, nothing else
	err := cmd.Run(ctx, append([]string{"gate"}, args...))
	return exitStatus(ctx, err, &errw), out.String(), errw.String()
}

// runMainWithGOMAXPROCS runs riskgate with args under each GOMAXPROCS value
// in turn, each in a child process (runMainChild) so that the test can run
// in parallel with others, and fails the test unless every run exits 0 and
// prints the same; it returns that output.
func runMainWithGOMAXPROCS(t *testing.T, procs []int, args ...string) string {
	t.Helper()
	var first string
	for i, n := range procs {
		c := runMainChild(t, []string{"GOMAXPROCS=" + strconv.Itoa(n)}, args...)
		if c.status != 0 {
			t.Fatalf("GOMAXPROCS %d: exit %d: %s", n, c.status, c.stderr)
		}
		if i == 0 {
			first = c.stdout
		} else if c.stdout != first {
			t.Fatalf("output differs between GOMAXPROCS %d and %d", procs[0], n)
		}
	}
	return first
}

// mainChild is how a riskgate child process (runMainChild) ended.
type mainChild struct {
	status         int
	stdout, stderr string
	cpu            time.Duration // the child's user and system CPU time
}

// runMainChild runs riskgate with args (without the program name) in a child
// process — this test binary, which TestMain makes riskgate under
// doctestMainEnv — with the test's environment plus env (such as
// GOMAXPROCS=1, which the Go runtime reads at start), and empty standard
// input. What the test would otherwise change or measure for the whole
// process (runtime.GOMAXPROCS, the process's CPU time) is the child's, so
// the test can run in parallel with others.
func runMainChild(t testing.TB, env []string, args ...string) mainChild {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(append(os.Environ(), doctestMainEnv+"=1", doctestAppendEnv+"="), env...)
	var out, errw bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	err = cmd.Run()
	c := mainChild{stdout: out.String(), stderr: errw.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		c.status = ee.ExitCode()
	default:
		t.Fatalf("riskgate %q: %v", args, err)
	}
	c.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return c
}

// checkOneLineError checks a failed run: exit status 2, nothing on stdout,
// and on stderr one error line containing want (besides the loader's notes).
func checkOneLineError(t *testing.T, code int, out, errw, want string) {
	t.Helper()
	if code != exitError {
		t.Fatalf("exit %d, want 2; stderr %q", code, errw)
	}
	if out != "" {
		t.Errorf("stdout not empty: %q", out)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(errw, "\n"), "\n") {
		if !strings.HasPrefix(l, "riskgate: note:") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], want) {
		t.Errorf("stderr %q: want one error line containing %q", errw, want)
	}
}

// writeTemp writes content to a file name in a new temporary folder and
// returns its path.
func writeTemp(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
