package bayes

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// smallBRisk is a BRisk fit on a small simulated table whose system 1 is a
// clear improvement on the champion (system 0) and system 2 a regression.
func smallBRiskTable() *Table {
	r := rand.New(rand.NewPCG(21, 22))
	tab := smallTable(r, 8, 30, 0)
	for j := range tab.Topics {
		tab.Scores[1][j] = tab.Scores[0][j] + 0.15 + 0.02*r.NormFloat64()
		tab.Scores[2][j] = tab.Scores[0][j] - 0.12 + 0.02*r.NormFloat64()
	}
	return tab
}

// TestBRiskResult checks the parts of a BRisk result against each other and
// against what they are computed from: effects and differences against the
// draws, PairwiseProb and ProbBest against counts, the topics at risk
// against the exact Gaussian predictive distribution of the difference, and
// the entry points for other levels (DiffInterval, TopicsAtRisk) against the
// result at its own level.
func TestBRiskResult(t *testing.T) {
	t.Parallel()
	tab := smallBRiskTable()
	r, err := BRisk(tab, 0, 3, BRiskOptions{Challengers: []int{1, 2}, Hier: HierOptions{Sampler: mcmc.NUTSOptions{Seed: 5}, TargetESS: 4000}})
	if err != nil {
		t.Fatal(err)
	}
	f := r.Fit
	if !r.Converged {
		t.Fatalf("not converged: %v", r.Warnings)
	}
	desc, err := r.Describe()
	if err != nil {
		t.Fatal(err)
	}
	for s, e := range desc.Systems {
		if e != f.Interval(f.SystemIndex(s), r.Level) {
			t.Errorf("system %d: %+v, not its effect's interval", s, e)
		}
	}
	for i, c := range r.Challengers {
		d := f.SystemDiff(c.System, 0)
		if c.Diff.Mean != stats.ExactMean(d) || c.Diff.Lo != posterior.Quantile(d, 0.025) || c.Diff.Hi != posterior.Quantile(d, 0.975) {
			t.Errorf("%s: diff %+v not the draws' mean and quantiles", c.Name, c.Diff)
		}
		if p := f.PairwiseProb([]int{0, c.System})[0][1]; math.Abs(p-c.PRiskier) > 1e-15 {
			t.Errorf("%s: P(riskier) %v, PairwiseProb %v", c.Name, c.PRiskier, p)
		}
		e, err := r.DiffInterval(c.System, 0.95)
		if err != nil || e != c.Diff {
			t.Errorf("%s: DiffInterval %+v %v, want %+v", c.Name, e, err, c.Diff)
		}
		at, err := r.TopicsAtRisk(c.System, 0.95)
		if err != nil || !slices.Equal(at, desc.Challengers[i].AtRisk) {
			t.Errorf("%s: TopicsAtRisk %v %v, want %v", c.Name, at, err, desc.Challengers[i].AtRisk)
		}
		// Each topic's interval is the 2.5% and 97.5% quantiles of the
		// predictive difference, whose exact CDF given the draws is
		// F(x) = mean over draws of Φ((x − (S_c − S_0))/(√2σ)).
		sig := f.Pooled(IdxSigma)
		F := func(x float64) float64 {
			s := 0.0
			for k, dk := range d {
				s += distuv.UnitNormal.CDF((x - dk) / (math.Sqrt2 * sig[k]))
			}
			return s / float64(len(d))
		}
		// One replicate per (nearly independent) draw: the probability at an
		// estimated quantile has sd √(p(1 − p)/S); 120 checks at 5 sd.
		tol := 5 * math.Sqrt(0.025*0.975/float64(len(d)))
		for _, tr := range desc.Challengers[i].Topics {
			if lo, hi := F(tr.Lo), F(tr.Hi); math.Abs(lo-0.025) > tol || math.Abs(hi-0.975) > tol {
				t.Errorf("%s topic %s: F(lo) = %.4f, F(hi) = %.4f; want 0.025 and 0.975", c.Name, tr.Topic, lo, hi)
			}
			if tr.AtRisk != (tr.Observed < tr.Lo) {
				t.Errorf("%s topic %s: at risk %v with d %v and lo %v", c.Name, tr.Topic, tr.AtRisk, tr.Observed, tr.Lo)
			}
			if want := r.Pool.Scores[c.System][tr.Index] - r.Pool.Scores[0][tr.Index]; tr.Observed != want {
				t.Errorf("%s topic %s: observed %v, pool difference %v", c.Name, tr.Topic, tr.Observed, want)
			}
		}
	}
	if c := r.Challenger(1); c.Diff.Lo <= 0 || c.PRiskier > 0.01 {
		t.Errorf("the clear improvement: diff %+v, P(riskier) %v", c.Diff, c.PRiskier)
	}
	// The topic effect cancels from a difference: every topic shares one
	// predictive distribution, so the intervals agree within Monte Carlo error.
	los := []float64{}
	for _, tr := range desc.Challengers[1].Topics { // challenger 2
		los = append(los, tr.Lo)
	}
	if spread := slices.Max(los) - slices.Min(los); spread > 0.1*(desc.Challengers[1].Topics[0].Hi-los[0]) {
		t.Errorf("lower ends spread over %v", spread)
	}
	all := []int{0, 1, 2, 3}
	pg, pb := f.PairwiseProb(all), f.ProbBest(all)
	sum := 0.0
	for i := range all {
		sum += pb[i]
		for j := range all {
			if i != j && math.Abs(pg[i][j]+pg[j][i]-1) > 1e-12 {
				t.Errorf("P(S_%d > S_%d) + P(S_%d > S_%d) = %v", i, j, j, i, pg[i][j]+pg[j][i])
			}
		}
		if pg[i][i] != 0 {
			t.Errorf("diagonal %v", pg[i][i])
		}
	}
	if math.Abs(sum-1) > 1e-12 || pb[1] < pb[0] {
		t.Errorf("P(best) %v sums to %v", pb, sum)
	}
	if _, err := r.DiffInterval(0, 0.95); err == nil {
		t.Error("DiffInterval of the champion")
	}
	if _, err := r.TopicsAtRisk(1, 1); err == nil {
		t.Error("TopicsAtRisk at level 1")
	}
}

