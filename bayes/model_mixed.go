package bayes

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/stats"
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
	x     []float64    // τ_k (Relative) or SD_k
	lp    float64      // log priors + log-Jacobians
	dlpdv float64      // ∂lp/∂v (prior and Jacobian only)
	dlpdu []float64    // ∂lp/∂u_k
	fast  *scaleConsts // compiled priors (compiledScales), or nil
}

func newScales(k int) scales {
	return scales{sd: make([]float64, k), x: make([]float64, k), dlpdu: make([]float64, k)}
}

// collapsedGradient writes the gradient of a collapsed model's log density
// on its coordinates (u_topic, u_system, v) into grad, given the
// likelihood's derivatives dA, dB, dC in A = σ², B = SD_topic², C =
// SD_system² and s from p.eval: ∂/∂u_k of SD_k² is 2·SD_k²; ∂/∂v of σ² is
// 2σ², and of SD_k² too when SD_k = τ_k·σ (p.Relative).
func (p *ScalePriors) collapsedGradient(s *scales, grad []float64, A, B, C, dA, dB, dC float64) {
	grad[0] = 2*B*dB + s.dlpdu[0]
	grad[1] = 2*C*dC + s.dlpdu[1]
	grad[2] = 2*A*dA + s.dlpdv
	if p.Relative {
		grad[2] += 2*B*dB + 2*C*dC
	}
}

// eval fills s from u (len K) and v.
func (p *ScalePriors) eval(u []float64, v float64, s *scales) {
	if s.fast != nil {
		p.evalCompiled(u, v, s)
		return
	}
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
//	y_n ~ Family(μ_n, σ, θ_f),  μ_n = γ + Σ_k b_k[Index_k[n]],  b_k ~ N(0, SD_k² I)
//
// By default in Stan's non-centred form b_k = SD_k·z_k, z_k ~ N(0, I); with a
// Gaussian family, rstanarm's default priors and Relative scales it is then
// exactly rstanarm's stan_glmer density (statistics.md §1.3). Param chooses
// other coordinates for the same posterior (see MixedParam and WithParam).
// Unconstrained coordinates, in Stan's order: γ (or a, see MixedParam), the
// factors' effect coordinates z_1, …, z_K, u_1..u_K, v, then the family's
// parameters.
type MixedModel struct {
	Y         []float64
	Factors   []Factor
	Family    Family
	Intercept Prior // on γ
	Scales    ScalePriors
	Param     MixedParam

	nz     int // total number of levels
	mu     []float64
	dmu    []float64
	gsum   []float64 // per-level sums of ∂ℓ/∂μ
	eff    []float64 // per-level effects b
	th     []float64 // θ from the sampler's θ′ (MixedParam.Loc, Scale)
	dextra []float64
	extra  []float64
	dx     []float64
	sc     scales
}

// FactorParam is how a factor's effects b (J levels) are laid out on the
// sampler's coordinates. The choice changes how well NUTS mixes, never the
// posterior.
type FactorParam int

const (
	// NonCentred samples z with b = SD·z, z ~ N(0, I): best when the data say
	// little about each level (SD small against σ/√n_level), where the
	// centred form has a funnel.
	NonCentred FactorParam = iota
	// CentredContrasts splits b by an orthogonal Householder reflection H
	// (H e_J = 1/√J) into its J − 1 orthonormal sum-to-zero contrasts u and its
	// mean: b = H·(u, SD·ζ). The contrasts are centred, u ~ N(0, SD² I), which
	// suits a factor the data pin down level by level (IR topics); the mean
	// b̄ = SD·ζ/√J, which only the priors identify, stays non-centred,
	// ζ ~ N(0, 1). The log density of (u, ζ) is
	// −(J − 1)·log SD − ‖u‖²/(2SD²) − ζ²/2 (the SD of ζ's scaling is its Jacobian).
	CentredContrasts
)

// MixedParam is the coordinate system the sampler sees.
type MixedParam struct {
	// InterceptAtMean samples a = γ + Σ_k b̄_k (b̄_k = mean of factor k's
	// effects over its levels) in place of γ, a linear shear of unit
	// Jacobian. The data fix γ + Σ_k b̄_k closely while each b̄_k is
	// identified only by its prior, so in γ's own coordinate the intercept
	// and the factor means lie on a narrow ridge; in a they do not.
	InterceptAtMean bool
	Factors         []FactorParam // per factor; nil means all NonCentred
	// Loc and Scale precondition the coordinates (both nil, or both of
	// length Dim): the sampler moves θ′ with θ = Loc + Scale⊙θ′, a map of
	// constant Jacobian. With Loc and Scale near each coordinate's
	// posterior mean and sd (MomentParam), Stan's unit initial metric and
	// its initial points θ′ ~ Uniform(−2, 2) are already on the posterior's
	// scale, and warmup need not discover scales that span four orders of
	// magnitude (σ's log to α).
	Loc, Scale []float64
}

// factor returns factor k's parameterisation.
func (p MixedParam) factor(k int) FactorParam {
	if p.Factors == nil {
		return NonCentred
	}
	return p.Factors[k]
}

// NewMixedModel checks the specification and returns the model in its
// default coordinates (non-centred, γ sampled directly).
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
		if len(f.Levels) == 0 {
			return nil, fmt.Errorf("factor %q has no levels", f.Name)
		}
		m.nz += len(f.Levels)
	}
	return m.Fork().(*MixedModel), nil
}

