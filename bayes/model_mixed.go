package bayes

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Factor is a grouping factor with varying intercepts b_j ~ N(0, SD²).
type Factor struct {
	Name   string   // e.g. "topic"
	Levels []string // level names
	Index  []int32  // Index[n] is the level of observation n
}

// ScalePriors are the priors of the residual scale σ and of the factors'
// standard deviations.
//
// With Relative (rstanarm's decov for one varying intercept per factor,
// statistics.md §1.2) the prior SD[k] is on τ_k and the factor's standard
// deviation is τ_k·σ; otherwise SD[k] is a prior on the standard deviation
// itself (brms).
type ScalePriors struct {
	Sigma    Prior
	SD       []Prior // one per factor
	Relative bool
	// Scale sets the unconstrained coordinates: σ = Scale·exp(v) (rstanarm's
	// aux_unscaled with Scale = sd(y)), and an absolute SD_k = Scale·exp(u_k).
	// Zero means 1. It changes the parameterisation, not the posterior.
	Scale float64
}

func (p *ScalePriors) scale() float64 {
	if p.Scale == 0 {
		return 1
	}
	return p.Scale
}

// scales holds σ and the factors' SDs at an unconstrained point (u_1..u_K, v)
// and the log prior with its Jacobian terms.
type scales struct {
	sigma float64
	sd    []float64
	x     []float64 // τ_k (Relative) or SD_k
	lp    float64   // log priors + log-Jacobians
	dlpdv float64   // ∂lp/∂v (prior and Jacobian only)
	dlpdu []float64 // ∂lp/∂u_k
}

func newScales(k int) scales {
	return scales{sd: make([]float64, k), x: make([]float64, k), dlpdu: make([]float64, k)}
}

// eval fills s from u (len K) and v.
func (p *ScalePriors) eval(u []float64, v float64, s *scales) {
	c := p.scale()
	s.sigma = c * math.Exp(v)
	lp, d := p.Sigma.LogPDF(s.sigma)
	s.lp = lp + v + math.Log(c)
	s.dlpdv = d*s.sigma + 1
	for k := range u {
		xc := 1.0
		if !p.Relative {
			xc = c
		}
		x := xc * math.Exp(u[k])
		s.x[k] = x
		lp, d := p.SD[k].LogPDF(x)
		s.lp += lp + u[k] + math.Log(xc)
		s.dlpdu[k] = d*x + 1
		if p.Relative {
			s.sd[k] = x * s.sigma
		} else {
			s.sd[k] = x
		}
	}
}

// MixedModel is a model with an intercept, varying intercepts for any number
// of grouping factors and a replaceable observation family:
//
//	y_n ~ Family(μ_n, σ, θ_f),  μ_n = γ + Σ_k b_k[Index_k[n]],  b_k = SD_k·z_k,  z_k ~ N(0, I)
//
// in Stan's non-centred form. With a Gaussian family, rstanarm's default
// priors and Relative scales it is exactly rstanarm's stan_glmer density
// (statistics.md §1.3). Unconstrained coordinates, in Stan's order:
// γ, z_1, …, z_K, u_1..u_K, v, then the family's parameters.
type MixedModel struct {
	Y         []float64
	Factors   []Factor
	Family    Family
	Intercept Prior // on γ
	Scales    ScalePriors

	nz     int // total number of levels
	mu     []float64
	dmu    []float64
	gsum   []float64 // per-level sums of ∂ℓ/∂μ
	dextra []float64
	extra  []float64
	dx     []float64
	sc     scales
}

// NewMixedModel checks the specification and returns the model.
func NewMixedModel(y []float64, factors []Factor, fam Family, intercept Prior, sp ScalePriors) (*MixedModel, error) {
	if len(sp.SD) != len(factors) {
		return nil, fmt.Errorf("%d SD priors for %d factors", len(sp.SD), len(factors))
	}
	if intercept.Positive() {
		return nil, fmt.Errorf("intercept prior %v has positive support; the intercept is unbounded", intercept)
	}
	if !sp.Sigma.Positive() {
		return nil, fmt.Errorf("sigma prior %v must have positive support", sp.Sigma)
	}
	for k, p := range sp.SD {
		if !p.Positive() {
			return nil, fmt.Errorf("SD prior %v of factor %q must have positive support", p, factors[k].Name)
		}
	}
	m := &MixedModel{Y: y, Factors: factors, Family: fam, Intercept: intercept, Scales: sp}
	for _, f := range factors {
		if len(f.Index) != len(y) {
			return nil, fmt.Errorf("factor %q indexes %d observations, want %d", f.Name, len(f.Index), len(y))
		}
		for _, j := range f.Index {
			if j < 0 || int(j) >= len(f.Levels) {
				return nil, fmt.Errorf("factor %q: level index %d out of range", f.Name, j)
			}
		}
		m.nz += len(f.Levels)
	}
	return m.Fork().(*MixedModel), nil
}

