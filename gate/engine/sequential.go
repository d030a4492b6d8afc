package engine

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// Sequential decisions (bayes.Sequential): a fit that only decides — one
// no report shows (gateRun.decisionOnly) — states each rule's quantity as a
// target with the rule's bounds and stops sampling once every target is
// beyond its bounds by 4 Monte Carlo standard errors (after 100 draws per
// chain, with the convergence checks passed), or else runs to the policy's
// target_ess as any fit. The rule then reads the target's estimate.
//
// Each statistic as a target on δ = S_challenger − S_champion, with a rule's
// bound b (a range gives two bounds):
//
//	bayes.p_better              P(δ > 0)                         b
//	brisk.p_riskier(margin m)   P(δ < −m)                        b
//	*.diff.mean (margin m)      E[δ], read + m                   b − m
//	*.diff.lo|hi (level ℓ, m)   quantile (1 ∓ ℓ)/2 of δ, read + m  b − m
//	topics_at_risk.count(ℓ)     predictive quantile q at (1 − ℓ)/2 of a topic's
//	                            replicated difference; the count is the
//	                            topics whose observed difference is below q
//	                            (as bayes.TopicRisks): count ≤ k ⇔ q ≤ d₍k+1₎,
//	                            count ≥ k ⇔ q > d₍k₎, d₍i₎ the i-th smallest
//	                            observed difference
//
// A fit with a quantity that cannot be a target (rope.decision; a rank_by
// quantity judged between several challengers; a count whose bound does not
// depend on the quantile) is not sequential.

// WarmStarts are the adaptations of pilot fits (Pilot), one per model a
// policy fits, that start the fits of Decide: same-shaped pools need no
// fresh warmup of the metric.
type WarmStarts struct {
	Raw   *mcmc.Adaptation             // the raw-score fit
	BRisk map[float64]*mcmc.Adaptation // the BRisk fit per loss weight
}

// DecideOptions are the settings of DecideWith.
type DecideOptions struct {
	Now time.Time // waiver expiry
	// EarlyStop makes the fits sequential (see above): policy model.early_stop.
	EarlyStop bool
	// WarmStarts, when set, start the fits from pilot fits' adaptations.
	WarmStarts *WarmStarts
	// Workers are the goroutines of each fit's diagnostics [GOMAXPROCS]:
	// callers that decide many pools in parallel set 1. The results do not
	// depend on it.
	Workers int
}

