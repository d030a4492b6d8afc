package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// The hierarchical fits of a slice, in two steps. Fitting (rawFit,
// briskFit) samples until the fit converges — or, for a run that only
// decides, until its rules are decided — and gives what decisions read:
// the convergence, the warnings and each challenger's draws of δ.
// Describing (describe) summarises the fit for the reports; only Run calls
// it.

// A fitted hierarchical model as the gate uses it: its FitResult for the
// reports and, per challenger, the posterior draws of δ = S_challenger −
// S_champion that the bayes.*, brisk.* and rope.* quantities are read from.
type fitted struct {
	res   *result.FitResult
	diffs map[string][]float64 // challenger → δ draws, chains one after the other
	fit   *bayes.HierFit       // nil when unavailable
	table *bayes.Table         // the table fitted (BRisk: its risk-adjusted pool)
	// champion and challengers name the fit's systems the gate reads.
	champion    string
	challengers []string
	// brisk is the BRisk fit's own result (nil for the raw-score fit), and
	// atRisk the topics at risk asked of it, per challenger and level.
	brisk  *bayes.BRiskResult
	atRisk map[atRiskKey]atRiskOutcome
	// targets: where the rules' queries read a sequential fit's targets
	// (nil for an ordinary fit).
	targets   map[targetKey]seqTarget
	described bool
}

type atRiskKey struct {
	challenger string
	level      float64
}

type atRiskOutcome struct {
	topics []bayes.TopicRisk
	err    error
}

// fitRequest is one hierarchical fit as a run asks for it, resolved from
// the policy's model settings and the run's settings when the fit is first
// needed: the table, its options (the run's workers, its warm start, and —
// when the run's fits stop once decided — the rules as targets), and where
// each query reads its target.
type fitRequest struct {
	res   *result.FitResult // what the fit is: its pool, loss weight and fallback
	table *bayes.Table      // the model table (modelTable)
	champ int
	chals []int
	opt   bayes.HierOptions
	where map[targetKey]seqTarget
}

// request resolves the fit of analysis a (BRisk at loss weight w).
func (s *slice) request(a policies.Analysis, w float64) fitRequest {
	t, champ, chals := s.modelTable()
	req := fitRequest{res: &result.FitResult{Pool: result.PoolRaw, Fallback: s.fallback()}, table: t, champ: champ, chals: chals}
	targetsOn := t // the table of the targets' observed differences
	switch a {
	case policies.AnalysisBayes:
		req.opt = s.hierOptions(t)
		if s.warmStarts() {
			req.opt.Sampler.WarmStart = s.set.warm.Raw
		}
	case policies.AnalysisBRisk:
		req.res.Pool, req.res.LossWeight = result.PoolRiskAdjusted, w
		targetsOn = nil
		if pool, err := bayes.BRiskPool(t, champ, w); err == nil {
			targetsOn = pool // the risk-adjusted differences
		}
		// the priors of the risk-adjusted pool, as BRisk's own (none when
		// the pool cannot be formed: BRisk then says why)
		req.opt = s.hierOptions(targetsOn)
		if s.warmStarts() {
			req.opt.Sampler.WarmStart = s.set.warm.BRisk[w]
		}
	}
	if s.set.sequential && targetsOn != nil {
		if targets, where := s.ruleTargets(a, w, targetsOn, champ, chals); targets != nil {
			req.opt.Sequential, req.where = &bayes.Sequential{Targets: targets}, where
		}
	}
	return req
}

// warmStarts reports whether the slice's fits start from the pilot's
// adaptations: the pilot fits the default measure's table (Pilot), whose
// scale another measure need not share, so another measure's fits start cold.
func (s *slice) warmStarts() bool { return s.set.warm != nil && s.key == s.whole.key }

// rawFit returns the fit of the hierarchical model to the raw scores, fitted once.
func (s *slice) rawFit() *fitted {
	if s.raw != nil {
		return s.raw
	}
	s.phase(fmt.Sprintf("fitting the hierarchical model%s (%d systems × %d topics)", s.of(), len(s.t.Systems), len(s.t.Topics)))
	s.timed("bayes", func() { s.raw = s.fitRaw(s.request(policies.AnalysisBayes, 0)) })
	s.record(policies.AnalysisBayes, s.raw)
	return s.raw
}

// fitRaw fits the hierarchical model to the raw scores of the request's table.
func (s *slice) fitRaw(req fitRequest) *fitted {
	f, err := bayes.FitHier(req.table, req.opt)
	if err != nil {
		req.res.Unavailable = "the hierarchical model could not be fitted: " + err.Error()
		return &fitted{res: req.res}
	}
	out := s.newFitted(f, req.res, req.table)
	out.targets = req.where
	return out
}

