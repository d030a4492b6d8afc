package bayes

import "math"

// generalAdaptDelta is the target acceptance statistic of the general path
// for families other than the Gaussian (whose fits keep the reference
// rstanarm runs' 0.99).
const generalAdaptDelta = 0.9

// ChooseMixedParam picks the general path's coordinates for a table: the
// intercept sampled at the mean (MixedParam.InterceptAtMean), and each factor
// centred (CentredContrasts) when the data inform its levels more than its
// prior does, else non-centred.
//
// The rule is the shrinkage factor of the Gaussian model, κ = SD²/(SD² + σ²/n)
// with n the observations per level: centred coordinates mix well when κ is
// near 1 and non-centred ones when it is near 0 (Papaspiliopoulos, Roberts and
// Sköld 2007, "A general framework for the parametrization of hierarchical
// models"); the factor is centred when κ > ½. SD² and σ² are moment estimates
// from an additive least-squares fit of the observed cells (three
// backfitting sweeps): the variance of a factor's estimated level effects is
// about SD² + σ²/n, so κ > ½ ⇔ Var(b̂) > 2σ²/n. On IR tables topics are
// centred (their SD is large and every topic has a score per system) and
// systems usually not.
func ChooseMixedParam(t *Table) MixedParam {
	sys, top, y := t.observed()
	idx := [2][]int32{top, sys}
	levels := [2]int{len(t.Topics), len(t.Systems)}
	mean := Mean(y)
	eff := [2][]float64{make([]float64, levels[0]), make([]float64, levels[1])}
	cnt := [2][]float64{make([]float64, levels[0]), make([]float64, levels[1])}
	for k := range 2 {
		for _, j := range idx[k] {
			cnt[k][j]++
		}
	}
	for range 3 {
		for k := range 2 {
			o := 1 - k
			sum := make([]float64, levels[k])
			for n, v := range y {
				sum[idx[k][n]] += v - mean - eff[o][idx[o][n]]
			}
			for j := range sum {
				eff[k][j] = sum[j] / cnt[k][j]
			}
		}
	}
	ss := 0.0
	for n, v := range y {
		r := v - mean - eff[0][top[n]] - eff[1][sys[n]]
		ss += r * r
	}
	df := float64(len(y) - levels[0] - levels[1] + 1)
	sigma2 := ss / math.Max(df, 1)
	p := MixedParam{InterceptAtMean: true, Factors: make([]FactorParam, 2)}
	for k := range 2 {
		if levels[k] < 2 {
			continue
		}
		perLevel := float64(len(y)) / float64(levels[k])
		if sampleVariance(eff[k]) > 2*sigma2/perLevel {
			p.Factors[k] = CentredContrasts
		}
	}
	return p
}

// sampleVariance returns the sample variance of x (denominator n − 1, as R's var).
func sampleVariance(x []float64) float64 {
	s := SD(x)
	return s * s
}
