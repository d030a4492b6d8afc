package posterior

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/riskgate/riskgate/internal/cputime"
)

// sortWithIndex gives the one stable order — by value, −0 before +0, equal
// values in their original order — bit for bit, whether the top passes and
// the insertion sort finish it or it sorts again on every bit: draws spread
// over their range, bunched far below it (a cluster and an outlier), with
// a tiny spread (1 ± 1e-12), sorted either way, with ties.
func TestSortWithIndexStable(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	gens := map[string]func(i, n int) float64{
		"normal":     func(int, int) float64 { return r.NormFloat64() },
		"tiny":       func(int, int) float64 { return 1 + 1e-12*r.NormFloat64() },
		"ties":       func(int, int) float64 { return float64(r.IntN(7)-3) * 0.25 },
		"zeros":      func(int, int) float64 { return math.Copysign(0, r.NormFloat64()) },
		"ascending":  func(i, _ int) float64 { return float64(i) * 1e-3 },
		"descending": func(i, n int) float64 { return float64(n-i) * 1e-3 },
		"bunched": func(i, _ int) float64 { // a dense cluster far below the range: the fallback
			if i == 0 {
				return 1e6
			}
			return 1 + 1e-9*r.NormFloat64()
		},
	}
	var buf radixBuf
	for name, gen := range gens {
		for _, n := range []int{1, 2, 100, 5600} {
			x := make([]float64, n)
			for i := range x {
				x[i] = gen(i, n)
			}
			want := make([]int32, n)
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(radixKey(x[a]), radixKey(x[b])) })
			sorted := make([]float64, n)
			order := make([]int32, n)
			sortWithIndex(x, sorted, order, &buf)
			if !slices.Equal(order, want) {
				t.Fatalf("%s, n %d: order differs from the stable sort's", name, n)
			}
			for i, k := range order {
				if math.Float64bits(sorted[i]) != math.Float64bits(x[k]) {
					t.Fatalf("%s, n %d: sorted[%d] = %v, x[%d] = %v", name, n, i, sorted[i], k, x[k])
				}
			}
		}
	}
}

// One variable's draws (4 chains × 1,400, the gate example's fits) sorted
// with their indexes: normal, lognormal (a scale's right tail) and Cauchy
// (a ratio's both tails).
func BenchmarkSortWithIndex(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, draw := range []struct {
		name string
		f    func() float64
	}{
		{"normal", func() float64 { return 0.05 + 0.01*r.NormFloat64() }},
		{"lognormal", func() float64 { return math.Exp(r.NormFloat64()) }},
		{"cauchy", func() float64 { return r.NormFloat64() / r.NormFloat64() }},
	} {
		x := make([]float64, 5600)
		for i := range x {
			x[i] = draw.f()
		}
		b.Run(draw.name, func(b *testing.B) {
			sorted, order := make([]float64, len(x)), make([]int32, len(x))
			var buf radixBuf
			cpu := cputime.Process()
			for b.Loop() {
				sortWithIndex(x, sorted, order, &buf)
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/1e3/float64(b.N), "cpu-µs/op")
		})
	}
}
