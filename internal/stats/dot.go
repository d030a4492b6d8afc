package stats

// Dot4 is Σ a_i b_i over i < len(a) (len(b) ≥ len(a)) with four
// accumulators, element i going to accumulator i mod 4 (the tail to the
// first) and the result (s0 + s1) + (s2 + s3): four independent sums
// pipeline, and the fixed order makes the result the same bits on every
// platform. Its rounding differs from a single running sum's.
func Dot4(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
