package bayes

// The partially pooled segment model, file by file:
//
//	hier_segments.go           SegmentPriors, FitSegments (path choice, sampling), SegmentFit and its layout
//	hier_segments_balanced.go  complete tables: intercept and effects integrated out in O(G²) per density, exact draws
//	hier_segments_schur.go     incomplete tables: effects integrated out with a Schur complement on (β0, T), exact draws
//	hier_segments_diff.go      per-segment differences δ_g, their summaries, and the BRisk (risk-adjusted) form
//	simulate_segments.go       pools drawn from the segment model with known effects

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
)

// SegmentPriors are the priors of the segment model
//
//	y_st = β0 + T_t + S_s + SG_{s,g(t)} + e_st,
//	T_t ~ N(0, SD_topic²),  S_s ~ N(0, SD_system²),  SG_{s,g} ~ N(0, SD_segment²),  e_st ~ N(0, σ²),
//
// lme4's score ~ 1 + (1 | topic) + (1 | system) + (1 | system:segment), where
// g(t) is topic t's segment. HierPriors holds the intercept's, σ's, SD_topic's
// and SD_system's; SDSegment is SD_segment's (on τ_segment with Relative, as
// HierPriors' group SDs are).
type SegmentPriors struct {
	HierPriors
	SDSegment Prior
}

// SegmentRstanarmPriors are rstanarm's default priors for stan_glmer(score ~
// 1 + (1|topic) + (1|system) + (1|system:segment), family = gaussian) on t's
// observed scores y: intercept Normal(mean y, 2.5·sd y), σ ~ Exponential(rate
// 1/sd y), and SD_k = τ_k·σ with τ_k ~ Gamma(1, 1) for each of the three
// terms. decov's Dirichlet (simplex) and LKJ parts act only within a term
// with more than one coefficient; for three scalar intercepts only the three
// τ_k remain, so three terms differ from two only in their count
// (statistics.md §1.2; rstanarm 2.21.3's prior_summary of this fit prints
// "decov(reg. = 1, conc. = 1, shape = 1, scale = 1)" and its stanfit has
// tau[3], no zeta, rho or z_T: checked with R for this model, see
// docs/segments.md).
func SegmentRstanarmPriors(t *Table) SegmentPriors {
	m, s := t.meanSD()
	return segmentRstanarmPriors(m, s)
}

func segmentRstanarmPriors(m, s float64) SegmentPriors {
	return SegmentPriors{HierPriors: rstanarmPriors(m, s), SDSegment: Gamma{1, 1}}
}

func (p SegmentPriors) validate() error {
	if err := p.HierPriors.validate(); err != nil {
		return err
	}
	if p.SDSegment == nil || !p.SDSegment.Positive() {
		return fmt.Errorf("sd_segment prior %v: needs a prior on (0, ∞), e.g. gamma(1, 1)", p.SDSegment)
	}
	return nil
}

// scalePriors are the priors of σ and of the factors' SDs in the order of
// the sampler's coordinates: topic, system, system:segment.
func (p SegmentPriors) scalePriors(scale float64) ScalePriors {
	return ScalePriors{Sigma: p.Sigma, SD: []Prior{p.SDTopic, p.SDSystem, p.SDSegment}, Relative: p.Relative, Scale: scale}
}

// SegmentOptions configure FitSegments. Zero values mean FitHier's defaults
// for the same path (see HierOptions): on the collapsed path AdaptDelta 0.9,
// MaxDepth 10, Thin (n_S + n_T)/100 clamped to 3..10 and Draws
// ⌈1.4·TargetESS/Chains⌉, at least 1000; on the general path rstanarm's
// AdaptDelta 0.99 and MaxDepth 15.
type SegmentOptions struct {
	Sampler mcmc.NUTSOptions // Sampler.WarmStart is not supported
	Priors  *SegmentPriors
	Method  HierMethod // [MethodAuto]
	// TargetESS is the smallest acceptable bulk- and tail-ESS over all
	// quantities [100 per chain]; below it the chains are extended, up to
	// MaxDraws per chain [10 × Sampler.Draws].
	TargetESS float64
	MaxDraws  int
	RhatMax   float64 // largest acceptable R̂ [1.01]
	Workers   int     // goroutines for the diagnostics [GOMAXPROCS]
}

// SegmentFit is a fitted segment model: the draws of every quantity, their
// summaries and the convergence checks, as HierFit has them for the
// system/topic model.
type SegmentFit struct {
	Method   HierMethod // the path that ran
	Priors   SegmentPriors
	Systems  []string
	Topics   []string
	Segments []string // sorted
	// TopicSegment[t] is the index in Segments of topic t's segment;
	// SegmentTopics[g] the number of topics in segment g.
	TopicSegment  []int
	SegmentTopics []int
	Missing       int // missing cells
	// Names lists the quantities (see the Index methods): intercept, sigma,
	// sd_topic, sd_system, sd_system:segment, then topic[<t>] for every
	// topic, system[<s>] for every system and system:segment[<s>:<g>] for
	// every system and segment (system-major) — rstanarm's b[...] and
	// MixedModel's layout.
	Names      []string
	SamplerRun // the sampling and convergence checks (FitHier's, on this model)

	hier *HierFit // the fit that sampled this model (Describe is its)
}

