package bayes

import (
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes/mcmc"
)

// Family is the observation model of a MixedModel: y_n ~ f(· | μ_n, σ, θ_f),
// with μ_n the linear predictor, σ the residual scale and θ_f any further
// parameters of the family (for example a skewness).
type Family interface {
	// Name is the family's name as reports print it, e.g. "gaussian".
	Name() string
	// Params lists the family's parameters beyond μ and σ.
	Params() []FamilyParam
	// LogLik returns Σ_n log f(y_n | μ_n, σ, extra), writes ∂/∂μ_n into dmu,
	// adds ∂/∂extra_j into dextra, and returns ∂/∂σ.
	LogLik(y, mu []float64, sigma float64, extra, dmu, dextra []float64) (ll, dsigma float64)
	// Rand draws one observation given μ, σ and extra.
	Rand(r *rand.Rand, mu, sigma float64, extra []float64) float64
}

// FamilyParam is a family parameter with its constraint and prior.
type FamilyParam struct {
	Name      string
	Transform mcmc.Transform
	Prior     Prior
}

// Gaussian is the normal observation model y ~ N(μ, σ²):
// log f = −log σ − ½log 2π − (y − μ)²/(2σ²).
type Gaussian struct{}

func (Gaussian) Name() string          { return "gaussian" }
func (Gaussian) Params() []FamilyParam { return nil }

func (Gaussian) LogLik(y, mu []float64, sigma float64, _, dmu, _ []float64) (float64, float64) {
	ss := 0.0
	inv2 := 1 / (sigma * sigma)
	for n, v := range y {
		r := v - mu[n]
		ss += r * r
		dmu[n] = r * inv2
	}
	N := float64(len(y))
	ll := -N*(math.Log(sigma)+logSqrt2Pi) - 0.5*ss*inv2
	return ll, -N/sigma + ss*inv2/sigma
}

func (Gaussian) Rand(r *rand.Rand, mu, sigma float64, _ []float64) float64 {
	return mu + sigma*r.NormFloat64()
}
