package engine

import (
	"fmt"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// BRisk (Benham et al., SIGIR 2020): the hierarchical model fitted to the
// risk-adjusted pool, in which the champion keeps its scores and every other
// system scores champion + d with losses in d counted w times (bayes.BRisk).
// It gives the brisk.* quantities and topics_at_risk.count.

// briskFit returns the BRisk fit at loss weight w, fitted once.
func (s *slice) briskFit(w float64) *fitted {
	if f, ok := s.brisk[w]; ok {
		return f
	}
	s.phase(fmt.Sprintf("fitting BRisk%s at loss weight %s (%d systems × %d topics)", s.of(), numfmt.G(w), len(s.t.Systems), len(s.t.Topics)))
	var f *fitted
	s.timed("brisk", func() { f = s.fitBRisk(s.request(policies.AnalysisBRisk, w)) })
	s.brisk[w] = f
	s.record(policies.AnalysisBRisk, f)
	return f
}

// fitBRisk fits BRisk as the request says. Its topics at risk are computed
// when asked for (fitted.topicsAtRisk).
func (s *slice) fitBRisk(req fitRequest) *fitted {
	r, err := bayes.BRisk(req.table, req.champ, req.res.LossWeight, bayes.BRiskOptions{Hier: req.opt, Challengers: req.chals, Level: result.PredictiveLevel})
	if err != nil {
		req.res.Unavailable = "the BRisk model could not be fitted: " + err.Error()
		return &fitted{res: req.res}
	}
	f := s.newFitted(r.Fit, req.res, r.Pool)
	f.brisk, f.targets = r, req.where
	return f
}
