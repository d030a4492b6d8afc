package bayes

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
)

// TestContrastMomentsMatchDraws: balancedModel.contrastMoments, the
// conditional mean and SD of S_a − S_b given the variances, against the
// model's own exact draws of the effects (drawEffects, an independent code
// path: the Gaussian conditional drawn through the four eigenspaces) at
// fixed variances. 200,000 draws; the bounds are 5 standard errors of the
// sample mean (sd/√n) and of the sample SD (sd/√(2n)). With -short, the
// first (rb04's) variances only: the others take the same code at other
// values.
func TestContrastMomentsMatchDraws(t *testing.T) {
	t.Parallel()
	s := newSeqSetting(t)
	tab := s.pool(t, 3, 0.04)
	p := TableRstanarmPriors(tab)
	n0 := p.Intercept.(Normal)
	_, ysd := tab.meanSD()
	m := newBalancedModel(tab, n0.Mu, n0.Sigma*n0.Sigma, ScalePriors{Sigma: p.Sigma, SD: []Prior{p.SDTopic, p.SDSystem}, Relative: true, Scale: ysd})
	r := rand.New(rand.NewPCG(5, 6))
	variances := [][3]float64{{0.107, 0.19, 0.0104}, {0.1, 0.2, 0.001}, {0.12, 0.15, 0.05}}
	if testing.Short() {
		variances = variances[:1]
	}
	for _, v := range variances {
		sigma, sdT, sdS := v[0], v[1], v[2]
		for _, pair := range [][2]int{{1, 0}, {5, 17}} {
			a, b := pair[0], pair[1]
			mean, sd := m.contrastMoments(sigma, sdT, sdS, a, b)
			const n = 200000
			xi := make([]float64, 4+len(tab.Topics)+len(tab.Systems))
			out := make([]float64, len(xi))
			var sum, sum2 float64
			for range n {
				for i := range xi {
					xi[i] = r.NormFloat64()
				}
				m.drawEffects(sigma*sigma, sdT*sdT, sdS*sdS, xi, out)
				d := out[4+len(tab.Topics)+a] - out[4+len(tab.Topics)+b]
				sum += d
				sum2 += d * d
			}
			em := sum / n
			esd := math.Sqrt(sum2/n - em*em)
			if math.Abs(em-mean) > 5*sd/math.Sqrt(n) || math.Abs(esd-sd) > 5*sd/math.Sqrt(2*n) {
				t.Errorf("variances %v, S_%d − S_%d: draws have mean %.6g, SD %.6g; contrastMoments %.6g, %.6g", v, a, b, em, esd, mean, sd)
			}
		}
	}
}

// TestMixtureQuantile: one component is the normal quantile; an equal
// mixture of N(−1, 1) and N(1, 1) has median 0 and is symmetric; in general
// the CDF at the quantile is p to 1e-12.
func TestMixtureQuantile(t *testing.T) {
	t.Parallel()
	if q := mixtureQuantile([]float64{0.3}, []float64{2}, 0.975); math.Abs(q-(0.3+2*1.959963984540054)) > 1e-12 {
		t.Errorf("one component: %v, want 0.3 + 2·1.959963984540054", q)
	}
	mu, sd := []float64{-1, 1}, []float64{1, 1}
	if q := mixtureQuantile(mu, sd, 0.5); math.Abs(q) > 1e-12 {
		t.Errorf("symmetric mixture median %v, want 0", q)
	}
	if lo, hi := mixtureQuantile(mu, sd, 0.1), mixtureQuantile(mu, sd, 0.9); math.Abs(lo+hi) > 1e-12 {
		t.Errorf("symmetric mixture: q(0.1) = %v, q(0.9) = %v", lo, hi)
	}
	r := rand.New(rand.NewPCG(1, 2))
	mu, sd = make([]float64, 50), make([]float64, 50)
	for i := range mu {
		mu[i], sd[i] = r.NormFloat64(), 0.1+r.Float64()
	}
	for _, p := range []float64{0.001, 0.025, 0.5, 0.95, 0.999} {
		q := mixtureQuantile(mu, sd, p)
		c := 0.0
		for i := range mu {
			c += stdNormalCDF((q - mu[i]) / sd[i])
		}
		if c /= float64(len(mu)); math.Abs(c-p) > 1e-12 {
			t.Errorf("F(q(%v)) = %v", p, c)
		}
	}
}

