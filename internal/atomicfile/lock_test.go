package atomicfile

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// LockWait waits for the holder, gives up after its wait or when the
// context ends, and excludes writers from each other.
func TestLockWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".lock")
	ctx := context.Background()
	l, err := LockWait(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockWait(ctx, path, 20*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Errorf("a held lock: %v, want ErrLocked after the wait", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := LockWait(cctx, path, time.Minute); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled wait: %v", err)
	}
	l.Unlock()
	l.Unlock() // a second call does nothing

	// 8 writers increment a counter only while holding the lock.
	var wg sync.WaitGroup
	var mu sync.Mutex
	inside, most := 0, 0
	for range 8 {
		wg.Go(func() {
			for range 10 {
				l, err := LockWait(ctx, path, time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				inside++
				most = max(most, inside)
				mu.Unlock()
				time.Sleep(100 * time.Microsecond)
				mu.Lock()
				inside--
				mu.Unlock()
				l.Unlock()
			}
		})
	}
	wg.Wait()
	if most != 1 {
		t.Errorf("%d writers held the lock at once", most)
	}
}
