package result

import (
	"math"
	"testing"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"
)

func floats(xs ...float64) []jsonfloat.Float {
	out := make([]jsonfloat.Float, len(xs))
	for i, x := range xs {
		out[i] = jsonfloat.Float(x)
	}
	return out
}

// Hand-computed: c loses t2 (−0.3), t4 (−0.1) and t5 (−0.3, after t2 in
// data order); t3 is missing for c and t1 a win. The BRisk fit at the
// deciding w = 5 flags t4 only.
func TestNewRegressions(t *testing.T) {
	nan := math.NaN()
	r := &Result{
		Data: Data{Champion: "p", Challengers: []string{"c"}, Topics: []string{"t1", "t2", "t3", "t4", "t5"},
			Scores: []SystemScores{{System: "p", Scores: floats(0.5, 0.5, 0.5, 0.5, 0.5)}, {System: "c", Scores: floats(0.6, 0.2, nan, 0.4, 0.2)}}},
		Decision: &policies.Decision{Challengers: []policies.ChallengerDecision{{Name: "c", Rules: []policies.RuleResult{
			{Rule: "better", Query: policies.Query{Quantity: "bayes.p_better"}, Severity: policies.SeverityFail},
			{Rule: "riskier", Query: policies.Query{Quantity: "brisk.p_riskier", LossWeight: 5}, Severity: policies.SeverityFail}}}}},
		BRisk: []*FitResult{
			{Pool: PoolRiskAdjusted, LossWeight: 2, TopicsAtRisk: []TopicsAtRisk{{Challenger: "c", Level: PredictiveLevel, Topics: []TopicAtRisk{{Topic: "t2"}}}}},
			{Pool: PoolRiskAdjusted, LossWeight: 5, TopicsAtRisk: []TopicsAtRisk{{Challenger: "c", Level: PredictiveLevel, Topics: []TopicAtRisk{{Topic: "t4"}}}}},
		},
	}
	if w := r.DecidingLossWeight(); w != 5 {
		t.Fatalf("deciding loss weight %g, want 5", w)
	}
	regs := NewRegressions(r, 2)
	if len(regs) != 1 || regs[0].Losses != 3 || regs[0].LossWeight != 5 || len(regs[0].Topics) != 2 {
		t.Fatalf("regressions %+v", regs)
	}
	for i, want := range []struct {
		topic  string
		diff   float64
		atRisk bool
	}{{"t2", -0.3, false}, {"t5", -0.3, false}} {
		g := regs[0].Topics[i]
		if g.Topic != want.topic || math.Abs(float64(g.Diff)-want.diff) > 1e-15 || g.AtRisk == nil || *g.AtRisk != want.atRisk {
			t.Errorf("regression %d: %+v, want %+v", i, g, want)
		}
	}
	all := NewRegressions(r, 0)[0].Topics // DefaultWorst: every loss
	if len(all) != 3 || all[2].Topic != "t4" || !*all[2].AtRisk {
		t.Errorf("all regressions %+v", all)
	}
	r.BRisk = nil
	if g := NewRegressions(r, 5)[0]; g.LossWeight != 0 || g.Topics[0].AtRisk != nil {
		t.Errorf("without a BRisk fit: %+v", g)
	}
}
