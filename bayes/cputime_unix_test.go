//go:build unix

package bayes

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system) this process has used, to
// report benchmark costs that a loaded shared machine does not inflate as
// much as wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
