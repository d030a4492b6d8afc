package result

import (
	"slices"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// DensityPoints is the size of the grid of Comparison.Density.
const DensityPoints = 64

// NewEffect is a quantity as reports show it: the marginal summary of its
// draws (posterior.Marginal: mean, SD, quantiles, 95% HDI) with its
// convergence figures (R̂, bulk- and tail-ESS).
func NewEffect(name, role string, m posterior.Marginal, c posterior.Convergence) Effect {
	return Effect{
		Name: name, Role: role,
		Mean: jsonfloat.Float(m.Mean), SD: jsonfloat.Float(m.SD),
		Q2_5: jsonfloat.Float(m.Q2_5), Q25: jsonfloat.Float(m.Q25), Q50: jsonfloat.Float(m.Q50),
		Q75: jsonfloat.Float(m.Q75), Q97_5: jsonfloat.Float(m.Q97_5),
		HDILo: jsonfloat.Float(m.HDILo), HDIHi: jsonfloat.Float(m.HDIHi),
		Rhat: jsonfloat.Float(c.Rhat), ESSBulk: jsonfloat.Float(c.ESSBulk), ESSTail: jsonfloat.Float(c.ESSTail),
	}
}

// NewEffectDetail is the rest of s, for an Effect that shows every figure
// of its summary.
func NewEffectDetail(s posterior.VarSummary) *EffectDetail {
	return &EffectDetail{Median: jsonfloat.Float(s.Median), MAD: jsonfloat.Float(s.MAD), Q5: jsonfloat.Float(s.Q5), Q95: jsonfloat.Float(s.Q95),
		RhatBasic: jsonfloat.Float(s.RhatBasic), ESSBasic: jsonfloat.Float(s.ESSBasic), MCSEMean: jsonfloat.Float(s.MCSEMean),
		MCSESD: jsonfloat.Float(s.MCSESd), MCSEQ2_5: jsonfloat.Float(s.MCSEQ2_5), MCSEQ97_5: jsonfloat.Float(s.MCSEQ97_5)}
}

// NewDiagnostics are fit f's sampler settings and worst convergence figures,
// against the R-hat limit maxRhat.
func NewDiagnostics(f *bayes.HierFit, maxRhat float64) *Diagnostics {
	so := f.Sampler.Options
	d := &Diagnostics{Chains: f.Chains, Draws: f.Draws, Warmup: max(so.Warmup, 0), Thin: so.Thin, Extended: f.Extended,
		AdaptDelta: so.AdaptDelta, MaxDepth: so.MaxDepth, TargetESS: f.TargetESS, MaxRhat: maxRhat,
		Divergences: f.Divergences, MaxDepthHits: f.MaxDepthHits}
	for _, e := range f.EBFMI {
		d.EBFMI = append(d.EBFMI, jsonfloat.Float(e))
	}
	worstB, worstT, worstR := f.WorstConvergence()
	d.WorstRhat, d.WorstESSBulk, d.WorstESSTail = jsonfloat.Float(worstR), jsonfloat.Float(worstB), jsonfloat.Float(worstT)
	return d
}

// NewComparison summarises δ = S_challenger − S_champion from its draws (per
// chain, and pooled d).
func NewComparison(challenger string, chains [][]float64, d []float64, levels []float64, ropes []policies.Query) Comparison {
	c := Comparison{
		Challenger: challenger,
		PBetter:    jsonfloat.Float(posterior.ProbGreater(d, 0)),
		PWorse:     jsonfloat.Float(posterior.ProbLess(d, 0)),
		Diff:       NewEffect("diff", "", posterior.MarginalOf(chains), posterior.ConvergenceOf(chains)),
	}
	y := slices.Clone(d)
	slices.Sort(y)
	all := []float64{0.95}
	for _, l := range levels {
		if !slices.Contains(all, l) {
			all = append(all, l)
		}
	}
	slices.Sort(all)
	for _, l := range all {
		c.Intervals = append(c.Intervals, Interval{Estimate: jsonfloat.Float(posterior.Mean(d)),
			Lo: jsonfloat.Float(posterior.QuantileSorted(y, (1-l)/2)), Hi: jsonfloat.Float(posterior.QuantileSorted(y, (1+l)/2)), Level: l})
	}
	for _, q := range ropes {
		r := posterior.ROPEDecision(d, posterior.ROPE{Lo: q.Rope[0], Hi: q.Rope[1]}, q.Level)
		c.ROPE = append(c.ROPE, ROPEResult{Lo: r.Lo, Hi: r.Hi, Level: r.CredMass, HDILo: jsonfloat.Float(r.HDILo), HDIHi: jsonfloat.Float(r.HDIHi),
			Inside: jsonfloat.Float(r.Inside), Decision: string(r.Decision)})
	}
	c.Density = NewDensity(y, d)
	return c
}

// NewDensity estimates the density of the draws (y sorted, d as drawn) with a
// Gaussian kernel and R's default bandwidth (posterior.BandwidthNRD0) on an even
// grid from the 0.05% to the 99.95% quantile, widened by two bandwidths.
func NewDensity(y, d []float64) Density {
	h := posterior.BandwidthNRD0(d)
	out := Density{Bandwidth: jsonfloat.Float(h)}
	if !(h > 0) || len(y) < 2 {
		return out
	}
	lo := posterior.QuantileSorted(y, 0.0005) - 2*h
	hi := posterior.QuantileSorted(y, 0.9995) + 2*h
	for i := range DensityPoints {
		x := lo + (hi-lo)*float64(i)/float64(DensityPoints-1)
		out.X = append(out.X, jsonfloat.Float(x))
		out.Y = append(out.Y, jsonfloat.Float(posterior.KernelDensitySorted(y, x, h)))
	}
	return out
}

// Estimate is a posterior mean with its central credible interval, at the
// level of the fit that produced it.
type Estimate struct {
	Mean jsonfloat.Float `json:"mean"`
	Lo   jsonfloat.Float `json:"lo"`
	Hi   jsonfloat.Float `json:"hi"`
}

// NewEstimate is e as reports hold it.
func NewEstimate(e bayes.Estimate) Estimate {
	return Estimate{Mean: jsonfloat.Float(e.Mean), Lo: jsonfloat.Float(e.Lo), Hi: jsonfloat.Float(e.Hi)}
}

// NewTopicsAtRisk are a challenger's topics at risk as reports hold them;
// empty, never nil, when there is none.
func NewTopicsAtRisk(trs []bayes.TopicRisk) []TopicAtRisk {
	out := []TopicAtRisk{}
	for _, tr := range trs {
		out = append(out, TopicAtRisk{Topic: tr.Topic, Observed: jsonfloat.Float(tr.Observed), Lo: jsonfloat.Float(tr.Lo), Hi: jsonfloat.Float(tr.Hi)})
	}
	return out
}

// Ranking is how a fit orders some of its systems (the champion and the
// challengers): PGreater[i][j] = P(S_i > S_j) and PBest[i] = P(S_i is the
// largest of them), over the joint posterior draws.
type Ranking struct {
	Systems  []string            `json:"systems"`
	PGreater [][]jsonfloat.Float `json:"p_greater"`
	PBest    []jsonfloat.Float   `json:"p_best"`
}

// PGreaterRows are the rows of r.PGreater as the reports print them: the
// system's name, then P(row > column) to three decimals, "–" on the
// diagonal.
func (r Ranking) PGreaterRows() [][]string {
	rows := make([][]string, 0, len(r.Systems))
	for i, name := range r.Systems {
		row := []string{name}
		for j, p := range r.PGreater[i] {
			if i == j {
				row = append(row, "–")
			} else {
				row = append(row, numfmt.R.Fixed(float64(p), 3))
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// NewRanking ranks the systems (indexes in f, named names[s]) of fit f.
func NewRanking(f *bayes.HierFit, systems []int, names []string) Ranking {
	var r Ranking
	for _, s := range systems {
		r.Systems = append(r.Systems, names[s])
	}
	for _, row := range f.PairwiseProb(systems) {
		r.PGreater = append(r.PGreater, jsonfloat.Floats(row))
	}
	r.PBest = jsonfloat.Floats(f.ProbBest(systems))
	return r
}
