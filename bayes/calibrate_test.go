package bayes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

// rb04Model is EstimatePoolModel's reference on rb04.csv, computed in R 4.2
// (../shared/data/bayesian-risk/rb04.csv):
//
//	b <- d[!grepl("^Chal", d$system), ]; ms <- summary(aov(score ~ system + topic, data = b))[[1]][["Mean Sq"]]
//	mean(b$score); sqrt(ms[3]); sqrt((ms[1] - ms[3])/50); sqrt((ms[2] - ms[3])/41)
//	e <- each challenger's (x − champion) − mean, pooled; sqrt(sum(e^2)/(200 − 4)); mean(e^3)/mean(e^2)^1.5
var rb04Model = PoolModel{Intercept: 0.31397541463414635, Sigma: 0.10676752079054326, SDSystem: 0.010376014289387595,
	SDTopic: 0.1932456480604047, DiffSD: 0.090131946668226812, DiffSkew: 0.66254313328530867}

func TestEstimatePoolModelRB04(t *testing.T) {
	t.Parallel()
	tab := rb04(t)
	champ := systemIndex(t, tab, "Champion")
	var chals []int
	for i, s := range tab.Systems {
		if strings.HasPrefix(s, "Chal.") {
			chals = append(chals, i)
		}
	}
	m, err := EstimatePoolModel(tab, champ, chals)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"intercept", m.Intercept, rb04Model.Intercept}, {"sigma", m.Sigma, rb04Model.Sigma},
		{"sd_system", m.SDSystem, rb04Model.SDSystem}, {"sd_topic", m.SDTopic, rb04Model.SDTopic},
		{"diff_sd", m.DiffSD, rb04Model.DiffSD}, {"diff_skew", m.DiffSkew, rb04Model.DiffSkew},
	} {
		if math.Abs(c.got-c.want) > 1e-12*math.Abs(c.want) {
			t.Errorf("%s = %.17g, R %.17g", c.name, c.got, c.want)
		}
	}
	if len(m.Warnings) != 0 {
		t.Errorf("warnings %q", m.Warnings)
	}
}

// TestEstimatePoolModelRecovers: on a large pool simulated from a known
// model, far from the bounds so that clamping is rare (below 10⁻⁵ of the
// cells), the moment estimates are within a few standard errors of the
// truth. With 200 systems × 2,000 topics the standard errors are about
// σ/√(2·n_cells) ≈ 0.0001 for σ, SD_topic/√(2·2000) ≈ 0.0008 for
// SD_topic, SD_system/√(2·200) ≈ 0.0007 for SD_system (plus MS_E's share),
// and for 2,000 differences about 0.0005 (SD) and √(6/2000) ≈ 0.055 (skewness);
// the bounds are 5 of them.
func TestEstimatePoolModelRecovers(t *testing.T) {
	t.Parallel()
	truth := PoolModel{Intercept: 0.5, Sigma: 0.05, SDTopic: 0.05, SDSystem: 0.015, DiffSD: 0.03, DiffSkew: -0.6}
	tab, _, err := truth.Simulate(rand.New(rand.NewPCG(7, 1)), 0.01, names("s", 200), names("t", 2000))
	if err != nil {
		t.Fatal(err)
	}
	m, err := EstimatePoolModel(tab, 0, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name           string
		got, want, tol float64
	}{
		{"intercept", m.Intercept, truth.Intercept, 0.01}, // 5 × the SD of a mean of 200 system and 2,000 topic effects
		{"sigma", m.Sigma, truth.Sigma, 0.0005}, {"sd_topic", m.SDTopic, truth.SDTopic, 0.004},
		{"sd_system", m.SDSystem, truth.SDSystem, 0.004}, {"diff_sd", m.DiffSD, truth.DiffSD, 0.0025},
		{"diff_skew", m.DiffSkew, truth.DiffSkew, 0.28},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.4g, truth %.4g (tolerance %g)", c.name, c.got, c.want, c.tol)
		}
	}
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}

