//go:build unix

package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/result"
)

// An input through a named pipe (bash's <(command)) is read once: the gate
// does not open it again to hash it, which would wait for ever.
func TestGateInputPipe(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "gate_small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	pipe := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	go func() {
		f, err := os.OpenFile(pipe, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.Write(data)
		f.Close()
	}()
	done := make(chan struct{})
	var code int
	var out, stderr string
	go func() {
		code, out, stderr = runMain(t, "gate", "--policy", filepath.Join("testdata", "gate", "cheap.yaml"), "--format", "json", pipe)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the gate hangs on a named pipe")
	}
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if in := r.Provenance.Inputs; len(in) != 1 || in[0].Path != pipe || in[0].SHA256 != sha256Hex(data) {
		t.Errorf("provenance of a pipe: %+v", in)
	}
}
