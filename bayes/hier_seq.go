package bayes

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskgate/riskgate/bayes/posterior"
)

// Sequential decisions: a fit that only has to decide whether a few
// posterior quantities are beyond their bounds stops sampling as soon as
// each is beyond every bound by more than K Monte Carlo standard errors,
// once the convergence checks pass on what it has drawn. A P(better) of
// 0.999 or 0.3 against a bound of 0.95 is settled by a few hundred draws;
// one within a few MCSE of its bound runs to the full ESS target as any fit.

// Sequential configures sequential stopping of a fit (HierOptions.Sequential).
// Zero values mean the defaults in brackets.
//
// The fit draws MinDraws per chain after the warmup and checks; until it
// stops, it draws more — what the smallest ESS or the nearest undecided
// bound needs (an MCSE falls as 1/√draws), 10% beyond, at least a quarter
// and at most four times the draws so far — and checks again. It stops
// early when
//   - no post-warmup transition diverged;
//   - every target is Decided (or Enough(estimates) holds, when set): by
//     its Rao–Blackwellised estimate or, when that is not decided with an
//     ESS ≥ MinESS, by its estimate from the draws (FromDraws), whose ESS
//     is nearly the number of draws where the former's is the variance
//     parameters' (a third of the draws on rb04-like pools) — the
//     estimate that decided is the target's TargetEstimate;
//   - every target's draws of S_A − S_B have R̂ ≤ RhatMax and bulk- and
//     tail-ESS ≥ MinESS, and the ESS behind its MCSE (TargetEstimate.ESS)
//     is ≥ MinESS, with R̂ ≤ RhatMax for the per-draw values of a
//     Rao–Blackwellised estimate (unless they are constant: it is then
//     exact);
//   - the checked quantities have R̂ ≤ RhatMax: the parameters the sampler
//     explores (on the collapsed path σ, SD_topic and SD_system, every
//     other quantity being drawn exactly given them), every quantity on the
//     general path.
//
// It stops at its full target when every ESS above (bulk, tail and the
// estimators') and the checked quantities' bulk- and tail-ESS reach
// TargetESS, or at MaxDraws per chain; it is then Converged when every R̂
// above is ≤ RhatMax, every ESS ≥ TargetESS and no transition diverged, as
// an ordinary fit is on all its quantities, and its targets are estimated
// from all its draws (Decided or not). Either way only the checked
// quantities' convergence is known (HierFit.Convergence holds NaN for the
// others): the fit is for deciding, not for reports.
//
// Repeated looks at K = 4: a look wrongly decides when an estimate is more
// than 4 of its MCSEs from the truth (probability 3·10⁻⁵ for a normal
// error, one-sided), so even twenty looks leave below 10⁻³ — and such a
// look only matters when the truth is close to the bound.
type Sequential struct {
	Targets []Target
	// K is the margin in MCSEs by which a target's estimate must be beyond
	// every bound [4].
	K float64
	// MinDraws is the number of draws per chain before the first check
	// [MinESS/chains, rounded up].
	MinDraws int
	// MinESS is the smallest ESS of an early stop [100 per chain, as
	// Vehtari et al. (2021) recommend for R̂ and the MCSEs to be reliable].
	MinESS float64
	// Enough, when set, replaces "every target Decided" as the stop rule,
	// for a caller whose decision is settled by fewer targets (a rule that
	// fails settles its challenger whatever the others say). It is called
	// only when the convergence checks above pass, with every target's
	// estimate and diagnostics.
	Enough func(est []TargetEstimate) bool
}

// TargetStat is the statistic of a decision quantity.
type TargetStat int

const (
	// ProbAbove is P(S_A − S_B > Threshold).
	ProbAbove TargetStat = iota + 1
	// ProbBelow is P(S_A − S_B < Threshold).
	ProbBelow
	// MeanDiff is E[S_A − S_B].
	MeanDiff
	// QuantileDiff is the P-quantile of S_A − S_B.
	QuantileDiff
	// PredictiveQuantileDiff is the P-quantile of the posterior predictive
	// distribution of y_rep[A, t] − y_rep[B, t], a replicated difference on
	// one topic: the same for every topic, as the topic effect cancels. A
	// topics-at-risk count (HierFit.TopicRisks) is the number of topics
	// whose observed difference lies below it at P = (1 − level)/2: the
	// count is at most k exactly when the (k+1)-th smallest observed
	// difference is at least the quantile, so that difference is the
	// target's bound.
	PredictiveQuantileDiff
)

