package policies

import (
	"math"
	"slices"
)

// AdjustPValues corrects p-values for multiple comparisons exactly as R's
// p.adjust(p, method, n) does (stats/R/p.adjust.R, R 4.x), with NaN for NA:
//
//	bonferroni: min(1, n·p_i)
//	holm:       with p ascending, p_(i) ↦ min(1, max_{j ≤ i} (n − j + 1)·p_(j))      (Holm 1979)
//	bh:         with p ascending, p_(i) ↦ min(1, min_{j ≥ i} n/j·p_(j))              (Benjamini & Hochberg 1995)
//
// where i, j run over the lp non-NaN p-values and n ≥ lp is the number of
// comparisons. Evaluate passes n = the number of challengers, so a challenger
// whose p-value is unavailable still counts as a comparison (R's default
// would drop it, which is less conservative). NaN entries stay NaN.
func AdjustPValues(p []float64, method Correction, n int) []float64 {
	out := slices.Clone(p)
	var idx []int // indices of the non-NaN p-values
	for i, v := range p {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	lp := len(idx)
	n = max(n, lp)
	if n <= 1 || lp == 0 {
		return out
	}
	nf := float64(n)
	// Ascending by p; ties keep input order (R's order() is stable). Ties get
	// equal adjusted values either way.
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	switch method {
	case CorrectBonferroni:
		for _, i := range idx {
			out[i] = math.Min(1, nf*p[i])
		}
	case CorrectHolm:
		run := 0.0
		for k, i := range idx { // k = j − 1
			run = math.Max(run, (nf-float64(k))*p[i])
			out[i] = math.Min(1, run)
		}
	case CorrectBH:
		run := math.Inf(1)
		for k := lp - 1; k >= 0; k-- {
			i := idx[k]
			run = math.Min(run, nf/float64(k+1)*p[i])
			out[i] = math.Min(1, run)
		}
	}
	return out
}

// correctionWords names a correction in reports.
func correctionWords(c Correction) string {
	switch c {
	case CorrectBonferroni:
		return "Bonferroni"
	case CorrectHolm:
		return "Holm"
	case CorrectBH:
		return "Benjamini–Hochberg"
	}
	return string(c)
}