// TestForecastCoverage: on data simulated from the model, about 95% of the
// observed cells lie inside their 95% posterior predictive intervals.
func TestForecastCoverage(t *testing.T) {
	t.Parallel()
	h := NewHierParams(rand.New(rand.NewPCG(3, 1)), 0.3, 0.1, 0.15, 0.03, 20, 40)
	names := func(p string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = p + string(rune('A'+i/26)) + string(rune('a'+i%26))
		}
		return out
	}
	tab, err := h.Scores(rand.New(rand.NewPCG(3, 2)), names("s", 20), names("t", 40), ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 1}, TargetESS: 2000})
	if err != nil {
		t.Fatal(err)
	}
	fc, err := f.Forecast(tab, nil, 0.95, 9)
	if err != nil {
		t.Fatal(err)
	}
	in, n := 0, 0
	for i, row := range fc.Cells {
		for j, c := range row {
			if c.Observed != tab.Scores[fc.Systems[i]][j] {
				t.Fatalf("cell %d,%d: observed %v", i, j, c.Observed)
			}
			if c.Lo <= c.Observed && c.Observed <= c.Hi {
				in++
			}
			n++
		}
	}
	// 800 cells: a binomial sd of 0.8%; the cells are not independent
	// given the fit, so allow 3%.
	if cov := float64(in) / float64(n); math.Abs(cov-0.95) > 0.03 {
		t.Errorf("coverage %.3f of %d cells, want about 0.95", cov, n)
	}
	// a system's replicates do not depend on which systems are forecast
	one, err := f.Forecast(tab, []int{7}, 0.95, 9)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Cells[0], fc.Cells[7]) {
		t.Error("forecasting system 7 alone changed its intervals")
	}
}