// seqFit fits pool i of the agreement harness (at effect), sequentially
// with targets, warm-started from the harness's pilot.
func seqTestFit(t *testing.T, tab *Table, ad mcmc.Adaptation, seed uint64, targets ...Target) *HierFit {
	t.Helper()
	f, err := FitHier(tab, seqOptions(seed, ad, targets))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestRaoBlackwellAgreesWithCounting: on a full-length fit the
// Rao–Blackwellised estimates of P(S_1 − S_0 ≷ t), E[S_1 − S_0] and its
// quantiles agree with those from the draws within 5 combined MCSEs, and
// their MCSE is smaller.
func TestRaoBlackwellAgreesWithCounting(t *testing.T) {
	t.Parallel()
	s := newSeqSetting(t)
	tab := s.pool(t, 8, 0.03)
	f, err := FitHier(tab, seqFullOptions(7))
	if err != nil || !f.Converged {
		t.Fatal(err, f.Warnings)
	}
	targets := []Target{
		{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.95}},
		{Stat: ProbBelow, A: 1, B: 0, Threshold: 0.02, Bounds: []float64{0.5}},
		{Stat: MeanDiff, A: 1, B: 0, Bounds: []float64{0}},
		{Stat: QuantileDiff, A: 1, B: 0, P: 0.025, Bounds: []float64{0}},
		{Stat: QuantileDiff, A: 1, B: 0, P: 0.975, Bounds: []float64{0}},
	}
	rb, err := f.EstimateTargets(targets, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range targets {
		targets[i].FromDraws = true
	}
	counted, err := f.EstimateTargets(targets, 4)
	if err != nil {
		t.Fatal(err)
	}
	d := f.SystemDiff(1, 0)
	for i, e := range rb {
		c := counted[i]
		if !e.RaoBlackwell || c.RaoBlackwell {
			t.Fatalf("%v: Rao–Blackwellised %v and %v", e.Stat, e.RaoBlackwell, c.RaoBlackwell)
		}
		if z := math.Abs(e.Value-c.Value) / math.Hypot(e.MCSE, c.MCSE); !(z < 5) {
			t.Errorf("%v (t %v, p %v): Rao–Blackwellised %.6g ± %.2g, from the draws %.6g ± %.2g (%.1f MCSE apart)", e.Stat, e.Threshold, e.P, e.Value, e.MCSE, c.Value, c.MCSE, z)
		}
		if !(e.MCSE < c.MCSE) {
			t.Errorf("%v: Rao–Blackwellised MCSE %.3g not below the draws' %.3g", e.Stat, e.MCSE, c.MCSE)
		}
	}
	// the estimates from the draws are the package's usual ones
	if counted[0].Value != posterior.ProbGreater(d, 0) || counted[1].Value != posterior.ProbLess(d, 0.02) || counted[2].Value != posterior.Mean(d) || counted[3].Value != posterior.Quantile(d, 0.025) {
		t.Errorf("from the draws: %v %v %v %v; ProbGreater %v, ProbLess %v, Mean %v, Quantile %v",
			counted[0].Value, counted[1].Value, counted[2].Value, counted[3].Value, posterior.ProbGreater(d, 0), posterior.ProbLess(d, 0.02), posterior.Mean(d), posterior.Quantile(d, 0.025))
	}
	if counted[0].MCSE != posterior.MCSEMean(indicatorChains(f.SystemDiffChains(1, 0), func(x float64) bool { return x > 0 })) {
		t.Errorf("the MCSE of a share of draws is not posterior's mcse_mean of the indicator")
	}
}

func indicatorChains(d [][]float64, ev func(float64) bool) [][]float64 {
	out := make([][]float64, len(d))
	for m, c := range d {
		out[m] = make([]float64, len(c))
		for i, v := range c {
			if ev(v) {
				out[m][i] = 1
			}
		}
	}
	return out
}

// TestSequentialStopsEarly: a decision far from its bound stops after a few
// hundred draws per chain, converged, with every early-stop condition
// holding, and its estimate agrees with a full-length fit's.
func TestSequentialStopsEarly(t *testing.T) {
	t.Parallel()
	s := newSeqSetting(t)
	adRaw, _ := seqPilot(t, s)
	for _, effect := range []float64{-0.02, 0.1} {
		tab := s.pool(t, 1, effect)
		f := seqTestFit(t, tab, adRaw, 3, Target{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.95}})
		e := f.Targets[0]
		if !f.StoppedEarly || !f.Converged || !e.Decided || f.Draws >= 1000 {
			t.Fatalf("effect %v: stopped early %v, converged %v, decided %v after %d draws per chain (%v)", effect, f.StoppedEarly, f.Converged, e.Decided, f.Draws, f.Warnings)
		}
		if !(e.Exact || e.ESS >= 400) || !(e.ESSBulk >= 400 && e.ESSTail >= 400 && e.Rhat <= 1.01) || f.Divergences != 0 {
			t.Errorf("effect %v: stopped with ESS %v, bulk %v, tail %v, R̂ %v, %d divergences", effect, e.ESS, e.ESSBulk, e.ESSTail, e.Rhat, f.Divergences)
		}
		for _, v := range []int{IdxSigma, IdxSDTopic, IdxSDSystem} {
			if !(f.Convergence[v].Rhat <= 1.01) {
				t.Errorf("effect %v: %s R̂ %v", effect, f.Names[v], f.Convergence[v].Rhat)
			}
		}
		if !math.IsNaN(f.Convergence[f.SystemIndex(0)].Rhat) {
			t.Errorf("a system effect's convergence is checked in a sequential collapsed fit")
		}
		full, err := FitHier(tab, seqFullOptions(3))
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := full.EstimateTargets([]Target{e.Target}, 4)
		if z := math.Abs(e.Value-ref[0].Value) / math.Hypot(e.MCSE, ref[0].MCSE); !(z < 5) && !(e.Exact && ref[0].Exact) {
			t.Errorf("effect %v: sequential %.6g ± %.2g, full-length %.6g ± %.2g", effect, e.Value, e.MCSE, ref[0].Value, ref[0].MCSE)
		}
	}
}