// Fork returns a copy with its own scratch space.
func (m *MixedModel) Fork() Model {
	c := *m
	c.mu = make([]float64, len(m.Y))
	c.dmu = make([]float64, len(m.Y))
	c.gsum = make([]float64, m.nz)
	np := len(m.Family.Params())
	c.dextra = make([]float64, np)
	c.extra = make([]float64, np)
	c.dx = make([]float64, np)
	c.sc = newScales(len(m.Factors))
	return &c
}

func (m *MixedModel) Dim() int { return 1 + m.nz + len(m.Factors) + 1 + len(m.Family.Params()) }

// offsets of the blocks of θ
func (m *MixedModel) offU() int     { return 1 + m.nz }
func (m *MixedModel) offV() int     { return 1 + m.nz + len(m.Factors) }
func (m *MixedModel) offExtra() int { return m.offV() + 1 }

func (m *MixedModel) LogDensity(theta, grad []float64) float64 {
	K := len(m.Factors)
	u, v := theta[m.offU():m.offU()+K], theta[m.offV()]
	m.Scales.eval(u, v, &m.sc)
	sigma := m.sc.sigma
	lp := m.sc.lp

	gamma := theta[0]
	ilp, dgamma := m.Intercept.LogPDF(gamma)
	lp += ilp

	// family parameters
	params := m.Family.Params()
	dx := m.dx
	for j, fp := range params {
		x, dxdu, lj, dlj := fp.Transform.Constrain(theta[m.offExtra()+j])
		m.extra[j] = x
		dx[j] = dxdu
		plp, pd := fp.Prior.LogPDF(x)
		lp += plp + lj
		grad[m.offExtra()+j] = pd*dxdu + dlj
		m.dextra[j] = 0
	}

	// linear predictor
	for n := range m.mu {
		m.mu[n] = gamma
	}
	off := 1
	for k, f := range m.Factors {
		z := theta[off : off+len(f.Levels)]
		sd := m.sc.sd[k]
		for n, j := range f.Index {
			m.mu[n] += sd * z[j]
		}
		off += len(f.Levels)
	}
	ll, dsigma := m.Family.LogLik(m.Y, m.mu, sigma, m.extra, m.dmu, m.dextra)
	lp += ll

	sumd := 0.0
	for _, d := range m.dmu {
		sumd += d
	}
	grad[0] = sumd + dgamma

	// z_k: prior N(0,1) and likelihood through b = SD·z
	off = 1
	dsigmaTotal := dsigma
	for k, f := range m.Factors {
		z := theta[off : off+len(f.Levels)]
		g := m.gsum[off-1 : off-1+len(f.Levels)]
		clear(g)
		if len(f.Index) > 0 {
			// Sum runs of equal levels in a register: observations are often
			// grouped by one factor, and g[j] += … on a repeated j serialises.
			cur, acc := f.Index[0], 0.0
			for n, j := range f.Index {
				if j != cur {
					g[cur] += acc
					cur, acc = j, 0
				}
				acc += m.dmu[n]
			}
			g[cur] += acc
		}
		sd := m.sc.sd[k]
		dsd := 0.0
		for j, zj := range z {
			lp -= 0.5 * zj * zj
			grad[off+j] = sd*g[j] - zj
			dsd += zj * g[j]
		}
		// SD_k = x_k·σ (Relative) or x_k; x_k = c·exp(u_k)
		x := m.sc.x[k]
		if m.Scales.Relative {
			grad[m.offU()+k] = dsd*sigma*x + m.sc.dlpdu[k]
			dsigmaTotal += dsd * x
		} else {
			grad[m.offU()+k] = dsd*x + m.sc.dlpdu[k]
		}
		off += len(f.Levels)
	}
	grad[m.offV()] = dsigmaTotal*sigma + m.sc.dlpdv
	for j := range params {
		grad[m.offExtra()+j] += m.dextra[j] * dx[j]
	}
	return lp
}

// Names are intercept, sigma, the family's parameters, sd_<factor> for each
// factor, then <factor>[<level>] for every level of every factor.
func (m *MixedModel) Names() []string {
	names := []string{"intercept", "sigma"}
	for _, p := range m.Family.Params() {
		names = append(names, p.Name)
	}
	for _, f := range m.Factors {
		names = append(names, "sd_"+f.Name)
	}
	for _, f := range m.Factors {
		for _, l := range f.Levels {
			names = append(names, f.Name+"["+l+"]")
		}
	}
	return names
}

func (m *MixedModel) Generate(theta []float64, _ *rand.Rand, out []float64) {
	K := len(m.Factors)
	sc := &m.sc // Generate runs on the chain's fork, like LogDensity
	m.Scales.eval(theta[m.offU():m.offU()+K], theta[m.offV()], sc)
	out[0], out[1] = theta[0], sc.sigma
	i := 2
	for j, fp := range m.Family.Params() {
		out[i], _, _, _ = fp.Transform.Constrain(theta[m.offExtra()+j])
		i++
	}
	copy(out[i:], sc.sd)
	i += K
	off := 1
	for k, f := range m.Factors {
		for j := range f.Levels {
			out[i] = sc.sd[k] * theta[off+j]
			i++
		}
		off += len(f.Levels)
	}
}
