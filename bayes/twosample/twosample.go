package twosample

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/riskgate/riskgate/bayes/posterior"
)

// Sakai's (SIGIR 2017) Bayesian tests for two systems' per-topic scores, with
// the flat priors of his Stan models: μ1, μ2 ∈ ℝ, σ1, σ2 > 0 and, paired,
// ρ ∈ (−1, 1), all uniform (improper). Both posteriors can be drawn exactly,
// so no MCMC is needed:
//
// Paired (bivariate normal, n topics, scatter matrix S = Σ_j (x_j − x̄)(x_j − x̄)ᵀ).
// Integrating μ out of the likelihood leaves, in (σ1, σ2, ρ),
// p ∝ |Σ|^(−(n−1)/2) exp(−½ tr(Σ⁻¹S)). The map (σ1, σ2, ρ) → (Σ11, Σ22, Σ12) has
// Jacobian 4σ1²σ2², so the density of Σ is that divided by Σ11·Σ22 = |Σ|/(1 − ρ²):
//
//	p(Σ | x) ∝ |Σ|^(−(n+1)/2) exp(−½ tr(Σ⁻¹S)) · (1 − ρ²),
//
// an inverse-Wishart IW(S, ν = n − 2) density (|Σ|^(−(ν+3)/2) for 2×2) times
// 1 − ρ² ≤ 1. Proposing Σ ~ IW(S, n − 2) and accepting with probability 1 − ρ²
// is exact rejection sampling; then μ | Σ, x ~ N₂(x̄, Σ/n). It needs n ≥ 4 (the
// posterior is improper for n ≤ 3) and S positive definite.
//
// Unpaired (independent normals): per system, integrating μ_k out leaves
// p(σ_k) ∝ σ_k^(−(n_k−1)) exp(−S_k/(2σ_k²)), i.e. σ_k² | x ~ Inv-Gamma(n_k/2 − 1, S_k/2)
// (dσ = dv/(2σ) turns σ^(−(n−1)) into v^(−n/2)), and μ_k | σ_k ~ N(x̄_k, σ_k²/n_k).
// It needs n_k ≥ 3.
//
// The draws are independent, so the Monte Carlo standard error of a posterior
// mean is exactly sd/√S.

// Draws holds S joint posterior draws of Sakai's paired or unpaired model.
type Draws struct {
	Paired         bool
	Mu1, Mu2       []float64
	Sigma1, Sigma2 []float64
	Rho            []float64 // paired model only
	// Proposals is the number of inverse-Wishart proposals the paired sampler
	// made (acceptance rate = S / Proposals); 0 for the unpaired model.
	Proposals int
}

// Len returns the number of draws.
func (d *Draws) Len() int { return len(d.Mu1) }

// Diff returns the draws of δ = μ1 − μ2.
func (d *Draws) Diff() []float64 {
	out := make([]float64, len(d.Mu1))
	for i := range out {
		out[i] = d.Mu1[i] - d.Mu2[i]
	}
	return out
}

// Glass1 returns the draws of Glass's Δ with system 1 as the baseline, (μ1 − μ2)/σ1 (Sakai eq. 8).
func (d *Draws) Glass1() []float64 {
	out := make([]float64, len(d.Mu1))
	for i := range out {
		out[i] = (d.Mu1[i] - d.Mu2[i]) / d.Sigma1[i]
	}
	return out
}

// Glass2 returns the draws of Glass's Δ with system 2 as the baseline, (μ1 − μ2)/σ2 (Sakai eq. 9).
func (d *Draws) Glass2() []float64 {
	out := make([]float64, len(d.Mu1))
	for i := range out {
		out[i] = (d.Mu1[i] - d.Mu2[i]) / d.Sigma2[i]
	}
	return out
}

// maxProposalsPerDraw bounds the paired sampler's work: the acceptance rate is
// E[1 − ρ²], below 1/1000 only when the posterior of ρ is within ~0.0005 of ±1.
const maxProposalsPerDraw = 1000