// TestSequentialRunsToFullTarget: a bound at the estimate itself is never
// decided; the fit runs until every ESS it checks reaches TargetESS and is
// then judged as an ordinary fit.
func TestSequentialRunsToFullTarget(t *testing.T) {
	t.Parallel()
	s := newSeqSetting(t)
	adRaw, _ := seqPilot(t, s)
	tab := s.pool(t, 2, 0.03)
	full, err := FitHier(tab, seqFullOptions(4))
	if err != nil {
		t.Fatal(err)
	}
	tg := Target{Stat: ProbAbove, A: 1, B: 0}
	ref, _ := full.EstimateTargets([]Target{{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.5}}}, 4)
	tg.Bounds = []float64{ref[0].Value}
	o := seqOptions(4, adRaw, []Target{tg})
	o.TargetESS = 1000 // keeps the test short
	f, err := FitHier(tab, o)
	if err != nil {
		t.Fatal(err)
	}
	e := f.Targets[0]
	if f.StoppedEarly || e.Decided {
		t.Fatalf("a bound at the estimate: stopped early %v, decided %v (%v ± %v against %v)", f.StoppedEarly, e.Decided, e.Value, e.MCSE, tg.Bounds)
	}
	if !f.Converged || !(e.ESS >= 1000 && e.ESSBulk >= 1000 && e.ESSTail >= 1000) {
		t.Errorf("full target 1000: converged %v, ESS %v, bulk %v, tail %v (%v)", f.Converged, e.ESS, e.ESSBulk, e.ESSTail, f.Warnings)
	}
	for _, v := range []int{IdxSigma, IdxSDTopic, IdxSDSystem} {
		if q := f.Convergence[v]; !(q.ESSBulk >= 1000 && q.ESSTail >= 1000) {
			t.Errorf("%s: bulk-ESS %v, tail-ESS %v below the target", f.Names[v], q.ESSBulk, q.ESSTail)
		}
	}
	// a cap below the target: not converged, and said why
	o.MaxDraws = 150
	f, err = FitHier(tab, o)
	if err != nil {
		t.Fatal(err)
	}
	if f.Converged || f.Draws != 150 || !strings.Contains(strings.Join(f.Warnings, "; "), "below the target 1000") {
		t.Errorf("capped at 150 draws: converged %v after %d draws, warnings %q", f.Converged, f.Draws, f.Warnings)
	}
}

