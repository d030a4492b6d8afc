package bayes

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
)

// HierPriors are the priors of the hierarchical system/topic model
//
//	y_st = β0 + T_t + S_s + e_st,  T_t ~ N(0, SD_topic²),  S_s ~ N(0, SD_system²),  e_st ~ N(0, σ²)
//
// (seed paper 002, eq. 3). With Relative, SDTopic and SDSystem are priors on
// τ_k where SD_k = τ_k·σ (rstanarm's decov); otherwise on SD_k itself.
type HierPriors struct {
	Intercept Prior
	Sigma     Prior
	SDTopic   Prior
	SDSystem  Prior
	Relative  bool
}

// RstanarmPriors returns rstanarm's default priors for stan_glmer(score ~
// (1|topic) + (1|system)) on the observed scores y (statistics.md §1.1):
// intercept Normal(mean y, 2.5·sd y), σ ~ Exponential(rate 1/sd y), and
// SD_k = τ_k·σ with τ_k ~ Gamma(1, 1).
func RstanarmPriors(y []float64) HierPriors {
	return rstanarmPriors(posterior.Mean(y), posterior.SD(y))
}

// TableRstanarmPriors is RstanarmPriors of t's observed scores.
func TableRstanarmPriors(t *Table) HierPriors {
	m, s := t.meanSD()
	return rstanarmPriors(m, s)
}

func rstanarmPriors(m, s float64) HierPriors {
	return HierPriors{
		Intercept: Normal{m, 2.5 * s},
		Sigma:     Exponential{1 / s},
		SDTopic:   Gamma{1, 1},
		SDSystem:  Gamma{1, 1},
		Relative:  true,
	}
}

func (p HierPriors) validate() error {
	if p.Intercept == nil || p.Sigma == nil || p.SDTopic == nil || p.SDSystem == nil {
		return errors.New("priors: intercept, sigma, sd_topic and sd_system all need a prior")
	}
	if p.Intercept.Positive() {
		return fmt.Errorf("intercept prior %v: the intercept is unbounded; use a prior on the real line", p.Intercept)
	}
	for _, q := range []struct {
		name string
		p    Prior
	}{{"sigma", p.Sigma}, {"sd_topic", p.SDTopic}, {"sd_system", p.SDSystem}} {
		if !q.p.Positive() {
			return fmt.Errorf("%s prior %v: needs a prior on (0, ∞), e.g. exponential(1) or half_normal(1)", q.name, q.p)
		}
	}
	return nil
}

// HierMethod selects how the hierarchical model is sampled.
type HierMethod string

const (
	// MethodAuto uses MethodCollapsed when the intercept prior is normal and
	// the table is complete or small enough for the Schur path, else MethodGeneral.
	MethodAuto HierMethod = "auto"
	// MethodCollapsed integrates the intercept and effects out: NUTS explores
	// (σ, SD_topic, SD_system) and the effects are drawn exactly from their
	// Gaussian conditional at every draw. Needs a normal intercept prior.
	MethodCollapsed HierMethod = "collapsed"
	// MethodGeneral runs NUTS on rstanarm's full non-centred density.
	MethodGeneral HierMethod = "general"
)

// schurMaxLevels bounds the smaller factor for the collapsed path on an
// incomplete table: every log-density evaluation costs O(n³) in it.
const schurMaxLevels = 400

