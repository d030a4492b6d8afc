package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

func file(name, text string) SetFile {
	return SetFile{Name: name, Write: func(w io.Writer) error { _, err := io.WriteString(w, text); return err }}
}

func TestSetReplaceLockAndOwnership(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sub", "set")
	names := []string{"a", "b"}
	s, err := OpenSet(dir, names)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSet(dir, names); !errors.Is(err, ErrLocked) {
		t.Errorf("second writer: %v, want ErrLocked", err)
	}
	if err := s.Replace(context.Background(), []SetFile{file("a", "1"), file("b", "1")}); err != nil {
		t.Fatal(err)
	}
	failing := SetFile{Name: "b", Write: func(io.Writer) error { return errors.New("disk full") }}
	if err := s.Replace(context.Background(), []SetFile{file("a", "2"), failing}); err == nil {
		t.Error("a failing write must fail Replace")
	}
	for _, n := range names {
		if data, _ := os.ReadFile(filepath.Join(dir, n)); string(data) != "1" {
			t.Errorf("%s = %q after a failed replace, want the previous set's 1", n, data)
		}
	}
	if err := s.Replace(context.Background(), []SetFile{file("a", "3")}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); err == nil {
		t.Error("the new set is the whole folder: b should be gone")
	}
	s.Close()
	os.WriteFile(filepath.Join(dir, "c"), nil, 0o644)
	if _, err := OpenSet(dir, names); !errors.Is(err, ErrNotOwned) {
		t.Errorf("a folder with another file: %v, want ErrNotOwned", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 2 { // set and .set.lock
		for _, e := range entries {
			t.Log(e.Name())
		}
		t.Errorf("%d entries beside the set, want the lock only", len(entries)-1)
	}
}

// fullDisk is a writer that fails as a full disk does.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func fillDisk(string, io.Writer) io.Writer { return fullDisk{} }

// Issue 23, defect 8: a folder OpenSet refuses gets no lock file beside it —
// one holding other files, the working folder (--out .), the root (--out /).
func TestOpenSetRefusedLeavesNoLock(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "notes")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("x"), 0o644)
	if _, err := OpenSet(dir, []string{"a"}); !errors.Is(err, ErrNotOwned) {
		t.Errorf("a folder of someone else's: %v, want ErrNotOwned", err)
	}
	t.Chdir(dir)
	if _, err := OpenSet(".", []string{"a"}); !errors.Is(err, ErrNotOwned) {
		t.Errorf("the working folder: %v, want ErrNotOwned", err)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("%d entries beside the refused folder, want none but it", len(entries)-1)
	}
	_, statErr := os.Lstat("/.lock")
	if _, err := OpenSet("/", []string{"a"}); !errors.Is(err, ErrNotOwned) || !strings.Contains(err.Error(), "root") {
		t.Errorf("the root: %v, want ErrNotOwned naming the root", err)
	}
	if _, err := os.Lstat("/.lock"); errors.Is(statErr, os.ErrNotExist) && err == nil {
		os.Remove("/.lock")
		t.Error("refusing the root created /.lock")
	}
}

// Issue 23, defect 6: a writer killed between Replace's two renames leaves
// no folder and the previous set in .BASE.old-*/set; the next OpenSet puts
// it back before it removes what a killed writer left.
func TestOpenSetRecoversASetLeftAside(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	aside := filepath.Join(parent, ".out.old-4711", "set")
	os.MkdirAll(aside, 0o755)
	os.WriteFile(filepath.Join(aside, "a"), []byte("previous"), 0o644)
	os.MkdirAll(filepath.Join(parent, ".out.tmp-4712"), 0o755) // the new set, half written
	s, err := OpenSet(dir, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if data, err := os.ReadFile(filepath.Join(dir, "a")); err != nil || string(data) != "previous" {
		t.Errorf("a = %q, %v; want the previous set put back", data, err)
	}
	entries, _ := os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{".out.lock", "out"}) {
		t.Errorf("beside the set: %q, want the lock only", names)
	}
}

// Issue 23, defect 7: on a full disk a marker's bytes cannot be written; Mark
// says so, and the marker is there all the same — created empty, or the one
// already there left as it was.
func TestMarkOnAFullDisk(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "set")
	s, err := OpenSet(dir, []string{"a", "mark"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Replace(context.Background(), []SetFile{file("a", "1")}); err != nil {
		t.Fatal(err)
	}
	s.Wrap = fillDisk
	err = s.Mark("mark", func(w io.Writer) error { _, err := io.WriteString(w, "failed"); return err })
	if !errors.Is(err, syscall.ENOSPC) || errors.Is(err, ErrUnmarked) {
		t.Errorf("Mark on a full disk: %v, want ENOSPC, the marker created empty", err)
	}
	if data, err := os.ReadFile(filepath.Join(dir, "mark")); err != nil || len(data) != 0 {
		t.Errorf("marker %q, %v; want it there, empty", data, err)
	}
	s.Wrap = nil
	s.Mark("mark", func(w io.Writer) error { _, err := io.WriteString(w, "started"); return err })
	s.Wrap = fillDisk
	if err := s.Mark("mark", func(w io.Writer) error { _, err := io.WriteString(w, "failed"); return err }); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("second Mark: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "mark")); string(data) != "started" {
		t.Errorf("marker %q; a failed Mark must leave the marker there as it was", data)
	}
	if err := s.Replace(context.Background(), []SetFile{file("a", "2")}); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Replace on a full disk: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a")); string(data) != "1" {
		t.Errorf("a = %q after a failed Replace, want the previous 1", data)
	}
}
