package engine

import (
	"context"
	"time"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// Decide is the gate's verdict on an in-memory table: roles from the
// policy, the facts and data requirements, the analyses the policy needs
// (newGateRun.values: exactly what riskgate gate computes) and
// policies.Evaluate — runGate's steps between loading the inputs and
// building the Result, with no input files, reports or progress, and
// without the fits' summaries that only reports show (gateRun.decisionOnly).
// The topic coverage is that of the table itself (1 when no cell is missing).
//
// It computes the analyses in the policy's order of cost (policies.Needs:
// closed-form measures, tests and bootstrap, then the MCMC fits) and stops
// as soon as every challenger fails: a failed fail-severity rule fails its
// challenger whatever the other rules say (policies: a failure outranks an
// inconclusive rule, a warning and a pass), and a run whose challengers all
// fail fails. A worse challenger thus usually costs one MCMC fit, not two.
// The verdicts are those of the full evaluation (TestGateDecisionIsTheGates);
// the Decision's rules are complete only when it did not stop early.
//
// Its fits stop sampling once the rules are decided (sequential.go) when
// the policy's model.early_stop says so (the default).
func Decide(ctx context.Context, p *policies.Policy, t *scores.Table, now time.Time) (*policies.Decision, error) {
	return DecideWith(ctx, p, t, DecideOptions{Now: now, EarlyStop: p.Model.EarlyStop})
}

// DecideWith is Decide with its settings: early stopping, warm starts and
// the fits' workers.
func DecideWith(ctx context.Context, p *policies.Policy, t *scores.Table, o DecideOptions) (*policies.Decision, error) {
	d, _, err := decide(ctx, p, t, o)
	return d, err
}

// decide is DecideWith, with the run that decided (its fits, for tests).
func decide(ctx context.Context, p *policies.Policy, t *scores.Table, o DecideOptions) (*policies.Decision, *gateRun, error) {
	now := o.Now
	roles, err := p.Roles(t.Systems)
	if err != nil {
		return nil, nil, err
	}
	facts := policies.Facts{Topics: len(t.Topics), Artifacts: len(roles.Artifacts), TopicCoverage: topicCoverage(t, scores.Alignment{})}
	g := newGateRun(ctx, p, t, roles, p.CheckRequirements(facts), now, nil)
	g.decisionOnly = true
	g.earlyStop, g.warm, g.workers = o.EarlyStop, o.WarmStarts, o.Workers
	g.computeOnly = map[policies.Analysis]bool{}
	evaluate := func() *policies.Decision {
		return p.Evaluate(policies.Evidence{Challengers: roles.Challengers, Values: g.values(), Facts: facts, Now: now})
	}
	needs := p.Needs()
	for i, a := range needs {
		g.computeOnly[a] = true // with every needed analysis, values computes all the policy asks
		d := evaluate()
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if i == len(needs)-1 || allFail(d) {
			return d, g, nil
		}
	}
	return evaluate(), g, nil // a policy needs no analysis only without rules
}

// allFail reports whether every challenger of d fails.
func allFail(d *policies.Decision) bool {
	for _, c := range d.Challengers {
		if c.Verdict != policies.Fail {
			return false
		}
	}
	return len(d.Challengers) > 0
}