// SamplePaired draws S times exactly from the posterior of Sakai's paired
// model for the scores x1 and x2 of two systems on the same topics (x1[j] and
// x2[j] are topic j), by the rejection sampler described above.
func SamplePaired(x1, x2 []float64, s int, r *rand.Rand) (*Draws, error) {
	n := len(x1)
	if len(x2) != n {
		return nil, fmt.Errorf("paired model: %d scores for system 1 but %d for system 2", n, len(x2))
	}
	if n < 4 {
		return nil, fmt.Errorf("paired model: needs at least 4 topics scored for both systems (its flat-prior posterior is improper with fewer); got %d", n)
	}
	if err := checkFinite(x1, x2); err != nil {
		return nil, err
	}
	if s < 1 {
		return nil, fmt.Errorf("paired model: %d draws requested; expected at least 1", s)
	}
	m1, m2 := posterior.Mean(x1), posterior.Mean(x2)
	var s11, s12, s22 float64
	for j := range x1 {
		d1, d2 := x1[j]-m1, x2[j]-m2
		s11 += d1 * d1
		s12 += d1 * d2
		s22 += d2 * d2
	}
	det := s11*s22 - s12*s12
	if s11 == 0 || s22 == 0 {
		return nil, errors.New("paired model: a system has the same score on every topic; its standard deviation is 0 and the model is undefined")
	}
	if !(det > 1e-12*s11*s22) {
		return nil, errors.New("paired model: the two systems' scores are perfectly correlated (e.g. identical up to a shift), so ρ = ±1 and the model is undefined")
	}
	// L = chol(S⁻¹), the scale of the Wishart distribution of Σ⁻¹.
	v11, v21, v22 := s22/det, -s12/det, s11/det
	l11 := math.Sqrt(v11)
	l21 := v21 / l11
	l22 := math.Sqrt(v22 - l21*l21)
	nu := float64(n - 2)
	fn := float64(n)

	d := &Draws{Paired: true,
		Mu1: make([]float64, s), Mu2: make([]float64, s),
		Sigma1: make([]float64, s), Sigma2: make([]float64, s), Rho: make([]float64, s)}
	limit := maxProposalsPerDraw * s
	for i := 0; i < s; {
		if d.Proposals >= limit {
			return nil, fmt.Errorf("paired model: acceptance rate below 1/%d (the posterior of ρ is pressed against ±1)", maxProposalsPerDraw)
		}
		d.Proposals++
		// Bartlett: Σ⁻¹ = B Bᵀ with B = L·A, A lower triangular, A11² ~ χ²(ν),
		// A22² ~ χ²(ν−1), A21 ~ N(0,1). Then Σ = Cᵀ C with C = B⁻¹.
		a11 := math.Sqrt(chiSquareVariate(r, nu))
		a22 := math.Sqrt(chiSquareVariate(r, nu-1))
		a21 := r.NormFloat64()
		b11 := l11 * a11
		b21 := l21*a11 + l22*a21
		b22 := l22 * a22
		c21 := -b21 / (b11 * b22)
		sig11 := 1/(b11*b11) + c21*c21
		sig22 := 1 / (b22 * b22)
		sig12 := c21 / b22
		rho := sig12 / math.Sqrt(sig11*sig22)
		if r.Float64() >= 1-rho*rho {
			continue
		}
		// μ | Σ ~ N₂(x̄, Σ/n) through the Cholesky factor of Σ/n.
		c1 := math.Sqrt(sig11 / fn)
		c2 := sig12 / fn / c1
		c3 := math.Sqrt(math.Max(sig22/fn-c2*c2, 0))
		z1, z2 := r.NormFloat64(), r.NormFloat64()
		d.Mu1[i] = m1 + c1*z1
		d.Mu2[i] = m2 + c2*z1 + c3*z2
		d.Sigma1[i] = math.Sqrt(sig11)
		d.Sigma2[i] = math.Sqrt(sig22)
		d.Rho[i] = rho
		i++
	}
	return d, nil
}