func TestEstimatePoolModelWarnings(t *testing.T) {
	t.Parallel()
	// Systems that differ by less than the noise: the system variance's
	// moment estimate is negative and set to 0.
	tab := &Table{Systems: names("s", 3), Topics: names("t", 4), Scores: [][]float64{
		{0.1, 0.5, 0.3, 0.9}, {0.2, 0.4, 0.4, 0.8}, {0.15, 0.45, 0.35, 0.85}}}
	m, err := EstimatePoolModel(tab, 0, []int{2})
	if err != nil {
		t.Fatal(err)
	}
	if m.SDSystem != 0 || len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "system variance") {
		t.Errorf("sd_system %g, warnings %q", m.SDSystem, m.Warnings)
	}
	// Only a champion and a challenger: every system joins the ANOVA.
	m, err = EstimatePoolModel(&Table{Systems: tab.Systems[:2], Topics: tab.Topics, Scores: tab.Scores[:2]}, 0, []int{1})
	if err != nil || len(m.Warnings) == 0 || !strings.Contains(m.Warnings[0], "no artifact") {
		t.Errorf("err %v, warnings %q", err, m.Warnings)
	}
	// Skewness beyond the skew normal's reach is capped.
	skewed := &Table{Systems: names("s", 3), Topics: names("t", 6), Scores: [][]float64{
		{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {0.1, 0.2, 0.3, 0.4, 0.5, 0.9}, {0.2, 0.1, 0.4, 0.3, 0.6, 0.5}}}
	if m, err = EstimatePoolModel(skewed, 0, []int{1}); err != nil || m.DiffSkew != maxSkew {
		t.Errorf("err %v, skewness %g; want it capped at %g", err, m.DiffSkew, maxSkew)
	}
	for _, c := range []struct {
		champ int
		chals []int
	}{{-1, []int{1}}, {0, nil}, {0, []int{0}}, {0, []int{5}}} {
		if _, err := EstimatePoolModel(tab, c.champ, c.chals); err == nil {
			t.Errorf("champion %d, challengers %v: no error", c.champ, c.chals)
		}
	}
}

// skewNormalSkewness is Azzalini's skewness of the skew normal with shape α.
func skewNormalSkewness(alpha float64) float64 {
	b := alpha / math.Sqrt(1+alpha*alpha) * math.Sqrt(2/math.Pi)
	return (4 - math.Pi) / 2 * b * b * b / math.Pow(1-b*b, 1.5)
}

func TestSkewNormalAlpha(t *testing.T) {
	t.Parallel()
	for _, g := range []float64{-0.99, -0.66, -0.1, 0, 1e-6, 0.3, 0.66254313328530867, 0.99} {
		if got := skewNormalSkewness(skewNormalAlpha(g)); math.Abs(got-g) > 1e-12 {
			t.Errorf("skewness of α(%g) = %.15g", g, got)
		}
	}
}

// TestMeanClamped checks meanClamped against direct quadrature of the
// clamped value against the densities: ∫ clamp(x) N(x; mu, s²) dx for the
// normal, and ∫∫ clamp(x + u) N(x; mu, s²) f_SN(u) dx du for the skew
// normal, with f_SN(u) = (2/ω)φ(z)Φ(αz), z = (u − ξ)/ω — the density, not
// the stochastic representation meanClamped integrates over. Both by
// Gauss–Legendre with 200 nodes on each piece between ±12 SD and the
// kinks of clamp at 0 and 1 (300 on each side of ξ for u): accurate to
// about 1e-13.
func TestMeanClamped(t *testing.T) {
	t.Parallel()
	clampedNormal := func(m, s float64) float64 { // E[clamp(X)], X ~ N(m, s²), piece by piece
		pdf := func(x float64) float64 { return stdNormalPDF((x-m)/s) / s }
		lo, hi := m-12*s, m+12*s
		sum := 0.0
		if a, b := max(lo, 0), min(hi, 1); a < b {
			sum += quad.Fixed(func(x float64) float64 { return x * pdf(x) }, a, b, 200, quad.Legendre{}, 0)
		}
		if a := max(lo, 1); a < hi {
			sum += quad.Fixed(pdf, a, hi, 200, quad.Legendre{}, 0)
		}
		return sum
	}
	direct := func(mu, s, sdU, alpha float64) float64 {
		if sdU == 0 {
			return clampedNormal(mu, s)
		}
		b, k, _ := skewNormalShape(alpha)
		omega := k * sdU
		xi := -omega * b
		f := func(u float64) float64 {
			z := (u - xi) / omega
			return 2 / omega * stdNormalPDF(z) * stdNormalCDF(alpha*z) * clampedNormal(mu+u, s)
		}
		// In two pieces at ξ, where Φ(αz) steps up for a large α.
		return quad.Fixed(f, xi-12*omega, xi, 300, quad.Legendre{}, 0) + quad.Fixed(f, xi, xi+12*omega, 300, quad.Legendre{}, 0)
	}
	for _, c := range [][4]float64{
		{0.31, 0.22, 0, 0}, {-0.2, 0.1, 0, 0}, {1.1, 0.3, 0, 0}, {0.5, 0.01, 0, 0},
		{0.31, 0.22, 0.09, skewNormalAlpha(0.66)}, {0.02, 0.22, 0.09, skewNormalAlpha(0.99)},
		{0.9, 0.1, 0.2, skewNormalAlpha(-0.9)}, {0.3, 0.2, 0.05, 0},
	} {
		got, dgot := meanClamped(c[0], c[1], c[2], c[3])
		if want := direct(c[0], c[1], c[2], c[3]); math.Abs(got-want) > 1e-11 {
			t.Errorf("meanClamped%v = %.15g, direct quadrature %.15g", c, got, want)
		}
		// The derivative in mu against a central difference (error ~ h²).
		const h = 1e-5
		up, _ := meanClamped(c[0]+h, c[1], c[2], c[3])
		down, _ := meanClamped(c[0]-h, c[1], c[2], c[3])
		if want := (up - down) / (2 * h); math.Abs(dgot-want) > 1e-7 {
			t.Errorf("derivative of meanClamped%v = %.12g, central difference %.12g", c, dgot, want)
		}
	}
}

