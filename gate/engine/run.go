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
	// Worst is how many regressions per challenger the result lists
	// (result.DefaultWorst when 0).
	Worst int
	// Progress, when not nil, is told each analysis as it starts.
	Progress Progress
	// InputWarnings are warnings the caller raised about the inputs (the
	// run history's systems left out: gate --pool); like the alignment's,
	// each concerns every rule.
	InputWarnings []string
	// Rankings, when the inputs are runs scored against qrels
	// (scores.Set.Rankings), make every rule be judged also under the
	// other assumptions about unjudged documents (judged.go).
	Rankings *scores.Rankings
	// Attributes are the topics file's (scores.LoadTopicAttributes, checked
	// against the table's topics by TopicAttributes.Cover): the segments
	// the by: rules are evaluated in; nil without a topics file, which a
	// policy with by: rules refuses.
	Attributes *scores.TopicAttributes
}

// Run applies the policy p to the score table t: the core's decision
// (core.go: the roles, the data requirements, the analyses the rules need),
// then the steps only reports need — the fits described, the cheap
// closed-form analyses the reports always show, the evidence, the worst
// regressions and the summary — and the Result every report is rendered
// from. Provenance of the inputs (files, command, times) is the caller's to
// fill. Cancelling ctx stops the fits; Run then returns its error.
func Run(ctx context.Context, p *policies.Policy, t Tables, o Options) (*result.Result, error) {
	if err := checkDimensions(p, o.Attributes); err != nil {
		return nil, err
	}
	c, err := newCore(ctx, p, t, o.Alignment, o.settings(p))
	if err != nil {
		return nil, err
	}
	d, err := c.decide()
	if err != nil {
		return nil, err
	}
	r := c.result(d, o)
	r.Evidence = c.evidence(d)
	r.Segments = c.segmentTables(d)
	r.Regressions = result.NewRegressions(r, o.Worst)
	r.Summary = result.NewSummary(r)
	c.measureSummary(r)
	if err := ctx.Err(); err != nil {
		return nil, err // a cancelled fit is no evidence: no result at all
	}
	r.Provenance.Timings = c.timings
	return r, nil
}

// settings resolves o for the core: one stage of every analysis the rules
// need, computed in the rules' order, every fit to its full target.
func (o Options) settings(p *policies.Policy) settings {
	return settings{now: o.Now, progress: o.Progress, stages: allNeeds(p), sweep: o.Sweep, rankings: o.Rankings, attributes: o.Attributes}
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
