package bayes

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
)

// TestDeterministicAcrossGOMAXPROCS checks that the same seed gives
// bit-identical draws, sampler statistics and summaries whatever GOMAXPROCS
// is, on every path.
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	complete := smallTable(r, 6, 9, 0)
	missing := smallTable(r, 6, 9, 0.2)
	for _, tc := range []struct {
		name string
		tab  *Table
		opt  HierOptions
	}{
		{"collapsed-balanced", complete, HierOptions{Method: MethodCollapsed}},
		{"collapsed-schur", missing, HierOptions{Method: MethodCollapsed}},
		{"general", missing, HierOptions{Method: MethodGeneral}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fit := func(procs int) *HierFit {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				opt := tc.opt
				opt.Sampler = mcmc.NUTSOptions{Seed: 99, Warmup: 200, Draws: 200}
				opt.TargetESS = 1
				f, err := FitHier(tc.tab, opt)
				if err != nil {
					t.Fatal(err)
				}
				f.Describe() // with these GOMAXPROCS
				return f
			}
			a, b := fit(1), fit(4)
			for v := range a.Names {
				for m := range a.Chains {
					for i, x := range a.Sampler.Draws[v][m] {
						if y := b.Sampler.Draws[v][m][i]; math.Float64bits(x) != math.Float64bits(y) {
							t.Fatalf("%s chain %d draw %d: %v with GOMAXPROCS 1, %v with 4", a.Names[v], m, i, x, y)
						}
					}
				}
				if ca, cb := a.Convergence[v], b.Convergence[v]; ca != cb && !(math.IsNaN(ca.Rhat) && math.IsNaN(cb.Rhat)) {
					t.Fatalf("%s: convergence differs: %+v vs %+v", a.Names[v], ca, cb)
				}
				if sa, sb := a.Describe()[v], b.Describe()[v]; sa != sb && !(math.IsNaN(sa.Rhat) && math.IsNaN(sb.Rhat)) {
					t.Fatalf("%s: summaries differ: %+v vs %+v", a.Names[v], sa, sb)
				}
			}
			for m := range a.Chains {
				for i, s := range a.Sampler.Stats[m] {
					if s != b.Sampler.Stats[m][i] {
						t.Fatalf("chain %d transition %d differs: %+v vs %+v", m, i, s, b.Sampler.Stats[m][i])
					}
				}
			}
			// and a different seed gives different draws (the first draw
			// after the same warmup: 10 draws are enough)
			opt := tc.opt
			opt.Sampler = mcmc.NUTSOptions{Seed: 100, Warmup: 200, Draws: 10}
			opt.TargetESS = 1
			c, err := FitHier(tc.tab, opt)
			if err != nil {
				t.Fatal(err)
			}
			if c.Sampler.Draws[0][0][0] == a.Sampler.Draws[0][0][0] {
				t.Errorf("seeds 99 and 100 gave the same first draw")
			}
		})
	}
}

// TestSchurEqualsBalancedOnCompleteTable checks that on the complete rb04
// table the Schur path's log density and gradient equal the balanced path's
// (the same function computed two ways).
func TestSchurEqualsBalancedOnCompleteTable(t *testing.T) {
	t.Parallel()
	tab := rb04(t)
	_, _, y := tab.observed()
	p := RstanarmPriors(y)
	sp := ScalePriors{Sigma: p.Sigma, SD: []Prior{p.SDTopic, p.SDSystem}, Relative: true, Scale: posterior.SD(y)}
	n := p.Intercept.(Normal)
	bal := newBalancedModel(tab, n.Mu, n.Sigma*n.Sigma, sp)
	sch := newSchurModel(tab, n.Mu, n.Sigma*n.Sigma, sp)
	r := rand.New(rand.NewPCG(1, 1))
	gb, gs := make([]float64, 3), make([]float64, 3)
	for range 20 {
		th := []float64{r.Float64()*4 - 3, r.Float64()*4 - 5, r.Float64()*3 - 2}
		lb, ls := bal.LogDensity(th, gb), sch.LogDensity(th, gs)
		if math.Abs(lb-ls) > 1e-9*math.Abs(lb) {
			t.Errorf("θ=%v: balanced %.12g, Schur %.12g", th, lb, ls)
		}
		for i := range gb {
			if math.Abs(gb[i]-gs[i]) > 1e-7*math.Max(1, math.Abs(gb[i])) {
				t.Errorf("θ=%v: ∂/∂θ%d balanced %.12g, Schur %.12g", th, i, gb[i], gs[i])
			}
		}
	}
}