func (s TargetStat) String() string {
	switch s {
	case ProbAbove:
		return "P(S_a - S_b > t)"
	case ProbBelow:
		return "P(S_a - S_b < t)"
	case MeanDiff:
		return "E[S_a - S_b]"
	case QuantileDiff:
		return "quantile of S_a - S_b"
	case PredictiveQuantileDiff:
		return "predictive quantile of y_a - y_b"
	}
	return fmt.Sprintf("TargetStat(%d)", int(s))
}

// Target is a decision quantity of a hierarchical fit, a statistic of the
// difference of two system effects S_A − S_B (A and B index the table's
// systems), with the bounds a rule compares it with.
type Target struct {
	Stat      TargetStat
	A, B      int
	Threshold float64 // ProbAbove, ProbBelow: the t of P(S_A − S_B ≷ t)
	P         float64 // QuantileDiff, PredictiveQuantileDiff: the probability, in (0, 1)
	// Bounds are the values the rule compares the statistic with (one for
	// at_least or at_most, two for a range): the target is decided when its
	// estimate is farther than K·MCSE from every bound.
	Bounds []float64
	// FromDraws estimates the statistic from the draws of S_A − S_B even
	// where a Rao–Blackwellised estimate exists.
	FromDraws bool
}

// TargetEstimate is a target's estimate from a fit's draws.
//
// On the collapsed path of a complete table S_A − S_B is, given the draw's
// σ and SD_system, normal with mean μ and SD s (see balancedModel's
// contrastMoments), so a statistic is estimated Rao–Blackwellised — the
// average over the draws of its exact conditional value:
//
//	P(S_A − S_B > t) ≈ mean_i Φ((μ_i − t)/s_i),   E[S_A − S_B] ≈ mean_i μ_i,
//	q_p: mean_i Φ((q − μ_i)/s_i) = p,
//
// and the predictive quantile likewise with s_i² + 2σ_i² for s_i² (a
// replicated difference adds two independent errors),
// whose Monte Carlo error is only that of the variance parameters' draws,
// far below that of counting draws (Gelfand & Smith 1990; Robert & Casella,
// Monte Carlo Statistical Methods, §4.2). MCSE is posterior's mcse_mean of
// the per-draw values (MCSEMean), for the quantile mapped through the
// mixture's density at q (delta method): MCSE(F̂(q))/f̂(q).
//
// Otherwise (another path, or FromDraws) the statistic is that of the draws
// d_i of S_A − S_B: the share of d_i beyond t with the MCSE of that
// indicator's mean (when every draw is on one side, the MCSE of a share
// ½/(S + 1) of S draws at the draws' bulk-ESS, so that a few hundred draws
// never look certain); the mean with MCSEMean; the type-7 quantile with
// MCSEQuantile; the predictive quantile as the quantile of d_i plus the
// difference of two errors drawn from the family at each draw (stream
// PCG(seed, predictiveStream)).
type TargetEstimate struct {
	Target
	Value        float64
	MCSE         float64
	RaoBlackwell bool
	// Exact: the per-draw values a Rao–Blackwellised estimate averages are
	// constant to machine precision, so it has no Monte Carlo error (MCSE
	// 0; ESS and ValuesRhat are NaN and not required).
	Exact bool
	// Rhat, ESSBulk and ESSTail are the convergence diagnostics of the
	// draws of S_A − S_B, the quantity itself.
	Rhat, ESSBulk, ESSTail float64
	// ESS is the effective sample size behind MCSE: posterior's ess_mean
	// of the averaged per-draw values (Rao–Blackwellised, or the indicator
	// of a share of draws; the draws' bulk-ESS when the indicator is
	// constant), ess_mean of the draws for a mean, ess_quantile for a
	// quantile. ValuesRhat is R̂ of a Rao–Blackwellised estimate's
	// per-draw values (NaN otherwise).
	ESS, ValuesRhat float64
	// Decided: Value is farther than K·MCSE from every bound.
	Decided bool
}

const (
	defaultSeqK = 4
)

