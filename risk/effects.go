package risk

import (
	"math"

	"github.com/riskgate/riskgate/internal/stats"
)

// Outcomes counts the topics where X beat Base (Wins), tied it exactly
// (Ties) and lost to it (Losses).
type Outcomes struct {
	Wins, Ties, Losses int
}

// Outcomes returns the wins (X_i > Base_i), ties (X_i = Base_i) and losses
// (X_i < Base_i) of X against Base.
func (p Pair) Outcomes() (Outcomes, error) {
	if err := p.check(); err != nil {
		return Outcomes{}, err
	}
	var o Outcomes
	for i := range p.X {
		switch {
		case p.X[i] > p.Base[i]:
			o.Wins++
		case p.X[i] < p.Base[i]:
			o.Losses++
		default:
			o.Ties++
		}
	}
	return o, nil
}

// GlassDelta is Glass's Δ, the difference in mean scores over the standard
// deviation of one system only, with either system as the reference:
//
//	ByBase = (x̄ − b̄)/s_b,   ByX = (x̄ − b̄)/s_x,   s the n − 1 standard deviation.
//
// Sakai (SIGIR 2017 and his book) standardises by the baseline, here the
// champion (ByBase); ByX standardises by the challenger. An SD of 0 gives
// ±Inf (or NaN) with a warning.
type GlassDelta struct {
	ByBase, ByX float64
	Warnings    []string
}

// GlassDelta returns Glass's Δ of X against Base: (x̄ − b̄)/s_b and (x̄ − b̄)/s_x
// (Glass 1976; Sakai, SIGIR 2017): TwoSamples.GlassDelta of the pair.
func (p Pair) GlassDelta() (GlassDelta, error) {
	if err := p.check(); err != nil {
		return GlassDelta{}, err
	}
	return TwoSamples(p).GlassDelta()
}

// GlassDelta returns Glass's Δ of sample X against sample Base,
// (x̄ − b̄)/s_b and (x̄ − b̄)/s_x, Sakai's "classical Glass's Δ" beside his
// unpaired Bayesian test (SIGIR 2017, §4).
func (s TwoSamples) GlassDelta() (GlassDelta, error) {
	if err := s.check(); err != nil {
		return GlassDelta{}, err
	}
	diff := stats.Mean(s.X) - stats.Mean(s.Base)
	sb, sx := math.Sqrt(stats.Variance(s.Base)), math.Sqrt(stats.Variance(s.X))
	g := GlassDelta{ByBase: diff / sb, ByX: diff / sx}
	if sb == 0 || sx == 0 {
		g.Warnings = append(g.Warnings, "a system's scores have zero variance: Glass's Δ is infinite or undefined")
	}
	return g, nil
}

// CohenD is Cohen's d for paired data (d_z): the mean difference over the
// standard deviation of the differences,
//
//	d = d̄/s_d,   d_i = X_i − Base_i,   s_d the n − 1 standard deviation,
//
// which is the paired t statistic over √n. Zero variance gives ±Inf (or NaN)
// with a warning.
type CohenD struct {
	D        float64
	Warnings []string
}

// CohenD returns Cohen's d_z of X against Base: d̄/s_d (Cohen 1988, paired data).
func (p Pair) CohenD() (CohenD, error) {
	if err := p.check(); err != nil {
		return CohenD{}, err
	}
	d := p.Deltas()
	m, s := stats.Mean(d), math.Sqrt(stats.Variance(d))
	if essentiallyConstant(m, s) {
		return CohenD{D: infOrNaN(m), Warnings: []string{"the differences are constant (zero variance): Cohen's d is infinite or undefined"}}, nil
	}
	return CohenD{D: m / s}, nil
}

// Correlation is Pearson's product-moment correlation of X and Base over the
// topics,
//
//	r = Σ(x_i − x̄)(b_i − b̄) / √(Σ(x_i − x̄)² · Σ(b_i − b̄)²),
//
// R's cor(x, base), which Sakai (SIGIR 2017, §4) tabulates beside the paired
// t test and the posterior of his paired model's ρ. A system with zero
// variance makes r NaN, with a warning.
type Correlation struct {
	R        float64
	Warnings []string
}

// Pearson returns Pearson's correlation of X and Base (Pearson 1896).
func (p Pair) Pearson() (Correlation, error) {
	if err := p.check(); err != nil {
		return Correlation{}, err
	}
	mx, mb := stats.Mean(p.X), stats.Mean(p.Base)
	var sxb, sxx, sbb float64
	for i := range p.X {
		dx, db := p.X[i]-mx, p.Base[i]-mb
		sxb += dx * db
		sxx += dx * dx
		sbb += db * db
	}
	c := Correlation{R: sxb / math.Sqrt(sxx*sbb)}
	if sxx == 0 || sbb == 0 {
		c.R = math.NaN()
		c.Warnings = append(c.Warnings, "a system's scores have zero variance: the correlation is undefined")
	}
	return c, nil
}
