// Package atomicfile writes a file so that no reader ever sees half of it.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write writes the file path through a temporary file in the same
// folder, synced and then renamed over path, so that no reader ever sees a
// half-written file and a failure leaves nothing behind. The file gets mode
// 0644, as a shell redirection under the usual umask.
func Write(path string, write func(io.Writer) error) error {
	return atomicWrite(path, write, true)
}

// Create is Write for a file that must not exist yet: it
// refuses to replace one, atomically (a hard link fails if the name exists),
// with an error that wraps fs.ErrExist.
func Create(path string, write func(io.Writer) error) error {
	return atomicWrite(path, write, false)
}

func atomicWrite(path string, write func(io.Writer) error, replace bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		tmp.Close()           // a second close after success is harmless
		os.Remove(tmp.Name()) // gone after a rename or link+remove; cleaned up after a failure
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if replace {
		return os.Rename(tmp.Name(), path)
	}
	switch err := os.Link(tmp.Name(), path); {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrExist):
		return fmt.Errorf("%s: %w", path, fs.ErrExist)
	default:
		// No hard links on this file system: check, then rename.
		if _, statErr := os.Lstat(path); statErr == nil {
			return fmt.Errorf("%s: %w", path, fs.ErrExist)
		}
		return os.Rename(tmp.Name(), path)
	}
}
