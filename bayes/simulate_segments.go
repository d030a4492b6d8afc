package bayes

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SegmentParams is one value of every parameter of the segment model
//
//	y_st = β0 + T_t + S_s + SG_{s,g(t)} + e_st,  e_st ~ N(0, σ²)
//
// (see SegmentPriors): the truth behind a simulated pool. A system's true
// effect in segment g is S_s + SG_{s,g}; its true difference to system b
// there is δ_g = (S_s + SG_{s,g}) − (S_b + SG_{b,g}) (SetDifference).
type SegmentParams struct {
	Intercept, Sigma, SDTopic, SDSystem, SDSegment float64
	Topic                                          []float64   // T_t
	System                                         []float64   // S_s
	Cell                                           [][]float64 // SG_{s,g} = Cell[s][g]
	// TopicSegment[t] is topic t's segment, 0 ≤ g < len(Cell[s]).
	TopicSegment []int
	// Paired, when its Rho is not 0, correlates one system's residuals with
	// another's (Scores); the zero value leaves every residual independent,
	// as the model has them.
	Paired ResidualPair
}

// ResidualPair correlates system System's residuals with system Base's,
// topic by topic: e_{System,t} = ρ·e_{Base,t} + √(1 − ρ²)·ε_t with ε_t
// independent N(0, σ²), so that each residual is still N(0, σ²) and
// corr(e_System, e_Base) = ρ. The difference of the two systems' scores on
// a topic then has variance 2σ²(1 − ρ) instead of 2σ²: a challenger that is
// a variant of the champion, not an unrelated system. Given the SD of such
// differences, ρ = 1 − SD²/(2σ²) (ResidualCorrelation).
type ResidualPair struct {
	System, Base int
	Rho          float64
}

// ResidualCorrelation is the ρ of a ResidualPair whose systems' per-topic
// differences have standard deviation diffSD around their mean when each
// residual has standard deviation sigma: 1 − diffSD²/(2σ²), which must lie
// in [−1, 1].
func ResidualCorrelation(diffSD, sigma float64) (float64, error) {
	if !(sigma > 0) || !(diffSD >= 0) || math.IsInf(sigma, 0) || math.IsInf(diffSD, 0) {
		return 0, fmt.Errorf("difference SD %v and σ %v: want finite, σ > 0 and SD ≥ 0", diffSD, sigma)
	}
	rho := 1 - diffSD*diffSD/(2*sigma*sigma)
	if rho < -1 {
		return 0, fmt.Errorf("difference SD %v beyond 2σ = %v: no correlation of residuals of SD σ gives it", diffSD, 2*sigma)
	}
	return rho, nil
}

// NewSegmentParams returns parameters for nS systems and the topics
// topicSegment lists (topic t in segment topicSegment[t], segments 0 to
// G − 1, each with a topic) with the given intercept and scales, the effects
// drawn from their priors: T_t ~ N(0, sdTopic²) for every topic, then
// S_s ~ N(0, sdSystem²) for every system, then SG_{s,g} ~ N(0, sdSegment²)
// system by system.
func NewSegmentParams(r *rand.Rand, intercept, sigma, sdTopic, sdSystem, sdSegment float64, nS int, topicSegment []int) (SegmentParams, error) {
	G := 0
	for _, g := range topicSegment {
		G = max(G, g+1)
	}
	sizes := make([]int, G)
	for t, g := range topicSegment {
		if g < 0 {
			return SegmentParams{}, fmt.Errorf("topic %d: segment %d, want 0 or more", t, g)
		}
		sizes[g]++
	}
	for g, n := range sizes {
		if n == 0 {
			return SegmentParams{}, fmt.Errorf("segment %d has no topic (segments are 0 to %d)", g, G-1)
		}
	}
	for _, v := range []float64{sigma, sdTopic, sdSystem, sdSegment} {
		if !(v >= 0) || math.IsInf(v, 0) {
			return SegmentParams{}, fmt.Errorf("scale %v: want a finite number ≥ 0", v)
		}
	}
	p := SegmentParams{Intercept: intercept, Sigma: sigma, SDTopic: sdTopic, SDSystem: sdSystem, SDSegment: sdSegment,
		Topic: make([]float64, len(topicSegment)), System: make([]float64, nS), Cell: make([][]float64, nS),
		TopicSegment: topicSegment}
	for t := range p.Topic {
		p.Topic[t] = sdTopic * r.NormFloat64()
	}
	for s := range p.System {
		p.System[s] = sdSystem * r.NormFloat64()
	}
	for s := range p.Cell {
		p.Cell[s] = make([]float64, G)
		for g := range p.Cell[s] {
			p.Cell[s][g] = sdSegment * r.NormFloat64()
		}
	}
	return p, nil
}

// Segments is the number of segments.
func (p SegmentParams) Segments() int {
	if len(p.Cell) == 0 {
		return 0
	}
	return len(p.Cell[0])
}

// SegmentSizes are the numbers of topics in each segment.
func (p SegmentParams) SegmentSizes() []int {
	n := make([]int, p.Segments())
	for _, g := range p.TopicSegment {
		n[g]++
	}
	return n
}

