package posterior

import (
	"math"
)

// Marginal is what a report shows of one scalar's posterior beside its
// Convergence: the mean and standard deviation of the pooled draws (chains
// one after the other), their type-7 quantiles at 2.5, 25, 50, 75 and
// 97.5% and the 95% HDI. Each is Summarize's field of the same name bit for
// bit (Q25 and Q75 are Quantile's), NaN in every field unless the draws
// are all finite; it sorts the draws once and computes none of the
// diagnostics, which are most of a summary's cost (BenchmarkMarginals).
type Marginal struct {
	Mean, SD                   float64
	Q2_5, Q25, Q50, Q75, Q97_5 float64
	HDILo, HDIHi               float64
}

// MarginalOf returns the Marginal of one scalar's draws, chains[m][i].
func MarginalOf(chains [][]float64) Marginal {
	m, n := shape(chains)
	return newWorkspace().marginal(chains, m, n)
}

// Marginals returns the Marginals of many variables, vars[v][m][i], using
// up to workers goroutines (GOMAXPROCS when workers ≤ 0); the result does
// not depend on workers.
func Marginals(vars [][][]float64, workers int) []Marginal {
	return eachVariable(vars, workers, func(w *workspace, _ int, chains [][]float64, m, n int) Marginal {
		return w.marginal(chains, m, n)
	})
}

// marginal is the Marginal of the draws, computed as summarize computes
// the same fields.
func (w *workspace) marginal(chains [][]float64, m, n int) Marginal {
	if !w.load(chains, m, n) {
		nan := math.NaN()
		return Marginal{nan, nan, nan, nan, nan, nan, nan, nan, nan}
	}
	w.sortPooled()
	y := w.sortedX
	mean := accurateMean(w.flat)
	lo, hi := HDISorted(y, 0.95)
	return Marginal{
		Mean: mean, SD: sampleSD(w.flat, mean),
		Q2_5: QuantileSorted(y, 0.025), Q25: QuantileSorted(y, 0.25), Q50: QuantileSorted(y, 0.5),
		Q75: QuantileSorted(y, 0.75), Q97_5: QuantileSorted(y, 0.975),
		HDILo: lo, HDIHi: hi,
	}
}
