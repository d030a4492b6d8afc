// Package pool is riskgate's run history: a folder of small text files that
// keeps every evaluated system's per-topic scores on every measure, with
// when and how it was stored, the fingerprints of the qrels and topic set it
// was scored on, its history, and the lineage of champions. It lives in a
// repository or a CI cache; there is no server. docs/pool.md documents the
// format (version FormatVersion):
//
//	DIR/format           "riskgate-pool 1"
//	DIR/lineage          the champions in order (absent: none yet)
//	DIR/systems/*.entry  one file per system (FileName)
//	DIR/runs/*.run       copies of runs, when asked to keep them
//	DIR/.lock            the writers' lock; DIR/.gitignore, DIR/.gitattributes
//
// Every file ends with the SHA-256 of the bytes before it, so a damaged,
// truncated or hand-edited file is refused (or skipped, when the caller
// says so), never read. Writes replace whole files (a temporary file
// renamed over the old one), so a reader sees the old file or the new one;
// writers take the pool's lock for every read-modify-write, so concurrent
// writers lose nothing.
package pool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/riskgate/riskgate/internal/atomicfile"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/suggest"
)

// The pool's files and folders.
const (
	formatFile  = "format"
	lineageFile = "lineage"
	systemsDir  = "systems"
	runsDir     = "runs"
	lockName    = ".lock"
)

// lockWait is how long a writer waits for another to finish before it gives
// up: far longer than any write takes, short enough to end a CI job whose
// other writer hangs.
const lockWait = 2 * time.Minute

// ErrNotStored is wrapped by the errors for a system the pool does not hold.
var ErrNotStored = errors.New("not stored")

// Store is an open pool.
type Store struct {
	dir string
}

// Open opens the pool in dir, which must exist and hold a pool of this
// format version.
func Open(dir string) (*Store, error) {
	s := &Store{dir: dir}
	data, err := readLimited(filepath.Join(dir, formatFile), 256)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, serr := os.Stat(dir); serr != nil {
			return nil, fmt.Errorf("no pool at %s (%v); riskgate pool add --pool %s … creates one", dir, unwrapPath(serr), dir)
		}
		return nil, fmt.Errorf("%s is not a riskgate pool: it has no %s file", dir, formatFile)
	case err != nil:
		return nil, inputerr.At(s.path(formatFile), 0, "%v", unwrapPath(err))
	}
	want := fmt.Sprintf("%s %d\n", poolMagic, FormatVersion)
	if string(data) != want {
		line := strings.TrimSpace(strings.SplitN(string(data), "\n", 2)[0])
		var n int
		if _, err := fmt.Sscanf(line, poolMagic+" %d", &n); err == nil && n != FormatVersion {
			return nil, inputerr.At(s.path(formatFile), 1, "pool format version %d; this riskgate reads version %d (a newer riskgate wrote it?)", n, FormatVersion)
		}
		return nil, inputerr.At(s.path(formatFile), 1, "%s; expected %q", excerpt(line), strings.TrimSpace(want))
	}
	return s, nil
}

