package gate

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// Cancelling the context (what SIGINT and SIGTERM do in cmd/riskgate) stops
// the long commands promptly: exit status 130, one line on standard error
// saying so, nothing on standard output. Through mainWith with testDeps (no
// process-wide memory limit), as Main runs it, so that the test runs in
// parallel with others (it held the package's serial start for 1.2 s);
// TestSignalsInterruptTheProcess sends the signals to the binary.
func TestInterruptStopsLongWork(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
	}{
		{"calibrate", []string{"calibrate", "--example", "--reps", "100000", "--format", "json"}},
		// slow.yaml asks for 35 million draws per chain: over the default --max-memory.
		{"gate", []string{"gate", "--example", "--policy", "testdata/gate/slow.yaml", "--max-memory", "1000GB"}},
		{"bench", []string{"bench", "--only", "^fit-", "--format", "json"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(300*time.Millisecond, cancel)
			var out, errw bytes.Buffer
			start := time.Now()
			code := mainWith(ctx, append([]string{"riskgate"}, c.args...), strings.NewReader(""), &out, &errw, testDeps())
			elapsed := time.Since(start)
			if code != exitInterrupted {
				t.Errorf("exit %d, want %d; stderr %q", code, exitInterrupted, errw.String())
			}
			if got := errw.String(); got != "riskgate: interrupted; nothing was decided\n" {
				t.Errorf("stderr %q", got)
			}
			if out.Len() != 0 {
				t.Errorf("stdout %q", out.String())
			}
			if elapsed > 300*time.Millisecond+interruptGrace {
				t.Errorf("took %v after the cancellation", elapsed-300*time.Millisecond)
			}
			t.Logf("stopped %v after the cancellation", elapsed-300*time.Millisecond)
		})
	}
}
