package calibrate

import (
	"fmt"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
)

// Segment calibration (issue 26): pools drawn from the segment model
//
//	y_st = β0 + T_t + S_s + SG_{s,g(t)} + e_st
//
// (bayes.NewSegmentParams) whose challenger's true difference to the
// champion is set segment by segment (bayes.SegmentParams.SetDifference):
// better overall but worse in one segment, or uniformly better — how often a
// segment rule catches the first and blocks the second.

// SegmentModel is the segment model's scales that a segment calibration
// draws its pools with, and how the challenger pairs with the champion.
type SegmentModel struct {
	Intercept, Sigma, SDTopic, SDSystem, SDSegment float64
	// Rho is the correlation of the challenger's residuals with the
	// champion's (bayes.ResidualPair): a challenger is a variant of the
	// champion, its per-topic differences to it of SD DiffSD =
	// σ·√(2(1 − ρ)), not an unrelated system's √2·σ. 0: independent.
	Rho    float64
	DiffSD float64 // the challengers' differences' SD that gave Rho
}

// EstimateSegmentModel estimates a SegmentModel from a pool t with topic
// segments label (one per topic): the scales are the posterior medians of
// the segment model fitted to every system of t (bayes.FitSegments with
// seed), and Rho is bayes.ResidualCorrelation of the challengers'
// per-topic differences to the champion (their SD around each challenger's
// mean, pooled: bayes.EstimatePoolModel's DiffSD) at the fitted σ.
func EstimateSegmentModel(t *bayes.Table, label []string, champion int, challengers []int, seed uint64) (SegmentModel, error) {
	var m SegmentModel
	pm, err := bayes.EstimatePoolModel(t, champion, challengers)
	if err != nil {
		return m, err
	}
	f, err := bayes.FitSegments(t, label, bayes.SegmentOptions{Sampler: mcmc.NUTSOptions{Seed: seed}})
	if err != nil {
		return m, err
	}
	if !f.Converged {
		return m, fmt.Errorf("the segment model's fit to the pool did not converge: %v", f.Warnings)
	}
	median := func(v int) float64 { return posterior.Quantile(bayes.PoolChains(f.DrawsOf(v)), 0.5) }
	m = SegmentModel{Intercept: median(bayes.IdxIntercept), Sigma: median(bayes.IdxSigma), SDTopic: median(bayes.IdxSDTopic),
		SDSystem: median(bayes.IdxSDSystem), SDSegment: median(bayes.IdxSDSegment), DiffSD: pm.DiffSD}
	if m.Rho, err = bayes.ResidualCorrelation(pm.DiffSD, m.Sigma); err != nil {
		return m, fmt.Errorf("the challengers' differences: %w", err)
	}
	return m, nil
}

// SegmentScenario is a challenger's true difference to the champion, segment
// by segment: Overall on average over the topics, and — when Size is not 0 —
// Delta in one segment of Size topics (the first), every other segment the
// same, so that the topic-weighted mean is Overall (bayes.SegmentShift).
// Size 0 is a uniform difference: Overall in every segment.
type SegmentScenario struct {
	Overall float64
	Size    int
	Delta   float64
}

// String names the scenario as the reports do.
func (s SegmentScenario) String() string {
	if s.Size == 0 {
		return fmt.Sprintf("uniformly %+g", s.Overall)
	}
	return fmt.Sprintf("%+g overall, %+g in a segment of %d topics", s.Overall, s.Delta, s.Size)
}

// Harmful says whether the scenario has a segment worse than the champion by
// more than margin: what a segment rule of that margin is to catch.
func (s SegmentScenario) Harmful(margin float64) bool {
	return s.Overall < -margin || (s.Size > 0 && s.Delta < -margin)
}

