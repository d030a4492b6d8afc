package posterior

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/riskgate/riskgate/internal/cputime"
)

// QuantilesInPlace's tail path (tailQuantiles: the order statistics among
// the values beyond two sample thresholds) gives Quantile's bits (by sort)
// for draws in any order — random, sorted either way, periodic with the
// sample's stride, with ties, constant, with infinities — whether its
// thresholds suffice or it falls back to selection. Only the sign of a zero
// may differ: −0 and +0 are equal order statistics, and which of them a
// selection finds at a rank depends on its moves, as it did before the tail
// path.
func TestQuantilesInPlaceTails(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 3))
	orders := map[string]func(x []float64){
		"random":     func([]float64) {},
		"ascending":  func(x []float64) { slices.Sort(x) },
		"descending": func(x []float64) { slices.Sort(x); slices.Reverse(x) },
		"periodic": func(x []float64) { // the smallest values where the sample looks
			slices.Sort(x)
			y := slices.Clone(x)
			k := 0
			for off := tailSample / 2; off < tailSample+tailSample/2; off++ {
				for i := off % tailSample; i < len(x); i += tailSample {
					x[i] = y[k]
					k++
				}
			}
		},
	}
	probs := [][]float64{{0.025, 0.975}, {0.05, 0.95}, {0.975, 0.025, 0.1}, {0, 1}, {0.001}, {0.999, 0.9}, {0.05, 0.5}, {math.NaN(), 0.025}}
	for _, n := range []int{tailMinN - 1, tailMinN, 5600, 10007} {
		for _, spread := range []float64{1, 1e-3, 0} {
			x := make([]float64, n)
			for i := range x {
				x[i] = math.Round(r.NormFloat64()*1000) * spread // ties; all 0 when spread is 0
			}
			if spread == 1e-3 {
				x[0], x[1] = math.Inf(-1), math.Inf(1)
			}
			for name, order := range orders {
				order(x)
				for _, ps := range probs {
					y := slices.Clone(x)
					got := QuantilesInPlace(y, ps...)
					for i, p := range ps {
						want := Quantile(x, p)
						if math.Float64bits(got[i]) != math.Float64bits(want) && !(math.IsNaN(got[i]) && math.IsNaN(want)) && !(got[i] == 0 && want == 0) {
							t.Errorf("n %d, spread %g, %s order, quantile %g of %v: %v, sort-based %v", n, spread, name, p, ps, got[i], want)
						}
					}
				}
			}
		}
	}
}

// The tails of a posterior predictive interval: the 2.5% and 97.5%
// quantiles of 4 chains × 1,400 draws (the gate example's fits), by
// selection in place (a copy of the draws each time).
func BenchmarkQuantilesInPlaceTails(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 5600)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	y := make([]float64, len(x))
	cpu := cputime.Process()
	for b.Loop() {
		copy(y, x)
		QuantilesInPlace(y, 0.025, 0.975)
	}
	b.ReportMetric(float64(cputime.Process()-cpu)/1e3/float64(b.N), "cpu-µs/op")
}