// HierOptions configure FitHier. Zero values mean the defaults in brackets.
type HierOptions struct {
	// Sampler settings. Unset fields take Stan's defaults, except
	// AdaptDelta [0.9 collapsed; general 0.99, as the reference rstanarm fits (rstanarm's own default is 0.95)], MaxDepth
	// [10 collapsed; rstanarm's 15 general], Thin [collapsed: (n_S + n_T)/100
	// clamped to 3..10, as a transition costs about a microsecond and
	// thinning lifts the hyper-parameters' tail-ESS per draw from about 0.55
	// (thin 1) to 0.85 (thin 3); 1 general]
	// and Draws [collapsed: ⌈1.4·TargetESS/Chains⌉, at least 1000; general 1000].
	Sampler mcmc.NUTSOptions
	Priors  *HierPriors // [RstanarmPriors of the observed scores]
	Method  HierMethod  // [MethodAuto]
	// TargetESS is the smallest acceptable bulk- and tail-ESS over all
	// quantities [100 per chain, Vehtari et al. 2021]. Below it the chains
	// are extended, up to MaxDraws per chain [10 × Sampler.Draws].
	TargetESS float64
	MaxDraws  int
	RhatMax   float64 // largest acceptable R̂ [1.01]
	// Family is the likelihood [Gaussian]. Any other family runs on the
	// general path (the effects cannot be integrated out exactly).
	Family Family
	// Param is the general path's coordinates [rstanarm's non-centred ones
	// for the Gaussian family, MixedModel.MomentParam's otherwise].
	Param   *MixedParam
	Workers int // goroutines for the diagnostics and Describe [GOMAXPROCS]
	// Sequential, when set, stops the sampling once its targets are decided
	// (see Sequential): for fits that only decide, such as riskgate
	// calibrate's. Quantities shown in reports come from fits without it.
	Sequential *Sequential
}

// SamplerRun is what one fit's NUTS sampling, extension and convergence
// checks produced: the part a HierFit and a SegmentFit share.
type SamplerRun struct {
	Sampler *mcmc.NUTS
	// Convergence holds each quantity's R̂, bulk- and tail-ESS (per the
	// fit's Names), which the convergence checks read; the fit's Describe
	// gives every quantity's full summary.
	Convergence []posterior.Convergence

	Chains       int
	Draws        int // post-warmup draws per chain, after any extension
	Extended     int // draws per chain added to reach TargetESS
	TargetESS    float64
	Divergences  int
	MaxDepthHits int
	EBFMI        []float64 // per chain

	// Converged is false when any R̂ exceeds RhatMax, any bulk- or tail-ESS
	// is below TargetESS after extension, or any transition diverged.
	// Nothing downstream may treat a non-converged fit as evidence.
	Converged bool
	// Failures are the checks that failed, as data (Warnings has them in
	// words, with the sampler's other warnings).
	Failures []ConvergenceFailure
	Warnings []string
}

// HierFit is a fitted hierarchical model.
type HierFit struct {
	Method  HierMethod // the path that ran
	Family  Family     // the likelihood
	Param   MixedParam // the general path's coordinates
	Priors  HierPriors
	Systems []string
	Topics  []string
	Missing int // missing cells
	// Names lists the quantities: intercept, sigma, sd_topic, sd_system,
	// topic[<name>] for every topic, system[<name>] for every system, then
	// the family's parameters (alpha for the skew normal).
	Names []string
	// SamplerRun is what the sampler and the convergence checks produced.
	// A sequential fit checks only some quantities (see Sequential); the
	// others' Convergence entries are NaN.
	SamplerRun

	// Targets are the Sequential targets' estimates from the final draws
	// (nil without Sequential). StoppedEarly: the fit stopped when they were
	// decided, before the draws an ordinary fit takes.
	Targets      []TargetEstimate
	StoppedEarly bool

	model   mcmc.Model // the model sampled (Rao–Blackwellised estimates use it)
	workers int        // HierOptions.Workers

	describeOnce  sync.Once
	summaries     []posterior.VarSummary // Describe's
	marginalsOnce sync.Once
	marginals     []posterior.Marginal // Marginals'
}

// Describe returns every quantity's full posterior summary, per Names:
// posterior.SummarizeAll of the draws (mean, quantiles, HDI, MCSEs and the
// diagnostics). Nothing a decision reads needs it, so fitting leaves it
// out: it is computed on the first call and kept (the draws must not
// change after it). Its R̂, bulk- and tail-ESS are Convergence's, bit for
// bit: taken from it wherever the fit checked them
// (posterior.SummarizeAllChecked), computed for the others.
func (f *HierFit) Describe() []posterior.VarSummary {
	f.describeOnce.Do(func() { f.summaries = posterior.SummarizeAllChecked(f.Sampler.Draws, f.Convergence, f.workers) })
	return f.summaries
}

