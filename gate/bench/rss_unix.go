//go:build unix

package bench

import (
	"runtime"
	"syscall"
)

// peakRSS is the process's peak resident set size in bytes so far (the
// figure /usr/bin/time -v prints), or 0 where the kernel does not say.
func peakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) // bytes there, KiB on Linux and the BSDs
	}
	return int64(ru.Maxrss) << 10
}
