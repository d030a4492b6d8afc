package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/policies"
)

// A fitted hierarchical model as the gate uses it: its FitResult for the
// reports and, per challenger, the posterior draws of δ = S_challenger −
// S_champion that the bayes.*, brisk.* and rope.* quantities are read from.
type fitted struct {
	res   *result.FitResult
	diffs map[string][]float64 // challenger → δ draws, chains one after the other
	fit   *bayes.HierFit       // nil when unavailable
	// targets: where the rules' queries read a sequential fit's targets
	// (nil for an ordinary fit).
	targets map[targetKey]seqTarget
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
	d := f.diffs[challenger]
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
	case policies.StatAtRisk:
		for _, tr := range f.res.TopicsAtRisk {
			if tr.Challenger == challenger && tr.Level == level {
				return policies.Number(float64(len(tr.Topics)))
			}
		}
		return policies.Unavailable(fmt.Sprintf("%s has no topics-at-risk analysis at level %s", what, numfmt.G(level)))
	}
	return policies.Unavailable(fmt.Sprintf("%s does not give %s", what, stat))
}

// summarizeFit fills res from the fit f of table t: parameters, effects,
// comparisons of every challenger with the champion (δ with its 95% and the
// rules' central intervals, the ROPE decisions the rules ask for, a density
// of δ), per-topic predictive intervals of the champion and the challengers
// (replicates drawn from a stream of seed), and the sampler's diagnostics.
// Without report, only what the decision reads (fitted.observe): the
// convergence, the warnings and each challenger's δ draws.
func summarizeFit(f *bayes.HierFit, res *result.FitResult, t *bayes.Table, roles policies.Roles, levels []float64, ropes []policies.Query, seed uint64, maxRhat float64, report bool) *fitted {
	res.Family = f.Family.Name()
	res.Method = string(f.Method)
	res.Priors = f.Priors.Describe(f.Family)
	res.Converged = f.Converged
	res.Warnings = slices.Clone(f.Notes()) // the failures are in NotConverged
	res.NotConverged = notConverged(f)
	if !report {
		out := &fitted{res: res, diffs: map[string][]float64{}, fit: f}
		for _, c := range roles.Challengers {
			out.diffs[c] = bayes.PoolChains(diffChains(f, roles.Champion, c))
		}
		return out
	}

	role := func(s string) string {
		switch {
		case s == roles.Champion:
			return result.RoleChampion
		case slices.Contains(roles.Challengers, s):
			return result.RoleChallenger
		}
		return result.RoleArtifact
	}
	// Every quantity of the model, summarised in parallel (each on its own):
	// intercept, sigma, sd_topic, sd_system, the topics, the systems, then
	// the family's parameters (alpha for the skew normal).
	summaries := f.Describe()
	effects := make([]result.Effect, len(f.Names))
	parallel.Each(len(f.Names), func(v int) {
		name, r := f.Names[v], ""
		switch {
		case v >= f.TopicIndex(0) && v < f.SystemIndex(0):
			name = f.Topics[v-f.TopicIndex(0)]
		case v >= f.SystemIndex(0) && v < f.SystemIndex(len(f.Systems)):
			name = f.Systems[v-f.SystemIndex(0)]
			r = role(name)
		}
		effects[v] = result.NewEffect(name, r, summaries[v], f.Pooled(v))
	})
	res.Parameters = append(slices.Clone(effects[:f.TopicIndex(0)]), effects[f.SystemIndex(len(f.Systems)):]...)
	res.Topics = effects[f.TopicIndex(0):f.SystemIndex(0)]
	res.Systems = effects[f.SystemIndex(0):f.SystemIndex(len(f.Systems))]

	out := &fitted{res: res, diffs: map[string][]float64{}, fit: f}
	for _, c := range roles.Challengers {
		chains := diffChains(f, roles.Champion, c)
		d := bayes.PoolChains(chains)
		out.diffs[c] = d
		res.Comparisons = append(res.Comparisons, result.NewComparison(c, chains, d, levels, ropes))
	}

	res.Predictive = predictive(f, t, append([]string{roles.Champion}, roles.Challengers...), seed)
	res.Diagnostics = diagnostics(f, maxRhat)
	return out
}

// diffChains are the draws of δ = S_challenger − S_champion, chain by chain.
func diffChains(f *bayes.HierFit, champion, challenger string) [][]float64 {
	return f.SystemDiffChains(slices.Index(f.Systems, challenger), slices.Index(f.Systems, champion))
}

// predictive returns the posterior predictive interval of every cell of the
// named systems (bayes.HierFit.Forecast: one replicate per posterior draw,
// from the fit's family, the source PCG(seed, …) per system), with the
// predictive mean: E[y_rep] = E[β0] + E[T_t] + E[S_s], as the family's μ is
// its mean (the Gaussian's, and brms's skew normal's).
func predictive(f *bayes.HierFit, t *bayes.Table, systems []string, seed uint64) []result.Prediction {
	idx := make([]int, len(systems))
	for i, name := range systems {
		idx[i] = slices.Index(f.Systems, name)
	}
	fc, err := f.Forecast(t, idx, result.PredictiveLevel, seed)
	if err != nil {
		return nil // t is the fitted table and the level valid: cannot happen
	}
	mean := func(v int) float64 { return f.Describe()[v].Mean }
	var out []result.Prediction
	for i, s := range fc.Systems {
		for j, p := range fc.Cells[i] {
			out = append(out, result.Prediction{System: f.Systems[s], Topic: f.Topics[j], Observed: jsonfloat.Float(p.Observed),
				Mean: jsonfloat.Float(mean(bayes.IdxIntercept) + mean(f.TopicIndex(j)) + mean(f.SystemIndex(s))),
				Lo:   jsonfloat.Float(p.Lo), Hi: jsonfloat.Float(p.Hi), Level: fc.Level})
		}
	}
	return out
}

// diagnostics collects the sampler's settings and the worst convergence figures.
func diagnostics(f *bayes.HierFit, maxRhat float64) *result.Diagnostics {
	so := f.Sampler.Options
	d := &result.Diagnostics{Chains: f.Chains, Draws: f.Draws, Warmup: max(so.Warmup, 0), Thin: so.Thin, Extended: f.Extended,
		AdaptDelta: so.AdaptDelta, MaxDepth: so.MaxDepth, TargetESS: f.TargetESS, MaxRhat: maxRhat,
		Divergences: f.Divergences, MaxDepthHits: f.MaxDepthHits}
	for _, e := range f.EBFMI {
		d.EBFMI = append(d.EBFMI, jsonfloat.Float(e))
	}
	worstB, worstT, worstR := f.WorstConvergence()
	d.WorstRhat, d.WorstESSBulk, d.WorstESSTail = jsonfloat.Float(worstR), jsonfloat.Float(worstB), jsonfloat.Float(worstT)
	return d
}

// notConverged says in one sentence which convergence checks fit f failed
// and which policy setting would help; "" for a converged fit.
func notConverged(f *bayes.HierFit) string {
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