// Describe returns every quantity's full posterior summary, per Names, as
// HierFit.Describe does: computed on the first call and kept.
func (f *SegmentFit) Describe() []posterior.VarSummary { return f.hier.Describe() }

// IdxSDSegment is the position of sd_system:segment in SegmentFit.Names
// (IdxIntercept, IdxSigma, IdxSDTopic and IdxSDSystem are as in HierFit).
const IdxSDSegment = 4

// TopicIndex is the position of T_t in Names.
func (f *SegmentFit) TopicIndex(t int) int { return 5 + t }

// SystemIndex is the position of S_s in Names.
func (f *SegmentFit) SystemIndex(s int) int { return 5 + len(f.Topics) + s }

// CellIndex is the position of SG_{s,g} in Names.
func (f *SegmentFit) CellIndex(s, g int) int {
	return 5 + len(f.Topics) + len(f.Systems) + s*len(f.Segments) + g
}

// DrawsOf returns quantity v's draws, chains[m][i].
func (f *SegmentFit) DrawsOf(v int) [][]float64 { return f.Sampler.Draws[v] }

// segmentNames is the layout of SegmentFit.Names.
func segmentNames(t *Table, segments []string) []string {
	names := []string{"intercept", "sigma", "sd_topic", "sd_system", "sd_system:segment"}
	for _, l := range t.Topics {
		names = append(names, "topic["+l+"]")
	}
	for _, l := range t.Systems {
		names = append(names, "system["+l+"]")
	}
	for _, s := range t.Systems {
		for _, g := range segments {
			names = append(names, "system:segment["+s+":"+g+"]")
		}
	}
	return names
}

// topicSegments checks the labels (one per topic, none empty) and returns
// the sorted segments, each topic's segment index and each segment's size.
func topicSegments(t *Table, label []string) (segments []string, topicSeg, size []int, err error) {
	if len(label) != len(t.Topics) {
		return nil, nil, nil, fmt.Errorf("%d segment labels for %d topics; want one per topic", len(label), len(t.Topics))
	}
	for j, l := range label {
		if l == "" {
			return nil, nil, nil, fmt.Errorf("topic %q has an empty segment label", t.Topics[j])
		}
	}
	segments = slices.Clone(label)
	slices.Sort(segments)
	segments = slices.Compact(segments)
	topicSeg = make([]int, len(label))
	size = make([]int, len(segments))
	for j, l := range label {
		g, _ := slices.BinarySearch(segments, l)
		topicSeg[j] = g
		size[g]++
	}
	return segments, topicSeg, size, nil
}