// TestSequentialDeterministicAcrossGOMAXPROCS: a warm-started sequential
// fit gives bit-identical draws, estimates and stopping point whatever
// GOMAXPROCS is, and the same for BRisk.
func TestSequentialDeterministicAcrossGOMAXPROCS(t *testing.T) {
	s := newSeqSetting(t)
	adRaw, adBRisk := seqPilot(t, s)
	tab := s.pool(t, 4, 0.04)
	run := func(procs int) (*HierFit, *HierFit) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		f := seqTestFit(t, tab, adRaw, 9, Target{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.95}}, Target{Stat: QuantileDiff, A: 1, B: 0, P: 0.05, Bounds: []float64{0}})
		o := seqOptions(9, adBRisk, []Target{{Stat: ProbBelow, A: 1, B: 0, Bounds: []float64{0.05}}})
		o.Workers = 0
		br, err := BRisk(tab, 0, 2, BRiskOptions{Hier: o, Challengers: []int{1}})
		if err != nil {
			t.Fatal(err)
		}
		return f, br.Fit
	}
	a1, b1 := run(1)
	a4, b4 := run(4)
	for _, pair := range [][2]*HierFit{{a1, a4}, {b1, b4}} {
		x, y := pair[0], pair[1]
		if x.Draws != y.Draws || x.StoppedEarly != y.StoppedEarly {
			t.Fatalf("GOMAXPROCS 1: %d draws (early %v); 4: %d (early %v)", x.Draws, x.StoppedEarly, y.Draws, y.StoppedEarly)
		}
		for v := range x.Names {
			for m := range x.Chains {
				for i, u := range x.Sampler.Draws[v][m] {
					if math.Float64bits(u) != math.Float64bits(y.Sampler.Draws[v][m][i]) {
						t.Fatalf("%s chain %d draw %d differs", x.Names[v], m, i)
					}
				}
			}
		}
		for i, e := range x.Targets {
			f := y.Targets[i]
			if math.Float64bits(e.Value) != math.Float64bits(f.Value) || math.Float64bits(e.MCSE) != math.Float64bits(f.MCSE) {
				t.Errorf("target %d: %v ± %v vs %v ± %v", i, e.Value, e.MCSE, f.Value, f.MCSE)
			}
		}
	}
}

// TestSequentialGeneralPath: on the general path (a skew-normal family) the
// targets are estimated from the draws, every quantity is checked, and a
// clear decision still stops early.
func TestSequentialGeneralPath(t *testing.T) {
	t.Parallel()
	skipInShortMode(t, "a skew-normal fit on the general path")
	r := rand.New(rand.NewPCG(3, 4))
	tab := smallTable(r, 8, 30, 0)
	for j := range tab.Scores[1] {
		tab.Scores[1][j] = tab.Scores[0][j] + 0.15 + 0.02*r.NormFloat64()
	}
	o := HierOptions{Family: SkewNormal{}, Sampler: mcmc.NUTSOptions{Seed: 2}, TargetESS: 4000,
		Sequential: &Sequential{Targets: []Target{{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.95}}}}}
	p := TableBrmsPriors(tab)
	o.Priors = &p
	f, err := FitHier(tab, o)
	if err != nil {
		t.Fatal(err)
	}
	e := f.Targets[0]
	if f.Method != MethodGeneral || e.RaoBlackwell {
		t.Fatalf("method %s, Rao–Blackwellised %v", f.Method, e.RaoBlackwell)
	}
	if !f.StoppedEarly || !f.Converged || !e.Decided || e.Value < 0.95 {
		t.Errorf("stopped early %v, converged %v, decided %v at %v ± %v after %d draws (%v)", f.StoppedEarly, f.Converged, e.Decided, e.Value, e.MCSE, f.Draws, f.Warnings)
	}
	for v, q := range f.Convergence {
		if !(q.Rhat <= 1.01) {
			t.Errorf("%s: R̂ %v in a stopped general-path fit", f.Names[v], q.Rhat)
		}
	}
}

