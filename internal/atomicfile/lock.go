package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// A Lock is an exclusive advisory lock on a file (flock, where the operating
// system has one), held from Lock to Unlock, for a read-modify-write of files
// that several processes share. The kernel releases it when the process
// ends, however it ends, so a killed writer never leaves it held.
type Lock struct{ f *os.File }

// lockPoll is how often Lock tries again while another writer holds the
// lock: the non-blocking attempt, repeated, can be given up when ctx ends,
// which a blocking flock cannot.
const lockPoll = 5 * time.Millisecond

// LockWait takes the lock on path (creating the file if need be), waiting
// while another writer holds it, until ctx is done or wait has passed; then
// it returns an error wrapping ErrLocked (or ctx's error).
func LockWait(ctx context.Context, path string, wait time.Duration) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	for {
		err := lockFile(f)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, ErrLocked) || !time.Now().Before(deadline) {
			f.Close()
			if errors.Is(err, ErrLocked) {
				return nil, fmt.Errorf("%s: %w (waited %v)", path, err, wait)
			}
			return nil, err
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}

// Unlock releases the lock; a second call does nothing.
func (l *Lock) Unlock() {
	if l.f != nil {
		unlockFile(l.f)
		l.f.Close()
		l.f = nil
	}
}