// FitSegments fits the partially pooled segment model (SegmentPriors) to t
// (NaN = missing cell), label[j] being topic j's segment, and summarises
// every quantity with the diagnostics of Vehtari et al. (2021). A system's
// effect in segment g is S_s + SG_{s,g}: shrunk toward S_s, the more the
// fewer topics g has and the smaller SD_segment is.
//
// The collapsed path (MethodCollapsed) samples only the four coordinates
// (log τ_topic, log τ_system, log τ_segment, log σ) with NUTS, on the
// marginal density with the intercept and every effect integrated out — in
// O(G²) per evaluation from sufficient statistics on a complete table
// (hier_segments_balanced.go), through a Schur complement on (β0, T) on an
// incomplete one (hier_segments_schur.go) — and draws the intercept and the
// effects exactly from their Gaussian conditional at each kept draw. The
// general path (MethodGeneral) runs NUTS on rstanarm's full non-centred
// density (MixedModel with the factors topic, system and system:segment);
// MethodAuto takes it only for an incomplete table with more than 400
// topics. All sample the posterior of rstanarm's stan_glmer(score ~ 1 +
// (1|topic) + (1|system) + (1|system:segment)) with the given priors, except
// that a system with no score in a segment keeps an SG_{s,g} drawn from its
// prior, where rstanarm has no such level (the other quantities' posterior
// is the same).
//
// Chains run in parallel with sources PCG(Seed, chain): the result is
// bit-identical for a given seed whatever GOMAXPROCS is; Sampler.Context
// cancels. While the smallest bulk- or tail-ESS is below TargetESS the
// chains are extended, up to MaxDraws; the fit is then marked Converged or
// not (see SegmentFit).
func FitSegments(t *Table, label []string, opt SegmentOptions) (*SegmentFit, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	segments, topicSeg, size, err := topicSegments(t, label)
	if err != nil {
		return nil, err
	}
	if opt.Sampler.WarmStart != nil {
		return nil, errors.New("the segment model takes no warm start")
	}
	ym, ysd := t.meanSD()
	priors := segmentRstanarmPriors(ym, ysd)
	if opt.Priors != nil {
		priors = *opt.Priors
	}
	if err := priors.validate(); err != nil {
		return nil, err
	}
	method := opt.Method
	if method == "" {
		method = MethodAuto
	}
	normal, isNormal := priors.Intercept.(Normal)
	complete := t.Complete()
	switch method {
	case MethodAuto:
		method = MethodGeneral
		if isNormal && (complete || len(t.Topics) <= schurMaxLevels) {
			method = MethodCollapsed
		}
	case MethodCollapsed:
		if !isNormal {
			return nil, fmt.Errorf("the collapsed method needs a normal intercept prior, not %v", priors.Intercept)
		}
	case MethodGeneral:
	default:
		return nil, fmt.Errorf("unknown method %q (auto, collapsed, general)", method)
	}
	sp := priors.scalePriors(ysd)

	so, target := hierSampling(opt.Sampler, opt.TargetESS, method, true, len(t.Systems)+len(t.Topics), 3) // as FitHier's paths
	var model mcmc.Model
	if method == MethodCollapsed {
		if complete {
			model = newSegBalancedModel(t, segments, topicSeg, size, normal.Mu, normal.Sigma*normal.Sigma, sp)
		} else {
			model = newSegSchurModel(t, segments, topicSeg, normal.Mu, normal.Sigma*normal.Sigma, sp)
		}
	} else {
		sys, top, yy := t.observed()
		cell := make([]int32, len(sys))
		for n := range cell {
			cell[n] = sys[n]*int32(len(segments)) + int32(topicSeg[top[n]])
		}
		mm, err := NewMixedModel(yy, []Factor{{"topic", t.Topics, top}, {"system", t.Systems, sys},
			{"system:segment", cellLevels(t.Systems, segments), cell}}, Gaussian{}, priors.Intercept, sp)
		if err != nil {
			return nil, err
		}
		model = mm
	}
	so = so.WithDefaults()

	// The sampling, extension and convergence checks are FitHier's, on this model.
	h := &HierFit{Method: method, Family: Gaussian{}, Priors: priors.HierPriors, Systems: t.Systems, Topics: t.Topics,
		Names: model.Names(), SamplerRun: SamplerRun{Chains: so.Chains, TargetESS: target}, model: model}
	if err := h.sample(model, so, sampling{maxDraws: opt.MaxDraws, rhatMax: opt.RhatMax, workers: opt.Workers}); err != nil {
		return nil, err
	}
	f := &SegmentFit{Method: method, Priors: priors, Systems: t.Systems, Topics: t.Topics, Segments: segments,
		TopicSegment: topicSeg, SegmentTopics: size, Names: h.Names, SamplerRun: h.SamplerRun, hier: h}
	for _, row := range t.Scores {
		for _, v := range row {
			if math.IsNaN(v) {
				f.Missing++
			}
		}
	}
	return f, nil
}

// cellLevels are the system:segment levels "<system>:<segment>", system-major.
func cellLevels(systems, segments []string) []string {
	out := make([]string, 0, len(systems)*len(segments))
	for _, s := range systems {
		for _, g := range segments {
			out = append(out, s+":"+g)
		}
	}
	return out
}

// varianceGradient writes the gradient of a collapsed model's log density on
// the coordinates (u_1..u_K, v) of ScalePriors into grad, given the
// likelihood's derivatives dA in A = σ² and dV[k] in the K prior variances
// V[k] = SD_k², and s from ScalePriors.eval: ∂V_k/∂u_k = 2V_k, ∂A/∂v = 2A,
// and ∂V_k/∂v = 2V_k too when SD_k = τ_k·σ (relative). (scales.
// collapsedGradient is its K = 2 case, kept in its own order of additions.)
func (s *scales) varianceGradient(grad []float64, relative bool, A, dA float64, V, dV []float64) {
	K := len(V)
	grad[K] = 2*A*dA + s.dlpdv
	for k := range V {
		g := 2 * V[k] * dV[k]
		grad[k] = g + s.dlpdu[k]
		if relative {
			grad[K] += g
		}
	}
}

// WorstConvergence is the smallest bulk- and tail-ESS and the largest R-hat
// over every quantity of the fit; NaN when any of them is undefined (as
// HierFit.WorstConvergence).
func (f *SegmentFit) WorstConvergence() (minBulk, minTail, maxRhat float64) {
	minBulk, minTail, maxRhat = math.Inf(1), math.Inf(1), math.Inf(-1)
	for _, s := range f.Convergence {
		minBulk, minTail, maxRhat = math.Min(minBulk, s.ESSBulk), math.Min(minTail, s.ESSTail), math.Max(maxRhat, s.Rhat)
	}
	return minBulk, minTail, maxRhat
}
