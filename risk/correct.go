package risk

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/internal/suggest"
)

// Correction is a multiple-comparison correction over the m challengers
// compared with one champion.
type Correction string

// The corrections; each adjusts p-values exactly as R's p.adjust.
const (
	NoCorrection Correction = "none"
	Bonferroni   Correction = "bonferroni"
	Holm         Correction = "holm"
	BH           Correction = "bh" // Benjamini–Hochberg false discovery rate
)

// Corrections lists the valid corrections in the order the CLI documents them.
var Corrections = []Correction{Bonferroni, Holm, BH, NoCorrection}

// ParseCorrection validates a correction name (case-sensitive; "BH" and
// "fdr", R's names, are accepted for BH).
func ParseCorrection(s string) (Correction, error) {
	switch s {
	case "none", "bonferroni", "holm", "bh":
		return Correction(s), nil
	case "BH", "fdr":
		return BH, nil
	}
	names := []string{"bonferroni", "holm", "bh", "none"}
	return "", fmt.Errorf("unknown correction %q: expected one of %s%s", s, strings.Join(names, ", "), suggest.DidYouMean(s, names))
}

// Adjust returns the adjusted p-values of p, R's p.adjust(p, method), with m
// the number of non-NaN values (NaN stays NaN). See AdjustN.
func (c Correction) Adjust(p []float64) []float64 { return c.AdjustN(p, 0) }

// AdjustN returns R's p.adjust(p, method, n): the p-values adjusted for
// m = max(n, lp) comparisons, where lp is the number of non-NaN values (NaN
// stays NaN). A caller whose comparisons include some without a p-value passes
// their total as n, which is more conservative than dropping them. With p
// ascending over the lp values:
//
//	bonferroni: min(1, m·p_i)
//	holm:       p_(i) ↦ min(1, max_{k ≤ i} (m − k + 1)·p_(k))    (Holm 1979)
//	bh:         p_(i) ↦ min(1, min_{k ≥ i} m/k·p_(k))             (Benjamini & Hochberg 1995)
//
// Source: R 4.x stats/R/p.adjust.R.
func (c Correction) AdjustN(p []float64, n int) []float64 {
	out := slices.Clone(p)
	var idx []int
	for i, v := range p {
		if !math.IsNaN(v) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return out
	}
	m := float64(max(n, len(idx)))
	// Ascending by p; ties keep input order (R's order() is stable) and get
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
	switch c {
	case Bonferroni:
		for _, i := range idx {
			out[i] = math.Min(1, m*p[i])
		}
	case Holm:
		run := 0.0
		for k, i := range idx {
			run = math.Max(run, (m-float64(k))*p[i])
			out[i] = math.Min(1, run)
		}
	case BH:
		run := math.Inf(1)
		for k := len(idx) - 1; k >= 0; k-- {
			i := idx[k]
			run = math.Min(run, m/float64(k+1)*p[i])
			out[i] = math.Min(1, run)
		}
	}
	return out
}

// Level returns the confidence level of each of m simultaneous intervals:
// 1 − (1 − level)/m (Bonferroni) for every correction but none. Holm's and
// Benjamini–Hochberg's step-wise procedures adjust p-values and have no
// interval of their own, so their intervals keep Bonferroni's level, the
// conservative choice.
func (c Correction) Level(level float64, m int) float64 {
	if c == NoCorrection || m <= 1 {
		return level
	}
	return 1 - (1-level)/float64(m)
}
