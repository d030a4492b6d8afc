package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A Set is a folder whose files are replaced as a whole: a new set is
// written into a fresh temporary folder beside it and swapped in by renames,
// so that a reader sees the previous complete set or the new complete set,
// never a mix. The folder belongs to the writer: OpenSet refuses a folder
// holding any file other than the set's names.
//
// The swap is two renames — the old folder aside, the new one in — then the
// old one removed. Linux's renameat2(RENAME_EXCHANGE) would swap in one step,
// but only through golang.org/x/sys, which riskgate does not otherwise need;
// between the two renames the folder is absent for a moment, which a reader
// sees as no set (never a mixed one), and a crash there leaves the previous
// set in a hidden folder beside it (.BASE.old-*/set), which the next OpenSet
// puts back in place.
//
// A Set holds an advisory lock (flock on a hidden file beside the folder,
// where the operating system has one) from OpenSet to Close: a second writer
// gets an error wrapping ErrLocked at once.
type Set struct {
	dir    string // the folder, symbolic links resolved
	parent string
	base   string
	names  []string
	lock   *os.File

	// Wrap, when set, stands between each file the set writes (Replace,
	// Mark) and the file: what the writer writes goes through Wrap(name, f).
	// It is how a caller's tests make a write fail as a full disk does.
	Wrap func(name string, w io.Writer) io.Writer
}

// SetFile is one file of a set: its name and what writes it.
type SetFile struct {
	Name  string
	Write func(io.Writer) error
}

// ErrLocked is the error OpenSet wraps when another writer holds the folder.
var ErrLocked = errors.New("another riskgate is writing it")

// ErrNotOwned is the error OpenSet wraps when the folder holds files that
// are not the set's.
var ErrNotOwned = errors.New("not a report folder")

// ErrUnmarked is the error Mark wraps when the marker is not in the set at
// all: neither written nor, failing that, created empty.
var ErrUnmarked = errors.New("the marker is not in the folder")

// OpenSet locks the folder dir for writing a set of files named among names
// (it need not exist yet; its parent folders are created), checks that it
// holds no other file, puts back a previous set a killed writer left aside,
// and removes the temporary folders such a writer left beside it. A folder
// it refuses (not the set's, the file system's root) gets no lock file: the
// ownership is checked before the lock is created, and again under it.
func OpenSet(dir string, names []string) (*Set, error) {
	dir = filepath.Clean(dir)
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if dir, err = filepath.EvalSymlinks(dir); err != nil {
			return nil, err
		}
	}
	s := &Set{dir: dir, parent: filepath.Dir(dir), base: filepath.Base(dir), names: names}
	if s.base == "." || s.base == ".." || s.base == string(filepath.Separator) {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		s.dir, s.parent, s.base = abs, filepath.Dir(abs), filepath.Base(abs)
	}
	if s.parent == s.dir {
		return nil, fmt.Errorf("%s: %w: the root of the file system has no folder beside it to hold the lock and the next set", s.dir, ErrNotOwned)
	}
	if err := s.checkOwned(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(s.parent, 0o755); err != nil {
		return nil, err
	}
	lock, created, err := openLock(s.hidden("lock"))
	if err != nil {
		return nil, err
	}
	if err := lockFile(lock); err != nil {
		lock.Close()
		return nil, fmt.Errorf("%s: %w", s.dir, err)
	}
	s.lock = lock
	if err := s.recover(); err != nil {
		s.Close()
		if created {
			os.Remove(lock.Name())
		}
		return nil, err
	}
	s.removeStale()
	return s, nil
}

// openLock opens the lock file at path, creating it if need be; created
// says whether this call created it (and may therefore remove it).
func openLock(path string) (f *os.File, created bool, err error) {
	if f, err = os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644); err == nil {
		return f, true, nil
	}
	f, err = os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	return f, false, err
}

// recover checks, under the lock, that the folder is still the set's, and
// when it is missing puts back the previous set that a writer killed between
// Replace's two renames left in .BASE.old-*/set (the newest, should there be
// several), so that removeStale does not delete the only copy of it.
func (s *Set) recover() error {
	if _, err := os.Lstat(s.dir); errors.Is(err, os.ErrNotExist) {
		aside, _ := filepath.Glob(filepath.Join(s.parent, "."+escapeGlob(s.base)+".old-*", "set"))
		newest, newestTime := "", time.Time{}
		for _, a := range aside {
			if fi, err := os.Lstat(a); err == nil && fi.IsDir() && (newest == "" || fi.ModTime().After(newestTime)) {
				newest, newestTime = a, fi.ModTime()
			}
		}
		if newest != "" && os.Rename(newest, s.dir) == nil {
			syncDir(s.parent)
		}
	}
	return s.checkOwned()
}