// withDefaults checks s and its targets against a fit of nSys systems with
// the given chains, and fills the defaults.
func (s Sequential) withDefaults(chains, nSys int) (Sequential, error) {
	if len(s.Targets) == 0 {
		return s, errors.New("sequential: no target to decide")
	}
	if s.K == 0 {
		s.K = defaultSeqK
	}
	if !(s.K > 0) || math.IsInf(s.K, 0) {
		return s, fmt.Errorf("sequential: K %v is not a positive number", s.K)
	}
	if s.MinESS == 0 {
		s.MinESS = 100 * float64(chains)
	}
	if !(s.MinESS > 0) || math.IsInf(s.MinESS, 0) {
		return s, fmt.Errorf("sequential: MinESS %v is not a positive number", s.MinESS)
	}
	if s.MinDraws == 0 {
		s.MinDraws = int(math.Ceil(s.MinESS / float64(chains)))
	}
	if s.MinDraws < 4 {
		return s, fmt.Errorf("sequential: MinDraws %d: the diagnostics need at least 4 draws per chain", s.MinDraws)
	}
	for i, t := range s.Targets {
		if err := t.validate(nSys); err != nil {
			return s, fmt.Errorf("sequential: target %d: %w", i+1, err)
		}
	}
	return s, nil
}

// validate checks t against a fit of nSys systems.
func (t Target) validate(nSys int) error {
	if t.A < 0 || t.A >= nSys || t.B < 0 || t.B >= nSys || t.A == t.B {
		return fmt.Errorf("systems %d and %d: expected two different systems of the %d", t.A, t.B, nSys)
	}
	switch t.Stat {
	case ProbAbove, ProbBelow:
		if math.IsNaN(t.Threshold) || math.IsInf(t.Threshold, 0) {
			return fmt.Errorf("threshold %v is not a number", t.Threshold)
		}
	case MeanDiff:
	case QuantileDiff, PredictiveQuantileDiff:
		if !(t.P > 0 && t.P < 1) {
			return fmt.Errorf("quantile probability %v: expected a number strictly between 0 and 1", t.P)
		}
	default:
		return fmt.Errorf("unknown statistic %d", int(t.Stat))
	}
	if len(t.Bounds) == 0 {
		return errors.New("no bound: a target without one is never decided")
	}
	for _, b := range t.Bounds {
		if math.IsNaN(b) || math.IsInf(b, 0) {
			return fmt.Errorf("bound %v is not a number", b)
		}
	}
	return nil
}

// sampleSequential samples f (see Sequential): s.MinDraws per chain, then
// more in growing batches, checking after each whether the fit may stop
// early or has reached its full target (and at least fullDraws, the draws of
// the full-length fit), up to maxDraws per chain.
func (f *HierFit) sampleSequential(s Sequential, rhatMax float64, fullDraws, maxDraws int) error {
	n := 0
	next := min(s.MinDraws, maxDraws)
	for {
		if err := f.Sampler.Extend(next - n); err != nil {
			return err
		}
		n = next
		c := f.seqCheck(s, rhatMax)
		// A fit not decided early is the full-length fit: at least the draws
		// FitHier would take (fullDraws), so that its convergence verdict is
		// theirs — fewer draws give a noisier R̂ that fails more often.
		if c.early || (c.full && n >= fullDraws) || n >= maxDraws {
			f.finishSequential(s, c, rhatMax, maxDraws)
			return nil
		}
		next = min(maxDraws, int(math.Ceil(float64(n)*c.grow)))
		if c.full {
			next = min(maxDraws, max(next, fullDraws))
		}
	}
}

// Growth of the draws between two checks: at least a quarter more (so that
// the checks cost a bounded share of the sampling), at most four times
// (an early MCSE or ESS is itself noisy).
const (
	seqMinGrowth = 1.25
	seqMaxGrowth = 4
)

// checkedQuantities are the quantities whose convergence a sequential fit
// checks beside its targets: on the collapsed path the three the sampler
// explores (every other is drawn exactly given them), else all.
func (f *HierFit) checkedQuantities() []int {
	if f.Method == MethodCollapsed {
		return []int{IdxSigma, IdxSDTopic, IdxSDSystem}
	}
	all := make([]int, len(f.Names))
	for i := range all {
		all[i] = i
	}
	return all
}

// seqState is one check of a sequential fit.
type seqState struct {
	est     []TargetEstimate
	checked []int
	sums    []posterior.Convergence // of checked (nil until needed)
	early   bool                    // the early stop's conditions hold
	full    bool                    // every ESS has reached the full target
	grow    float64                 // factor for the next batch when neither
}

