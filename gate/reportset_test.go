package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/riskgate/riskgate/gate/scores"
)

// gateInto runs the cheap policy (a pass, no MCMC) on testdata/gate_small.csv
// with --out out.
func gateInto(t *testing.T, out string, extra ...string) (int, string) {
	t.Helper()
	return gateIntoWith(t, context.Background(), func(*gateOptions) {}, out, extra...)
}

// gateIntoWith is gateInto after change has set dependencies of the gate's
// options (runGateWith).
func gateIntoWith(t *testing.T, ctx context.Context, change func(o *gateOptions), out string, extra ...string) (int, string) {
	t.Helper()
	args := append([]string{"--policy", filepath.Join("testdata", "gate", "cheap.yaml"), "--out", out}, extra...)
	code, _, stderr := runGateWith(t, ctx, change, append(args, filepath.Join("testdata", "gate_small.csv"))...)
	return code, stderr
}

// readSet returns every file in dir by name.
func readSet(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	set := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		set[e.Name()] = data
	}
	return set
}

// beside lists what is in out's parent folder besides out and its lock
// file: temporary folders a writer left behind.
func beside(t *testing.T, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(out))
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		if n := e.Name(); n != filepath.Base(out) && n != "."+filepath.Base(out)+".lock" {
			left = append(left, n)
		}
	}
	return left
}

// passingSet writes a passing report set into a fresh out and returns it.
func passingSet(t *testing.T) (out string, set map[string][]byte) {
	t.Helper()
	out = filepath.Join(t.TempDir(), "out")
	if code, stderr := gateInto(t, out); code != exitPass {
		t.Fatalf("first gate: exit %d %s", code, stderr)
	}
	set = readSet(t, out)
	if len(set) != 4 || !strings.Contains(string(set["result.json"]), `"verdict": "pass"`) {
		t.Fatalf("first set: %d files", len(set))
	}
	return out, set
}

func readErrorMarker(t *testing.T, out string) runError {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, errorMarker))
	if err != nil {
		t.Fatalf("no error marker: %v", err)
	}
	var e runError
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// A write that fails part-way through the set (a full disk) leaves the
// previous set byte for byte, an error marker beside it, and no temporary
// folder.
func TestReportSetWriteFailureKeepsThePreviousSet(t *testing.T) {
	t.Parallel() // its dependencies are its own (runGateWith)
	out, before := passingSet(t)
	fullDisk := func(o *gateOptions) {
		o.writeReport = func(w io.Writer, name string, data []byte) error {
			if name == "junit.xml" { // the third of four: two are written already
				return errors.New("no space left on device")
			}
			return writeReportFile(w, name, data)
		}
	}
	code, stderr := gateIntoWith(t, context.Background(), fullDisk, out)
	if code != exitError || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no space left on device") {
		t.Errorf("exit %d, stderr %q; want 2 and one line", code, stderr)
	}
	after := readSet(t, out)
	for name, data := range before {
		if !bytes.Equal(after[name], data) {
			t.Errorf("%s changed after a failed write", name)
		}
	}
	if e := readErrorMarker(t, out); e.ExitStatus == nil || *e.ExitStatus != exitError || !strings.Contains(e.Error, "no space left") {
		t.Errorf("error marker %+v", e)
	}
	if left := beside(t, out); len(left) != 0 {
		t.Errorf("left beside --out: %q", left)
	}
	// The next good run replaces the whole folder: the marker goes.
	if code, stderr := gateInto(t, out); code != exitPass {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, errorMarker)); err == nil {
		t.Error("a good run left the previous run's error marker")
	}
}

// Any run that ends in an error — here an input that does not exist —
// marks the previous set, so that no PASS stands unqualified beside it.
func TestReportSetErrorMarksThePreviousSet(t *testing.T) {
	t.Parallel()
	out, before := passingSet(t)
	code, _, stderr := runMain(t, "gate", "--policy", filepath.Join("testdata", "gate", "cheap.yaml"), "--out", out, "no-such-file.csv")
	if code != exitError {
		t.Fatalf("exit %d %s", code, stderr)
	}
	e := readErrorMarker(t, out)
	if e.ExitStatus == nil || *e.ExitStatus != exitError || !strings.Contains(e.Error, "no-such-file.csv") || !strings.Contains(e.Note, "earlier run") {
		t.Errorf("error marker %+v", e)
	}
	if !bytes.Equal(readSet(t, out)["result.json"], before["result.json"]) {
		t.Error("the previous result.json changed")
	}
}