// record notes whether an analysis's fit ran, and why not.
func (c *core) record(a policies.Analysis, f *fitted) {
	if f.res.Unavailable != "" {
		c.failed[a] = f.res.Unavailable
		return
	}
	c.ran[a] = true
}

// hierOptions are the policy's settings of a hierarchical fit to t — its
// family, chains, target ESS, R-hat limit and seed — with the run's
// workers, and its priors: the family's reference priors on t (rstanarm's
// for the Gaussian, brms's for the skew normal), with the day-one prior on
// the system spread when the pool is too small to learn it
// (bayes.DayOnePriors). Without t the caller's model chooses them.
func (c *core) hierOptions(t *bayes.Table) bayes.HierOptions {
	fam, err := bayes.FamilyNamed(string(c.p.Model.Family))
	if err != nil {
		panic("gate: a parsed policy holds an unknown family: " + err.Error()) // policies validates model.family
	}
	opt := bayes.HierOptions{
		Family:    fam,
		Sampler:   mcmc.NUTSOptions{Chains: c.p.Model.Chains, Seed: c.p.Seed, Context: c.ctx},
		TargetESS: float64(c.p.Model.TargetESS),
		MaxDraws:  c.p.Model.MaxDraws,
		RhatMax:   c.p.Model.MaxRhat,
		Workers:   c.set.workers,
	}
	if t != nil {
		p := bayes.DefaultPriors(t, fam)
		if c.smallPool != "" {
			p = bayes.DayOnePriors(t, fam)
		}
		opt.Priors = &p
	}
	return opt
}

// fallback says, for a FitResult, that its model took the system spread
// from the day-one prior because the pool is too small to learn it, and
// why; "" when it learnt it from the pool.
func (c *core) fallback() string {
	if c.smallPool == "" {
		return ""
	}
	return "the system spread has the day-one prior " + dayOnePrior + ", not one learnt from the pool: " + c.smallPool
}

// dayOnePrior names the day-one prior on the system spread as reports
// spell it (bayes.IRPools; docs/fit.md).
var dayOnePrior = "τ_system ~ " + bayes.IRPools.Definition() + " (published IR pools; docs/fit.md)"

// newFitted is fit f of table t as decisions read it: its FitResult's
// convergence, family, method, priors and warnings, and each challenger's
// draws of δ.
func (s *slice) newFitted(f *bayes.HierFit, res *result.FitResult, t *bayes.Table) *fitted {
	res.Family = f.Family.Name()
	res.Method = string(f.Method)
	res.Priors = f.Priors.Describe(f.Family)
	res.Converged = f.Converged
	res.Warnings = slices.Clone(f.Notes()) // the failures are in NotConverged
	res.NotConverged = notConverged(&f.SamplerRun)
	out := &fitted{res: res, diffs: map[string][]float64{}, fit: f, table: t, champion: s.roles.Champion, challengers: s.roles.Challengers,
		atRisk: map[atRiskKey]atRiskOutcome{}}
	for _, c := range s.roles.Challengers {
		out.diffs[c] = bayes.PoolChains(diffChains(f, s.roles.Champion, c))
	}
	return out
}

// observe reads a statistic of a challenger's δ off the fit. A fit that is
// unavailable or did not converge gives no value: its rules are inconclusive.
func (f *fitted) observe(challenger string, q policies.Query, stat policies.Statistic) policies.Observation {
	if f.res.Unavailable != "" {
		return policies.Unavailable(f.res.Unavailable)
	}
	what := "the Bayesian fit"
	if f.res.Pool == result.PoolRiskAdjusted {
		what = "the BRisk fit at loss weight " + numfmt.G(f.res.LossWeight)
	}
	if !f.res.Converged {
		// The checks that failed; the setting to change is in the fit's one warning.
		checks, _, _ := strings.Cut(f.res.NotConverged, " — ")
		return policies.Unavailable(what + " did not converge: " + checks)
	}
	if v, ok := f.read(challenger, q); ok {
		return policies.Number(v)
	}
	if stat == policies.StatAtRisk {
		if o := f.topicsAtRisk(challenger, q.Level); o.err == nil {
			return policies.Number(float64(len(o.topics)))
		}
		return policies.Unavailable(fmt.Sprintf("%s has no topics-at-risk analysis at level %s", what, numfmt.G(q.Level)))
	}
	return readDraws(f.diffs[challenger], q, stat, what)
}

