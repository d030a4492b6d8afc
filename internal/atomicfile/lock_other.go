//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package atomicfile

import "os"

// lockFile does nothing where the standard library offers no advisory lock
// (Windows, Plan 9, …): there a second concurrent writer is not refused, and
// each still swaps in a complete set.
func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) {}
