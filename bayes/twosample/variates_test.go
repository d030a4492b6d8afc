package twosample

import (
	"math"
	"slices"
	"testing"

	"github.com/riskgate/riskgate/bayes/posterior"
	"gonum.org/v1/gonum/stat/distuv"
)

// The variates behind every exact sampler: moments and quantiles of gamma
// variates (both branches of Marsaglia–Tsang) against gonum's distributions.
func TestGammaVariate(t *testing.T) {
	t.Parallel()
	r := NewStream(9, 0)
	const n = 200000
	for _, shape := range []float64{0.3, 1, 2.5, 40, 5000} {
		x := make([]float64, n)
		for i := range x {
			x[i] = gammaVariate(r, shape)
		}
		g := distuv.Gamma{Alpha: shape, Beta: 1}
		if got, tol := posterior.Mean(x), 4*math.Sqrt(shape/n); math.Abs(got-shape) > tol {
			t.Errorf("Gamma(%v): mean %v, want %v ± %v", shape, got, shape, tol)
		}
		y := slices.Clone(x)
		slices.Sort(y)
		for _, p := range []float64{0.05, 0.5, 0.95} {
			if got, want := posterior.QuantileSorted(y, p), g.Quantile(p); math.Abs(got-want) > 4*quantileMCSE(y, p, n) {
				t.Errorf("Gamma(%v): quantile %v = %v, want %v", shape, p, got, want)
			}
		}
	}
}

// Streams of one seed differ from each other and repeat exactly.
func TestNewStream(t *testing.T) {
	t.Parallel()
	a, b, a2 := NewStream(1, 0), NewStream(1, 1), NewStream(1, 0)
	x, y, z := a.Uint64(), b.Uint64(), a2.Uint64()
	if x == y || x != z {
		t.Errorf("streams: %x %x %x", x, y, z)
	}
}