// readDraws reads a statistic off the draws d of a difference δ to the
// champion (of the fit what): P(δ > 0), P(δ < −margin), and with a margin
// the mean and the central interval's ends of δ + margin, or the ROPE
// decision.
func readDraws(d []float64, q policies.Query, stat policies.Statistic, what string) policies.Observation {
	level, margin := q.Level, q.Margin // with a margin δ, the quantity is that of δ + margin
	switch stat {
	case policies.StatPGreater:
		return policies.Number(posterior.ProbGreater(d, 0))
	case policies.StatPLess:
		return policies.Number(posterior.ProbLess(d, -margin))
	case policies.StatDiffMean:
		return policies.Number(posterior.Mean(d) + margin)
	case policies.StatLo:
		return policies.Number(posterior.Quantile(d, (1-level)/2) + margin)
	case policies.StatHi:
		return policies.Number(posterior.Quantile(d, (1+level)/2) + margin)
	case policies.StatROPE:
		r := posterior.ROPEDecision(d, posterior.ROPE{Lo: q.Rope[0], Hi: q.Rope[1]}, level)
		return policies.Category(string(r.Decision))
	}
	return policies.Unavailable(fmt.Sprintf("%s does not give %s", what, stat))
}

// topicsAtRisk are a challenger's topics at risk at level in a BRisk fit
// (bayes.BRiskResult.TopicsAtRisk: those whose observed risk-adjusted
// difference falls below the central predictive interval), computed once,
// with every other challenger's at that level (predict), which the rules
// ask next.
func (f *fitted) topicsAtRisk(challenger string, level float64) atRiskOutcome {
	key := atRiskKey{challenger, level}
	if o, ok := f.atRisk[key]; ok {
		return o
	}
	if f.brisk != nil && f.fit != nil {
		f.predict([]float64{level}, nil)
	}
	if o, ok := f.atRisk[key]; ok {
		return o
	}
	o := atRiskOutcome{err: fmt.Errorf("no BRisk fit")}
	if f.brisk != nil {
		o.topics, o.err = f.brisk.TopicsAtRisk(slices.Index(f.table.Systems, challenger), level)
	}
	f.atRisk[key] = o
	return o
}

// predict draws the posterior predictive replicates of the champion and
// of each challenger once (bayes.HierFit.Replicates, at the fit's seed:
// the policy's), passes each to forecast when it is not nil, and reads
// from them, in a BRisk fit, every challenger's topics at risk at the
// levels not computed yet (bayes.BRiskResult.TopicsAtRiskFrom). The
// champion's are kept while each challenger's are drawn, read and dropped:
// two systems' at once, as EstimateMemory counts.
func (f *fitted) predict(levels []float64, forecast func(*bayes.Replicates)) {
	var missing []float64
	for _, l := range levels {
		if f.brisk == nil || slices.Contains(missing, l) {
			continue
		}
		for _, c := range f.challengers {
			if _, ok := f.atRisk[atRiskKey{c, l}]; !ok {
				missing = append(missing, l)
				break
			}
		}
	}
	seed := f.fit.Sampler.Options.Seed
	champion, err := f.fit.Replicates(slices.Index(f.fit.Systems, f.champion), seed)
	if err != nil {
		return // the fit's own systems: cannot happen
	}
	if forecast != nil {
		forecast(champion)
	}
	for _, c := range f.challengers {
		rep, err := f.fit.Replicates(slices.Index(f.fit.Systems, c), seed)
		if err != nil {
			continue // cannot happen, as above
		}
		if forecast != nil {
			forecast(rep)
		}
		if len(missing) == 0 {
			continue
		}
		topics, err := f.brisk.TopicsAtRiskFrom(rep, champion, missing)
		for l, level := range missing {
			key := atRiskKey{c, level}
			if _, ok := f.atRisk[key]; ok {
				continue
			}
			o := atRiskOutcome{err: err}
			if err == nil {
				o.topics = topics[l]
			}
			f.atRisk[key] = o
		}
	}
}

