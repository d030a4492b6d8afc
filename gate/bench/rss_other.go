//go:build !unix

package bench

// peakRSS is 0 where the process's peak memory is not known.
func peakRSS() int64 { return 0 }