// WithParam returns the same model on the coordinates p.
func (m *MixedModel) WithParam(p MixedParam) (*MixedModel, error) {
	if p.Factors != nil && len(p.Factors) != len(m.Factors) {
		return nil, fmt.Errorf("%d factor parameterisations for %d factors", len(p.Factors), len(m.Factors))
	}
	for k, fp := range p.Factors {
		if fp != NonCentred && fp != CentredContrasts {
			return nil, fmt.Errorf("factor %q: unknown parameterisation %d", m.Factors[k].Name, fp)
		}
	}
	if (p.Loc == nil) != (p.Scale == nil) || (p.Loc != nil && (len(p.Loc) != m.Dim() || len(p.Scale) != m.Dim())) {
		return nil, fmt.Errorf("preconditioning: Loc and Scale must both be nil or both have %d elements", m.Dim())
	}
	for i, c := range p.Scale {
		if !(c > 0) || math.IsInf(c, 0) || !stats.Finite(p.Loc[i]) {
			return nil, fmt.Errorf("preconditioning of coordinate %d: location %v, scale %v; want finite values and a positive scale", i, p.Loc[i], c)
		}
	}
	c := m.Fork().(*MixedModel)
	c.Param = p
	return c, nil
}

// Fork returns a copy with its own scratch space.
func (m *MixedModel) Fork() mcmc.Model {
	c := *m
	c.mu = make([]float64, len(m.Y))
	c.dmu = make([]float64, len(m.Y))
	c.gsum = make([]float64, m.nz)
	c.eff = make([]float64, m.nz)
	np := len(m.Family.Params())
	c.dextra = make([]float64, np)
	c.extra = make([]float64, np)
	c.dx = make([]float64, np)
	c.sc = newScales(len(m.Factors))
	c.th = make([]float64, m.Dim())
	return &c
}

func (m *MixedModel) Dim() int { return 1 + m.nz + len(m.Factors) + 1 + len(m.Family.Params()) }

// offsets of the blocks of θ
func (m *MixedModel) offU() int     { return 1 + m.nz }
func (m *MixedModel) offV() int     { return 1 + m.nz + len(m.Factors) }
func (m *MixedModel) offExtra() int { return m.offV() + 1 }

// householder applies H = I − 2wwᵀ/(wᵀw), w = e_J − 1/√J, to x in place
// (H is symmetric and orthogonal, H e_J = 1/√J and H·1/√J = e_J). O(J).
func householder(x []float64) {
	J := len(x)
	if J < 2 {
		return
	}
	r := 1 / math.Sqrt(float64(J))
	s := 0.0
	for _, v := range x {
		s += v
	}
	wx := x[J-1] - r*s     // wᵀx
	c := wx / (1 - r)      // 2·wᵀx/wᵀw, wᵀw = 2(1 − 1/√J)
	for i := range J - 1 { // w_i = −1/√J
		x[i] += c * r
	}
	x[J-1] -= c * (1 - r)
}

// effects writes factor k's effects b for the coordinates z into dst and
// returns their mean over the levels.
func (m *MixedModel) effects(k int, z, dst []float64) float64 {
	sd := m.sc.sd[k]
	J := len(z)
	switch m.Param.factor(k) {
	case CentredContrasts:
		copy(dst, z[:J-1])
		dst[J-1] = sd * z[J-1]
		householder(dst)
		return sd * z[J-1] / math.Sqrt(float64(J))
	default:
		s := 0.0
		for j, zj := range z {
			dst[j] = sd * zj
			s += dst[j]
		}
		return s / float64(J)
	}
}

func (m *MixedModel) LogDensity(theta, grad []float64) float64 {
	if m.Param.Scale == nil {
		return m.logDensity(theta, grad)
	}
	for i, x := range theta {
		m.th[i] = m.Param.Loc[i] + m.Param.Scale[i]*x
	}
	lp := m.logDensity(m.th, grad)
	for i, c := range m.Param.Scale {
		grad[i] *= c
	}
	return lp
}