// describe fills f's FitResult with what only reports show: every quantity
// of the model summarised (intercept, σ, the group SDs, the family's own,
// every topic and system effect), each challenger's comparison with the
// champion — δ with its 95% and the rules' central intervals, the ROPE
// decisions the rules ask for, a density of δ — the per-topic posterior
// predictive intervals of the champion and the challengers (replicates
// from a stream of the policy's seed), the sampler's diagnostics, and for
// BRisk each challenger's topics at risk at 95% and at every level a
// topics_at_risk.count rule at its loss weight asks for. Once per fit.
func (s *slice) describe(f *fitted) {
	if f.fit == nil || f.described {
		return
	}
	f.described = true
	fit, res := f.fit, f.res
	marginals, conv := fit.Marginals(), fit.AllConvergence()
	role := func(name string) string {
		switch {
		case name == s.roles.Champion:
			return result.RoleChampion
		case slices.Contains(s.roles.Challengers, name):
			return result.RoleChallenger
		}
		return result.RoleArtifact
	}
	// Every quantity of the model: intercept, sigma, sd_topic, sd_system,
	// the topics, the systems, then the family's parameters (alpha for the
	// skew normal).
	effects := make([]result.Effect, len(fit.Names))
	for v := range effects {
		name, r := fit.Names[v], ""
		switch {
		case v >= fit.TopicIndex(0) && v < fit.SystemIndex(0):
			name = fit.Topics[v-fit.TopicIndex(0)]
		case v >= fit.SystemIndex(0) && v < fit.SystemIndex(len(fit.Systems)):
			name = fit.Systems[v-fit.SystemIndex(0)]
			r = role(name)
		}
		effects[v] = result.NewEffect(name, r, marginals[v], conv[v])
	}
	res.Parameters = append(slices.Clone(effects[:fit.TopicIndex(0)]), effects[fit.SystemIndex(len(fit.Systems)):]...)
	res.Topics = effects[fit.TopicIndex(0):fit.SystemIndex(0)]
	res.Systems = effects[fit.SystemIndex(0):fit.SystemIndex(len(fit.Systems))]

	a, ropes := policies.AnalysisBRisk, []policies.Query(nil)
	if res.Pool == result.PoolRaw {
		a, ropes = policies.AnalysisBayes, s.ropes()
	}
	levels := s.ruleLevels(a)
	for _, c := range s.roles.Challengers {
		res.Comparisons = append(res.Comparisons, result.NewComparison(c, diffChains(fit, s.roles.Champion, c), f.diffs[c], levels, ropes))
	}
	res.Predictive = s.predictive(f)
	res.Diagnostics = result.NewDiagnostics(fit, s.p.Model.MaxRhat)
	if f.brisk != nil {
		s.describeTopicsAtRisk(f)
	}
	s.release(f)
}

// atRiskLevels are the levels of a BRisk fit's topics at risk that a run
// for the reports reads: 95%, the result's, and every level a
// topics_at_risk.count rule asks for (at any loss weight: the evidence
// asks them at every weight of the sweep).
func (c *core) atRiskLevels() []float64 {
	levels := []float64{result.PredictiveLevel}
	for _, q := range c.p.Queries() {
		if policies.LookupQuantity(q.Quantity).Statistic == policies.StatAtRisk && !slices.Contains(levels, q.Level) {
			levels = append(levels, q.Level)
		}
	}
	return levels
}

// release drops a described fit's draws — the fit, its BRisk result and
// its table — keeping what the result and the evidence read afterwards:
// its FitResult, each challenger's δ draws and its topics at risk at every
// level a rule asks for (the evidence asks them at every loss weight of the
// sweep). A run keeps every fit it makes, the --risk-sweep's too, and so
// holds one fit's draws at a time beyond the rules' (EstimateMemory); a
// described fit is never fitted or described again, and a report run has
// no sequential targets (fitted.read).
func (s *slice) release(f *fitted) {
	if f.brisk != nil {
		for _, level := range s.atRiskLevels() {
			for _, c := range s.roles.Challengers {
				f.topicsAtRisk(c, level) // computed by predictive: read from the cache
			}
		}
	}
	f.fit, f.brisk, f.table = nil, nil, nil
}

// describeTopicsAtRisk lists each challenger's topics at risk in a BRisk
// fit at 95% and at every level a topics_at_risk.count rule at the fit's
// loss weight asks for.
func (s *slice) describeTopicsAtRisk(f *fitted) {
	levels := []float64{result.PredictiveLevel}
	for _, q := range s.p.Queries() {
		if policies.LookupQuantity(q.Quantity).Statistic == policies.StatAtRisk && q.LossWeight == f.res.LossWeight && !slices.Contains(levels, q.Level) {
			levels = append(levels, q.Level)
		}
	}
	for _, level := range levels {
		for _, c := range s.roles.Challengers {
			o := f.topicsAtRisk(c, level)
			if o.err != nil {
				f.res.Warnings = append(f.res.Warnings, fmt.Sprintf("topics at risk of %s at %s: %v", c, numfmt.Percent(level), o.err))
				continue
			}
			f.res.TopicsAtRisk = append(f.res.TopicsAtRisk, result.TopicsAtRisk{Challenger: c, Level: level, Topics: result.NewTopicsAtRisk(o.topics)})
		}
	}
}

