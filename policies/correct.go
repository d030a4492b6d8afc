package policies

import "github.com/riskgate/riskgate/risk"

// AdjustPValues corrects p-values for multiple comparisons exactly as R's
// p.adjust(p, method, n) does (risk.Correction.AdjustN), with NaN for NA:
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
	return risk.Correction(method).AdjustN(p, n)
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