// Marginals returns every quantity's posterior.Marginal, per Names: the
// mean, SD, quantiles and HDI that reports show beside the convergence
// figures (AllConvergence), Describe's bit for bit at a third of its cost.
// Computed on the first call and kept, as Describe.
func (f *HierFit) Marginals() []posterior.Marginal {
	f.marginalsOnce.Do(func() { f.marginals = posterior.Marginals(f.Sampler.Draws, f.workers) })
	return f.marginals
}

// Adaptation is the adaptation of f's sampler (mcmc.NUTS.Adaptation), to
// warm-start fits of tables of the same shape with the same method and
// family (HierOptions.Sampler.WarmStart).
func (f *HierFit) Adaptation() mcmc.Adaptation { return f.Sampler.Adaptation() }

// ConvergenceFailure is one convergence check a fit failed.
type ConvergenceFailure struct {
	Check string  // "rhat", "bulk-ESS", "tail-ESS" or "divergences"
	Param string  // the worst quantity ("" for divergences)
	Value float64 // its R̂ or ESS, or the number of divergent transitions
	Limit float64 // the R̂ limit or the ESS target (0 for divergences)
}

// Indexes of the quantities in HierFit.Names.
const (
	IdxIntercept = 0
	IdxSigma     = 1
	IdxSDTopic   = 2
	IdxSDSystem  = 3
)

// TopicIndex is the position of topic t in Names.
func (f *HierFit) TopicIndex(t int) int { return 4 + t }

// SystemIndex is the position of system s in Names.
func (f *HierFit) SystemIndex(s int) int { return 4 + len(f.Topics) + s }

// FamilyIndex is the position of the family's parameter j in Names.
func (f *HierFit) FamilyIndex(j int) int { return 4 + len(f.Topics) + len(f.Systems) + j }

// Draws of quantity v, chains[m][i].
func (f *HierFit) DrawsOf(v int) [][]float64 { return f.Sampler.Draws[v] }

// Prob is the posterior probability of an event over the joint draws: the
// share of draws (all chains) at which event, given every quantity's value
// in Names order, is true. For example P(S_a > S_b):
//
//	f.Prob(func(x []float64) bool { return x[f.SystemIndex(a)] > x[f.SystemIndex(b)] })
func (f *HierFit) Prob(event func(x []float64) bool) float64 {
	x := make([]float64, len(f.Names))
	hits, n := 0, 0
	for m := range f.Chains {
		for i := range f.Draws {
			for v := range x {
				x[v] = f.Sampler.Draws[v][m][i]
			}
			if event(x) {
				hits++
			}
			n++
		}
	}
	return float64(hits) / float64(n)
}

// FitHier fits the hierarchical system/topic model to t (NaN = missing cell)
// and checks its convergence with the diagnostics of Vehtari et al. (2021)
// (HierFit.Describe summarises every quantity).
//
// The collapsed path (MethodCollapsed) samples only log σ and the two log
// group-SD coordinates with NUTS, on the marginal density with the intercept
// and effects integrated out (hier_balanced.go for complete tables,
// hier_schur.go otherwise), and draws the intercept and every effect exactly
// from their Gaussian conditional at each kept draw; the general path
// (MethodGeneral) runs NUTS on rstanarm's full density (MixedModel). Both
// sample the same posterior as rstanarm's stan_glmer(score ~ (1|topic) +
// (1|system)) with the given priors (statistics.md §1.3).
//
// Chains run in parallel with sources PCG(Seed, chain); the result is
// bit-identical for a given seed whatever GOMAXPROCS is. While the smallest
// bulk- or tail-ESS is below TargetESS the chains are extended, up to
// MaxDraws; the fit is then marked Converged or not (see HierFit).
func FitHier(t *Table, opt HierOptions) (*HierFit, error) {
	h, err := setUpHier(t, opt)
	if err != nil {
		return nil, err
	}
	return h.run()
}

// hierSetup is a fit FitHier has set up: the path, the model it samples
// and the sampler's settings before their defaults.
type hierSetup struct {
	t      *Table
	opt    HierOptions
	method HierMethod
	fam    Family
	priors HierPriors
	model  mcmc.Model
	so     mcmc.NUTSOptions
	target float64 // TargetESS
}