// ruleLevels are the credible levels the rules ask of the difference δ in
// the fit of analysis a (bayes.diff.lo|hi or brisk.diff.lo|hi).
func (c *core) ruleLevels(a policies.Analysis) []float64 {
	var out []float64
	for _, q := range c.p.Queries() {
		quant := policies.LookupQuantity(q.Quantity)
		if quant.Analysis == a && (quant.Statistic == policies.StatLo || quant.Statistic == policies.StatHi) && q.Level > 0 && !slices.Contains(out, q.Level) {
			out = append(out, q.Level)
		}
	}
	return out
}

// ropes are the ROPE queries of the rules (raw-score fit only).
func (c *core) ropes() []policies.Query {
	var out []policies.Query
	for _, q := range c.p.Queries() {
		if policies.LookupQuantity(q.Quantity).Statistic == policies.StatROPE {
			out = append(out, q)
		}
	}
	return out
}

// diffChains are the draws of δ = S_challenger − S_champion, chain by chain.
func diffChains(f *bayes.HierFit, champion, challenger string) [][]float64 {
	return f.SystemDiffChains(slices.Index(f.Systems, challenger), slices.Index(f.Systems, champion))
}

// predictive returns the posterior predictive interval of every cell of
// the champion and the challengers (one replicate per posterior draw, from
// the fit's family, the source PCG(seed, …) per system:
// bayes.Replicates.Intervals), with the predictive mean: E[y_rep] = E[β0] +
// E[T_t] + E[S_s], as the family's μ is its mean (the Gaussian's, and
// brms's skew normal's). From the same replicates, a BRisk fit's topics at
// risk at every level the run reads (predict).
func (s *slice) predictive(f *fitted) []result.Prediction {
	fit, t := f.fit, f.table
	mean := func(v int) float64 { return fit.Marginals()[v].Mean }
	var out []result.Prediction
	f.predict(s.atRiskLevels(), func(rep *bayes.Replicates) {
		row, err := rep.Intervals(t, result.PredictiveLevel)
		if err != nil {
			return // t is the fitted table and the level valid: cannot happen
		}
		sy := rep.System
		for j, p := range row {
			out = append(out, result.Prediction{System: fit.Systems[sy], Topic: fit.Topics[j], Observed: jsonfloat.Float(p.Observed),
				Mean: jsonfloat.Float(mean(bayes.IdxIntercept) + mean(fit.TopicIndex(j)) + mean(fit.SystemIndex(sy))),
				Lo:   jsonfloat.Float(p.Lo), Hi: jsonfloat.Float(p.Hi), Level: result.PredictiveLevel})
		}
	})
	return out
}

// notConverged says in one sentence which convergence checks the sampling
// f failed and which policy setting would help; "" for a converged fit.
func notConverged(f *bayes.SamplerRun) string {
	if f.Converged {
		return ""
	}
	var parts []string
	ess := map[string][]string{} // param → the ESS checks it failed, with values
	var essOrder []string
	advice := ""
	for _, c := range f.Failures {
		switch c.Check {
		case "rhat":
			parts = append(parts, fmt.Sprintf("R-hat of %s is %.3f, above model.max_rhat %s", c.Param, c.Value, numfmt.G(c.Limit)))
			advice = fmt.Sprintf("raise model.max_draws (the fit took %s draws per chain) or model.chains", numfmt.Thousands(f.Draws))
		case "bulk-ESS", "tail-ESS":
			if _, seen := ess[c.Param]; !seen {
				essOrder = append(essOrder, c.Param)
			}
			ess[c.Param] = append(ess[c.Param], fmt.Sprintf("%s %s", c.Check, numfmt.Thousands(int(c.Value))))
			advice = fmt.Sprintf("raise model.max_draws (the fit stopped at %s draws per chain) or lower model.target_ess (%s)", numfmt.Thousands(f.Draws), numfmt.Thousands(int(f.TargetESS)))
		case "divergences":
			parts = append(parts, fmt.Sprintf("%d transitions diverged", int(c.Value)))
			if advice == "" {
				advice = "the model does not fit these scores well; a different model.family may"
			}
		}
	}
	for _, p := range essOrder {
		parts = append(parts, fmt.Sprintf("%s of %s reached, short of model.target_ess %s", strings.Join(ess[p], " and "), p, numfmt.Thousands(int(f.TargetESS))))
	}
	msg := strings.Join(parts, "; ")
	if advice != "" {
		msg += " — " + advice
	}
	return msg
}
