package gate

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 23, defect 6: a gate killed between the set's two renames (strace
// -e inject=renameat:signal=SIGKILL:when=2) leaves no --out and the previous
// set in .out.old-*/set, the new one in .out.tmp-*; the next run, even one
// that fails, puts the previous set back before it cleans up, and marks it.
func TestReportSetRecoveredAfterAKillBetweenRenames(t *testing.T) {
	t.Parallel()
	out, before := passingSet(t)
	parent := filepath.Dir(out)
	aside := filepath.Join(parent, ".out.old-1234567")
	if err := os.Mkdir(aside, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(out, filepath.Join(aside, "set")); err != nil { // the first rename; the kill comes before the second
		t.Fatal(err)
	}
	tmp := filepath.Join(parent, ".out.tmp-7654321")
	os.Mkdir(tmp, 0o755)
	for name, data := range before {
		os.WriteFile(filepath.Join(tmp, name), bytes.ReplaceAll(data, []byte("pass"), []byte("PASS")), 0o644)
	}

	code, _, stderr := runMain(t, "gate", "--policy", filepath.Join("testdata", "gate", "cheap.yaml"), "--out", out, "no-such-file.csv")
	if code != exitError || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q; want 2 and one line", code, stderr)
	}
	after := readSet(t, out)
	for name, data := range before {
		if !bytes.Equal(after[name], data) {
			t.Errorf("%s is not the previous set's", name)
		}
	}
	if e := readErrorMarker(t, out); !strings.Contains(e.Error, "no-such-file.csv") {
		t.Errorf("error marker %+v", e)
	}
	if left := beside(t, out); len(left) != 0 {
		t.Errorf("left beside --out: %q", left)
	}
}

// fullDisk fails every write as a full disk does.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// Issue 23, defect 7: on a full disk error.json cannot be written; standard
// error says so, and the folder is marked all the same (the marker written
// when the run started, or an empty one), so that publish refuses the
// earlier run's result.json beside it.
func TestReportSetMarkedOnAFullDisk(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name       string
		fullAt     string // "start": full before the run starts; "end": full by the time it fails
		wantStderr []string
	}{
		{"full from the start", "start", []string{"error.json could not be written (no space left on device); it is there, empty",
			"error.json could not be updated with this run's error (no space left on device); it still marks the reports"}},
		{"full by the end", "end", []string{"error.json could not be updated with this run's error (no space left on device); it still marks the reports"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, before := passingSet(t)
			set, err := openReportSet(out)
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			full := func(string, io.Writer) io.Writer { return fullDisk{} }
			if c.fullAt == "start" {
				set.Wrap = full
			}
			if err := markReportSetStarted(set, start, &stderr); err != nil {
				t.Fatalf("marking at the start: %v", err)
			}
			set.Wrap = full
			markReportSetError(context.Background(), set, errors.New("no-such-file.csv: no such file"), start, &stderr)
			set.Close()
			for _, want := range c.wantStderr {
				if !strings.Contains(stderr.String(), "riskgate: warning: --out "+out+": "+want) {
					t.Errorf("standard error lacks %q:\n%s", want, stderr.String())
				}
			}
			if _, err := os.Stat(filepath.Join(out, errorMarker)); err != nil {
				t.Fatalf("no marker: %v", err)
			}
			if !bytes.Equal(readSet(t, out)["result.json"], before["result.json"]) {
				t.Error("the previous result.json changed")
			}
			code, _, perr := runMain(t, "publish", "--from", filepath.Join(out, "result.json"))
			if code != exitError || !strings.Contains(perr, "ended in an error or has not finished") {
				t.Errorf("publish of the earlier run's result: exit %d %q; want it refused", code, perr)
			}
		})
	}
}

// A run that is killed after it started leaves its folder marked as not
// finished: publish refuses the earlier result.json there.
func TestReportSetMarkedWhileTheRunIsUnfinished(t *testing.T) {
	t.Parallel()
	out, _ := passingSet(t)
	set, err := openReportSet(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := markReportSetStarted(set, time.Now(), io.Discard); err != nil {
		t.Fatal(err)
	}
	set.Close() // and no more: the process was killed
	e := readErrorMarker(t, out)
	if e.ExitStatus != nil || !strings.Contains(e.Error, "has not finished") {
		t.Errorf("marker %+v; want an unfinished run without an exit status", e)
	}
	code, _, stderr := runMain(t, "publish", "--from", filepath.Join(out, "result.json"))
	if code != exitError || !strings.Contains(stderr, "has not finished") {
		t.Errorf("publish: exit %d %q; want it refused", code, stderr)
	}
	// The next good run replaces the whole folder, marker included.
	if code, stderr := gateInto(t, out); code != exitPass {
		t.Fatalf("exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, errorMarker)); err == nil {
		t.Error("a good run left the marker")
	}
}

// Issue 23, defect 8: --out / and --out . (a folder holding other files) are
// refused with one line and leave no lock file.
func TestRefusedOutLeavesNoLockFile(t *testing.T) {
	_, rootLockErr := os.Lstat("/.lock")
	code, _, stderr := runMain(t, "gate", "--example", "--out", "/")
	if code != exitError || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "--out /") {
		t.Errorf("--out /: exit %d, stderr %q; want 2 and one line", code, stderr)
	}
	if _, err := os.Lstat("/.lock"); errors.Is(rootLockErr, os.ErrNotExist) && err == nil {
		os.Remove("/.lock")
		t.Error("--out / created /.lock")
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "work")
	os.Mkdir(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "scores.csv"), []byte("system,topic,score\n"), 0o644)
	t.Chdir(dir)
	code, _, stderr = runMain(t, "gate", "--example", "--out", ".")
	if code != exitError || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, `"scores.csv"`) {
		t.Errorf("--out .: exit %d, stderr %q; want 2 and one line", code, stderr)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("%d entries beside the working folder after a refused --out ., want none", len(entries)-1)
	}
}