// TestSequentialEnough: Enough replaces the stop rule; it is called only
// with converged estimates and diagnostics.
func TestSequentialEnough(t *testing.T) {
	t.Parallel()
	s := newSeqSetting(t)
	adRaw, _ := seqPilot(t, s)
	tab := s.pool(t, 5, 0.02)
	calls := 0
	o := seqOptions(5, adRaw, []Target{{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.5}}, {Stat: ProbAbove, A: 1, B: 0, Threshold: 0.02, Bounds: []float64{0.5}}})
	o.Sequential.Enough = func(est []TargetEstimate) bool {
		calls++
		for _, e := range est {
			if math.IsNaN(e.Rhat) || !(e.ESS >= 400) && !e.Exact {
				t.Errorf("Enough called with %+v", e)
			}
		}
		return true
	}
	f, err := FitHier(tab, o)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || !f.StoppedEarly {
		t.Errorf("Enough called %d times, stopped early %v", calls, f.StoppedEarly)
	}
}

// TestSequentialOptionsRejected: bad targets, settings and warm starts are
// errors, not panics.
func TestSequentialOptionsRejected(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 1))
	tab := smallTable(r, 5, 8, 0)
	ok := Target{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.95}}
	for _, c := range []struct {
		name string
		seq  Sequential
		want string
	}{
		{"no target", Sequential{}, "no target"},
		{"same system", Sequential{Targets: []Target{{Stat: ProbAbove, A: 1, B: 1, Bounds: []float64{1}}}}, "two different systems"},
		{"out of range", Sequential{Targets: []Target{{Stat: ProbAbove, A: 5, B: 0, Bounds: []float64{1}}}}, "two different systems"},
		{"no statistic", Sequential{Targets: []Target{{A: 1, B: 0, Bounds: []float64{1}}}}, "unknown statistic"},
		{"quantile p", Sequential{Targets: []Target{{Stat: QuantileDiff, A: 1, B: 0, P: 1, Bounds: []float64{0}}}}, "strictly between 0 and 1"},
		{"no bound", Sequential{Targets: []Target{{Stat: MeanDiff, A: 1, B: 0}}}, "no bound"},
		{"NaN bound", Sequential{Targets: []Target{{Stat: MeanDiff, A: 1, B: 0, Bounds: []float64{math.NaN()}}}}, "not a number"},
		{"threshold", Sequential{Targets: []Target{{Stat: ProbBelow, A: 1, B: 0, Threshold: math.Inf(1), Bounds: []float64{0.5}}}}, "threshold"},
		{"K", Sequential{Targets: []Target{ok}, K: -1}, "K"},
		{"MinDraws", Sequential{Targets: []Target{ok}, MinDraws: 2}, "MinDraws"},
	} {
		s := c.seq
		_, err := FitHier(tab, HierOptions{Sequential: &s})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		name string
		ad   mcmc.Adaptation
		want string
	}{
		{"dimension", mcmc.Adaptation{StepSize: 0.3, InvMetric: []float64{1, 1}}, "3"},
		{"step size", mcmc.Adaptation{StepSize: -1, InvMetric: []float64{1, 1, 1}}, "step size"},
		{"metric", mcmc.Adaptation{StepSize: 0.3, InvMetric: []float64{1, 0, 1}}, "inverse metric"},
	} {
		ad := c.ad
		_, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{WarmStart: &ad}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("warm start %s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := (&HierFit{Systems: tab.Systems}).EstimateTargets([]Target{ok}, -2); err == nil {
		t.Errorf("EstimateTargets with k = -2: no error")
	}
}