// agree checks that two fits of the same posterior agree in every quantity's
// mean and 2.5%/97.5% quantiles within 4.5 combined Monte Carlo SEs (their
// own MCSEs, from the diagnostics), and returns the worst |z|.
func agree(t *testing.T, a, b *HierFit) float64 {
	t.Helper()
	worst := 0.0
	for v, name := range a.Names {
		sa, sb := a.Describe()[v], b.Describe()[v]
		for _, c := range []struct {
			what           string
			x, y, sex, sey float64
		}{
			{"mean", sa.Mean, sb.Mean, sa.MCSEMean, sb.MCSEMean},
			{"q2.5", sa.Q2_5, sb.Q2_5, sa.MCSEQ2_5, sb.MCSEQ2_5},
			{"q97.5", sa.Q97_5, sb.Q97_5, sa.MCSEQ97_5, sb.MCSEQ97_5},
		} {
			z := math.Abs(c.x-c.y) / math.Hypot(c.sex, c.sey)
			worst = math.Max(worst, z)
			if !(z <= 4.5) {
				t.Errorf("%s %s: %.6g (%s) vs %.6g (%s), z = %.2f", name, c.what, c.x, a.Method, c.y, b.Method, z)
			}
		}
	}
	return worst
}

// TestPathsAgree checks that the general NUTS path on rstanarm's full
// density and the collapsed path (balanced on a complete table, Schur on an
// incomplete one, and Schur on a complete one) sample the same posterior.
func TestPathsAgree(t *testing.T) {
	t.Parallel()
	skipInShortMode(t, "three samplers cross-checked at high ESS")
	r := rand.New(rand.NewPCG(21, 22))
	complete := smallTable(r, 6, 10, 0)
	missing := smallTable(r, 7, 9, 0.2)
	if complete.Complete() == false || missing.Complete() {
		t.Fatal("test tables are not what they should be")
	}
	fit := func(tab *Table, opt HierOptions) *HierFit {
		opt.TargetESS = 1
		f, err := FitHier(tab, opt)
		if err != nil {
			t.Fatal(err)
		}
		if f.Divergences > 0 {
			t.Errorf("%s: %d divergences", f.Method, f.Divergences)
		}
		return f
	}
	gen := HierOptions{Method: MethodGeneral, Sampler: mcmc.NUTSOptions{Seed: 1, Draws: 2500}}
	col := HierOptions{Method: MethodCollapsed, Sampler: mcmc.NUTSOptions{Seed: 2, Draws: 2500}}
	t.Run("complete/general-vs-balanced", func(t *testing.T) {
		t.Logf("worst |z| %.2f", agree(t, fit(complete, gen), fit(complete, col)))
	})
	t.Run("complete/schur-vs-balanced", func(t *testing.T) {
		// FitHier takes the balanced path on a complete table: set the
		// Schur model up in its place.
		sch := col
		sch.TargetESS, sch.Sampler.Seed = 1, 3
		h, err := setUpHier(complete, sch)
		if err != nil {
			t.Fatal(err)
		}
		n := h.priors.Intercept.(Normal)
		h.model = newSchurModel(complete, n.Mu, n.Sigma*n.Sigma, h.model.(*balancedModel).sp)
		f, err := h.run()
		if err != nil {
			t.Fatal(err)
		}
		if f.Divergences > 0 {
			t.Errorf("schur: %d divergences", f.Divergences)
		}
		t.Logf("worst |z| %.2f", agree(t, f, fit(complete, col)))
	})
	t.Run("missing/general-vs-schur", func(t *testing.T) {
		t.Logf("worst |z| %.2f", agree(t, fit(missing, gen), fit(missing, col)))
	})
}