// setUpHier chooses FitHier's path and model for t and the sampler's
// settings for that path.
func setUpHier(t *Table, opt HierOptions) (*hierSetup, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	ym, ysd := t.meanSD()
	priors := rstanarmPriors(ym, ysd)
	if opt.Priors != nil {
		priors = *opt.Priors
	}
	if err := priors.validate(); err != nil {
		return nil, err
	}
	method := opt.Method
	if method == "" {
		method = MethodAuto
	}
	fam := opt.Family
	if fam == nil {
		fam = Gaussian{}
	}
	_, gaussian := fam.(Gaussian)
	normal, isNormal := priors.Intercept.(Normal)
	complete := t.Complete()
	nSmall := min(len(t.Systems), len(t.Topics))
	switch method {
	case MethodAuto:
		method = MethodGeneral
		if gaussian && isNormal && (complete || nSmall <= schurMaxLevels) {
			method = MethodCollapsed
		}
	case MethodCollapsed:
		if !gaussian {
			return nil, fmt.Errorf("the collapsed method needs the gaussian family, not %s", fam.Name())
		}
		if !isNormal {
			return nil, fmt.Errorf("the collapsed method needs a normal intercept prior, not %v", priors.Intercept)
		}
	case MethodGeneral:
	default:
		return nil, fmt.Errorf("unknown method %q (auto, collapsed, general)", method)
	}
	sp := ScalePriors{Sigma: priors.Sigma, SD: []Prior{priors.SDTopic, priors.SDSystem}, Relative: priors.Relative, Scale: ysd}

	// A sequential fit, which needs a few hundred ESS rather than
	// thousands, thins the collapsed path only for the cost of the draws
	// (1 for rb04): per transition, thinning lowers the ESS.
	minThin := 3
	if opt.Sequential != nil {
		minThin = 1
	}
	so, target := hierSampling(opt.Sampler, opt.TargetESS, method, gaussian, len(t.Systems)+len(t.Topics), minThin)
	var model mcmc.Model
	if method == MethodCollapsed {
		v0 := normal.Sigma * normal.Sigma
		if complete {
			model = newBalancedModel(t, normal.Mu, v0, sp)
		} else {
			model = newSchurModel(t, normal.Mu, v0, sp)
		}
	} else {
		sys, top, yy := t.observed()
		mm, err := NewMixedModel(yy, []Factor{{"topic", t.Topics, top}, {"system", t.Systems, sys}}, fam, priors.Intercept, sp)
		if err != nil {
			return nil, err
		}
		var param MixedParam
		switch {
		case opt.Param != nil:
			param = *opt.Param
		case !gaussian:
			param = mm.MomentParam()
		}
		if mm, err = mm.WithParam(param); err != nil {
			return nil, err
		}
		model = mm // factors topic then system: Names are hierNames' layout, then the family's parameters
	}
	return &hierSetup{t: t, opt: opt, method: method, fam: fam, priors: priors, model: model, so: so, target: target}, nil
}

// hierSampling completes the sampler settings so leaves at zero for a fit on
// the method's path over a model of levels topic and system levels, and
// returns them with the target ESS (targetESS, or 100 per chain). The
// collapsed path adapts to 0.9 and thins by the model's size, at least
// minThin: a hyper-parameter transition costs about a microsecond, drawing
// the effects about 5 ns per level per kept draw, so it thins more when the
// draws are dear (3 for rb04, 10 for 1,000 × 10,000); it draws enough for the
// target (at least 1,000 per chain). The general path takes rstanarm's
// settings for a normal likelihood (adapt_delta 0.99, tree depth 15, as the
// reference fits were run) and generalAdaptDelta for another.
func hierSampling(so mcmc.NUTSOptions, targetESS float64, method HierMethod, gaussian bool, levels, minThin int) (mcmc.NUTSOptions, float64) {
	chains := so.Chains
	if chains == 0 {
		chains = 4
	}
	target := targetESS
	if target <= 0 {
		target = 100 * float64(chains)
	}
	switch {
	case method == MethodCollapsed:
		if so.AdaptDelta == 0 {
			so.AdaptDelta = 0.9
		}
		if so.Thin == 0 {
			so.Thin = min(10, max(minThin, levels/100))
		}
		if so.Draws == 0 {
			so.Draws = max(1000, int(math.Ceil(1.4*target/float64(chains))))
		}
	case gaussian:
		if so.AdaptDelta == 0 {
			so.AdaptDelta = 0.99
		}
		if so.MaxDepth == 0 {
			so.MaxDepth = 15
		}
	case so.AdaptDelta == 0:
		so.AdaptDelta = generalAdaptDelta
	}
	return so, target
}