// SetDifference sets system s's effects so that its true difference to
// system base is d[g] in every segment g: with d̄ the topic-weighted mean of
// d (Σ_g n_g·d_g/n_T), S_s = S_base + d̄ and SG_{s,g} = SG_{base,g} + d_g − d̄.
// Then s's expected mean score over all topics is base's plus d̄, and its
// expected score on every topic of g is base's plus d_g. Examples (50 topics
// in 5 segments of 10): d = (0.03, …, 0.03) is "uniformly +0.03";
// SegmentShift(sizes, 0.03, g, −0.10) is "+0.03 overall, but 0.10 worse on
// segment g".
func (p *SegmentParams) SetDifference(s, base int, d []float64) error {
	if s < 0 || s >= len(p.System) || base < 0 || base >= len(p.System) || s == base {
		return fmt.Errorf("systems %d and %d: want two different systems of the %d", s, base, len(p.System))
	}
	if err := p.check(); err != nil {
		return err
	}
	if len(d) != p.Segments() {
		return fmt.Errorf("%d differences for %d segments", len(d), p.Segments())
	}
	dbar := 0.0
	for g, n := range p.SegmentSizes() {
		dbar += float64(n) * d[g]
	}
	dbar /= float64(len(p.TopicSegment))
	p.System[s] = p.System[base] + dbar
	for g := range d {
		p.Cell[s][g] = p.Cell[base][g] + d[g] - dbar
	}
	return nil
}

// SegmentShift returns per-segment differences for "overall on average over
// the topics, but delta in segment g": d_g = delta and every other segment
// the same d_h, chosen so that the topic-weighted mean Σ n_h·d_h/Σ n_h is
// overall (sizes are the segments' topic counts). With five segments of 10
// topics, overall 0.03 and delta −0.10, the other segments get +0.0625.
func SegmentShift(sizes []int, overall float64, g int, delta float64) ([]float64, error) {
	if g < 0 || g >= len(sizes) {
		return nil, fmt.Errorf("segment %d of %d", g, len(sizes))
	}
	total := 0
	for _, n := range sizes {
		if n <= 0 {
			return nil, fmt.Errorf("segment sizes %v: each needs a topic", sizes)
		}
		total += n
	}
	if total == sizes[g] {
		return nil, fmt.Errorf("segment %d holds every topic: no other segment can make the overall difference", g)
	}
	rest := (overall*float64(total) - delta*float64(sizes[g])) / float64(total-sizes[g])
	d := make([]float64, len(sizes))
	for h := range d {
		d[h] = rest
	}
	d[g] = delta
	return d, nil
}

// check reports parameters whose shapes disagree (as NewSegmentParams
// makes them, they agree).
func (p SegmentParams) check() error {
	G := p.Segments()
	if len(p.Cell) != len(p.System) || len(p.TopicSegment) != len(p.Topic) {
		return fmt.Errorf("%d systems with %d rows of segment effects, %d topics with %d segment indexes",
			len(p.System), len(p.Cell), len(p.Topic), len(p.TopicSegment))
	}
	for s, row := range p.Cell {
		if len(row) != G {
			return fmt.Errorf("system %d has %d segment effects, system 0 %d", s, len(row), G)
		}
	}
	for t, g := range p.TopicSegment {
		if g < 0 || g >= G {
			return fmt.Errorf("topic %d: segment %d, want 0 to %d", t, g, G-1)
		}
	}
	if q := p.Paired; q.Rho != 0 {
		if q.System < 0 || q.System >= len(p.System) || q.Base < 0 || q.Base >= len(p.System) || q.System == q.Base {
			return fmt.Errorf("paired residuals of systems %d and %d: want two different systems of the %d", q.System, q.Base, len(p.System))
		}
		if !(q.Rho >= -1 && q.Rho <= 1) {
			return fmt.Errorf("residual correlation %v: want −1 ≤ ρ ≤ 1", q.Rho)
		}
	}
	return nil
}

// Scores simulates the table y_st = β0 + T_t + S_s + SG_{s,g(t)} + e_st,
// e_st ~ N(0, σ²), for the named systems and topics, drawing row by row,
// system by system (the residuals of p.Paired's system then correlated with
// its base's); opt bounds the scores to [0, 1] and leaves cells missing
// as HierParams.Scores does.
func (p SegmentParams) Scores(r *rand.Rand, systems, topics []string, opt ScoreOptions) (*Table, error) {
	if len(systems) != len(p.System) || len(topics) != len(p.Topic) {
		return nil, fmt.Errorf("%d system and %d topic names for %d systems and %d topics", len(systems), len(topics), len(p.System), len(p.Topic))
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	if opt.Missing < 0 || opt.Missing >= 1 {
		return nil, fmt.Errorf("missing share %g: want 0 ≤ share < 1", opt.Missing)
	}
	// The residuals in the order the rows are drawn, then the pair's
	// correlation (ρ = 0 leaves them as drawn), then the scores.
	t := &Table{Systems: systems, Topics: topics, Scores: make([][]float64, len(systems))}
	for s := range systems {
		row := make([]float64, len(topics))
		for j := range row {
			row[j] = p.Sigma * r.NormFloat64()
		}
		t.Scores[s] = row
	}
	if q := p.Paired; q.Rho != 0 {
		c := math.Sqrt(1 - q.Rho*q.Rho)
		for j, e := range t.Scores[q.Base] {
			t.Scores[q.System][j] = q.Rho*e + c*t.Scores[q.System][j]
		}
	}
	for s, row := range t.Scores {
		for j, e := range row {
			y := p.Intercept + p.Topic[j] + p.System[s] + p.Cell[s][p.TopicSegment[j]] + e
			if opt.Bound {
				y = min(1, max(0, y))
			}
			row[j] = y
		}
	}
	if opt.Missing > 0 {
		dropCells(r, t, opt.Missing)
	}
	return t, nil
}