// TestWarmStartSamplesTheSamePosterior: a warm-started fit (short warmup,
// the pilot's metric) and a cold one agree on every hyper-parameter's mean
// within 5 combined MCSEs, and the warm one converges.
func TestWarmStartSamplesTheSamePosterior(t *testing.T) {
	t.Parallel()
	s := newSeqSetting(t)
	adRaw, _ := seqPilot(t, s)
	tab := s.pool(t, 6, 0.0)
	cold, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 1}, TargetESS: 2000})
	if err != nil {
		t.Fatal(err)
	}
	warm, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 2, WarmStart: &adRaw}, TargetESS: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if !warm.Converged || warm.Sampler.Options.Warmup != (mcmc.NUTSOptions{WarmStart: &adRaw}).WithDefaults().Warmup {
		t.Fatalf("warm start: converged %v, warmup %d (%v)", warm.Converged, warm.Sampler.Options.Warmup, warm.Warnings)
	}
	for _, v := range []int{IdxIntercept, IdxSigma, IdxSDTopic, IdxSDSystem, cold.SystemIndex(1)} {
		a, b := cold.Describe()[v], warm.Describe()[v]
		if z := math.Abs(a.Mean-b.Mean) / math.Hypot(a.MCSEMean, b.MCSEMean); !(z < 5) {
			t.Errorf("%s: cold %.6g ± %.2g, warm %.6g ± %.2g", cold.Names[v], a.Mean, a.MCSEMean, b.Mean, b.MCSEMean)
		}
	}
	ad := cold.Adaptation()
	logMean := 0.0
	for _, e := range cold.Sampler.StepSize {
		logMean += math.Log(e)
	}
	if math.Abs(ad.StepSize-math.Exp(logMean/4)) > 1e-15 || len(ad.InvMetric) != 3 {
		t.Errorf("Adaptation %+v: step size not the chains' geometric mean %v", ad, math.Exp(logMean/4))
	}
}

