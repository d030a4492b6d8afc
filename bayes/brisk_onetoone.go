package bayes

import (
	"fmt"
	"math"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/risk"
)

// OneToOneOptions configure OneToOne. Zero values mean the defaults in brackets.
type OneToOneOptions struct {
	Family Family // likelihood of the differences [Gaussian]; SkewNormal{} for Figure 6's skew normal
	// Intercept and Sigma are the priors [brms's defaults on the
	// differences: student_t(3, round(median d, 1), s) and half-student_t(3,
	// s), s = max(2.5, round(mad d, 1))]; the skew normal's α prior is the
	// family's.
	Intercept, Sigma Prior
	Sampler          mcmc.NUTSOptions // [Stan's defaults, as brms runs them: adapt_delta 0.8]
	TargetESS        float64          // smallest acceptable bulk- and tail-ESS [100 per chain]
	MaxDraws         int              // cap on draws per chain when extending [10 × Sampler.Draws]
	Level            float64          // credible interval level [0.95]
}

// OneToOneFit is the posterior of the one-to-one risk model d ~ 1.
type OneToOneFit struct {
	W      float64   // loss weight of the differences
	D      []float64 // the risk-adjusted differences the model was fitted to
	Family Family
	Priors [2]Prior // intercept, sigma
	Level  float64
	Mean   Estimate // the location: the mean of d (brms's b_Intercept)
	Sigma  Estimate // the standard deviation of d
	Alpha  *Estimate
	// Fit holds the draws and diagnostics (its Systems and Topics are
	// empty; Fit.Describe summarises intercept, sigma[, alpha]).
	Fit       *HierFit
	Converged bool
	Warnings  []string
}

// OneToOne fits Benham et al.'s one-to-one risk model (SIGIR 2020, "Bayesian
// Risk (One-To-One)", Figure 6): the risk-adjusted differences
// d_i = Δ_i if Δ_i ≥ 0 else w·Δ_i of x against base (risk.Pair.Adjusted)
// modelled as d ~ 1, i.e. d_i ~ Family(μ, σ[, α]), by NUTS. With the
// default priors this is brms's brm(d ~ 1, family = gaussian() or
// skew_normal()). Cells where either score is NaN are dropped.
func OneToOne(x, base []float64, w float64, opt OneToOneOptions) (*OneToOneFit, error) {
	if len(x) != len(base) {
		return nil, fmt.Errorf("%d and %d scores: the two systems must be paired topic by topic", len(x), len(base))
	}
	if !(w > 0) || math.IsInf(w, 0) {
		return nil, fmt.Errorf("loss weight %v: expected a positive number (losses count w times)", w)
	}
	var d []float64
	for _, v := range (risk.Pair{X: x, Base: base}).Adjusted(w) {
		if !math.IsNaN(v) {
			d = append(d, v)
		}
	}
	if len(d) < 2 {
		return nil, fmt.Errorf("need at least 2 topics scored by both systems, have %d", len(d))
	}
	if stats.Variance(d) == 0 {
		return nil, fmt.Errorf("the %d risk-adjusted differences are all equal; the model needs varying differences", len(d))
	}
	fam := opt.Family
	if fam == nil {
		fam = Gaussian{}
	}
	ip, sp := BrmsInterceptSigmaPriors(d)
	if opt.Intercept != nil {
		ip = opt.Intercept
	}
	if opt.Sigma != nil {
		sp = opt.Sigma
	}
	level, err := credibleLevel(opt.Level)
	if err != nil {
		return nil, err
	}
	m, err := NewMixedModel(d, nil, fam, ip, ScalePriors{Sigma: sp, Scale: posterior.SD(d)})
	if err != nil {
		return nil, err
	}
	so := opt.Sampler.WithDefaults()
	target := opt.TargetESS
	if target <= 0 {
		target = 100 * float64(so.Chains)
	}
	f := &HierFit{Method: MethodGeneral, Family: fam, Names: m.Names(), SamplerRun: SamplerRun{Chains: so.Chains, TargetESS: target}}
	if err := f.sample(m, so, sampling{maxDraws: opt.MaxDraws}); err != nil {
		return nil, err
	}
	r := &OneToOneFit{W: w, D: d, Family: fam, Priors: [2]Prior{ip, sp}, Level: level, Fit: f,
		Converged: f.Converged, Warnings: f.Warnings}
	r.Mean = f.Interval(0, level)
	r.Sigma = f.Interval(1, level)
	if len(f.Names) > 2 {
		a := f.Interval(2, level)
		r.Alpha = &a
	}
	return r, nil
}
