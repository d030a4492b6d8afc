package gate

import (
	"math"
	"testing"

	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// One-sided p-values against R 4.2.2 (Rscript, %.17g):
//
//	t.test(x, b, paired = TRUE, alternative = alt)$p.value
//	t.test(x, b, var.equal = FALSE, alternative = alt)$p.value
//	wilcox.test(x, b, paired = TRUE, alternative = alt)$p.value
//	binom.test(sum(x > b), sum(x != b), alternative = alt)$p.value
//
// Case A has no tied or zero difference in floating point (R uses the exact
// signed-rank distribution); case B has a zero and ties (the normal
// approximation with continuity and tie corrections).
func TestOneSidedPValuesMatchR(t *testing.T) {
	cases := map[string]risk.Pair{
		"A": {X: []float64{0.31, 0.45, 0.12, 0.66, 0.28, 0.52, 0.40, 0.19, 0.73, 0.35},
			Base: []float64{0.29, 0.41, 0.15, 0.61, 0.20, 0.46, 0.44, 0.10, 0.70, 0.36}},
		"B": {X: []float64{0.31, 0.45, 0.12, 0.66, 0.28, 0.52, 0.40, 0.19, 0.73, 0.35, 0.50, 0.25},
			Base: []float64{0.29, 0.41, 0.14, 0.60, 0.28, 0.47, 0.44, 0.11, 0.70, 0.30, 0.46, 0.27}},
	}
	ref := []struct {
		c    string
		alt  policies.Alternative
		want map[string]float64
	}{
		{"A", policies.Greater, map[string]float64{"paired_t": 0.034265222043860309, "welch_t": 0.37113403522845267, "wilcoxon": 0.0322265625, "sign": 0.17187500000000006}},
		{"A", policies.Less, map[string]float64{"paired_t": 0.96573477795613971, "welch_t": 0.62886596477154733, "wilcoxon": 0.9755859375, "sign": 0.9453125}},
		{"B", policies.Greater, map[string]float64{"paired_t": 0.021949879275252066, "welch_t": 0.37240200734295459, "wilcoxon": 0.020181240464567748, "sign": 0.11328124999999996}},
		{"B", policies.Less, map[string]float64{"paired_t": 0.97805012072474795, "welch_t": 0.62759799265704541, "wilcoxon": 0.98378829099427967, "sign": 0.96728515625}},
	}
	worst := 0.0
	for _, r := range ref {
		for test, want := range r.want {
			got, _, err := testPValue(cases[r.c], test, r.alt, 1000, 1)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(got-want) / want; d > worst {
				worst = d
			}
			if math.Abs(got-want) > 1e-12*math.Max(1, want) {
				t.Errorf("case %s, %s, %s: %.17g, R %.17g", r.c, test, r.alt, got, want)
			}
		}
	}
	t.Logf("worst relative deviation from R: %.2g", worst)
	// Two-sided values are risk's own; a one-sided rule on the permutation
	// or bootstrap test is refused, not guessed.
	if _, _, err := testPValue(cases["A"], "permutation", policies.Greater, 1000, 1); err == nil {
		t.Error("a one-sided permutation test must be unavailable")
	}
	two, _, _ := testPValue(cases["A"], "paired_t", policies.TwoSided, 1000, 1)
	pt, _ := cases["A"].PairedT(0.95)
	if two != pt.P {
		t.Errorf("two-sided paired t %v, risk %v", two, pt.P)
	}
}

// P(B ≥ k) for B ~ Binomial(n, ½), against exact sums.
func TestBinomialHalfAtLeast(t *testing.T) {
	for _, c := range []struct {
		k, n int
		want float64
	}{{0, 0, 1}, {0, 5, 1}, {5, 5, 1.0 / 32}, {3, 5, 16.0 / 32}, {4, 5, 6.0 / 32}, {60, 60, math.Pow(2, -60)}} {
		if got := binomialHalfAtLeast(c.k, c.n); math.Abs(got-c.want) > 1e-14*c.want {
			t.Errorf("P(B ≥ %d | n = %d) = %v, want %v", c.k, c.n, got, c.want)
		}
	}
}
