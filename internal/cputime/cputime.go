// Package cputime reads the process's CPU time for benchmarks, which report
// it per operation ("cpu-ms/op") beside the wall time: on a shared, loaded
// machine the wall time grows with the load, the CPU time much less.
package cputime

import "time"

// Process returns the CPU time (user + system) this process has used so far,
// or 0 where the platform does not say.
func Process() time.Duration { return process() }