// SampleUnpaired draws S times exactly from the posterior of Sakai's unpaired
// model (two independent normals with flat priors) for the scores x1 and x2.
func SampleUnpaired(x1, x2 []float64, s int, r *rand.Rand) (*Draws, error) {
	if len(x1) < 3 || len(x2) < 3 {
		return nil, fmt.Errorf("unpaired model: needs at least 3 scores per system (its flat-prior posterior is improper with fewer); got %d and %d", len(x1), len(x2))
	}
	if err := checkFinite(x1, x2); err != nil {
		return nil, err
	}
	if s < 1 {
		return nil, fmt.Errorf("unpaired model: %d draws requested; expected at least 1", s)
	}
	type group struct{ mean, halfSS, shape, n float64 }
	var g [2]group
	for k, x := range [][]float64{x1, x2} {
		m := posterior.Mean(x)
		ss := 0.0
		for _, v := range x {
			ss += (v - m) * (v - m)
		}
		if ss == 0 {
			return nil, fmt.Errorf("unpaired model: system %d has the same score everywhere; its standard deviation is 0 and the model is undefined", k+1)
		}
		g[k] = group{m, ss / 2, float64(len(x))/2 - 1, float64(len(x))}
	}
	d := &Draws{
		Mu1: make([]float64, s), Mu2: make([]float64, s),
		Sigma1: make([]float64, s), Sigma2: make([]float64, s)}
	for i := 0; i < s; i++ {
		for k := range g {
			v := g[k].halfSS / gammaVariate(r, g[k].shape) // σ² ~ Inv-Gamma(n/2 − 1, S/2)
			mu := g[k].mean + math.Sqrt(v/g[k].n)*r.NormFloat64()
			if k == 0 {
				d.Mu1[i], d.Sigma1[i] = mu, math.Sqrt(v)
			} else {
				d.Mu2[i], d.Sigma2[i] = mu, math.Sqrt(v)
			}
		}
	}
	return d, nil
}

func checkFinite(xs ...[]float64) error {
	for k, x := range xs {
		for j, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("score %d of system %d is %v; expected a finite number", j+1, k+1, v)
			}
		}
	}
	return nil
}

// Quantity summarises the posterior of one scalar quantity from its draws.
type Quantity struct {
	Name string
	EAP  float64 // posterior mean (expected a posteriori)
	SD   float64 // posterior standard deviation (denominator S−1)
	// MCSE is the Monte Carlo standard error of EAP, SD/√S: exact for the
	// independent draws of the conjugate samplers in this package.
	MCSE         float64
	Lo, Hi       float64 // equal-tailed credible interval: R type-7 quantiles at (1∓CredMass)/2
	HDILo, HDIHi float64 // highest-density interval of mass CredMass (HDI)
	CredMass     float64
	Threshold    float64
	PGreater     float64 // P(quantity > Threshold | data): the share of draws above it
	ROPE         posterior.ROPEResult
}

// SummarizeQuantity summarises draws: EAP, SD, credible interval, HDI and
// P(> threshold), and decides against rope with ROPEDecision's rule.
func SummarizeQuantity(name string, draws []float64, credMass, threshold float64, rope posterior.ROPE) Quantity {
	q, _ := summarize(name, draws, credMass, threshold, rope)
	return q
}

// summarize is SummarizeQuantity, also returning the sorted draws.
func summarize(name string, draws []float64, credMass, threshold float64, rope posterior.ROPE) (Quantity, []float64) {
	y := slices.Clone(draws)
	slices.Sort(y)
	q := Quantity{Name: name, CredMass: credMass, Threshold: threshold}
	q.EAP = posterior.Mean(draws)
	q.SD = posterior.SD(draws)
	q.MCSE = q.SD / math.Sqrt(float64(len(draws)))
	q.Lo = posterior.QuantileSorted(y, (1-credMass)/2)
	q.Hi = posterior.QuantileSorted(y, (1+credMass)/2)
	q.HDILo, q.HDIHi = posterior.HDISorted(y, credMass)
	q.PGreater = posterior.ProbGreater(draws, threshold)
	q.ROPE = posterior.ROPEDecisionSorted(y, q.HDILo, q.HDIHi, rope, credMass)
	return q, y
}

// Options configure CompareTwoSystems. The zero value of a field
// means its default.
type Options struct {
	Paired   bool    // Sakai's paired model (default: unpaired)
	Draws    int     // posterior draws; default 100,000 (Sakai's T)
	Seed     uint64  // seed of the random stream
	CredMass float64 // mass of credible intervals and HDIs; default 0.95
	// Thresholds of P(quantity > threshold); Sakai's defaults are 0 for the
	// difference, 0.2 for Glass's Δ and 0.9 for ρ (DefaultOptions).
	Thresholds Thresholds
	ROPEs      ROPEs
}

// Thresholds are the thresholds of P(quantity > threshold).
type Thresholds struct{ Diff, Glass1, Glass2, Rho float64 }

