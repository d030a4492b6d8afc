package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/calibrate"
	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/policies"
)

// benchGateMeasureCases time a whole gate (engine.Run, every report's
// analyses) on an rb04-like 45 × 50 pool: the default policy on one
// measure, and the default policy on its measure plus a BCa non-inferiority
// guardrail (margin 0.02) on each of two more measures — several measures,
// one verdict (issue 25: at most 1.5× the one-measure gate).
func benchGateMeasureCases(cfg Config) []Case {
	data := "simulated rb04-like pool: 45 systems × 50 topics per measure, 1 challenger"
	return []Case{
		{ID: "gate-1measure-45x50", What: "riskgate gate, default policy (hierarchical + BRisk fits, paired t), one measure", Data: data,
			prepare: func() (*Work, error) {
				p, ts, err := benchGateMeasures(1)
				return &Work{run: benchGate(cfg.context(), p, ts)}, err
			}},
		{ID: "gate-3measures-45x50", What: "riskgate gate, default policy on measure 1 + BCa guardrails (margin 0.02) on measures 2 and 3", Data: data,
			prepare: func() (*Work, error) {
				p, ts, err := benchGateMeasures(3)
				return &Work{run: benchGate(cfg.context(), p, ts)}, err
			}},
	}
}

// benchGateMeasures is the default policy with a guardrail on each measure
// after the first, and n tables (measures m1…mn) of the same systems and
// topics, each drawn from calibrate's rb04 estimates with its own seed.
func benchGateMeasures(n int) (*policies.Policy, engine.Tables, error) {
	p := policies.Default()
	m := bayes.PoolModel{Intercept: 0.314, Sigma: 0.1068, SDTopic: 0.1932, SDSystem: 0.01038, DiffSD: 0.09013, DiffSkew: 0.6625}
	systems := append([]string{"production", "candidate-1"}, engine.NumberedNames("artifact-", 43)...)
	var ts engine.Tables
	for k := range n {
		pool, _, err := m.Simulate(rand1(uint64(30+k)), 0, systems, plainNames("t", 50))
		if err != nil {
			return nil, nil, err
		}
		t := calibrate.BayesToScores(pool)
		t.Measure = fmt.Sprintf("m%d", k+1)
		ts = append(ts, t)
		if k > 0 {
			g, err := policies.Parse("guardrail.yaml", fmt.Appendf(nil, `version: 1
name: g
rules:
  - {id: m%d-guardrail, quantity: bca.lo, measure: m%d, loss_weight: 1, margin: 0.02, at_least: 0}
`, k+1, k+1))
			if err != nil {
				return nil, nil, err
			}
			p.Rules = append(p.Rules, g.Rules...)
		}
	}
	return p, ts, nil
}

func benchGate(ctx context.Context, p *policies.Policy, ts engine.Tables) func() (Outcome, error) {
	return func() (Outcome, error) {
		r, err := engine.Run(ctx, p, ts, engine.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return Outcome{}, err
		}
		return Outcome{Note: "verdict " + string(r.Decision.Challengers[0].Verdict)}, nil
	}
}