// logDensity is the log density in the coordinates θ (before preconditioning).
func (m *MixedModel) logDensity(theta, grad []float64) float64 {
	K := len(m.Factors)
	u, v := theta[m.offU():m.offU()+K], theta[m.offV()]
	m.Scales.eval(u, v, &m.sc)
	sigma := m.sc.sigma
	lp := m.sc.lp

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

	// effects and the intercept γ
	gamma := theta[0]
	off := 1
	for k, f := range m.Factors {
		J := len(f.Levels)
		mean := m.effects(k, theta[off:off+J], m.eff[off-1:off-1+J])
		if m.Param.InterceptAtMean {
			gamma -= mean
		}
		off += J
	}
	ilp, dgamma := m.Intercept.LogPDF(gamma)
	lp += ilp

	// linear predictor
	for n := range m.mu {
		m.mu[n] = gamma
	}
	off = 1
	for _, f := range m.Factors {
		b := m.eff[off-1 : off-1+len(f.Levels)]
		for n, j := range f.Index {
			m.mu[n] += b[j]
		}
		off += len(f.Levels)
	}
	ll, dsigma := m.Family.LogLik(m.Y, m.mu, sigma, m.extra, m.dmu, m.dextra)
	lp += ll

	sumd := 0.0
	for _, d := range m.dmu {
		sumd += d
	}
	dg := sumd + dgamma // ∂/∂γ of likelihood and intercept prior
	grad[0] = dg

	// effect coordinates: prior, and likelihood through b
	off = 1
	dsigmaTotal := dsigma
	for k, f := range m.Factors {
		J := len(f.Levels)
		z := theta[off : off+J]
		g := m.gsum[off-1 : off-1+J]
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
		if m.Param.InterceptAtMean { // γ = a − Σ_k b̄_k
			c := dg / float64(J)
			for j := range g {
				g[j] -= c
			}
		}
		sd := m.sc.sd[k]
		dsd := 0.0
		switch m.Param.factor(k) {
		case CentredContrasts:
			householder(g) // ∂/∂(u, SD·ζ) = H·∂/∂b
			uu := 0.0
			inv2 := 1 / (sd * sd)
			for j, zj := range z[:J-1] {
				uu += zj * zj
				grad[off+j] = g[j] - zj*inv2
			}
			zeta := z[J-1]
			lp += -float64(J-1)*math.Log(sd) - 0.5*uu*inv2 - 0.5*zeta*zeta
			grad[off+J-1] = sd*g[J-1] - zeta
			dsd = zeta*g[J-1] - float64(J-1)/sd + uu*inv2/sd
		default:
			for j, zj := range z {
				lp -= 0.5 * zj * zj
				grad[off+j] = sd*g[j] - zj
				dsd += zj * g[j]
			}
		}
		// SD_k = x_k·σ (Relative) or x_k; x_k = c·exp(u_k)
		x := m.sc.x[k]
		if m.Scales.Relative {
			grad[m.offU()+k] = dsd*sigma*x + m.sc.dlpdu[k]
			dsigmaTotal += dsd * x
		} else {
			grad[m.offU()+k] = dsd*x + m.sc.dlpdu[k]
		}
		off += J
	}
	grad[m.offV()] = dsigmaTotal*sigma + m.sc.dlpdv
	for j := range params {
		grad[m.offExtra()+j] += m.dextra[j] * dx[j]
	}
	return lp
}

// Names are intercept (γ), sigma, sd_<factor> for each factor, then
// <factor>[<level>] for every level of every factor, then the family's
// parameters (so that a two-factor model keeps HierFit's layout).
func (m *MixedModel) Names() []string {
	names := []string{"intercept", "sigma"}
	for _, f := range m.Factors {
		names = append(names, "sd_"+f.Name)
	}
	for _, f := range m.Factors {
		for _, l := range f.Levels {
			names = append(names, f.Name+"["+l+"]")
		}
	}
	for _, p := range m.Family.Params() {
		names = append(names, p.Name)
	}
	return names
}

func (m *MixedModel) Generate(theta []float64, _ *rand.Rand, out []float64) {
	if m.Param.Scale != nil {
		for i, x := range theta {
			m.th[i] = m.Param.Loc[i] + m.Param.Scale[i]*x
		}
		theta = m.th
	}
	K := len(m.Factors)
	sc := &m.sc // Generate runs on the chain's fork, like LogDensity
	m.Scales.eval(theta[m.offU():m.offU()+K], theta[m.offV()], sc)
	out[1] = sc.sigma
	copy(out[2:], sc.sd)
	gamma := theta[0]
	i := 2 + K
	off := 1
	for k, f := range m.Factors {
		J := len(f.Levels)
		mean := m.effects(k, theta[off:off+J], out[i:i+J])
		if m.Param.InterceptAtMean {
			gamma -= mean
		}
		i += J
		off += J
	}
	out[0] = gamma
	for j, fp := range m.Family.Params() {
		out[i], _, _, _ = fp.Transform.Constrain(theta[m.offExtra()+j])
		i++
	}
}

// unconstrain writes the coordinates (u_1..u_K, v) of σ and the factors'
// SDs into theta, the inverse of eval: σ = Scale·exp(v), SD_k =
// σ·exp(u_k) (Relative) or Scale·exp(u_k).
func (p *ScalePriors) unconstrain(sigma float64, sd, theta []float64) {
	c := p.scale()
	theta[len(sd)] = math.Log(sigma / c)
	for k, s := range sd {
		if p.Relative {
			theta[k] = math.Log(s / sigma)
		} else {
			theta[k] = math.Log(s / c)
		}
	}
}
