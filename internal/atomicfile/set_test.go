package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
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