// Sizes are the segments' topic counts for the scenario on topics topics in
// segments segments: with a regressing segment, it is first with Size
// topics and the rest split as evenly as they go (the larger first);
// uniformly, every segment as even as they go.
func (s SegmentScenario) Sizes(topics, segments int) ([]int, error) {
	if segments < 2 || topics < 2*segments {
		return nil, fmt.Errorf("%d topics in %d segments: want at least 2 segments of 2 topics", topics, segments)
	}
	first, rest := 0, segments
	if s.Size > 0 {
		if s.Size < 2 || topics-s.Size < 2*(segments-1) {
			return nil, fmt.Errorf("a segment of %d topics of %d in %d segments: want 2 or more, and 2 or more for each other segment", s.Size, topics, segments)
		}
		first, rest = s.Size, segments-1
	}
	sizes := make([]int, 0, segments)
	if first > 0 {
		sizes = append(sizes, first)
	}
	left := topics - first
	for k := range rest {
		n := left / rest
		if k < left%rest {
			n++
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// Differences are the scenario's true per-segment differences for segments
// of sizes (Sizes).
func (s SegmentScenario) Differences(sizes []int) ([]float64, error) {
	if s.Size == 0 {
		d := make([]float64, len(sizes))
		for g := range d {
			d[g] = s.Overall
		}
		return d, nil
	}
	return bayes.SegmentShift(sizes, s.Overall, 0, s.Delta)
}

// SegmentPool is one simulated pool: its table (system 0 the champion,
// system 1 the challenger, then the artifacts), each topic's segment, the
// segments' sizes and names.
type SegmentPool struct {
	Table   *bayes.Table
	Label   []string
	Sizes   []int
	Segment []string // the segments' names, in Sizes' order
}

// SimulateSegmentPool draws a pool from m for scenario s with the named
// systems (the champion, the challenger, the artifacts) over topics topics
// in segments segments, from stream r: the effects from their priors
// (bayes.NewSegmentParams), the challenger's set to the scenario's
// differences (SetDifference), its residuals paired with the champion's at
// m.Rho, every score bounded to [0, 1]. Segments are named "g1", "g2", …
// (the regressing segment is g1).
func SimulateSegmentPool(r *rand.Rand, m SegmentModel, s SegmentScenario, systems []string, topics, segments int) (*SegmentPool, error) {
	if len(systems) < 2 {
		return nil, fmt.Errorf("%d systems: need a champion and a challenger", len(systems))
	}
	sizes, err := s.Sizes(topics, segments)
	if err != nil {
		return nil, err
	}
	d, err := s.Differences(sizes)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(sizes))
	var topicSeg []int
	var label, topicNames []string
	for g, n := range sizes {
		names[g] = fmt.Sprintf("g%d", g+1)
		for range n {
			topicSeg = append(topicSeg, g)
			label = append(label, names[g])
			topicNames = append(topicNames, fmt.Sprintf("t%d", len(topicNames)+1))
		}
	}
	p, err := bayes.NewSegmentParams(r, m.Intercept, m.Sigma, m.SDTopic, m.SDSystem, m.SDSegment, len(systems), topicSeg)
	if err != nil {
		return nil, err
	}
	if err := p.SetDifference(1, 0, d); err != nil {
		return nil, err
	}
	p.Paired = bayes.ResidualPair{System: 1, Base: 0, Rho: m.Rho}
	t, err := p.Scores(r, systems, topicNames, bayes.ScoreOptions{Bound: true})
	if err != nil {
		return nil, err
	}
	return &SegmentPool{Table: t, Label: label, Sizes: sizes, Segment: names}, nil
}

// SegmentDeltas are the challenger's per-topic differences to the champion
// in each segment of the pool (in Segment's order).
func (p *SegmentPool) SegmentDeltas() [][]float64 {
	out := make([][]float64, len(p.Sizes))
	idx := make(map[string]int, len(p.Segment))
	for g, name := range p.Segment {
		idx[name] = g
	}
	for j, l := range p.Label {
		g := idx[l]
		out[g] = append(out[g], p.Table.Scores[1][j]-p.Table.Scores[0][j])
	}
	return out
}
