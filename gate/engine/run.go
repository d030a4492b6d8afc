package engine

import (
	"context"
	"math"
	"time"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// Progress is told what a run is computing, for a progress display.
type Progress interface {
	Phase(what string)
}

// Options are the settings of a run that are not the policy's.
type Options struct {
	// Now is the run's date (waiver expiry) and start.
	Now time.Time
	// Sweep are extra loss weights at which BRisk is fitted, when a rule needs
	// BRisk anyway, for the report's risk-against-loss-weight plot (Figure 7
	// of Benham et al.); they decide nothing.
	Sweep []float64
	// Alignment is what aligning the inputs changed (scores.Table.Align).
	Alignment scores.Alignment
	// Example marks the built-in simulated pool.
	Example bool
	// Progress, when not nil, is told each analysis as it starts.
	Progress Progress
}

// Run applies the policy p to the score table t: the roles, the data
// requirements, the analyses the rules need (and the cheap closed-form
// ones the reports always show), the decision, and the Result every report
// is rendered from. Provenance of the inputs (files, command, times) is the
// caller's to fill. Cancelling ctx stops the fits; Run then returns its error.
func Run(ctx context.Context, p *policies.Policy, t *scores.Table, o Options) (*result.Result, error) {
	roles, err := p.Roles(t.Systems)
	if err != nil {
		return nil, err
	}
	facts := policies.Facts{Topics: len(t.Topics), Artifacts: len(roles.Artifacts), TopicCoverage: topicCoverage(t, o.Alignment)}
	g := newGateRun(ctx, p, t, roles, p.CheckRequirements(facts), o.Now, o.Progress)
	g.sweep = o.Sweep
	d := p.Evaluate(policies.Evidence{Challengers: roles.Challengers, Values: g.values(), Facts: facts, Now: o.Now})
	r := g.result(d, facts, o.Alignment, o.Example)
	r.Evidence = g.evidence(d)
	if err := ctx.Err(); err != nil {
		return nil, err // a cancelled fit is no evidence: no result at all
	}
	r.Warnings = append(p.Warnings(o.Now), r.Warnings...)
	r.Provenance.Timings = g.timings
	return r, nil
}

// topicCoverage is the share of the inputs' topics that every system scored:
// those kept by --topics intersect, or, with zero or keep, those with no
// filled or missing cell.
func topicCoverage(t *scores.Table, a scores.Alignment) float64 {
	all := len(t.Topics) + len(a.DroppedTopics)
	if all == 0 {
		return math.NaN()
	}
	filled := map[string]bool{}
	for _, c := range a.FilledCells {
		filled[c.Topic] = true
	}
	covered := 0
	for j, topic := range t.Topics {
		if filled[topic] {
			continue
		}
		complete := true
		for _, row := range t.Scores {
			if math.IsNaN(row[j]) {
				complete = false
				break
			}
		}
		if complete {
			covered++
		}
	}
	return float64(covered) / float64(all)
}
