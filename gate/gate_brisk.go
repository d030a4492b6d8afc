package gate

import "github.com/riskgate/riskgate/policies"

// BRisk (Benham et al., SIGIR 2020): the hierarchical model fitted to the
// risk-adjusted pool, in which the champion keeps its scores and every other
// system scores champion + d with losses in d counted w times. It gives the
// brisk.* quantities and topics_at_risk.count.

// briskUnavailable is why this build has no BRisk values: the BRisk model
// comes from package bayes (issue 5), which has not landed yet. Until it
// does, every BRisk rule is inconclusive.
const briskUnavailable = "BRisk is not available in this build"

// briskFit returns the BRisk fit at loss weight w, fitted once.
func (g *gateRun) briskFit(w float64) *fitted {
	if f, ok := g.brisk[w]; ok {
		return f
	}
	f := &fitted{res: &FitResult{Pool: PoolRiskAdjusted, LossWeight: w, Unavailable: briskUnavailable}}
	g.brisk[w] = f
	g.record(policies.AnalysisBRisk, f)
	return f
}