// run samples h's model and checks the fit's convergence.
func (h *hierSetup) run() (*HierFit, error) {
	t, opt, model := h.t, h.opt, h.model
	so := h.so.WithDefaults()
	f := &HierFit{Method: h.method, Family: h.fam, Priors: h.priors, Systems: t.Systems, Topics: t.Topics, Names: model.Names(),
		SamplerRun: SamplerRun{Chains: so.Chains}}
	if mm, ok := model.(*MixedModel); ok {
		f.Param = mm.Param
	}
	for _, row := range t.Scores {
		for _, v := range row {
			if math.IsNaN(v) {
				f.Missing++
			}
		}
	}
	f.TargetESS = h.target
	f.model = model
	var seq *Sequential
	if opt.Sequential != nil {
		s, err := opt.Sequential.withDefaults(so.Chains, len(t.Systems))
		if err != nil {
			return nil, err
		}
		seq = &s
	}
	if so.WarmStart != nil {
		if err := so.WarmStart.Validate(model.Dim()); err != nil {
			return nil, err
		}
		if _, ok := model.(mcmc.ModeStarter); !ok && opt.Sampler.Warmup == 0 {
			// chains that start at random need a cold start's burn-in
			so.Warmup = 1000
		}
	}
	if err := f.sample(model, so, sampling{maxDraws: opt.MaxDraws, rhatMax: opt.RhatMax, workers: opt.Workers, sequential: seq}); err != nil {
		return nil, err
	}
	return f, nil
}

// sampling is how HierFit.sample runs the sampler. Zero values mean the
// defaults in brackets.
type sampling struct {
	maxDraws   int         // draws per chain at most [10 × the sampler's Draws]
	rhatMax    float64     // largest acceptable R̂ [1.01]
	workers    int         // goroutines for the diagnostics [GOMAXPROCS]
	sequential *Sequential // stop as it says (nil: an ordinary fit)
}

// sample runs NUTS on model until every bulk- and tail-ESS reaches
// f.TargetESS or s.maxDraws per chain, then fills f's draws, convergence
// diagnostics and sampler statistics and checks convergence (R̂ ≤
// s.rhatMax). With s.sequential it samples as Sequential says instead.
func (f *HierFit) sample(model mcmc.Model, so mcmc.NUTSOptions, s sampling) error {
	maxDraws, rhatMax := s.maxDraws, s.rhatMax
	if maxDraws <= 0 {
		maxDraws = 10 * so.Draws
	}
	if rhatMax == 0 {
		rhatMax = 1.01
	}
	f.workers = s.workers
	f.Sampler = mcmc.NewNUTS(model, so)
	if s.sequential != nil {
		return f.sampleSequential(*s.sequential, rhatMax, so.Draws, maxDraws)
	}
	if err := f.Sampler.Run(); err != nil {
		return err
	}
	f.Convergence = posterior.SummarizeConvergence(f.Sampler.Draws, f.workers)
	for {
		n := f.Sampler.Len()
		minESS := f.minESS()
		if !(minESS < f.TargetESS) || n >= maxDraws || math.IsNaN(minESS) {
			break
		}
		// ESS grows about linearly with the draws; aim 10% beyond the target.
		want := int(math.Ceil(float64(n) * f.TargetESS / math.Max(minESS, 1) * 1.1))
		want = min(max(want, n+n/4), maxDraws)
		if err := f.Sampler.Extend(want - n); err != nil {
			return err
		}
		f.Convergence = posterior.SummarizeConvergence(f.Sampler.Draws, f.workers)
	}
	f.Draws = f.Sampler.Len()
	f.Extended = f.Draws - so.Draws
	f.Divergences = f.Sampler.Divergences()
	f.MaxDepthHits = f.Sampler.MaxDepthHits()
	for m := range so.Chains {
		f.EBFMI = append(f.EBFMI, posterior.EBFMI(f.Sampler.Energies(m)))
	}
	f.check(rhatMax)
	return nil
}