// TestSequentialCancelled: a cancelled context stops a sequential,
// warm-started fit with the context's error.
func TestSequentialCancelled(t *testing.T) {
	t.Parallel()
	s := newSeqSetting(t)
	adRaw, _ := seqPilot(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := seqOptions(1, adRaw, []Target{{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.95}}})
	o.Sampler.Context = ctx
	if _, err := FitHier(s.pool(t, 1, 0), o); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// TestBRiskDescribe: describing a BRisk result changes nothing a decision
// reads (the differences, P(riskier), the verdict), and its topics at risk
// at the result's level are TopicsAtRisk's on demand.
func TestBRiskDescribe(t *testing.T) {
	t.Parallel()
	s := newSeqSetting(t)
	tab := s.pool(t, 7, -0.01)
	o := HierOptions{Sampler: mcmc.NUTSOptions{Seed: 3}, TargetESS: 400}
	r, err := BRisk(tab, 0, 2, BRiskOptions{Hier: o, Challengers: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	before, converged := slices.Clone(r.Challengers), r.Converged
	at, err := r.TopicsAtRisk(1, r.Level)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Describe()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Systems) != len(tab.Systems) || len(d.Challengers) != 1 || len(d.Challengers[0].Topics) != len(tab.Topics) {
		t.Errorf("description: %d systems, topics %v", len(d.Systems), d.Challengers)
	}
	if !slices.Equal(r.Challengers, before) || r.Converged != converged {
		t.Errorf("after Describe %+v, before %+v", r.Challengers, before)
	}
	if len(at) != len(d.Challengers[0].AtRisk) {
		t.Fatalf("on demand %d topics at risk, described %d", len(at), len(d.Challengers[0].AtRisk))
	}
	for i := range at {
		if at[i] != d.Challengers[0].AtRisk[i] && !(math.IsNaN(at[i].Observed) && math.IsNaN(d.Challengers[0].AtRisk[i].Observed)) {
			t.Errorf("topic %d: %+v vs %+v", i, at[i], d.Challengers[0].AtRisk[i])
		}
	}
	if again, _ := r.Describe(); again != d {
		t.Error("a second Describe computed again")
	}
}

// TestCompiledPriorsAreBitIdentical: the compiled priors and eval give
// every value bit for bit as the priors' LogPDF and the uncompiled eval.
func TestCompiledPriorsAreBitIdentical(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 9))
	priors := []Prior{Exponential{3.7}, Gamma{1, 1}, Gamma{2.5, 0.3}, Gamma{1, 4}, HalfNormal{0.7}, HalfStudentT{3, 2}}
	for _, p := range priors {
		f := compiledPrior(p)
		for range 1000 {
			x := math.Exp(8 * (r.Float64() - 0.5))
			for _, x := range []float64{x, 0, -1, math.Inf(1)} {
				a, da := p.LogPDF(x)
				b, db := f(x)
				if math.Float64bits(a) != math.Float64bits(b) || math.Float64bits(da) != math.Float64bits(db) {
					t.Fatalf("%v at %v: LogPDF %v %v, compiled %v %v", p, x, a, da, b, db)
				}
			}
		}
	}
	for _, sp := range []ScalePriors{
		{Sigma: Exponential{2}, SD: []Prior{Gamma{1, 1}, Gamma{1, 1}}, Relative: true, Scale: 0.21},
		{Sigma: HalfStudentT{3, 2}, SD: []Prior{Gamma{2, 1}, HalfNormal{1}}, Scale: 0.3},
	} {
		a, b := newScales(2), sp.compiledScales()
		for range 1000 {
			u := []float64{4 * r.NormFloat64(), 4 * r.NormFloat64()}
			v := 2 * r.NormFloat64()
			sp.eval(u, v, &a)
			sp.eval(u, v, &b)
			same := math.Float64bits(a.lp) == math.Float64bits(b.lp) && math.Float64bits(a.dlpdv) == math.Float64bits(b.dlpdv) && a.sigma == b.sigma
			for k := range 2 {
				same = same && math.Float64bits(a.dlpdu[k]) == math.Float64bits(b.dlpdu[k]) && a.sd[k] == b.sd[k] && a.x[k] == b.x[k]
			}
			if !same {
				t.Fatalf("%+v at u %v, v %v: eval %+v, compiled %+v", sp, u, v, a, b)
			}
		}
	}
}