// A cancellation (SIGINT or SIGTERM in cmd/riskgate) in the middle of the
// set's write leaves no temporary file, the previous set, and a marker.
func TestReportSetInterruptedMidWrite(t *testing.T) {
	t.Parallel() // its dependencies are its own (runGateWith)
	out, before := passingSet(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	interrupt := func(o *gateOptions) {
		o.writeReport = func(w io.Writer, name string, data []byte) error {
			if name == "report.md" {
				cancel()
			}
			return writeReportFile(w, name, data)
		}
	}
	if code, stderr := gateIntoWith(t, ctx, interrupt, out); code != exitInterrupted {
		t.Errorf("exit %d %s", code, stderr)
	}
	after := readSet(t, out)
	for name, data := range before {
		if !bytes.Equal(after[name], data) {
			t.Errorf("%s changed after an interrupted write", name)
		}
	}
	if e := readErrorMarker(t, out); e.ExitStatus == nil || *e.ExitStatus != exitInterrupted {
		t.Errorf("error marker %+v", e)
	}
	if left := beside(t, out); len(left) != 0 {
		t.Errorf("left beside --out: %q", left)
	}
}

// Two gates on one --out at once: the second exits 2 with one line and
// touches nothing; the first writes its whole set.
func TestReportSetConcurrentWriters(t *testing.T) {
	t.Parallel() // its dependencies are its own (runGateWith)
	out := filepath.Join(t.TempDir(), "out")
	var once sync.Once
	var second int
	var secondErr string
	// The first gate, holding the folder, runs the second in the middle of
	// its run.
	secondMeanwhile := func(o *gateOptions) {
		o.verifyInputs = func(sources []scores.Source) error {
			once.Do(func() { second, secondErr = gateInto(t, out) })
			return scores.VerifySources(sources)
		}
	}
	first, stderr := gateIntoWith(t, context.Background(), secondMeanwhile, out)
	if first != exitPass {
		t.Fatalf("first gate: exit %d %s", first, stderr)
	}
	if second != exitError || strings.Count(secondErr, "\n") != 1 || !strings.Contains(secondErr, "another riskgate is writing") {
		t.Errorf("second gate: exit %d, stderr %q; want 2 and one line", second, secondErr)
	}
	set := readSet(t, out)
	if names := slicesSorted(set); !slices.Equal(names, []string{"junit.xml", "report.html", "report.md", "result.json"}) {
		t.Errorf("set %q", names)
	}
}

func slicesSorted(m map[string][]byte) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// --out is riskgate's: a folder holding anything else is refused before
// any work, and left alone; a killed writer's temporary folders are removed.
func TestReportSetFolderOwnership(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	os.MkdirAll(out, 0o755)
	notes := filepath.Join(out, "notes.txt")
	os.WriteFile(notes, []byte("mine"), 0o644)
	code, stderr := gateInto(t, out)
	if code != exitError || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `"notes.txt"`) {
		t.Errorf("exit %d, stderr %q; want 2 naming notes.txt", code, stderr)
	}
	if set := readSet(t, out); len(set) != 1 || string(set["notes.txt"]) != "mine" {
		t.Errorf("the folder was changed: %q", slicesSorted(set))
	}

	out2 := filepath.Join(t.TempDir(), "reports")
	stale := filepath.Join(filepath.Dir(out2), ".reports.tmp-123")
	os.MkdirAll(stale, 0o755)
	os.WriteFile(filepath.Join(stale, "junit.xml"), []byte("<half"), 0o644)
	if code, stderr := gateInto(t, out2); code != exitPass {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if left := beside(t, out2); len(left) != 0 {
		t.Errorf("stale temporary folders left: %q", left)
	}
}

// publish refuses a result.json with an error marker beside it.
func TestPublishRefusesAMarkedFolder(t *testing.T) {
	t.Parallel()
	out, _ := passingSet(t)
	runMain(t, "gate", "--policy", filepath.Join("testdata", "gate", "cheap.yaml"), "--out", out, "no-such-file.csv")
	code, _, stderr := runMain(t, "publish", "--from", filepath.Join(out, "result.json"))
	if code != exitError || !strings.Contains(stderr, "ended in an error") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want 2 and one line", code, stderr)
	}
}