// minESS is the smallest bulk- or tail-ESS over all quantities (NaN if any is NaN).
func (f *HierFit) minESS() float64 {
	m := math.Inf(1)
	for _, s := range f.Convergence {
		if math.IsNaN(s.ESSBulk) || math.IsNaN(s.ESSTail) {
			return math.NaN()
		}
		m = min(m, s.ESSBulk, s.ESSTail)
	}
	return m
}

// samplerWarnings adds the warnings that do not fail a fit: transitions at
// the maximum tree depth, a low E-BFMI.
func (f *HierFit) samplerWarnings() {
	if f.MaxDepthHits > 0 {
		f.Warnings = append(f.Warnings, fmt.Sprintf("%d transitions stopped at the maximum tree depth %d", f.MaxDepthHits, f.Sampler.Options.MaxDepth))
	}
	for m, e := range f.EBFMI {
		if e < 0.2 {
			f.Warnings = append(f.Warnings, fmt.Sprintf("chain %d: E-BFMI %.3f < 0.2 (the sampler explores the energy poorly)", m+1, e))
		}
	}
}

// check sets Converged, Failures and Warnings.
func (f *HierFit) check(rhatMax float64) {
	f.Converged = true
	f.Failures = nil
	failure := func(c ConvergenceFailure, format string, a ...any) {
		f.Converged = false
		f.Failures = append(f.Failures, c)
		f.Warnings = append(f.Warnings, fmt.Sprintf(format, a...))
	}
	// worst is the quantity with the worst value of get (NaN first).
	worst := func(get func(posterior.Convergence) float64, worse func(v, w float64) bool) (int, float64) {
		wi, wv := -1, 0.0
		for i, s := range f.Convergence {
			v := get(s)
			if wi < 0 || math.IsNaN(v) || worse(v, wv) {
				wi, wv = i, v
				if math.IsNaN(v) {
					break
				}
			}
		}
		return wi, wv
	}
	larger := func(v, w float64) bool { return v > w }
	smaller := func(v, w float64) bool { return v < w }
	if i, r := worst(func(s posterior.Convergence) float64 { return s.Rhat }, larger); math.IsNaN(r) || r > rhatMax {
		failure(ConvergenceFailure{Check: "rhat", Param: f.Names[i], Value: r, Limit: rhatMax}, "R-hat of %s is %.4g (> %g): the chains disagree", f.Names[i], r, rhatMax)
	}
	bi, b := worst(func(s posterior.Convergence) float64 { return s.ESSBulk }, smaller)
	ti, tl := worst(func(s posterior.Convergence) float64 { return s.ESSTail }, smaller)
	if math.IsNaN(b) || b < f.TargetESS {
		failure(ConvergenceFailure{Check: "bulk-ESS", Param: f.Names[bi], Value: b, Limit: f.TargetESS}, "bulk-ESS of %s is %.0f, below the target %.0f after %d draws per chain", f.Names[bi], b, f.TargetESS, f.Draws)
	}
	if math.IsNaN(tl) || tl < f.TargetESS {
		failure(ConvergenceFailure{Check: "tail-ESS", Param: f.Names[ti], Value: tl, Limit: f.TargetESS}, "tail-ESS of %s is %.0f, below the target %.0f after %d draws per chain", f.Names[ti], tl, f.TargetESS, f.Draws)
	}
	if f.Divergences > 0 {
		failure(ConvergenceFailure{Check: "divergences", Value: float64(f.Divergences)}, "%d divergent transitions after warmup", f.Divergences)
	}
	f.samplerWarnings()
}
