//go:build !unix

package bench

import "os"

// peakRSS is 0 where the process's peak memory is not known.
func peakRSS() int64 { return 0 }

// processPeakRSS is 0 where a process's peak memory is not known.
func processPeakRSS(*os.ProcessState) int64 { return 0 }
