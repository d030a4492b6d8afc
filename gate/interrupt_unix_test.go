//go:build unix

package gate

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The riskgate binary itself: SIGINT and SIGTERM end a long command within
// moments with exit status 130 and one line on standard error, whether the
// command stops on the cancellation (calibrate) or is abandoned after the
// grace period (eval reading a run that never ends).
func TestSignalsInterruptTheProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the riskgate binary; skipped in short mode")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "riskgate")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/riskgate").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	qrels := filepath.Join(dir, "qrels.txt")
	if err := os.WriteFile(qrels, []byte("1 0 d1 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"calibrate SIGINT", syscall.SIGINT, []string{"calibrate", "--example", "--reps", "100000"}},
		{"calibrate SIGTERM", syscall.SIGTERM, []string{"calibrate", "--example", "--reps", "100000"}},
		{"eval from a pipe that never ends", syscall.SIGINT, []string{"eval", qrels, "-"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			stdin, err := cmd.StdinPipe() // kept open: standard input never ends
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond)
			sent := time.Now()
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(interruptGrace + 3*time.Second):
				cmd.Process.Kill()
				t.Fatalf("still running %v after the signal", time.Since(sent))
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
				t.Errorf("wait: %v, want exit status %d", err, exitInterrupted)
			}
			if got := stderr.String(); !strings.HasSuffix(got, "riskgate: interrupted; nothing was decided\n") || strings.Count(got, "interrupted") != 1 {
				t.Errorf("stderr %q", got)
			}
			t.Logf("exited %v after the signal", time.Since(sent))
		})
	}
}
