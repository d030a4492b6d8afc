package engine

import (
	"context"
	"time"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// Decide is the gate's verdict on an in-memory table: the core's decision
// (core.go) — roles, facts and data requirements, the analyses the policy
// needs, exactly those riskgate gate computes, and policies.Evaluate —
// with no input files, reports or progress, and without the describe step
// that only reports need. The topic coverage is that of the table itself
// (1 when no cell is missing).
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
func Decide(ctx context.Context, p *policies.Policy, t Tables, now time.Time) (*policies.Decision, error) {
	return DecideWith(ctx, p, t, DecideOptions{Now: now, EarlyStop: p.Model.EarlyStop})
}

// DecideOptions are the settings of DecideWith.
type DecideOptions struct {
	Now time.Time // waiver expiry
	// EarlyStop makes the fits sequential (sequential.go) and settles the
	// BCa ends the rules bound sequentially (bca_sequential.go): policy
	// model.early_stop.
	EarlyStop bool
	// WarmStarts, when set, start the fits from pilot fits' adaptations.
	WarmStarts *WarmStarts
	// Workers are the goroutines of each fit's diagnostics [GOMAXPROCS]:
	// callers that decide many pools in parallel set 1. The results do not
	// depend on it.
	Workers int
	// Attributes are the segments of the table's topics the policy's by:
	// rules are evaluated in (as Options.Attributes): required when the
	// policy has by: rules, unused otherwise. A simulated pool's are
	// built in memory: TopicAttributes{Topics, Dimensions, Segment}.
	Attributes *scores.TopicAttributes
}

// settings resolves o for the core.
func (o DecideOptions) settings(p *policies.Policy) settings {
	return settings{now: o.Now, stages: eachNeed(p), sequential: o.EarlyStop, warm: o.WarmStarts, workers: o.Workers, attributes: o.Attributes}
}

// DecideWith is Decide with its settings: early stopping, warm starts and
// the fits' workers.
func DecideWith(ctx context.Context, p *policies.Policy, t Tables, o DecideOptions) (*policies.Decision, error) {
	d, _, err := decide(ctx, p, t, o)
	return d, err
}

// decide is DecideWith, with the core that decided (its fits, for tests).
func decide(ctx context.Context, p *policies.Policy, t Tables, o DecideOptions) (*policies.Decision, *core, error) {
	if err := checkDimensions(p, o.Attributes); err != nil {
		return nil, nil, err
	}
	c, err := newCore(ctx, p, t, scores.Alignment{}, o.settings(p))
	if err != nil {
		return nil, nil, err
	}
	d, err := c.decide()
	if err != nil {
		return nil, nil, err
	}
	return d, c, nil
}

// WarmStarts are the adaptations of pilot fits (Pilot), one per model a
// policy fits, that start the fits of Decide: same-shaped pools need no
// fresh warmup of the metric.
type WarmStarts struct {
	Raw   *mcmc.Adaptation             // the raw-score fit
	BRisk map[float64]*mcmc.Adaptation // the BRisk fit per loss weight
}

// Pilot fits, to the full target, every model policy p decides with on the
// default measure's table of t (the raw-score fit and BRisk at each loss
// weight the rules use; another measure's fits start cold),
// and returns their adaptations, for the warm starts of Decide on pools of
// the same shape (riskgate calibrate's simulated pools): the core's fitting
// step alone, with workers goroutines per fit's diagnostics. Fits that did
// not adapt are left out.
func Pilot(ctx context.Context, p *policies.Policy, t Tables, workers int) (*WarmStarts, error) {
	c, err := newCore(ctx, p, t, scores.Alignment{}, settings{workers: workers})
	if err != nil {
		return nil, err
	}
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
	if c.wholeBayes() {
		ws.Raw = adapt(c.whole.rawFit())
	}
	for _, w := range c.wholeBRiskWeights() {
		if a := adapt(c.whole.briskFit(w)); a != nil {
			ws.BRisk[w] = a
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return ws, nil
}
