package gate

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/atomicfile"
)

// atomicfile.Write replaces a file whole with mode 0644; atomicfile.Create
// refuses an existing file; a failed write leaves the folder as it was.
func TestAtomicWriters(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "report.txt")
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := atomicfile.Create(path, text("first\n")); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Create(path, text("second\n")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("createFileAtomic over an existing file: %v, want fs.ErrExist", err)
	}
	if err := atomicfile.Write(path, text("third\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "third\n" {
		t.Errorf("file holds %q", b)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", fi.Mode().Perm(), err)
	}
	boom := errors.New("boom")
	if err := atomicfile.Write(path, func(w io.Writer) error { io.WriteString(w, "half"); return boom }); err != boom {
		t.Errorf("error %v, want the writer's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "third\n" {
		t.Errorf("a failed write changed the file to %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the file", len(entries))
	}
}

// writeOutput sends nothing to standard output when rendering fails.
func TestWriteOutputStdoutWhole(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	err := writeOutput(&out, "-", func(w io.Writer) error { io.WriteString(w, "half"); return errors.New("boom") })
	if err == nil || out.Len() != 0 {
		t.Errorf("error %v, stdout %q", err, out.String())
	}
}