// seqCheck checks the current draws, cheapest parts first. An early stop
// needs no divergence, every target's estimator ESS ≥ MinESS, every target
// Decided (or Enough), its draws' R̂ ≤ rhatMax and bulk- and tail-ESS ≥
// MinESS, its per-draw values' R̂ ≤ rhatMax and the checked quantities'
// R̂ ≤ rhatMax. The full target is every ESS of the targets and the checked
// quantities ≥ TargetESS. Otherwise grow is what the smallest ESS or the
// nearest undecided bound needs (MCSE falls as 1/√n) to stop early, but
// no more than the full target needs, 10% beyond, within [seqMinGrowth,
// seqMaxGrowth].
func (f *HierFit) seqCheck(s Sequential, rhatMax float64) seqState {
	c := seqState{checked: f.checkedQuantities()}
	needEarly, needFull := 1.0, 1.0
	early := f.Sampler.Divergences() == 0
	work := make([]*targetWork, len(s.Targets))
	essMin := math.Inf(1) // of the estimators
	for i, t := range s.Targets {
		w := f.estimate(t, s.K)
		if w.e.RaoBlackwell && !w.e.Exact && !(w.e.Decided && w.e.ESS >= s.MinESS) {
			// The Rao–Blackwellised estimate's ESS is that of the variance
			// parameters' draws (about a third of the draws on rb04-like
			// pools), the draws' own nearly all of them: a quantity far
			// from its bound is decided by counting draws long before.
			byDraws := t
			byDraws.FromDraws = true
			if alt := f.estimate(byDraws, s.K); alt.e.Decided && alt.e.ESS >= s.MinESS {
				alt.e.FromDraws = false // the caller's target, as given
				w = alt
			}
		}
		work[i] = w
		e := w.e
		if !e.Exact {
			essMin = min(essMin, e.ESS)
		}
		if s.Enough == nil && !e.Decided {
			early = false
			gap := math.Inf(1)
			for _, b := range t.Bounds {
				gap = min(gap, math.Abs(e.Value-b))
			}
			needEarly = max(needEarly, math.Pow(s.K*e.MCSE/gap, 2))
		}
	}
	if !(essMin >= s.MinESS) {
		early = false
		needEarly = max(needEarly, s.MinESS/essMin)
	}
	fullESS := essMin
	if early || !(essMin < f.TargetESS) {
		// the diagnostics, needed now
		c.est = make([]TargetEstimate, len(work))
		for i, w := range work {
			w.diagnose()
			e := w.e
			c.est[i] = e
			lo := min(e.ESSBulk, e.ESSTail)
			fullESS = min(fullESS, lo)
			if !(lo >= s.MinESS) {
				early = false
				needEarly = max(needEarly, s.MinESS/lo)
			}
			if !(e.Rhat <= rhatMax) || (e.RaoBlackwell && !e.Exact && !(e.ValuesRhat <= rhatMax)) {
				early = false
			}
		}
		if early || !(fullESS < f.TargetESS) {
			c.sums = f.summarizeChecked(c.checked)
			for _, q := range c.sums {
				if !(q.Rhat <= rhatMax) {
					early = false
				}
				fullESS = min(fullESS, q.ESSBulk, q.ESSTail)
			}
		}
		// Enough last: it is called only when every convergence check passes.
		if early && s.Enough != nil && !s.Enough(c.est) {
			early = false
		}
	} else {
		c.est = make([]TargetEstimate, len(work))
		for i, w := range work {
			c.est[i] = w.e
		}
	}
	c.early = early
	c.full = c.sums != nil && !(fullESS < f.TargetESS)
	needFull = f.TargetESS / fullESS
	c.grow = 1.1 * min(needEarly, needFull)
	if !(c.grow >= seqMinGrowth) { // NaN too
		c.grow = seqMinGrowth
	}
	c.grow = min(c.grow, seqMaxGrowth)
	return c
}

