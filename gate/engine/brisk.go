package engine

import (
	"fmt"
	"slices"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// BRisk (Benham et al., SIGIR 2020): the hierarchical model fitted to the
// risk-adjusted pool, in which the champion keeps its scores and every other
// system scores champion + d with losses in d counted w times (bayes.BRisk).
// It gives the brisk.* quantities and topics_at_risk.count.

// briskFit returns the BRisk fit at loss weight w, fitted once.
func (g *gateRun) briskFit(w float64) *fitted {
	if f, ok := g.brisk[w]; ok {
		return f
	}
	g.phase(fmt.Sprintf("fitting BRisk at loss weight %s (%d systems × %d topics)", numfmt.G(w), len(g.t.Systems), len(g.t.Topics)))
	var f *fitted
	g.timed("brisk", func() { f = g.fitBRisk(w) })
	g.brisk[w] = f
	g.record(policies.AnalysisBRisk, f)
	return f
}

// fitBRisk fits BRisk at w with the policy's model settings, and lists each
// challenger's topics at risk at 95% and at every level a
// topics_at_risk.count rule at this w asks for.
func (g *gateRun) fitBRisk(w float64) *fitted {
	res := &result.FitResult{Pool: result.PoolRiskAdjusted, LossWeight: w, Fallback: g.fallback()}
	t, champ, chals := g.modelTable()
	opt := g.hierOptions(nil)
	var where map[targetKey]seqTarget
	if pool, err := bayes.BRiskPool(t, champ, w); err == nil {
		// the targets' observed differences are the risk-adjusted ones
		opt.Sequential, where = g.sequential(policies.AnalysisBRisk, w, pool, champ, chals)
	}
	if g.warm != nil {
		opt.Sampler.WarmStart = g.warm.BRisk[w]
	}
	r, err := bayes.BRisk(t, champ, w, bayes.BRiskOptions{Hier: opt, Challengers: chals, Level: result.PredictiveLevel})
	if err != nil {
		res.Unavailable = "the BRisk model could not be fitted: " + err.Error()
		return &fitted{res: res}
	}
	f := summarizeFit(r.Fit, res, r.Pool, g.roles, g.ruleLevels(policies.AnalysisBRisk), nil, g.p.Seed, g.p.Model.MaxRhat, !g.decisionOnly)
	f.targets = where
	if where != nil {
		return f // the counts are read off the targets
	}
	var levels []float64
	if !g.decisionOnly {
		levels = append(levels, result.PredictiveLevel) // the reports show them
	}
	for _, q := range g.p.Queries() {
		if policies.LookupQuantity(q.Quantity).Statistic == policies.StatAtRisk && q.LossWeight == w && !slices.Contains(levels, q.Level) {
			levels = append(levels, q.Level)
		}
	}
	for _, level := range levels {
		for _, c := range chals { // indexes in the model's table t
			trs, err := r.TopicsAtRisk(c, level)
			if err != nil {
				res.Warnings = append(res.Warnings, fmt.Sprintf("topics at risk of %s at %s: %v", t.Systems[c], numfmt.Percent(level), err))
				continue
			}
			res.TopicsAtRisk = append(res.TopicsAtRisk, result.TopicsAtRisk{Challenger: t.Systems[c], Level: level, Topics: result.NewTopicsAtRisk(trs)})
		}
	}
	return f
}
