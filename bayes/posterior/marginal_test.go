package posterior

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/riskgate/riskgate/internal/cputime"
)

// Marginal's fields are Summarize's of the same name bit for bit, and Q25
// and Q75 Quantile's, whatever the workers; NaN everywhere for draws with a
// NaN and for no draws, as Summarize.
func TestMarginals(t *testing.T) {
	t.Parallel()
	vars := benchDraws(26, 3, 301)
	vars = append(vars, [][]float64{{1, 2, 3}, {4, math.NaN(), 6}}, [][]float64{}, [][]float64{{2.5, 2.5}, {2.5, 2.5}})
	for _, workers := range []int{1, 3} {
		got := Marginals(vars, workers)
		for v, chains := range vars {
			s := Summarize(chains)
			var q25, q75 float64
			if m, n := shape(chains); m*n > 0 {
				pooled := make([]float64, 0, m*n)
				for _, c := range chains {
					pooled = append(pooled, c...)
				}
				q25, q75 = Quantile(pooled, 0.25), Quantile(pooled, 0.75)
			}
			if slicesHasNaN(chains) || len(chains) == 0 {
				q25, q75 = math.NaN(), math.NaN()
			}
			want := Marginal{s.Mean, s.SD, s.Q2_5, q25, s.Q50, q75, s.Q97_5, s.HDILo, s.HDIHi}
			if !sameBits(got[v], want) {
				t.Errorf("%d workers, variable %d: %+v, want %+v", workers, v, got[v], want)
			}
			if one := MarginalOf(chains); !sameBits(one, want) {
				t.Errorf("MarginalOf, variable %d: %+v, want %+v", v, one, want)
			}
		}
	}
}

func slicesHasNaN(chains [][]float64) bool {
	for _, c := range chains {
		for _, x := range c {
			if math.IsNaN(x) {
				return true
			}
		}
	}
	return false
}

func sameBits(a, b Marginal) bool {
	x := []float64{a.Mean, a.SD, a.Q2_5, a.Q25, a.Q50, a.Q75, a.Q97_5, a.HDILo, a.HDIHi}
	y := []float64{b.Mean, b.SD, b.Q2_5, b.Q25, b.Q50, b.Q75, b.Q97_5, b.HDILo, b.HDIHi}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) && !(math.IsNaN(x[i]) && math.IsNaN(y[i])) {
			return false
		}
	}
	return true
}

// SummarizeAllChecked, given SummarizeConvergence's figures (some left NaN,
// as a sequential fit leaves the quantities it did not check, and some
// missing), gives SummarizeAll's summaries bit for bit.
func TestSummarizeAllChecked(t *testing.T) {
	t.Parallel()
	vars := benchDraws(26, 3, 301)
	vars = append(vars, [][]float64{{1, 2, 3}, {4, math.NaN(), 6}}, [][]float64{{1, 1, 1, 1}, {1, 1, 1, 1}})
	want := SummarizeAll(vars, 2)
	conv := SummarizeConvergence(vars, 2)
	nan := math.NaN()
	conv[3] = Convergence{nan, nan, nan} // unchecked: computed
	conv = conv[:len(conv)-2]            // the last two: not given
	got := SummarizeAllChecked(vars, conv, 3)
	for v := range vars {
		a, _ := json.Marshal(got[v])
		b, _ := json.Marshal(want[v])
		if string(a) != string(b) {
			t.Errorf("variable %d:\n%s\nwant\n%s", v, a, b)
		}
	}
}

// A fit's summaries: 100 variables × 4 chains × 1,400 draws (the gate
// example's BRisk fit), as Marginals, SummarizeAll and SummarizeAllChecked
// (the convergence known) compute them.
func BenchmarkMarginals(b *testing.B) {
	vars := benchDraws(100, 4, 1400)
	conv := SummarizeConvergence(vars, 0)
	for _, c := range []struct {
		name string
		run  func()
	}{
		{"marginals", func() { Marginals(vars, 0) }},
		{"summarize", func() { SummarizeAll(vars, 0) }},
		{"summarize-checked", func() { SummarizeAllChecked(vars, conv, 0) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			cpu := cputime.Process()
			for b.Loop() {
				c.run()
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/1e6/float64(b.N), "cpu-ms/op")
		})
	}
}
