package risk

import (
	"math"
	"testing"
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
	t.Parallel()
	cases := map[string]Pair{
		"A": {X: []float64{0.31, 0.45, 0.12, 0.66, 0.28, 0.52, 0.40, 0.19, 0.73, 0.35},
			Base: []float64{0.29, 0.41, 0.15, 0.61, 0.20, 0.46, 0.44, 0.10, 0.70, 0.36}},
		"B": {X: []float64{0.31, 0.45, 0.12, 0.66, 0.28, 0.52, 0.40, 0.19, 0.73, 0.35, 0.50, 0.25},
			Base: []float64{0.29, 0.41, 0.14, 0.60, 0.28, 0.47, 0.44, 0.11, 0.70, 0.30, 0.46, 0.27}},
	}
	type pv struct{ greater, less float64 }
	ref := map[string]map[string]pv{
		"A": {"paired_t": {0.034265222043860309, 0.96573477795613971}, "welch_t": {0.37113403522845267, 0.62886596477154733},
			"wilcoxon": {0.0322265625, 0.9755859375}, "sign": {0.17187500000000006, 0.9453125}},
		"B": {"paired_t": {0.021949879275252066, 0.97805012072474795}, "welch_t": {0.37240200734295459, 0.62759799265704541},
			"wilcoxon": {0.020181240464567748, 0.98378829099427967}, "sign": {0.11328124999999996, 0.96728515625}},
	}
	worst := 0.0
	check := func(c, test, alt string, got, want float64) {
		t.Helper()
		if d := math.Abs(got-want) / want; d > worst {
			worst = d
		}
		if math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("case %s, %s, %s: %.17g, R %.17g", c, test, alt, got, want)
		}
	}
	for c, p := range cases {
		pt, err := p.PairedT(0.95)
		if err != nil {
			t.Fatal(err)
		}
		wt, _ := p.WelchT(0.95)
		wx, _ := p.Wilcoxon(WilcoxonAuto)
		sg, _ := p.Sign()
		got := map[string]pv{"paired_t": {pt.PGreater, pt.PLess}, "welch_t": {wt.PGreater, wt.PLess},
			"wilcoxon": {wx.PGreater, wx.PLess}, "sign": {sg.PGreater, sg.PLess}}
		for test, want := range ref[c] {
			check(c, test, "greater", got[test].greater, want.greater)
			check(c, test, "less", got[test].less, want.less)
		}
		if c == "A" && !wx.Exact || c == "B" && wx.Exact {
			t.Errorf("case %s: Wilcoxon exact = %v", c, wx.Exact)
		}
	}
	t.Logf("worst relative deviation from R: %.2g", worst)
}

// P(B ≤ j) for B ~ Binomial(n, ½), against exact sums, to 1e-12 relative
// (the precision of the R comparisons; gonum's incomplete beta is good to
// about 1e-13 even in the far tail, e.g. 2⁻⁶⁰).
func TestBinomHalfAtMost(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		j, n int
		want float64
	}{{0, 0, 1}, {-1, 5, 0}, {5, 5, 1}, {0, 5, 1.0 / 32}, {2, 5, 16.0 / 32}, {1, 5, 6.0 / 32}, {0, 60, math.Pow(2, -60)}} {
		if got := binomHalfAtMost(c.j, c.n); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("P(B ≤ %d | n = %d) = %v, want %v", c.j, c.n, got, c.want)
		}
	}
}