// TestPredictiveQuantileMatchesTopicRisks: on BRisk at w = 5 of rb04.csv,
// for every challenger, the predictive quantile target, Rao–Blackwellised
// and from the draws, agrees with the lower ends of TopicRisks' per-topic
// predictive intervals at 95% (their mean over the 50 topics: each topic's
// interval estimates the same quantile from its own replicates) within 5
// MCSEs of the target; and a topics-at-risk count decided by the recipe
// (bound: the (k+1)-th smallest observed difference) is TopicRisks' count
// when no observed difference is near the quantile.
func TestPredictiveQuantileMatchesTopicRisks(t *testing.T) {
	t.Parallel()
	tab := rb04(t)
	champ, chals := rb04Challengers(t, tab)
	br, err := BRisk(tab, champ, 5, BRiskOptions{Hier: seqFullOptions(11), Challengers: chals})
	if err != nil {
		t.Fatal(err)
	}
	desc, err := br.Describe()
	if err != nil {
		t.Fatal(err)
	}
	f := br.Fit
	const p = 0.025
	counted := 0
	for i, c := range chals {
		tg := Target{Stat: PredictiveQuantileDiff, A: c, B: champ, P: p, Bounds: []float64{0}}
		est, err := f.EstimateTargets([]Target{tg, {Stat: PredictiveQuantileDiff, A: c, B: champ, P: p, Bounds: []float64{0}, FromDraws: true}}, 4)
		if err != nil {
			t.Fatal(err)
		}
		tr := desc.Challengers[i].Topics
		lo := 0.0
		var obs []float64
		for _, x := range tr {
			lo += x.Lo
			obs = append(obs, x.Observed)
		}
		lo /= float64(len(tr))
		for _, e := range est {
			if z := math.Abs(e.Value-lo) / e.MCSE; !(z < 5) && !(e.RaoBlackwell && math.Abs(e.Value-lo) < 5*est[1].MCSE/math.Sqrt(float64(len(tr)))) {
				t.Errorf("%s, Rao–Blackwellised %v: %.5f ± %.5f; TopicRisks' mean lower end %.5f", tab.Systems[c], e.RaoBlackwell, e.Value, e.MCSE, lo)
			}
		}
		if z := math.Abs(est[0].Value-est[1].Value) / math.Hypot(est[0].MCSE, est[1].MCSE); !(z < 5) || !(est[0].MCSE < est[1].MCSE) {
			t.Errorf("%s: Rao–Blackwellised %.5f ± %.5f, from the draws %.5f ± %.5f", tab.Systems[c], est[0].Value, est[0].MCSE, est[1].Value, est[1].MCSE)
		}
		// the count recipe
		slices.Sort(obs)
		q := est[0].Value
		count := 0
		for _, o := range obs {
			if o < q {
				count++
			}
		}
		counted += count
		atRisk := len(desc.Challengers[i].AtRisk)
		near := slices.ContainsFunc(obs, func(o float64) bool { return math.Abs(o-q) < 5*est[1].MCSE })
		t.Logf("%s: predictive 2.5%% quantile %.5f ± %.5f (from the draws %.5f ± %.5f), TopicRisks' mean lower end %.5f; %d observed below, %d at risk in TopicRisks",
			tab.Systems[c], q, est[0].MCSE, est[1].Value, est[1].MCSE, lo, count, atRisk)
		if !near && count != atRisk {
			t.Errorf("%s: %d observed differences below the predictive quantile %.5f, TopicRisks has %d at risk", tab.Systems[c], count, q, atRisk)
		}
		for _, k := range []int{count, count - 1} { // count ≤ k holds iff obs[k] ≥ q
			if k < 0 || k >= len(obs) {
				continue
			}
			tg.Bounds = []float64{obs[k]}
			e, _ := f.EstimateTargets([]Target{tg}, 4)
			if !near && (!e[0].Decided || (e[0].Value <= obs[k]) != (count <= k)) {
				t.Errorf("%s, count ≤ %d: the bound %.5f against %.5f ± %.5f: decided %v", tab.Systems[c], k, obs[k], e[0].Value, e[0].MCSE, e[0].Decided)
			}
		}
	}
	if counted == 0 {
		t.Errorf("no topic at risk for any challenger: the count recipe is untested")
	}
}

// TestWarmStartWithoutModeEstimate: a model with no mode estimate (the
// Schur path of an incomplete table) keeps a cold start's warmup of 1000
// when warm-started, unless told otherwise.
func TestWarmStartWithoutModeEstimate(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(21, 22))
	tab := smallTable(r, 6, 12, 0.2)
	// The cold fit serves its adaptation, which its warmup fixes, and the
	// short one its warmup: few draws each (the warm fit's are the defaults).
	cold, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 1, Draws: 100}, TargetESS: 1})
	if err != nil {
		t.Fatal(err)
	}
	ad := cold.Adaptation()
	warm, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 2, WarmStart: &ad}})
	if err != nil {
		t.Fatal(err)
	}
	if warm.Missing == 0 || warm.Sampler.Options.Warmup != 1000 || !warm.Converged {
		t.Errorf("missing %d, warmup %d, converged %v", warm.Missing, warm.Sampler.Options.Warmup, warm.Converged)
	}
	short, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 2, WarmStart: &ad, Warmup: 200, Draws: 100}, TargetESS: 1})
	if err != nil {
		t.Fatal(err)
	}
	if short.Sampler.Options.Warmup != 200 {
		t.Errorf("warmup %d, asked for 200", short.Sampler.Options.Warmup)
	}
}
