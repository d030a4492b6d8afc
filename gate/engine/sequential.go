package engine

import (
	"math"
	"slices"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/policies"
)

// Sequential decisions (bayes.Sequential): a fit that only decides — one
// no report shows (settings.sequential) — states each rule's quantity as a
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

// ruleTargets are the slice's rules' quantities of the fit of analysis a (at loss
// weight w for BRisk) as targets, and where each query reads its target;
// nil when one cannot be a target.
func (s *slice) ruleTargets(a policies.Analysis, w float64, t *bayes.Table, champ int, chals []int) ([]bayes.Target, map[targetKey]seqTarget) {
	c := s.core
	var targets []bayes.Target
	where := map[targetKey]seqTarget{}
	rank, ranked := c.p.RankQuery()
	for _, q := range c.p.Queries() {
		quant := policies.LookupQuantity(q.Quantity)
		if quant == nil || quant.Analysis != a || (a == policies.AnalysisBRisk && q.LossWeight != w) || c.keyOf(q) != s.key || q.By != "" {
			continue // a by: rule reads the segment model, not this fit
		}
		var rules []*policies.Rule
		for _, r := range c.p.Rules {
			if c.p.Query(r) == q {
				rules = append(rules, r)
			}
		}
		if len(rules) == 0 { // rank_by alone: ordering several challengers is no bound
			if ranked && q == rank && len(chals) > 1 {
				return nil, nil
			}
			continue
		}
		for i, ch := range chals {
			tg, st, ok := queryTarget(quant.Statistic, c.absolute(q), rules, t, champ, ch)
			if !ok {
				return nil, nil
			}
			st.index = len(targets)
			targets = append(targets, tg)
			where[targetKey{c.roles.Challengers[i], q}] = st
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