// finishSequential completes f after the last check c: the diagnostics,
// the checked quantities' convergence (the others NaN), the targets,
// and the verdict — Converged when the fit stopped early, or else when
// every R̂ of the targets and the checked quantities is ≤ rhatMax, every
// ESS ≥ TargetESS and no transition diverged.
func (f *HierFit) finishSequential(s Sequential, c seqState, rhatMax float64, maxDraws int) {
	if c.sums == nil {
		// the last check ended before the diagnostics: complete them
		c.est = f.estimateTargets(s.Targets, s.K)
		c.sums = f.summarizeChecked(c.checked)
	}
	nan := math.NaN()
	f.Convergence = make([]posterior.Convergence, len(f.Names))
	for v := range f.Convergence {
		f.Convergence[v] = posterior.Convergence{Rhat: nan, ESSBulk: nan, ESSTail: nan}
	}
	for i, v := range c.checked {
		f.Convergence[v] = c.sums[i]
	}
	f.Targets = c.est
	f.StoppedEarly = c.early
	f.Draws = f.Sampler.Len()
	f.Divergences = f.Sampler.Divergences()
	f.MaxDepthHits = f.Sampler.MaxDepthHits()
	for m := range f.Chains {
		f.EBFMI = append(f.EBFMI, posterior.EBFMI(f.Sampler.Energies(m)))
	}
	f.Converged = true
	if c.early {
		f.samplerWarnings()
		return
	}
	f.Failures = nil
	fail := func(c ConvergenceFailure, format string, a ...any) {
		f.Converged = false
		f.Failures = append(f.Failures, c)
		f.Warnings = append(f.Warnings, fmt.Sprintf(format, a...))
	}
	type diag struct {
		name      string
		rhat, ess float64
	}
	var ds []diag
	for i, v := range c.checked {
		q := c.sums[i]
		ds = append(ds, diag{f.Names[v], q.Rhat, min(q.ESSBulk, q.ESSTail)})
	}
	for _, e := range c.est {
		name := fmt.Sprintf("%s - %s", f.Systems[e.A], f.Systems[e.B])
		ds = append(ds, diag{name, e.Rhat, min(e.ESSBulk, e.ESSTail)})
		switch {
		case e.Exact:
		case e.RaoBlackwell:
			ds = append(ds, diag{"the estimate of " + e.Stat.String() + " for " + name, e.ValuesRhat, e.ESS})
		default:
			ds = append(ds, diag{"the estimate of " + e.Stat.String() + " for " + name, 1, e.ESS})
		}
	}
	for _, d := range ds {
		if !(d.rhat <= rhatMax) {
			fail(ConvergenceFailure{Check: "rhat", Param: d.name, Value: d.rhat, Limit: rhatMax}, "R-hat of %s is %.4g (> %g): the chains disagree", d.name, d.rhat, rhatMax)
			break
		}
	}
	for _, d := range ds {
		if !(d.ess >= f.TargetESS) {
			fail(ConvergenceFailure{Check: "bulk-ESS", Param: d.name, Value: d.ess, Limit: f.TargetESS}, "ESS of %s is %.0f, below the target %.0f after %d draws per chain (the cap is %d)", d.name, d.ess, f.TargetESS, f.Draws, maxDraws)
			break
		}
	}
	if f.Divergences > 0 {
		fail(ConvergenceFailure{Check: "divergences", Value: float64(f.Divergences)}, "%d divergent transitions after warmup", f.Divergences)
	}
	f.samplerWarnings()
}

// summarizeChecked is SummarizeConvergence of the quantities checked.
func (f *HierFit) summarizeChecked(checked []int) []posterior.Convergence {
	vars := make([][][]float64, len(checked))
	for i, v := range checked {
		vars[i] = f.Sampler.Draws[v]
	}
	return posterior.SummarizeConvergence(vars, f.workers)
}

// mixtureQuantile is the p-quantile q of the equal-weight mixture of
// N(mu_i, sd_i²): mean_i Φ((q − mu_i)/sd_i) = p, by bracketedNewton to
// 1e-14 of the bracket's scale.
func mixtureQuantile(mu, sd []float64, p float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range mu {
		lo, hi = min(lo, mu[i]-40*sd[i]), max(hi, mu[i]+40*sd[i])
	}
	n := float64(len(mu))
	cdf := func(q float64) (float64, float64) {
		c, d := 0.0, 0.0
		for i := range mu {
			z := (q - mu[i]) / sd[i]
			c += stdNormalCDF(z)
			d += stdNormalPDF(z) / sd[i]
		}
		return c/n - p, d / n
	}
	return bracketedNewton(cdf, posterior.Mean(mu), lo, hi, 1e-14*(hi-lo))
}