// Pilot fits, to the full target, every model policy p decides with on
// table t (the raw-score fit and BRisk at each loss weight the rules use),
// and returns their adaptations, for the warm starts of Decide on pools of
// the same shape (riskgate calibrate's simulated pools). Fits that did not
// adapt are left out.
func Pilot(ctx context.Context, p *policies.Policy, t *scores.Table, workers int) (*WarmStarts, error) {
	roles, err := p.Roles(t.Systems)
	if err != nil {
		return nil, err
	}
	facts := policies.Facts{Topics: len(t.Topics), Artifacts: len(roles.Artifacts), TopicCoverage: topicCoverage(t, scores.Alignment{})}
	g := newGateRun(ctx, p, t, roles, p.CheckRequirements(facts), time.Time{}, nil)
	g.decisionOnly, g.workers = true, workers
	ws := &WarmStarts{BRisk: map[float64]*mcmc.Adaptation{}}
	adapt := func(f *fitted) *mcmc.Adaptation {
		if f.fit == nil {
			return nil
		}
		a := f.fit.Adaptation()
		if !(a.StepSize > 0) {
			return nil
		}
		return &a
	}
	if g.needs[policies.AnalysisBayes] {
		ws.Raw = adapt(g.bayesFit())
	}
	for _, w := range p.BRiskWeights() {
		if a := adapt(g.briskFit(w)); a != nil {
			ws.BRisk[w] = a
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return ws, nil
}

// targetKey names a rule's quantity for one challenger.
type targetKey struct {
	challenger string
	q          policies.Query
}

// seqTarget is where a query's value is read from a sequential fit.
type seqTarget struct {
	index  int       // in the fit's Targets
	shift  float64   // added to the estimate: the margin of a diff.* quantity
	sorted []float64 // topics_at_risk.count: the observed differences, ascending
}

// sequential returns the Sequential of the fit of analysis a (at loss
// weight w for BRisk) on table t, with the champion and the challengers at
// champ and chals in t, and where each query reads its target; nil when
// the fit is not sequential (early stop off, a report shows the fit, or a
// quantity cannot be a target).
func (g *gateRun) sequential(a policies.Analysis, w float64, t *bayes.Table, champ int, chals []int) (*bayes.Sequential, map[targetKey]seqTarget) {
	if !g.earlyStop || !g.decisionOnly {
		return nil, nil
	}
	targets, where := g.ruleTargets(a, w, t, champ, chals)
	if targets == nil {
		return nil, nil
	}
	return &bayes.Sequential{Targets: targets}, where
}

// ruleTargets are the rules' quantities of the fit of analysis a (at loss
// weight w for BRisk) as targets, and where each query reads its target;
// nil when one cannot be a target.
func (g *gateRun) ruleTargets(a policies.Analysis, w float64, t *bayes.Table, champ int, chals []int) ([]bayes.Target, map[targetKey]seqTarget) {
	var targets []bayes.Target
	where := map[targetKey]seqTarget{}
	rank, ranked := g.p.RankQuery()
	for _, q := range g.p.Queries() {
		quant := policies.LookupQuantity(q.Quantity)
		if quant == nil || quant.Analysis != a || (a == policies.AnalysisBRisk && q.LossWeight != w) {
			continue
		}
		var rules []*policies.Rule
		for _, r := range g.p.Rules {
			if g.p.Query(r) == q {
				rules = append(rules, r)
			}
		}
		if len(rules) == 0 { // rank_by alone: ordering several challengers is no bound
			if ranked && q == rank && len(chals) > 1 {
				return nil, nil
			}
			continue
		}
		for i, c := range chals {
			tg, st, ok := queryTarget(quant.Statistic, q, rules, t, champ, c)
			if !ok {
				return nil, nil
			}
			st.index = len(targets)
			targets = append(targets, tg)
			where[targetKey{g.roles.Challengers[i], q}] = st
		}
	}
	if len(targets) == 0 {
		return nil, nil
	}
	return targets, where
}

// queryTarget is the target of query q (statistic stat) for challenger c
// against the champion in t, with the bounds of the rules on q.
func queryTarget(stat policies.Statistic, q policies.Query, rules []*policies.Rule, t *bayes.Table, champ, c int) (bayes.Target, seqTarget, bool) {
	tg := bayes.Target{A: c, B: champ}
	var st seqTarget
	var bounds []float64
	for _, r := range rules {
		if r.Bound.Outcomes != nil || (r.Correction != "" && r.Correction != policies.CorrectNone) {
			return tg, st, false
		}
		if r.Bound.Op == policies.In {
			bounds = append(bounds, r.Bound.Lo, r.Bound.Hi)
		} else {
			bounds = append(bounds, r.Bound.Value)
		}
	}
	switch stat {
	case policies.StatPGreater:
		tg.Stat = bayes.ProbAbove
	case policies.StatPLess:
		tg.Stat, tg.Threshold = bayes.ProbBelow, -q.Margin
	case policies.StatDiffMean:
		tg.Stat, st.shift = bayes.MeanDiff, q.Margin
	case policies.StatLo:
		tg.Stat, tg.P, st.shift = bayes.QuantileDiff, (1-q.Level)/2, q.Margin
	case policies.StatHi:
		tg.Stat, tg.P, st.shift = bayes.QuantileDiff, (1+q.Level)/2, q.Margin
	case policies.StatAtRisk:
		tg.Stat, tg.P = bayes.PredictiveQuantileDiff, (1-q.Level)/2
		for j := range t.Topics {
			if d := t.Scores[c][j] - t.Scores[champ][j]; !math.IsNaN(d) {
				st.sorted = append(st.sorted, d)
			}
		}
		slices.Sort(st.sorted)
		var qb []float64
		for _, r := range rules {
			switch r.Bound.Op {
			case policies.AtMost:
				qb = append(qb, countBound(st.sorted, math.Floor(r.Bound.Value)+1))
			case policies.AtLeast:
				qb = append(qb, countBound(st.sorted, math.Ceil(r.Bound.Value)))
			case policies.In:
				qb = append(qb, countBound(st.sorted, math.Ceil(r.Bound.Lo)), countBound(st.sorted, math.Floor(r.Bound.Hi)+1))
			}
		}
		bounds = slices.DeleteFunc(qb, math.IsNaN)
		if len(bounds) == 0 {
			return tg, st, false
		}
		tg.Bounds = bounds
		return tg, st, true
	default:
		return tg, st, false
	}
	for i := range bounds {
		bounds[i] -= st.shift
	}
	tg.Bounds = bounds
	return tg, st, true
}

// countBound is the quantile at which the count of observed differences
// below it changes from i − 1 to i: the i-th smallest (1-based); NaN when
// no quantile gives that change (i < 1 or beyond the topics).
func countBound(sorted []float64, i float64) float64 {
	if i < 1 || i > float64(len(sorted)) {
		return math.NaN()
	}
	return sorted[int(i)-1]
}

// read is a query's value from the fit's targets; ok is false when the
// fit has none for it.
func (f *fitted) read(challenger string, q policies.Query) (float64, bool) {
	st, ok := f.targets[targetKey{challenger, q}]
	if !ok || f.fit == nil || st.index >= len(f.fit.Targets) {
		return 0, false
	}
	v := f.fit.Targets[st.index].Value
	if st.sorted != nil {
		n := 0
		for _, d := range st.sorted {
			if d < v {
				n++
			}
		}
		return float64(n), true
	}
	return v + st.shift, true
}
