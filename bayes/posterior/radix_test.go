package posterior

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortWithIndex must agree with slices.Sort on values (ties, negative numbers,
// ±0, subnormals, huge and tiny magnitudes) and its order must point back at them.
func TestSortWithIndex(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	var buf radixBuf
	for trial := range 200 {
		n := 1 + r.IntN(3000)
		x := make([]float64, n)
		for i := range x {
			switch r.IntN(6) {
			case 0:
				x[i] = float64(r.IntN(5) - 2) // ties
			case 1:
				x[i] = math.Copysign(0, float64(r.IntN(2)*2-1))
			case 2:
				x[i] = r.NormFloat64() * 1e300
			case 3:
				x[i] = r.NormFloat64() * 5e-324 * float64(r.IntN(1000))
			default:
				x[i] = r.NormFloat64()
			}
		}
		if trial%7 == 0 {
			for i := range x {
				x[i] = 1.5 // all one digit in every pass
			}
		}
		sorted := make([]float64, n)
		order := make([]int32, n)
		sortWithIndex(x, sorted, order, &buf)
		want := slices.Clone(x)
		slices.Sort(want)
		for i := range want {
			if sorted[i] != want[i] || x[order[i]] != sorted[i] {
				t.Fatalf("trial %d: position %d: got %v (from x[%d] = %v), want %v", trial, i, sorted[i], order[i], x[order[i]], want[i])
			}
		}
		seen := make([]bool, n)
		for _, k := range order {
			if seen[k] {
				t.Fatalf("trial %d: index %d twice", trial, k)
			}
			seen[k] = true
		}
	}
}
