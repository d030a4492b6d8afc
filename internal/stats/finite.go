package stats

import "math"

// Finite reports whether x is a number other than ±Inf.
func Finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// AllFinite reports whether every element of x is Finite.
func AllFinite(x []float64) bool {
	for _, v := range x {
		if !Finite(v) {
			return false
		}
	}
	return true
}
