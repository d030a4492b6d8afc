package mcmc

import (
	"math"
	"math/rand/v2"
)

// Model is a differentiable log density on the unconstrained space R^Dim,
// as Stan's samplers see a model: constrained parameters are reached through
// transforms (see Transform) whose log-Jacobians are part of the density.
//
// LogDensity must be safe for concurrent use unless the model implements
// Forker, in which case every chain works on its own fork.
type Model interface {
	// Dim is the number of unconstrained parameters.
	Dim() int
	// LogDensity returns log p(θ) up to an additive constant, including the
	// log-Jacobians of the constraining transforms, and writes ∂log p/∂θ into
	// grad (len Dim). Outside the support it returns −Inf or NaN; the sampler
	// then treats the point as having infinite energy.
	LogDensity(theta, grad []float64) float64
	// Names lists the quantities Generate writes: constrained parameters and
	// any generated quantities.
	Names() []string
	// Generate writes the quantities named by Names for the unconstrained
	// point θ into out (Stan's write_array). r is the chain's source for
	// quantities drawn given θ (for example effects integrated out of the
	// density); it may be nil for a model that draws nothing.
	Generate(theta []float64, r *rand.Rand, out []float64)
}

// Forker is implemented by models that keep scratch space: Fork returns a
// copy with its own scratch that shares the read-only data.
type Forker interface {
	Fork() Model
}

// Initializer is implemented by models that choose their own initial
// unconstrained point; the sampler otherwise draws θ_i ~ Uniform(−2, 2) as
// Stan does.
type Initializer interface {
	Init(r *rand.Rand, theta []float64)
}

// Transform maps an unconstrained real u to a constrained value x
// (Stan reference manual, "Constraint transforms"; statistics.md Appendix A).
type Transform interface {
	// Constrain returns x(u), dx/du, log|dx/du| and d log|dx/du| / du.
	Constrain(u float64) (x, dxdu, logJac, dLogJac float64)
	// Unconstrain returns u(x), the inverse of Constrain.
	Unconstrain(x float64) float64
}

// Identity is the transform of an unconstrained parameter.
type Identity struct{}

func (Identity) Constrain(u float64) (x, dxdu, logJac, dLogJac float64) { return u, 1, 0, 0 }
func (Identity) Unconstrain(x float64) float64                          { return x }

// Lower constrains x > L by x = L + Scale·exp(u), log|J| = log Scale + u.
// Scale is 1 in Stan; rstanarm's σ = s_y·exp(u) (aux_unscaled) is Scale = s_y.
// A zero Scale means 1.
type Lower struct{ L, Scale float64 }

func (t Lower) scale() float64 {
	if t.Scale == 0 {
		return 1
	}
	return t.Scale
}

func (t Lower) Constrain(u float64) (x, dxdu, logJac, dLogJac float64) {
	s := t.scale()
	e := s * math.Exp(u)
	return t.L + e, e, math.Log(s) + u, 1
}

func (t Lower) Unconstrain(x float64) float64 { return math.Log((x - t.L) / t.scale()) }

// Upper constrains x < U by x = U − exp(u), log|J| = u.
type Upper struct{ U float64 }

func (t Upper) Constrain(u float64) (x, dxdu, logJac, dLogJac float64) {
	e := math.Exp(u)
	return t.U - e, -e, u, 1
}

func (t Upper) Unconstrain(x float64) float64 { return math.Log(t.U - x) }

// Interval constrains L < x < U by x = L + (U − L)·logistic(u),
// log|J| = log(U − L) + log logistic(u) + log(1 − logistic(u)).
type Interval struct{ L, U float64 }

func (t Interval) Constrain(u float64) (x, dxdu, logJac, dLogJac float64) {
	w := t.U - t.L
	var l float64 // logistic(u), computed stably
	if u >= 0 {
		l = 1 / (1 + math.Exp(-u))
	} else {
		e := math.Exp(u)
		l = e / (1 + e)
	}
	// log l + log(1−l) = −|u| − 2·log1p(exp(−|u|))
	logJac = math.Log(w) - math.Abs(u) - 2*math.Log1p(math.Exp(-math.Abs(u)))
	return t.L + w*l, w * l * (1 - l), logJac, 1 - 2*l
}

func (t Interval) Unconstrain(x float64) float64 {
	p := (x - t.L) / (t.U - t.L)
	return math.Log(p / (1 - p))
}