func TestLatentShift(t *testing.T) {
	t.Parallel()
	m := rb04Model
	s := math.Hypot(m.SDTopic, m.Sigma)
	alpha := skewNormalAlpha(m.DiffSkew)
	for _, champMean := range []float64{0.1, 0.31, 0.8} {
		for _, effect := range []float64{-0.05, -0.01, 0, 0.01, 0.05} {
			shift, err := m.LatentShift(effect, champMean)
			if err != nil {
				t.Fatal(err)
			}
			with, _ := meanClamped(champMean+shift, s, m.DiffSD, alpha)
			without, _ := meanClamped(champMean, s, 0, 0)
			if got := with - without; math.Abs(got-effect) > 1e-12 {
				t.Errorf("champion mean %g, effect %g: shift %g gives %.15g", champMean, effect, shift, got)
			}
		}
	}
	// Zero-mean noise near the lower bound raises the mean: a challenger
	// with no true effect needs a negative shift there.
	if shift, _ := m.LatentShift(0, 0.1); !(shift < -0.001) {
		t.Errorf("shift %g for no effect near 0; want a clearly negative one", shift)
	}
	// Far from the bounds the shift is the effect.
	far := PoolModel{Intercept: 0.5, Sigma: 0.02, SDTopic: 0.02, DiffSD: 0.02, DiffSkew: 0.5}
	if shift, _ := far.LatentShift(0.03, 0.5); math.Abs(shift-0.03) > 1e-12 {
		t.Errorf("shift %.15g far from the bounds; want 0.03", shift)
	}
	if _, err := m.LatentShift(-0.9, 0.31); err == nil {
		t.Error("an effect of −0.9 on [0, 1] scores with a mean of 0.31: no error")
	}
}

// TestSimulateEffect: over many simulated pools the challenger's mean
// difference to the champion averages to the requested true effect. With
// 400 pools of 500 topics at rb04's estimates the standard error of the
// average is about 0.09/√200,000 ≈ 0.0002 (the topic effects cancel in the
// differences); the tolerance is 4 of them. Without the clamping
// correction the bias at effect 0 is +0.0024, 12 of them.
func TestSimulateEffect(t *testing.T) {
	t.Parallel()
	systems, topics := names("s", 4), names("t", 500)
	for _, effect := range []float64{-0.01, 0, 0.02} {
		r := rand.New(rand.NewPCG(11, 0))
		sum := 0.0
		const reps = 400
		for range reps {
			tab, truth, err := rb04Model.Simulate(r, effect, systems, topics)
			if err != nil {
				t.Fatal(err)
			}
			sum += truth.MeanDiff
			if truth.Effect != effect || tab.Scores[1][0] < 0 || tab.Scores[1][0] > 1 {
				t.Fatalf("truth %+v, score %g", truth, tab.Scores[1][0])
			}
		}
		if got := sum / reps; math.Abs(got-effect) > 0.0008 {
			t.Errorf("effect %g: mean difference %.5f over %d pools", effect, got, reps)
		}
	}
}

func TestSimulateDeterministic(t *testing.T) {
	t.Parallel()
	a, ta, err := rb04Model.Simulate(rand.New(rand.NewPCG(3, 4)), -0.01, names("s", 5), names("t", 7))
	if err != nil {
		t.Fatal(err)
	}
	b, tb, _ := rb04Model.Simulate(rand.New(rand.NewPCG(3, 4)), -0.01, names("s", 5), names("t", 7))
	if ta != tb || fmt.Sprint(a.Scores) != fmt.Sprint(b.Scores) {
		t.Error("the same stream gave different pools")
	}
	if _, _, err := rb04Model.Simulate(rand.New(rand.NewPCG(3, 4)), 0, names("s", 1), names("t", 7)); err == nil {
		t.Error("one system: no error")
	}
}