func TestFitHierErrors(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	ok := &Table{Systems: []string{"a", "b"}, Topics: []string{"x", "y"}, Scores: [][]float64{{0.1, 0.2}, {0.3, 0.5}}}
	for _, tc := range []struct {
		name string
		tab  *Table
		opt  HierOptions
		want string
	}{
		{"one system", &Table{Systems: []string{"a"}, Topics: []string{"x", "y"}, Scores: [][]float64{{0.1, 0.2}}}, HierOptions{}, "at least 2 systems"},
		{"one topic", &Table{Systems: []string{"a", "b"}, Topics: []string{"x"}, Scores: [][]float64{{0.1}, {0.2}}}, HierOptions{}, "at least 2 topics"},
		{"constant", &Table{Systems: []string{"a", "b"}, Topics: []string{"x", "y"}, Scores: [][]float64{{0.5, 0.5}, {0.5, nan}}}, HierOptions{}, "same"},
		{"infinite", &Table{Systems: []string{"a", "b"}, Topics: []string{"x", "y"}, Scores: [][]float64{{0.5, math.Inf(1)}, {0.5, 0.2}}}, HierOptions{}, "finite"},
		{"empty system", &Table{Systems: []string{"a", "b"}, Topics: []string{"x", "y"}, Scores: [][]float64{{0.5, 0.1}, {nan, nan}}}, HierOptions{}, `system "b" has no score`},
		{"empty topic", &Table{Systems: []string{"a", "b"}, Topics: []string{"x", "y"}, Scores: [][]float64{{0.5, nan}, {0.2, nan}}}, HierOptions{}, `topic "y" has no score`},
		{"ragged", &Table{Systems: []string{"a", "b"}, Topics: []string{"x", "y"}, Scores: [][]float64{{0.5, 0.1}, {0.2}}}, HierOptions{}, "scores for 2 topics"},
		{"bad method", ok, HierOptions{Method: "magic"}, "unknown method"},
		{"collapsed needs normal", ok, HierOptions{Method: MethodCollapsed, Priors: &HierPriors{StudentT{3, 0, 1}, Exponential{1}, Gamma{1, 1}, Gamma{1, 1}, true}}, "normal intercept prior"},
		{"positive intercept prior", ok, HierOptions{Priors: &HierPriors{Exponential{1}, Exponential{1}, Gamma{1, 1}, Gamma{1, 1}, true}}, "unbounded"},
		{"real sigma prior", ok, HierOptions{Priors: &HierPriors{Normal{0, 1}, Normal{0, 1}, Gamma{1, 1}, Gamma{1, 1}, true}}, "sigma prior"},
		{"missing prior", ok, HierOptions{Priors: &HierPriors{Intercept: Normal{0, 1}}}, "need a prior"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitHier(tc.tab, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestExtendToTargetESS: too few initial draws are extended until every
// bulk- and tail-ESS reaches the target, and the fit says so in Extended, as
// data: a routine extension that reached its target is not a warning.
func TestExtendToTargetESS(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(31, 32))
	f, err := FitHier(smallTable(r, 5, 7, 0), HierOptions{Sampler: mcmc.NUTSOptions{Seed: 5, Draws: 150}, TargetESS: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if f.Extended <= 0 || f.Draws != 150+f.Extended || !f.Converged || f.minESS() < 2000 {
		t.Fatalf("extended %d to %d draws, converged %v, min ESS %.0f", f.Extended, f.Draws, f.Converged, f.minESS())
	}
	if len(f.Warnings) != 0 || len(f.Failures) != 0 {
		t.Errorf("warnings %q, failures %v after an extension that reached its target", f.Warnings, f.Failures)
	}
}
