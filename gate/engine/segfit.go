package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// The partially pooled segment model (bayes.FitSegments; docs/segments.md):
// score ~ 1 + (1 | topic) + (1 | system) + (1 | system:segment) with
// rstanarm's default priors, fitted once per dimension to the whole slice
// of a measure — the raw scores for the bayes.* quantities under by:, the
// risk-adjusted pool at a rule's loss weight for brisk.* (bayes.SegmentBRisk)
// — so that a small segment's difference δ_g = (S_c + SG_{c,g}) − (S_0 +
// SG_{0,g}) shrinks toward the challenger's overall effect. It is Gaussian
// whatever model.family says, samples to the policy's target ESS (no
// sequential stopping, no warm start) and, unconverged, gives no value:
// its rules are inconclusive, never pass.

// segFitKey names a segment fit of a slice: its dimension and, for BRisk,
// its loss weight (0: the raw-score fit).
type segFitKey struct {
	dimension string
	w         float64
}

// segFitted is a segment fit as the gate reads it: whether it is evidence,
// each challenger's draws of δ_g per segment, and the fit for the result's
// segment table (segmentTables).
type segFitted struct {
	what string // "the segment model" or "the segment model of BRisk at loss weight 5"
	// fit names the fit in a PooledDifference ("raw scores", "BRisk at loss weight 5").
	fit          string
	unavailable  string
	converged    bool
	notConverged string
	warnings     []string
	sf           *bayes.SegmentFit // nil when unavailable
	champ        int               // the champion's index in sf.Systems
	// diffs[challenger][segment] are δ_g's draws, chains one after the other.
	diffs map[string]map[string][]float64
}

// segFit returns the segment fit of dimension d on the slice (BRisk at loss
// weight w when w > 0), fitted once.
func (s *slice) segFit(d string, w float64) *segFitted {
	key := segFitKey{d, w}
	if f, ok := s.segFits[key]; ok {
		return f
	}
	a, what, fit := policies.AnalysisBayes, "the segment model", "raw scores"
	if w > 0 {
		a, what, fit = policies.AnalysisBRisk, "the segment model of BRisk at loss weight "+numfmt.G(w), "BRisk at loss weight "+numfmt.G(w)
	}
	s.phase(fmt.Sprintf("fitting %s%s by %s (%d systems × %d topics in %d segments)", what, s.of(), d, len(s.t.Systems), len(s.t.Topics), len(s.segs.order[d])))
	f := &segFitted{what: what, fit: fit}
	s.timed(string(a)+" segments", func() { s.fitSegments(f, d, w) })
	s.segFits[key] = f
	if f.unavailable != "" {
		s.failed[a] = f.unavailable
	} else {
		s.ran[a] = true
	}
	return f
}

// fitSegments fits f: the raw scores' segment model, or BRisk's at w > 0.
func (s *slice) fitSegments(f *segFitted, d string, w float64) {
	t, champ, _ := s.modelTable()
	label := s.segs.label[d]
	opt := s.segmentOptions(t)
	var sf *bayes.SegmentFit
	var err error
	if w > 0 {
		var r *bayes.SegmentBRiskResult
		r, err = bayes.SegmentBRisk(t, label, champ, w, bayes.SegmentBRiskOptions{Fit: opt, Challengers: s.chals})
		if err == nil {
			sf = r.Fit
		}
	} else {
		sf, err = bayes.FitSegments(t, label, opt)
	}
	if err != nil {
		f.unavailable = f.what + " could not be fitted: " + err.Error()
		return
	}
	f.sf, f.champ, f.converged = sf, champ, sf.Converged
	f.notConverged = notConverged(&sf.SamplerRun)
	f.warnings = slices.Clone(sf.Warnings)
	if fam := s.p.Model.Family; fam != "" && fam != policies.Gaussian {
		// Said, so that a by: rule's number is not taken for the policy's family's.
		f.warnings = append(f.warnings, fmt.Sprintf("%s is Gaussian: model.family %s applies to the whole-table fits only", f.what, fam))
	}
	f.diffs = map[string]map[string][]float64{}
	for i, c := range s.chals {
		f.diffs[s.roles.Challengers[i]] = map[string][]float64{}
		for g, name := range sf.Segments {
			f.diffs[s.roles.Challengers[i]][name] = bayes.PoolChains(sf.SegmentDiffChains(c, champ, g))
		}
	}
}

// segmentOptions are the policy's sampler settings for a segment fit to t,
// with rstanarm's default priors on t — and, when the pool is too small to
// learn the system spread, the day-one prior on it (as hierOptions).
func (c *core) segmentOptions(t *bayes.Table) bayes.SegmentOptions {
	opt := bayes.SegmentOptions{
		Sampler:   mcmc.NUTSOptions{Chains: c.p.Model.Chains, Seed: c.p.Seed, Context: c.ctx},
		TargetESS: float64(c.p.Model.TargetESS),
		MaxDraws:  c.p.Model.MaxDraws,
		RhatMax:   c.p.Model.MaxRhat,
		Workers:   c.set.workers,
	}
	if c.smallPool != "" {
		p := bayes.SegmentRstanarmPriors(t)
		p.HierPriors = bayes.DayOnePriors(t, bayes.Gaussian{})
		opt.Priors = &p
	}
	return opt
}

// observe reads a statistic of challenger's δ_g in segment q.Segment off
// the fit; an unavailable or unconverged fit gives no value.
func (f *segFitted) observe(challenger string, q policies.Query, stat policies.Statistic) policies.Observation {
	if f.unavailable != "" {
		return policies.Unavailable(f.unavailable)
	}
	if !f.converged {
		checks, _, _ := strings.Cut(f.notConverged, " — ")
		return policies.Unavailable(f.what + " did not converge: " + checks)
	}
	d, ok := f.diffs[challenger][q.Segment]
	if !ok {
		return policies.Unavailable(fmt.Sprintf("%s has no segment %s", f.what, q.Segment))
	}
	return readDraws(d, q, stat, f.what)
}

// segFitWarnings are the warnings of the segment fits the rules made, in
// the rules' order: why one could not be fitted or did not converge (its
// rules then inconclusive), and the sampler's own.
func (c *core) segFitWarnings() []warning {
	var out []warning
	seen := map[*segFitted]bool{}
	for _, q := range c.p.Queries() {
		if q.By == "" || !pooled(q) {
			continue
		}
		w, a := 0.0, policies.AnalysisBayes
		if q.Analysis() == policies.AnalysisBRisk {
			w, a = q.LossWeight, policies.AnalysisBRisk
		}
		f, ok := c.slice(c.keyOf(q)).segFits[segFitKey{q.By, w}]
		if !ok || seen[f] {
			continue
		}
		seen[f] = true
		ab := about{analysis: a, w: w}
		what := f.what + " by " + q.By
		switch {
		case f.unavailable != "":
			out = append(out, analysisWarning(f.unavailable, ab))
		case !f.converged:
			out = append(out, analysisWarning(what+" did not converge, so its rules are inconclusive: "+f.notConverged, ab))
		}
		for _, msg := range f.warnings {
			out = append(out, analysisWarning(what+": "+msg, ab))
		}
	}
	return out
}
