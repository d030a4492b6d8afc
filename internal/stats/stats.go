// Package stats holds the sample moments and the selection of order
// statistics that packages risk, bayes and gate all use, so that a mean or a
// variance is computed (and rounded) the same way everywhere: the same data
// give the same bits in every report.
package stats

import "math"

// Mean is the arithmetic mean Σx_i/n, summed left to right.
func Mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// MeanDefined is the mean of the values that are not NaN (missing), summed
// left to right as Mean; NaN if every value is.
func MeanDefined(x []float64) float64 {
	s, n := 0.0, 0
	for _, v := range x {
		if !math.IsNaN(v) {
			s += v
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return s / float64(n)
}

// Variance is the sample variance Σ(x_i − x̄)²/(n − 1), R's var, in two
// passes (the mean first).
func Variance(x []float64) float64 {
	m := Mean(x)
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return ss / float64(len(x)-1)
}
