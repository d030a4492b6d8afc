package stats

import (
	"math"
	"slices"
)

// Median of xs (NaN if empty or any is NaN).
func Median(xs []float64) float64 {
	if len(xs) == 0 || slices.ContainsFunc(xs, math.IsNaN) {
		return math.NaN()
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
