package bayes

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// HierParams is one value of every parameter of the hierarchical model:
// a draw from the prior, a posterior draw, or the truth behind a simulation.
type HierParams struct {
	Intercept, Sigma, SDTopic, SDSystem float64
	Topic                               []float64 // T_t
	System                              []float64 // S_s
	// Family is the likelihood of e_st [Gaussian when nil] and Extra its
	// parameters beyond the mean and σ (the skew normal's α).
	Family Family
	Extra  []float64
}

// SampleParams draws every parameter for nS systems and nT topics from the
// priors: β0, σ and the group SDs (SD_k = τ_k·σ when Relative), then
// T_t ~ N(0, SD_topic²) and S_s ~ N(0, SD_system²).
func (p HierPriors) SampleParams(r *rand.Rand, nS, nT int) HierParams {
	h := HierParams{Intercept: p.Intercept.Rand(r), Sigma: p.Sigma.Rand(r)}
	h.SDTopic, h.SDSystem = p.SDTopic.Rand(r), p.SDSystem.Rand(r)
	if p.Relative {
		h.SDTopic *= h.Sigma
		h.SDSystem *= h.Sigma
	}
	h.drawEffects(r, nS, nT)
	return h
}

// NewHierParams returns parameters with the given intercept and scales and
// effects drawn from T_t ~ N(0, sdTopic²), S_s ~ N(0, sdSystem²).
func NewHierParams(r *rand.Rand, intercept, sigma, sdTopic, sdSystem float64, nS, nT int) HierParams {
	h := HierParams{Intercept: intercept, Sigma: sigma, SDTopic: sdTopic, SDSystem: sdSystem}
	h.drawEffects(r, nS, nT)
	return h
}

func (h *HierParams) drawEffects(r *rand.Rand, nS, nT int) {
	h.Topic = make([]float64, nT)
	for t := range h.Topic {
		h.Topic[t] = h.SDTopic * r.NormFloat64()
	}
	h.System = make([]float64, nS)
	for s := range h.System {
		h.System[s] = h.SDSystem * r.NormFloat64()
	}
}

// ScoreOptions control how scores are simulated from parameters.
type ScoreOptions struct {
	// Bound clamps every score to [0, 1], as IR measures are bounded
	// (a score below 0 becomes 0, above 1 becomes 1).
	Bound bool
	// Missing is the probability that a cell is left missing (NaN), each
	// cell independently, keeping at least one score per system and topic.
	Missing float64
}

// Scores simulates the table y_st = β0 + T_t + S_s + e_st, e_st ~ N(0, σ²)
// (or the family's error with mean 0 and standard deviation σ),
// for the named systems and topics (len(systems) = len(h.System), likewise
// topics), drawing row by row, system by system.
func (h HierParams) Scores(r *rand.Rand, systems, topics []string, opt ScoreOptions) (*Table, error) {
	if len(systems) != len(h.System) || len(topics) != len(h.Topic) {
		return nil, fmt.Errorf("%d system and %d topic names for %d systems and %d topics", len(systems), len(topics), len(h.System), len(h.Topic))
	}
	if opt.Missing < 0 || opt.Missing >= 1 {
		return nil, fmt.Errorf("missing share %g: want 0 ≤ share < 1", opt.Missing)
	}
	t := &Table{Systems: systems, Topics: topics, Scores: make([][]float64, len(systems))}
	for s := range systems {
		row := make([]float64, len(topics))
		for j := range row {
			row[j] = h.score(r, s, j)
			if opt.Bound {
				row[j] = min(1, max(0, row[j]))
			}
		}
		t.Scores[s] = row
	}
	if opt.Missing > 0 {
		dropCells(r, t, opt.Missing)
	}
	return t, nil
}

// score draws y_st.
func (h HierParams) score(r *rand.Rand, s, t int) float64 {
	mu := h.Intercept + h.Topic[t] + h.System[s]
	if h.Family == nil {
		return mu + h.Sigma*r.NormFloat64()
	}
	return h.Family.Rand(r, mu, h.Sigma, h.Extra)
}

// dropCells leaves each cell missing with probability p, but never a
// system's or topic's last score.
func dropCells(r *rand.Rand, t *Table, p float64) {
	left := make([]int, len(t.Topics))
	for j := range left {
		left[j] = len(t.Systems)
	}
	for _, row := range t.Scores {
		n := len(row)
		for j := range row {
			if r.Float64() < p && n > 1 && left[j] > 1 {
				row[j] = math.NaN()
				n--
				left[j]--
			}
		}
	}
}

// Params returns posterior draw i of chain m as parameters.
func (f *HierFit) Params(m, i int) HierParams {
	d := f.Sampler.Draws
	h := HierParams{Intercept: d[IdxIntercept][m][i], Sigma: d[IdxSigma][m][i],
		SDTopic: d[IdxSDTopic][m][i], SDSystem: d[IdxSDSystem][m][i],
		Topic: make([]float64, len(f.Topics)), System: make([]float64, len(f.Systems))}
	if _, gaussian := f.Family.(Gaussian); f.Family != nil && !gaussian {
		h.Family = f.Family
		for j := range f.Family.Params() {
			h.Extra = append(h.Extra, d[f.FamilyIndex(j)][m][i])
		}
	}
	for t := range h.Topic {
		h.Topic[t] = d[f.TopicIndex(t)][m][i]
	}
	for s := range h.System {
		h.System[s] = d[f.SystemIndex(s)][m][i]
	}
	return h
}

// PosteriorPredictive simulates n replicated tables of every cell (missing
// ones included) from n posterior draws spread evenly over the chains and
// iterations: replicate k uses draw ⌊k·S/n⌋ of the S pooled draws.
func (f *HierFit) PosteriorPredictive(r *rand.Rand, n int, opt ScoreOptions) ([]*Table, error) {
	S := f.Chains * f.Draws
	if n < 1 || n > S {
		return nil, fmt.Errorf("%d replicates: want 1 to %d (the number of draws)", n, S)
	}
	out := make([]*Table, n)
	for k := range out {
		d := k * S / n
		h := f.Params(d/f.Draws, d%f.Draws)
		t, err := h.Scores(r, f.Systems, f.Topics, opt)
		if err != nil {
			return nil, err
		}
		out[k] = t
	}
	return out, nil
}

// PriorPredictive simulates n tables for the named systems and topics from
// the priors: each replicate draws its own parameters (SampleParams) and
// scores.
func (p HierPriors) PriorPredictive(r *rand.Rand, n int, systems, topics []string, opt ScoreOptions) ([]*Table, []HierParams, error) {
	if err := p.validate(); err != nil {
		return nil, nil, err
	}
	tabs := make([]*Table, n)
	params := make([]HierParams, n)
	for k := range tabs {
		params[k] = p.SampleParams(r, len(systems), len(topics))
		t, err := params[k].Scores(r, systems, topics, opt)
		if err != nil {
			return nil, nil, err
		}
		tabs[k] = t
	}
	return tabs, params, nil
}

// Values lists the parameters in HierFit.Names' order: intercept, sigma,
// sd_topic, sd_system, the topic effects, the system effects.
func (h HierParams) Values() []float64 {
	v := []float64{h.Intercept, h.Sigma, h.SDTopic, h.SDSystem}
	v = append(v, h.Topic...)
	return append(v, h.System...)
}
