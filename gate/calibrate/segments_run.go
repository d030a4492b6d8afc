package calibrate

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/buildinfo"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"
)

// DefaultSegmentDeltas are the true differences of the regressing segment
// in a calibration of a policy with by: rules (--segment-deltas).
const DefaultSegmentDeltas = "-0.02,-0.05,-0.1,-0.15"

// DefaultSegmentEffect is the challenger's overall true effect in a
// calibration of a policy with by: rules when --effects is not given: the
// issue's "+0.03 better overall".
const DefaultSegmentEffect = 0.03

// SegmentCalibration describes the pools of a calibration of a policy with
// by: rules (segments_run.go): the dimension, the segment model they are
// drawn from, and the headline rates.
type SegmentCalibration struct {
	Dimension string `json:"dimension"`
	Segments  int    `json:"segments"` // per simulated pool: your dimension's number
	// Margin is the largest margin of the policy's by: rules: a segment
	// worse than −Margin is harm the rules are to catch.
	Margin jsonfloat.Float  `json:"margin"`
	Model  SegmentModelJSON `json:"model"`
	// Catch is the smallest fail rate over the cells with a harmful
	// segment; FalseBlock the largest fail rate over the uniformly better
	// cells (nil when no cell is of that kind).
	Catch      *SegmentFigure `json:"catch,omitempty"`
	FalseBlock *SegmentFigure `json:"false_block,omitempty"`
}

// SegmentModelJSON is the SegmentModel the pools were drawn from.
type SegmentModelJSON struct {
	Intercept jsonfloat.Float `json:"intercept"`
	Sigma     jsonfloat.Float `json:"sigma"`
	SDTopic   jsonfloat.Float `json:"sd_topic"`
	SDSystem  jsonfloat.Float `json:"sd_system"`
	SDSegment jsonfloat.Float `json:"sd_segment"`
	Rho       jsonfloat.Float `json:"residual_correlation"`
	DiffSD    jsonfloat.Float `json:"diff_sd"`
}

// SegmentFigure is a headline fail rate and its cell.
type SegmentFigure struct {
	Scenario string          `json:"scenario"`
	Rate     jsonfloat.Float `json:"rate"`
	SE       jsonfloat.Float `json:"se"`
}

// SegmentTruth is a cell's scenario: its overall true difference (Effect)
// and, unless uniform, the regressing segment's size and true difference
// and the other segments'.
type SegmentTruth struct {
	Scenario string          `json:"scenario"`
	Size     int             `json:"size,omitempty"`  // topics of the regressing segment; 0: uniform
	Delta    jsonfloat.Float `json:"delta,omitempty"` // its true difference
	Others   jsonfloat.Float `json:"others"`          // every other segment's
}

// segmentDimension is the one dimension of the policy's by: rules.
func segmentDimension(p *policies.Policy) (string, error) {
	ds := p.Dimensions()
	switch len(ds) {
	case 0:
		return "", nil
	case 1:
		return ds[0], nil
	}
	return "", fmt.Errorf("the policy's by: rules use %d dimensions (%s); calibrate simulates the segments of one", len(ds), strings.Join(ds, ", "))
}

// segmentMargin is the largest margin of the policy's by: rules.
func segmentMargin(p *policies.Policy) float64 {
	m := 0.0
	for _, r := range p.Rules {
		if r.By != "" {
			m = max(m, r.Margin)
		}
	}
	return m
}

