package posterior

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Quantiles (by selection) gives Quantile's bits (by sort) at every p, ties included.
func TestQuantilesInPlace(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{1, 2, 3, 17, 100, 1001} {
		for trial := range 5 {
			x := make([]float64, n)
			for i := range x {
				x[i] = math.Round(r.NormFloat64() * float64(1+trial*3)) // ties when rounded coarsely
			}
			ps := []float64{0.975, 0, 0.025, 0.5, 1, 0.3333}
			got := Quantiles(x, ps...)
			for i, p := range ps {
				if want := Quantile(x, p); got[i] != want {
					t.Errorf("n %d trial %d: quantile %g = %v, sort-based %v", n, trial, p, got[i], want)
				}
			}
		}
	}
	if q := Quantiles([]float64{1, math.NaN(), 2}, 0.5); !math.IsNaN(q[0]) {
		t.Errorf("quantile of data with NaN: %v", q)
	}
}