// Create opens the pool in dir, first making an empty one when dir does not
// exist or is an empty folder. A folder holding other files is refused:
// the pool does not write among someone else's files.
func Create(ctx context.Context, dir string) (*Store, error) {
	if _, err := os.Stat(filepath.Join(dir, formatFile)); err == nil {
		return Open(dir)
	}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if !isPoolFile(e.Name()) {
				return nil, fmt.Errorf("%s holds files and is not a riskgate pool (%s); name a new or empty folder", dir, e.Name())
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &Store{dir: dir}
	err := s.locked(ctx, func() error {
		if _, err := os.Stat(s.path(formatFile)); err == nil {
			return nil // another writer made it meanwhile
		}
		if err := os.MkdirAll(s.path(systemsDir), 0o755); err != nil {
			return err
		}
		files := []struct{ name, text string }{
			// The lock and a killed writer's temporary files are not history.
			{".gitignore", "# riskgate pool: the writers' lock and temporary files\n.lock\n.*.tmp\n"},
			// Every byte counts (each file ends with its SHA-256): no line-ending conversion.
			{".gitattributes", "# riskgate pool: files are checksummed; keep their bytes\n* -text\n"},
			{formatFile, fmt.Sprintf("%s %d\n", poolMagic, FormatVersion)}, // last: it makes the folder a pool
		}
		for _, f := range files {
			if err := atomicfile.Write(s.path(f.name), func(w io.Writer) error { _, err := io.WriteString(w, f.text); return err }); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return Open(dir)
}

// isPoolFile reports a name a pool's folder holds, or another writer
// creating it at the same time does.
func isPoolFile(name string) bool {
	switch name {
	case formatFile, lineageFile, systemsDir, runsDir, lockName, ".gitignore", ".gitattributes":
		return true
	}
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp")
}

// Dir is the pool's folder.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(rel ...string) string {
	return filepath.Join(append([]string{s.dir}, rel...)...)
}

// EntryPath is the file that holds (or would hold) system's entry.
func (s *Store) EntryPath(system string) string { return s.path(systemsDir, FileName(system)) }

// locked runs f holding the pool's lock.
func (s *Store) locked(ctx context.Context, f func() error) error {
	l, err := atomicfile.LockWait(ctx, s.path(lockName), lockWait)
	if err != nil {
		return fmt.Errorf("pool %s: %w", s.dir, err)
	}
	defer l.Unlock()
	return f()
}

// ReadOptions say what to do with a damaged entry.
type ReadOptions struct {
	// Skip, when not nil, is given each damaged entry's error (an
	// *inputerr.Error naming the file, and the line where one applies),
	// and the entry is left out. When nil, a damaged entry is an error.
	Skip func(error)
}

// Entries reads every entry, ordered by the time stored, then by name.
func (s *Store) Entries(opt ReadOptions) ([]*Entry, error) {
	files, err := os.ReadDir(s.path(systemsDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var out []*Entry
	for _, f := range files {
		name := f.Name()
		if !strings.HasSuffix(name, entryExt) || strings.HasPrefix(name, ".") {
			continue // a writer's temporary file, or not the pool's
		}
		e, err := s.readEntry(s.path(systemsDir, name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // removed since the listing
		case err != nil && opt.Skip != nil:
			opt.Skip(err)
			continue
		case err != nil:
			return nil, err
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b *Entry) int {
		if c := a.Stored.Compare(b.Stored); c != 0 {
			return c
		}
		return strings.Compare(a.System, b.System)
	})
	return out, nil
}

// Entry reads one system's entry; a system not stored gives an error
// wrapping ErrNotStored (with the closest stored name, when one is close).
func (s *Store) Entry(system string) (*Entry, error) {
	e, err := s.readEntry(s.EntryPath(system))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, s.notStored(system)
	}
	return e, err
}

func (s *Store) notStored(system string) error {
	var names []string
	if all, err := s.Entries(ReadOptions{Skip: func(error) {}}); err == nil {
		for _, e := range all {
			names = append(names, e.System)
		}
	}
	return fmt.Errorf("system %q is %w in the pool %s%s", system, ErrNotStored, s.dir, suggest.DidYouMean(system, names))
}

// readEntry reads and checks one entry file: its content, and that its file
// name is its system's (a file copied or renamed by hand is refused).
func (s *Store) readEntry(path string) (*Entry, error) {
	data, err := readLimited(path, MaxFileBytes)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, inputerr.At(path, 0, "%v", unwrapPath(err))
	}
	e, err := decodeEntry(path, data)
	if err != nil {
		return nil, err
	}
	if want := FileName(e.System); filepath.Base(path) != want {
		return nil, inputerr.At(path, 2, "holds system %q, whose file is %s (copied or renamed by hand?)", e.System, want)
	}
	return e, nil
}

// Lineage reads the champions in the order they were promoted; an empty
// pool has none.
func (s *Store) Lineage() ([]Reign, error) {
	path := s.path(lineageFile)
	data, err := readLimited(path, MaxFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, inputerr.At(path, 0, "%v", unwrapPath(err))
	}
	return decodeLineage(path, data)
}

// Champion returns the current champion, or "" when none was promoted.
func (s *Store) Champion() (string, error) {
	reigns, err := s.Lineage()
	if err != nil || len(reigns) == 0 {
		return "", err
	}
	return reigns[len(reigns)-1].System, nil
}

var errNotRegular = errors.New("not a regular file")

// readLimited reads a regular file of at most limit bytes. Anything else at
// path (a folder, a link, a named pipe, which would block an open) is
// refused before it is opened.
func readLimited(path string, limit int64) ([]byte, error) {
	if fi, err := os.Lstat(path); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// writeEntry writes an entry's file whole (temporary file, then rename).
func (s *Store) writeEntry(e *Entry) error {
	data, err := e.encode()
	if err != nil {
		return err
	}
	if len(data) > MaxFileBytes {
		return fmt.Errorf("system %q: the entry would be %d bytes; at most %d MiB can be read back", e.System, len(data), MaxFileBytes>>20)
	}
	if err := os.MkdirAll(s.path(systemsDir), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(s.EntryPath(e.System), func(w io.Writer) error { _, err := w.Write(data); return err })
}

func (s *Store) writeLineage(reigns []Reign) error {
	data, err := encodeLineage(reigns)
	if err != nil {
		return err
	}
	return atomicfile.Write(s.path(lineageFile), func(w io.Writer) error { _, err := w.Write(data); return err })
}
