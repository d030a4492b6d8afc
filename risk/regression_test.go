package risk

import (
	"math"
	"strings"
	"testing"
)

// Regression tests for the disagreements with R that random score tables
// found (issue 16, and TestDifferentialR since), each on its minimal input.

// TestBCaTiesWithEstimate: the adjusted differences are discrete (0 four
// times, 0.1, 0.10000000000000003, 5·(0.8 − 0.9)), so many resamples hold
// the values of the sample itself and must have exactly its mean t0, or
// boot.ci's strict t* < t0 miscounts z0. R 4.2.2, boot 1.3-28.1:
//
//	set.seed(s); b <- boot(x, function(v, i) mean(v[i]), R = 100000)
//	boot.ci(b, conf = 0.95, type = c("bca", "perc"))
//
// gives BCa (−0.34285714, 0.04285714) and percentile (−0.2, 0.05714286) for
// s = 1, 2, 3 (a left-to-right sum gave BCa (−0.2857, 0.0429) at every
// seed). Tolerance: the endpoints are order statistics, and discrete here;
// 5e-5 is half the fourth decimal.
func TestBCaTiesWithEstimate(t *testing.T) {
	t.Parallel()
	p := Pair{X: []float64{.5, .6, .7, .5, .2, 0.30000000000000004, .8}, Base: []float64{0.5, .6, .7, .5, .1, .2, .9}}
	for seed := uint64(1); seed <= 3; seed++ {
		r, err := p.BCa(5, BootstrapOptions{B: 100_000, Level: 0.95, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		got := [4]float64{r.BCa.Lo, r.BCa.Hi, r.Percentile.Lo, r.Percentile.Hi}
		want := [4]float64{-0.34285714, 0.04285714, -0.2, 0.05714286}
		for i := range got {
			if math.Abs(got[i]-want[i]) > 5e-5 {
				t.Errorf("seed %d: BCa %v, percentile %v; want BCa (%v, %v), percentile (%v, %v)",
					seed, r.BCa, r.Percentile, want[0], want[1], want[2], want[3])
				break
			}
		}
	}
}

// TestWelchPNearOne: a difference of 2e-9 against a standard error of 0.1
// gives t = −2e-8 and a p-value a hair below 1. R 4.2.2:
// t.test(c(.1,.2,.3,.4,.5), c(.1,.2,.3,.4,.50000001))$p.value is
// 0.99999998453203931 (t −1.999999978947288e-08, df 8). Tolerance 1e-15
// absolute (the p-value's last digits); 1 − I_{df/(df+t²)} gave exactly 1.
func TestWelchPNearOne(t *testing.T) {
	t.Parallel()
	s := TwoSamples{X: []float64{.1, .2, .3, .4, .5}, Base: []float64{.1, .2, .3, .4, .50000001}}
	r, err := s.WelchT(0.95)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.P-0.99999998453203931) > 1e-15 || math.Abs(r.T+1.999999978947288e-08) > 1e-20 || math.Abs(r.DF-8) > 1e-13 {
		t.Errorf("Welch t = %v, df = %v, p = %.17g; R t = -1.999999978947288e-08, df = 8, p = 0.99999998453203931", r.T, r.DF, r.P)
	}
	if got := fSurvival(1e-12, 2, 14); math.Abs(got-(1-1e-12)) > 1e-15 {
		t.Errorf("P(F(2,14) > 1e-12) = %.17g, want 1 − 1e-12 (the lower tail is 1e-12·(1 + O(1e-12)))", got)
	}
}

// TestANOVARoundingLevel: three identical systems (R's aov: system F 1.484,
// p 0.26, from rounding noise), and the same systems shifted by 0.1 and 0.3
// (R: residual SS 0.0000, F 1.4e31). The system and residual sums of
// squares are zero in exact arithmetic: with correctly rounded means the
// system SS is exactly 0, the residual SS is noise (9e-33) that riskgate
// takes as 0, saying so; F is then 0/0 (NaN) or x/0 (+Inf).
func TestANOVARoundingLevel(t *testing.T) {
	t.Parallel()
	s := []float64{.1, .35, .7, .2, .9, .05, .6, .45}
	shift := func(c float64) []float64 {
		out := make([]float64, len(s))
		for i, v := range s {
			out[i] = v + c
		}
		return out
	}
	identical := Systems{s, s, s}
	a, err := identical.TwoWayANOVA()
	if err != nil {
		t.Fatal(err)
	}
	if a.Rows[0].SS != 0 || a.Rows[2].SS != 0 || !math.IsNaN(a.Rows[0].F) || !hasWarning(a.Warnings, "residual sum of squares") {
		t.Errorf("identical systems, two-way: %+v, warnings %q", a.Rows, a.Warnings)
	}
	if math.Abs(a.Rows[1].SS-1.904) > 5e-4 {
		t.Errorf("topic SS %v, R 1.904", a.Rows[1].SS)
	}
	one, _ := identical.OneWayANOVA()
	if one.Rows[0].SS != 0 || one.Rows[0].F != 0 || one.Rows[0].P != 1 {
		t.Errorf("identical systems, one-way: %+v", one.Rows)
	}
	shifted := Systems{s, shift(0.1), shift(0.3)}
	b, _ := shifted.TwoWayANOVA()
	if b.Rows[2].SS != 0 || !math.IsInf(b.Rows[0].F, 1) || b.Rows[0].P != 0 || !hasWarning(b.Warnings, "residual sum of squares") {
		t.Errorf("shifted systems, two-way: %+v, warnings %q", b.Rows, b.Warnings)
	}
	// By hand: shifts 0, 0.1, 0.3 about their mean 2/15, times 8 topics.
	want := 8 * (math.Pow(2.0/15, 2) + math.Pow(0.1-2.0/15, 2) + math.Pow(0.3-2.0/15, 2))
	if math.Abs(b.Rows[0].SS-want) > 1e-12 {
		t.Errorf("system SS %v, want %v (R 0.3733)", b.Rows[0].SS, want)
	}
}

func hasWarning(ws []string, part string) bool {
	for _, w := range ws {
		if strings.Contains(w, part) {
			return true
		}
	}
	return false
}