// TestBRiskSkewDeterministic: the skew-normal BRisk fit (NUTS with
// MomentParam's coordinates) and its forecasts are bit-identical whatever
// GOMAXPROCS is.
func TestBRiskSkewDeterministic(t *testing.T) {
	tab := smallBRiskTable()
	run := func(procs int) *BRiskResult {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r, err := BRisk(tab, 0, 5, BRiskOptions{Challengers: []int{1, 2},
			Hier: HierOptions{Family: SkewNormal{}, Sampler: mcmc.NUTSOptions{Seed: 8, Warmup: 150, Draws: 100}, TargetESS: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run(1), run(3)
	for v := range a.Fit.Names {
		for m := range a.Fit.Chains {
			if !slices.Equal(a.Fit.Sampler.Draws[v][m], b.Fit.Sampler.Draws[v][m]) {
				t.Fatalf("%s chain %d: draws differ with GOMAXPROCS 1 and 3", a.Fit.Names[v], m)
			}
		}
	}
	da, errA := a.Describe()
	db, errB := b.Describe()
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	for i := range a.Challengers {
		if !slices.Equal(da.Challengers[i].Topics, db.Challengers[i].Topics) {
			t.Fatalf("topic forecasts differ with GOMAXPROCS 1 and 3")
		}
	}
}

// TestMomentParam: on rb04.csv and its BRisk pool the topics are centred
// and the systems not (systems' shrinkage factor is far below 0.9 in the
// pool, where centring them mixed at a bulk-ESS of 42 per 8,000 draws), and
// the preconditioning starts at the data's grand mean.
func TestMomentParam(t *testing.T) {
	t.Parallel()
	tab := rb04(t)
	ch := systemIndex(t, tab, "Champion")
	for _, w := range []float64{1, 5} {
		pool, err := BRiskPool(tab, ch, w)
		if err != nil {
			t.Fatal(err)
		}
		sys, top, y := pool.observed()
		m, err := NewMixedModel(y, []Factor{{"topic", pool.Topics, top}, {"system", pool.Systems, sys}}, SkewNormal{},
			StudentT{3, 0.2, 2.5}, ScalePriors{Sigma: HalfStudentT{3, 2.5}, SD: []Prior{HalfStudentT{3, 2.5}, HalfStudentT{3, 2.5}}, Scale: posterior.SD(y)})
		if err != nil {
			t.Fatal(err)
		}
		p := m.MomentParam()
		if !p.InterceptAtMean || !slices.Equal(p.Factors, []FactorParam{CentredContrasts, NonCentred}) || p.Loc[0] != posterior.Mean(y) {
			t.Errorf("w %g: %v %v, intercept location %v (mean %v)", w, p.InterceptAtMean, p.Factors, p.Loc[0], posterior.Mean(y))
		}
		if a := p.Loc[m.offExtra()]; w == 5 && a > -5 {
			t.Errorf("w 5: α guessed %v from residuals skewed by the loss weight", a)
		}
	}
}

// TestPoolSweep: the sweep's largest pool is the full BRisk fit (same
// draws for the same seed), the artifacts are taken by decreasing mean, and
// m = 0 fits the compared systems alone.
func TestPoolSweep(t *testing.T) {
	t.Parallel()
	tab := smallBRiskTable()
	opt := BRiskOptions{Challengers: []int{1, 2}, Hier: HierOptions{Sampler: mcmc.NUTSOptions{Seed: 2}, TargetESS: 400}}
	steps, err := PoolSweep(tab, 0, 2, []int{0, 2, 99}, opt)
	if err != nil {
		t.Fatal(err)
	}
	full, err := BRisk(tab, 0, 2, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || steps[0].M != 0 || steps[1].M != 2 || steps[2].M != 5 {
		t.Fatalf("steps %+v", steps)
	}
	last := steps[2]
	if last.Champion != full.Fit.Interval(full.Fit.SystemIndex(0), full.Level) || last.Challengers[1].Diff != full.Challengers[1].Diff || last.Challengers[0].PRiskier != full.Challengers[0].PRiskier {
		t.Errorf("the full pool: %+v, BRisk %+v", last.Challengers, full.Challengers)
	}
	mean := func(name string) float64 { return posterior.Mean(tab.Scores[slices.Index(tab.Systems, name)]) }
	for i := 1; i < len(last.Artifacts); i++ {
		if mean(last.Artifacts[i]) > mean(last.Artifacts[i-1]) {
			t.Errorf("artifacts %v not by decreasing mean", last.Artifacts)
		}
	}
	if !slices.Equal(steps[1].Artifacts, last.Artifacts[:2]) {
		t.Errorf("m = 2 took %v, the best two are %v", steps[1].Artifacts, last.Artifacts[:2])
	}
	for _, c := range last.Challengers {
		e := c.Effect
		if want := math.Max(e.Lo-last.Champion.Hi, last.Champion.Lo-e.Hi); c.Gap != want {
			t.Errorf("gap %v, want %v", c.Gap, want)
		}
	}
	if _, err := PoolSweep(tab, 0, 2, []int{1}, BRiskOptions{}); err == nil {
		t.Error("a sweep without challengers")
	}
}

// TestPriorSensitivity: the default sets leave the clear improvement's
// reading unchanged, and a prior that forces the system effects to zero
// (sd_system ~ half_normal(10⁻⁴)) is reported as changing it.
func TestPriorSensitivity(t *testing.T) {
	t.Parallel()
	tab := smallBRiskTable()
	opt := BRiskOptions{Challengers: []int{1, 2}, Hier: HierOptions{Sampler: mcmc.NUTSOptions{Seed: 4}, TargetESS: 1000}}
	ps, err := PriorSensitivityOf(tab, 0, 1, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Fits) != 3 || ps.Fits[0].Name != "rstanarm" {
		t.Fatalf("fits %+v", ps.Fits)
	}
	for _, c := range ps.Changes {
		if c.Challenger == tab.Systems[1] {
			t.Errorf("the clear improvement changed: %+v", c)
		}
	}
	pool, _ := BRiskPool(tab, 0, 1)
	sets := AlternativePriors(pool, nil)[:1]
	squeeze := sets[0].Priors
	squeeze.Relative, squeeze.SDTopic, squeeze.SDSystem = false, HalfNormal{1}, HalfNormal{1e-4}
	sets = append(sets, PriorSet{"squeeze", squeeze})
	ps, err = PriorSensitivityOf(tab, 0, 1, opt, sets)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range ps.Changes {
		if c.Set == "squeeze" && c.Challenger == tab.Systems[1] && c.Quantity == "interval sign" && c.Base == "above 0" && c.Alt == "contains 0" {
			found = true
		}
	}
	if !found || ps.Robust {
		t.Errorf("changes %+v, robust %v; want the improvement's interval sign to change", ps.Changes, ps.Robust)
	}
}