// runSegments is Run for a policy with by: rules, on table t whose topics
// c.Attributes segments: the segment model is estimated from t
// (EstimateSegmentModel), and each cell is a SegmentScenario — per overall
// effect of c.Effects, the uniform one, then one per size of
// c.SegmentSizes × regression of c.SegmentDeltas — on pools of t's
// systems and number of topics, in as many segments as t's dimension has.
func runSegments(ctx context.Context, p *policies.Policy, t *scores.Table, dim string, c Settings) (*Report, error) {
	if c.Attributes == nil || c.Attributes.Segment[dim] == nil {
		return nil, fmt.Errorf("the policy's by: rules segment the topics by %s: calibrate needs the topics file that gives it (--topics-file or inputs.topics_file)", dim)
	}
	if len(c.Risks) != 1 || c.Risks[0] != 1 || c.SDSystem != nil {
		return nil, fmt.Errorf("--risks and --sd-system set the model of a calibration without by: rules; a policy with by: rules is calibrated on the segment model fitted to your pool")
	}
	roles, err := p.Roles(t.Systems)
	if err != nil {
		return nil, err
	}
	if !t.Complete() {
		return nil, fmt.Errorf("your pool has missing cells: a calibration of by: rules fits the segment model to a complete pool")
	}
	var chals []int
	for _, name := range roles.Challengers {
		chals = append(chals, t.SystemIndex(name))
	}
	label := make([]string, len(t.Topics))
	for j, topic := range t.Topics {
		label[j] = c.Attributes.Segment[dim][topic]
	}
	segs := slices.Compact(slices.Sorted(slices.Values(label)))
	if len(segs) < 2 {
		return nil, fmt.Errorf("your topics are in %d segment of %s: calibrate simulates a regression in one segment of several", len(segs), dim)
	}
	nT, G := len(t.Topics), len(segs)
	sizes := c.SegmentSizes
	if len(sizes) == 0 {
		sizes = []int{max(2, int(math.Round(float64(nT)/float64(G))))}
	}
	margin := segmentMargin(p)
	var scenarios []SegmentScenario
	for _, e := range c.Effects {
		scenarios = append(scenarios, SegmentScenario{Overall: e})
		for _, n := range sizes {
			for _, d := range c.SegmentDeltas {
				scenarios = append(scenarios, SegmentScenario{Overall: e, Size: n, Delta: d})
			}
		}
	}
	cells := make([]Cell, len(scenarios))
	attrs := make([]*scores.TopicAttributes, len(scenarios))
	topics := engine.NumberedNames("t", nT)
	for i, s := range scenarios {
		sz, err := s.Sizes(nT, G)
		if err != nil {
			return nil, fmt.Errorf("--segment-sizes: %w", err)
		}
		d, err := s.Differences(sz)
		if err != nil {
			return nil, err
		}
		truth := SegmentTruth{Scenario: s.String(), Size: s.Size, Others: jsonfloat.Float(d[len(d)-1])}
		if s.Size > 0 {
			truth.Delta = jsonfloat.Float(s.Delta)
		}
		class := ClassNeutral
		switch {
		case s.Overall <= 0 || s.Harmful(margin):
			class = ClassHarmful
		case s.Overall >= c.MinEffect:
			class = ClassBeneficial
		}
		cells[i] = Cell{Effect: jsonfloat.Float(s.Overall), Risk: 1, TrueMeanDiff: jsonfloat.Float(s.Overall), TrueRiskDiff: jsonfloat.Float(s.Overall), Class: class, Segment: &truth}
		a := &scores.TopicAttributes{Topics: topics, Dimensions: []string{dim}, Segment: map[string]map[string]string{dim: {}}}
		j := 0
		for g, n := range sz {
			for range n {
				a.Segment[dim][topics[j]] = fmt.Sprintf("g%d", g+1)
				j++
			}
		}
		attrs[i] = a
	}

	// The scenarios are checked: now the fit.
	model, err := EstimateSegmentModel(&bayes.Table{Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}, label, t.SystemIndex(roles.Champion), chals, p.Seed)
	if err != nil {
		return nil, fmt.Errorf("estimating the pool's segment model: %w", err)
	}

	challenger := roles.Challengers[0]
	systems := append([]string{roles.Champion, challenger}, simulatedArtifacts(t.Systems, roles.Artifacts, c.Artifacts)...)
	sim := *p
	sim.Challengers = []policies.Pattern{{Text: challenger}}
	// The segment model's fits take no warm start; the whole-table fits of
	// rules without by: do, from a pilot of the policy without its by: rules.
	dopt := engine.DecideOptions{Now: c.Now, EarlyStop: p.Model.EarlyStop, Workers: 1}
	whole := sim
	whole.Rules = nil
	for _, r := range p.Rules {
		if r.By == "" {
			whole.Rules = append(whole.Rules, r)
		}
	}
	if dopt.EarlyStop && c.Reps > 0 && len(whole.Rules) > 0 {
		mid := len(scenarios) / 2
		pool, err := SimulateSegmentPool(PilotStream(c.Seed), model, scenarios[mid], systems, nT, G)
		if err != nil {
			return nil, fmt.Errorf("the pilot pool: %w", err)
		}
		if dopt.WarmStarts, err = engine.Pilot(ctx, &whole, engine.Tables{segmentTable(t.Measure, pool, topics)}, c.Workers); err != nil {
			return nil, fmt.Errorf("the pilot fits: %w", err)
		}
	}
	failRules := failRuleIDs(p)
	if len(failRules) > maxFailRules {
		return nil, fmt.Errorf("the policy has %d fail rules; calibrate counts at most %d", len(failRules), maxFailRules)
	}
	outcomes := make([]poolOutcome, len(cells)*c.Reps)
	err = decidePools(ctx, c, len(outcomes), func(job int) error {
		cell, rep := job/c.Reps, job%c.Reps
		pool, err := SimulateSegmentPool(Stream(c.Seed, cell, rep), model, scenarios[cell], systems, nT, G)
		var d *policies.Decision
		if err == nil {
			o := dopt
			o.Attributes = attrs[cell]
			d, err = engine.DecideWith(ctx, &sim, engine.Tables{segmentTable(t.Measure, pool, topics)}, o)
		}
		if err != nil {
			return fmt.Errorf("simulated pool %d of %s: %w", rep+1, scenarios[cell], err)
		}
		outcomes[job] = poolOutcome{outcome: outcome{verdict: d.Verdict, raw: d.Raw}, blocked: blockedRules(d, failRules)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range cells {
		cells[i].tallyPools(outcomes[i*c.Reps:(i+1)*c.Reps], failRules, func(int) string { return t.Measure })
	}
	sc := &SegmentCalibration{Dimension: dim, Segments: G, Margin: jsonfloat.Float(margin),
		Model: SegmentModelJSON{Intercept: jsonfloat.Float(model.Intercept), Sigma: jsonfloat.Float(model.Sigma), SDTopic: jsonfloat.Float(model.SDTopic),
			SDSystem: jsonfloat.Float(model.SDSystem), SDSegment: jsonfloat.Float(model.SDSegment), Rho: jsonfloat.Float(model.Rho), DiffSD: jsonfloat.Float(model.DiffSD)}}
	for i, s := range scenarios {
		f := &SegmentFigure{Scenario: s.String(), Rate: cells[i].FailRate, SE: cells[i].SERates.Fail}
		switch {
		case s.Size > 0 && s.Harmful(margin) && s.Overall > 0:
			if sc.Catch == nil || f.Rate < sc.Catch.Rate {
				sc.Catch = f
			}
		case s.Size == 0 && s.Overall > 0:
			if sc.FalseBlock == nil || f.Rate > sc.FalseBlock.Rate {
				sc.FalseBlock = f
			}
		}
	}
	rep := &Report{SchemaVersion: SchemaVersion, Tool: buildinfo.Version(), Reps: c.Reps, Seed: c.Seed, MinEffect: jsonfloat.Float(c.MinEffect),
		Effects: jsonfloat.Floats(c.Effects), Risks: jsonfloat.Floats(c.Risks),
		Policy: Policy{Name: p.Name, File: p.File, SHA256: p.Digest, Seed: p.Seed, OnInconclusive: string(p.OnInconclusive)},
		Harm: Harm{Margin: jsonfloat.Float(margin), LossWeight: 1,
			Words: fmt.Sprintf("harmful: a true overall effect of 0 or less, or a segment whose true difference is below %s (minus the largest margin of the policy's by: rules)", minus(margin))},
		Pools: Pools{Measure: t.Measure, Champion: roles.Champion, Challenger: challenger, Artifacts: len(systems) - 2, Topics: nT,
			EstimatedFrom: len(roles.Challengers)},
		Segments: sc,
		Cells:    cells,
		Warnings: []string{},
	}
	rep.summarize()
	if len(roles.Challengers) > 1 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("your pool has %d challengers; each simulated pool has one (%s), judged alone: corrections over segments × challengers count the segments only", len(roles.Challengers), challenger))
	}
	return rep, nil
}

// segmentTable is a simulated pool as the gate's score table, under the
// topic names its attributes use.
func segmentTable(measure string, p *SegmentPool, topics []string) *scores.Table {
	return &scores.Table{Measure: measure, Systems: p.Table.Systems, Topics: topics, Scores: p.Table.Scores}
}

// failRuleIDs are the ids of the policy's fail rules, in order.
func failRuleIDs(p *policies.Policy) []string {
	var ids []string
	for _, r := range p.Rules {
		if r.Severity == policies.SeverityFail {
			ids = append(ids, r.ID)
		}
	}
	return ids
}
