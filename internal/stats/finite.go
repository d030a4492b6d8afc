package stats

import "math"

// Finite reports whether x is a number other than ±Inf.
func Finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