// Dir is the folder (symbolic links resolved).
func (s *Set) Dir() string { return s.dir }

// hidden is the path of a hidden file beside the folder: .BASE.kind.
func (s *Set) hidden(kind string) string {
	return filepath.Join(s.parent, "."+s.base+"."+kind)
}

func (s *Set) checkOwned() error {
	fi, err := os.Stat(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: %w: it is a file, not a folder", s.dir, ErrNotOwned)
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !slices.Contains(s.names, e.Name()) || !e.Type().IsRegular() {
			return fmt.Errorf("%s: %w: it holds %q, which riskgate did not write", s.dir, ErrNotOwned, e.Name())
		}
	}
	return nil
}

// removeStale removes the temporary and set-aside folders of a writer that
// was killed; only the lock holder makes them, so any found now are stale.
func (s *Set) removeStale() {
	for _, kind := range []string{"tmp-", "old-"} {
		matches, _ := filepath.Glob(filepath.Join(s.parent, "."+escapeGlob(s.base)+"."+kind+"*"))
		for _, m := range matches {
			os.RemoveAll(m)
		}
	}
}

func escapeGlob(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}

// Replace writes files into a fresh temporary folder beside the set's and
// swaps it in. On any failure, or when ctx is done between files, the
// temporary folder is removed and the previous set is left as it was.
func (s *Set) Replace(ctx context.Context, files []SetFile) (err error) {
	tmp, err := os.MkdirTemp(s.parent, "."+s.base+".tmp-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !slices.Contains(s.names, f.Name) {
			return fmt.Errorf("%s is not a file of this set", f.Name)
		}
		if err := writeSynced(filepath.Join(tmp, f.Name), s.through(f.Name, f.Write)); err != nil {
			return err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := syncDir(tmp); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	// The previous set goes into a fresh hidden folder (a unique name on
	// every system), then the new set takes its place.
	aside, prev := "", ""
	if _, err := os.Lstat(s.dir); err == nil {
		if aside, err = os.MkdirTemp(s.parent, "."+s.base+".old-"); err != nil {
			return err
		}
		prev = filepath.Join(aside, "set")
		if err := os.Rename(s.dir, prev); err != nil {
			os.Remove(aside)
			return err
		}
	}
	if err := os.Rename(tmp, s.dir); err != nil {
		if aside != "" {
			os.Rename(prev, s.dir) // put the previous set back
			os.Remove(aside)
		}
		return err
	}
	syncDir(s.parent)
	if aside != "" {
		os.RemoveAll(aside)
	}
	return nil
}

// Mark writes one file into the current set (creating the folder if need
// be), atomically, leaving the set's other files as they are: an error
// marker beside the previous run's reports. A marker matters by being there:
// when its bytes cannot be written (a full disk), Mark leaves the file that
// was there as it was, or creates it empty — which needs no data block — and
// returns the error, wrapping ErrUnmarked only if the file is not there at all.
func (s *Set) Mark(name string, write func(io.Writer) error) error {
	if !slices.Contains(s.names, name) {
		return fmt.Errorf("%s is not a file of this set", name)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("%w: %v", ErrUnmarked, err)
	}
	path := filepath.Join(s.dir, name)
	err := Write(path, s.through(name, write))
	if err == nil {
		return nil
	}
	f, cerr := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644) // never truncates a marker already there
	if cerr != nil {
		return fmt.Errorf("%w: %v; creating it empty: %v", ErrUnmarked, err, cerr)
	}
	f.Close()
	return err
}

// through is write with its writer passed through Wrap, when set.
func (s *Set) through(name string, write func(io.Writer) error) func(io.Writer) error {
	if s.Wrap == nil {
		return write
	}
	return func(w io.Writer) error { return write(s.Wrap(name, w)) }
}

// Close releases the lock.
func (s *Set) Close() {
	if s.lock != nil {
		unlockFile(s.lock)
		s.lock.Close()
		s.lock = nil
	}
}

func writeSynced(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir makes a folder's entries durable; file systems that cannot sync a
// folder (some network ones) are not an error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	d.Sync()
	return nil
}