// ROPEs are the regions of practical equivalence of each quantity.
type ROPEs struct{ Diff, Glass, Rho posterior.ROPE }

// DefaultOptions returns Sakai's thresholds (0, 0.2, 0.2, 0.9), the
// ROPEs [−0.01, 0.01] for the difference (on the measure's own scale),
// [−0.1, 0.1] for Glass's Δ (Kruschke's "half a small effect") and
// [−0.1, 0.1] for ρ, 100,000 draws and 95% intervals.
func DefaultOptions() Options {
	return Options{
		Draws:      100000,
		CredMass:   0.95,
		Thresholds: Thresholds{Diff: 0, Glass1: 0.2, Glass2: 0.2, Rho: 0.9},
		ROPEs: ROPEs{Diff: posterior.ROPE{Lo: -0.01, Hi: 0.01}, Glass: posterior.ROPE{Lo: -0.1, Hi: 0.1},
			Rho: posterior.ROPE{Lo: -0.1, Hi: 0.1}},
	}
}

// Result is the outcome of CompareTwoSystems.
type Result struct {
	Model  string // "paired" or "unpaired"
	N1, N2 int    // scores of system 1 and system 2
	Draws  int
	Seed   uint64
	// Quantities are, in order, diff = μ1 − μ2, glass1 = diff/σ1,
	// glass2 = diff/σ2 and (paired only) rho. (The classical tests Sakai
	// tabulates beside them are package risk's: Pair.PairedT, Pair.Pearson,
	// TwoSamples.WelchT, GlassDelta.)
	Quantities []Quantity
	// AcceptanceRate of the paired model's rejection sampler (NaN unpaired).
	AcceptanceRate float64
	Warnings       []string
}

// Quantity returns the summary named name ("diff", "glass1", "glass2", "rho").
func (r *Result) Quantity(name string) (Quantity, bool) {
	for _, q := range r.Quantities {
		if q.Name == name {
			return q, true
		}
	}
	return Quantity{}, false
}

// CompareTwoSystems runs Sakai's paired or unpaired Bayesian test of system 1
// (scores x1) against system 2 (x2). For the paired model x1[j] and x2[j]
// must be the same topic.
func CompareTwoSystems(x1, x2 []float64, opt Options) (*Result, error) {
	def := DefaultOptions()
	if opt.Draws == 0 {
		opt.Draws = def.Draws
	}
	if opt.CredMass == 0 {
		opt.CredMass = def.CredMass
	}
	if !(opt.CredMass > 0 && opt.CredMass < 1) {
		return nil, fmt.Errorf("credible mass %v: expected a number in (0, 1)", opt.CredMass)
	}
	for _, rp := range []posterior.ROPE{opt.ROPEs.Diff, opt.ROPEs.Glass, opt.ROPEs.Rho} {
		if err := rp.Validate(); err != nil {
			return nil, err
		}
	}
	r := NewStream(opt.Seed, 0)
	var (
		d   *Draws
		err error
	)
	res := &Result{N1: len(x1), N2: len(x2), Draws: opt.Draws, Seed: opt.Seed, AcceptanceRate: math.NaN()}
	if opt.Paired {
		res.Model = "paired"
		d, err = SamplePaired(x1, x2, opt.Draws, r)
		if err == nil {
			res.AcceptanceRate = float64(d.Len()) / float64(d.Proposals)
		}
	} else {
		res.Model = "unpaired"
		d, err = SampleUnpaired(x1, x2, opt.Draws, r)
	}
	if err != nil {
		return nil, err
	}
	th, rp, cm := opt.Thresholds, opt.ROPEs, opt.CredMass
	res.Quantities = []Quantity{
		SummarizeQuantity("diff", d.Diff(), cm, th.Diff, rp.Diff),
		SummarizeQuantity("glass1", d.Glass1(), cm, th.Glass1, rp.Glass),
		SummarizeQuantity("glass2", d.Glass2(), cm, th.Glass2, rp.Glass),
	}
	if opt.Paired {
		res.Quantities = append(res.Quantities, SummarizeQuantity("rho", d.Rho, cm, th.Rho, rp.Rho))
	}
	if n := min(len(x1), len(x2)); n < 10 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("only %d topics: with flat priors the posterior of σ (and so of Glass's Δ) is wide and heavy-tailed", n))
	}
	return res, nil
}
