package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/calibrate"
	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// benchGateSegmentCases time a whole gate (engine.Run) on an rb04-like 45 ×
// 50 pool with its rules per segment of one dimension of 5 segments of 10
// topics beside the same rules on the whole table (issue 26: at most 2× the
// unsegmented gate): the classical rules — a no_harm paired t test of d +
// 0.02 (Holm across the segments) and an all_pass BCa non-inferiority
// bound (margin 0.05) — and a Bayesian one, bayes.p_worse with margin 0.02,
// from the raw-score fit unsegmented and from the partially pooled segment
// model by segment.
func benchGateSegmentCases(cfg Config) []Case {
	data := "simulated rb04-like pool: 45 systems × 50 topics, 1 challenger; 5 segments of 10 topics"
	classical := `  - {id: harm, %s quantity: tests.paired_t.p, alternative: less, margin: 0.02, at_least: 0.05}
  - {id: non-inferior, %s quantity: bca.lo, loss_weight: 1, margin: 0.05, at_least: 0}
`
	bayesian := `  - {id: worse, %s quantity: bayes.p_worse, margin: 0.02, at_most: 0.9}
`
	c := func(id, what, rules, by string) Case {
		return Case{ID: id, What: what, Data: data, prepare: func() (*Work, error) {
			p, t, a, err := benchGateSegments(rules, by)
			return &Work{run: benchSegmentGate(cfg.context(), p, t, a)}, err
		}}
	}
	return []Case{
		c("gate-unsegmented-45x50", "riskgate gate: paired t (margin 0.02) and BCa (margin 0.05) rules on the whole table", classical, ""),
		c("gate-5segments-45x50", "riskgate gate: the same rules by segment (no_harm with Holm; all_pass)", classical, "by: band, segments: no_harm, correction: holm,|by: band,"),
		c("gate-bayes-unsegmented-45x50", "riskgate gate: bayes.p_worse (margin 0.02), the hierarchical fit", bayesian, ""),
		c("gate-bayes-5segments-45x50", "riskgate gate: bayes.p_worse by segment, the partially pooled segment model", bayesian, "by: band, segments: no_harm,"),
	}
}

// benchGateSegments is a policy of rules (each %s of it replaced by the
// by: keys of by, "|"-separated per rule, or nothing) and a pool drawn from
// calibrate's rb04 estimates, with topic attributes of one dimension
// ("band") of 5 segments of 10 topics.
func benchGateSegments(rules, by string) (*policies.Policy, engine.Tables, *scores.TopicAttributes, error) {
	m := bayes.PoolModel{Intercept: 0.314, Sigma: 0.1068, SDTopic: 0.1932, SDSystem: 0.01038, DiffSD: 0.09013, DiffSkew: 0.6625}
	systems := append([]string{"production", "candidate-1"}, engine.NumberedNames("artifact-", 43)...)
	topics := plainNames("t", 50)
	pool, _, err := m.Simulate(rand1(30), 0, systems, topics)
	if err != nil {
		return nil, nil, nil, err
	}
	var keys []any
	for _, k := range splitKeys(by, rules) {
		keys = append(keys, k)
	}
	p, err := policies.Parse("segments.yaml", fmt.Appendf(nil, "version: 1\nname: segments\nchampion: production\nchallengers: [candidate-1]\nrules:\n"+rules, keys...))
	if err != nil {
		return nil, nil, nil, err
	}
	a := &scores.TopicAttributes{File: "bands.csv", Topics: topics, Dimensions: []string{"band"}, Segment: map[string]map[string]string{"band": {}}}
	for j, t := range topics {
		a.Segment["band"][t] = fmt.Sprintf("band-%d", j/10+1)
	}
	return p, engine.Tables{calibrate.BayesToScores(pool)}, a, nil
}

// splitKeys gives each %s of rules its rule's by: keys: by's
// "|"-separated parts in turn, the last for the rest ("" for none).
func splitKeys(by, rules string) []string {
	parts := strings.Split(by, "|")
	out := make([]string, strings.Count(rules, "%s"))
	for i := range out {
		out[i] = parts[min(i, len(parts)-1)]
	}
	return out
}

func benchSegmentGate(ctx context.Context, p *policies.Policy, ts engine.Tables, a *scores.TopicAttributes) func() (Outcome, error) {
	return func() (Outcome, error) {
		r, err := engine.Run(ctx, p, ts, engine.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Attributes: a})
		if err != nil {
			return Outcome{}, err
		}
		return Outcome{Note: "verdict " + string(r.Decision.Challengers[0].Verdict)}, nil
	}
}
