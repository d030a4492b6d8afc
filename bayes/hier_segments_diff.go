package bayes

import (
	"fmt"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/stats"
)

// CellChains returns the draws of system s's effect in segment g,
// S_s + SG_{s,g}, chain by chain.
func (f *SegmentFit) CellChains(s, g int) [][]float64 {
	ds, dc := f.Sampler.Draws[f.SystemIndex(s)], f.Sampler.Draws[f.CellIndex(s, g)]
	out := make([][]float64, len(ds))
	for m := range ds {
		out[m] = make([]float64, len(ds[m]))
		for i := range ds[m] {
			out[m][i] = ds[m][i] + dc[m][i]
		}
	}
	return out
}

// SegmentDiffChains returns the draws of system a's difference to system b
// in segment g, δ_g = (S_a + SG_{a,g}) − (S_b + SG_{b,g}), chain by chain.
func (f *SegmentFit) SegmentDiffChains(a, b, g int) [][]float64 {
	sa, ca := f.Sampler.Draws[f.SystemIndex(a)], f.Sampler.Draws[f.CellIndex(a, g)]
	sb, cb := f.Sampler.Draws[f.SystemIndex(b)], f.Sampler.Draws[f.CellIndex(b, g)]
	out := make([][]float64, len(sa))
	for m := range sa {
		out[m] = make([]float64, len(sa[m]))
		for i := range sa[m] {
			out[m][i] = (sa[m][i] + ca[m][i]) - (sb[m][i] + cb[m][i])
		}
	}
	return out
}

// SegmentDiff is the posterior of a challenger's difference to the champion
// in one segment, δ_g = (S_c + SG_{c,g}) − (S_0 + SG_{0,g}), from a segment
// fit (negative: worse than the champion in that segment).
type SegmentDiff struct {
	Segment string
	Topics  int // topics in the segment
	// Summary is δ_g's VarSummary: mean, sd, quantiles, R̂, bulk- and
	// tail-ESS and Monte Carlo standard errors, as posterior reports them.
	Summary posterior.VarSummary
	// Interval is the posterior mean and the central credible interval at
	// the comparison's level.
	Interval Estimate
	// PBelow is P(δ_g < −Margin | data), the share of draws below −Margin;
	// PBelowMCSE is its Monte Carlo standard error, posterior's mcse_mean of
	// the indicator δ_g < −Margin: sd(indicator)/√ESS (the basic ESS of the
	// split indicator draws); NaN when every draw is on one side.
	Margin     float64
	PBelow     float64
	PBelowMCSE float64
}

// SegmentDiffs returns challenger c's per-segment differences to the
// champion (both index f.Systems) in the order of f.Segments, with central
// credible intervals at level and P(δ_g < −margin).
func (f *SegmentFit) SegmentDiffs(c, champion int, margin, level float64) ([]SegmentDiff, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	if c < 0 || c >= len(f.Systems) || champion < 0 || champion >= len(f.Systems) || c == champion {
		return nil, fmt.Errorf("systems %d and %d: want two different systems of the %d", c, champion, len(f.Systems))
	}
	if !stats.Finite(margin) {
		return nil, fmt.Errorf("margin %v: expected a finite number", margin)
	}
	out := make([]SegmentDiff, len(f.Segments))
	chains := make([][][]float64, len(f.Segments))
	below := make([][][]float64, len(f.Segments))
	for g := range f.Segments {
		chains[g] = f.SegmentDiffChains(c, champion, g)
		below[g] = make([][]float64, len(chains[g]))
		for m, ch := range chains[g] {
			ind := make([]float64, len(ch))
			for i, x := range ch {
				if x < -margin {
					ind[i] = 1
				}
			}
			below[g][m] = ind
		}
	}
	sums := posterior.SummarizeAll(chains, 0)
	for g, name := range f.Segments {
		pooled := PoolChains(chains[g])
		out[g] = SegmentDiff{Segment: name, Topics: f.SegmentTopics[g], Summary: sums[g],
			Interval: intervalOf(pooled, level), Margin: margin, PBelow: posterior.ProbLess(pooled, -margin),
			PBelowMCSE: posterior.MCSEMean(below[g])}
	}
	return out, nil
}

// SegmentBRiskOptions configure SegmentBRisk.
type SegmentBRiskOptions struct {
	// Fit configures the segment fit; Priors nil means rstanarm's defaults
	// on the pool (SegmentRstanarmPriors).
	Fit SegmentOptions
	// Challengers are the systems reported against the champion [every
	// system but the champion].
	Challengers []int
	Level       float64 // central credible interval level [0.95]
	Margin      float64 // P(δ_g < −Margin) is reported [0]
}

// SegmentBRiskResult is a champion against its challengers, segment by
// segment, from one segment fit of the risk-adjusted pool.
type SegmentBRiskResult struct {
	W             float64 // loss weight: losses count W times (1: the plain model on the table itself)
	Level, Margin float64
	Champion      int
	Pool          *Table      // the pool that was fitted (BRiskPool)
	Fit           *SegmentFit // the segment model on Pool
	Challengers   []SegmentChallenger
	// Converged is Fit.Converged; Warnings are the fit's. A result that has
	// not converged is no evidence.
	Converged bool
	Warnings  []string
}

// SegmentChallenger is one challenger's per-segment differences to the
// champion in the pool.
type SegmentChallenger struct {
	System   int
	Name     string
	Segments []SegmentDiff // in the order of Fit.Segments
}

// SegmentBRisk fits the segment model to the risk-adjusted pool of t
// (BRiskPool at loss weight w: the champion's scores unchanged, every other
// system's replaced by champion + d_w with losses counted w times; w = 1
// fits t itself) and returns every challenger's per-segment difference to
// the champion, δ_g = (S_c + SG_{c,g}) − (S_0 + SG_{0,g}): Benham et al.'s
// BRisk (SIGIR 2020) within each segment, partially pooled across segments.
// label[j] is topic j's segment.
func SegmentBRisk(t *Table, label []string, champion int, w float64, opt SegmentBRiskOptions) (*SegmentBRiskResult, error) {
	pool, level, challengers, err := briskInputs(t, champion, w, opt.Level, opt.Challengers)
	if err != nil {
		return nil, err
	}
	fit, err := FitSegments(pool, label, opt.Fit) // priors by default rstanarm's on the pool
	if err != nil {
		return nil, err
	}
	r := &SegmentBRiskResult{W: w, Level: level, Margin: opt.Margin, Champion: champion, Pool: pool, Fit: fit,
		Converged: fit.Converged, Warnings: append([]string(nil), fit.Warnings...)}
	for _, c := range challengers {
		d, err := fit.SegmentDiffs(c, champion, opt.Margin, level)
		if err != nil {
			return nil, err
		}
		r.Challengers = append(r.Challengers, SegmentChallenger{System: c, Name: t.Systems[c], Segments: d})
	}
	return r, nil
}
