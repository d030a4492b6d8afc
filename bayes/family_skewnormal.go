package bayes

import (
	"math"
	"math/rand/v2"
)

// SkewNormal is Azzalini's skew-normal observation model in brms's mixed
// parameterisation (statistics.md §2.1; brms skew_normal()): μ is the mean of
// y, σ its standard deviation and α Azzalini's shape. With
//
//	δ = α/√(1 + α²),  b = δ√(2/π),  ω = σ/√(1 − b²),  ξ = μ − ω·b,  z = (y − ξ)/ω,
//
// the density is Azzalini's (1985)
//
//	log f(y) = log 2 − log ω − ½log 2π − z²/2 + log Φ(α·z),
//
// so E[y] = ξ + ωb = μ and Var[y] = ω²(1 − b²) = σ². α = 0 is the normal.
// The one family parameter is "alpha" on the real line, with prior AlphaPrior
// (brms's default normal(0, 4) when nil).
type SkewNormal struct {
	AlphaPrior Prior
}

// BrmsAlphaPrior is brms's default prior on the skew-normal shape α.
var BrmsAlphaPrior = Normal{0, 4}

func (SkewNormal) Name() string { return "skew_normal" }

func (f SkewNormal) Params() []FamilyParam {
	p := f.AlphaPrior
	if p == nil {
		p = BrmsAlphaPrior
	}
	return []FamilyParam{{Name: "alpha", Transform: Identity{}, Prior: p}}
}

const sqrt2OverPi = 0.79788456080286535588 // √(2/π)

// skewNormalShape returns b = δ√(2/π), k = 1/√(1 − b²) (so ω = k·σ) and
// db/dα for the shape α.
func skewNormalShape(alpha float64) (b, k, db float64) {
	q := 1 + alpha*alpha
	delta := alpha / math.Sqrt(q)
	b = delta * sqrt2OverPi
	k = 1 / math.Sqrt(1-b*b)
	db = sqrt2OverPi / (q * math.Sqrt(q)) // dδ/dα = (1 + α²)^(−3/2)
	return b, k, db
}

// LogLik is Σ_n log f(y_n | μ_n, σ, α) with its derivatives. With
// m(x) = φ(x)/Φ(x) and z_n as above:
//
//	∂/∂μ_n = (z − α·m(αz))/ω
//	∂/∂σ   = Σ [(z − α·m(αz))·(z − b) − 1]/σ
//	∂/∂α   = Σ [−b·b'·k² + (α·m(αz) − z)·(b' − (z − b)·b·b'·k²) + z·m(αz)]
//
// where b' = db/dα and k = ω/σ.
func (SkewNormal) LogLik(y, mu []float64, sigma float64, extra, dmu, dextra []float64) (float64, float64) {
	alpha := extra[0]
	b, k, db := skewNormalShape(alpha)
	omega := k * sigma
	inv := 1 / omega
	dlogw := b * db * k * k // ∂ log ω/∂α
	ll, ds, da := 0.0, 0.0, 0.0
	for n, v := range y {
		z := (v-mu[n])*inv + b
		lphi, mills := logPhiMills(alpha * z)
		ll += lphi - 0.5*z*z
		e := z - alpha*mills // −∂ log f/∂z
		dmu[n] = e * inv
		ds += e*(z-b) - 1
		da += -e*(db-(z-b)*dlogw) + z*mills
	}
	N := float64(len(y))
	ll += N * (math.Ln2 - math.Log(omega) - logSqrt2Pi)
	dextra[0] += da - N*dlogw
	return ll, ds / sigma
}

// Rand draws ξ + ω(δ|U₀| + √(1 − δ²)·U₁) with U₀, U₁ standard normal
// (Azzalini's stochastic representation).
func (SkewNormal) Rand(r *rand.Rand, mu, sigma float64, extra []float64) float64 {
	alpha := extra[0]
	delta := alpha / math.Sqrt(1+alpha*alpha)
	b, k, _ := skewNormalShape(alpha)
	omega := k * sigma
	u0, u1 := r.NormFloat64(), r.NormFloat64()
	return mu - omega*b + omega*(delta*math.Abs(u0)+math.Sqrt(1-delta*delta)*u1)
}

// logPhiMills returns log Φ(x) and the inverse Mills ratio m(x) = φ(x)/Φ(x),
// accurate over the whole real line: through erfc down to x = −37, where Φ
// nears the smallest normal float64, and below through the continued
// fraction of the Mills ratio R(t) = (1 − Φ(t))/φ(t) at t = −x
// (Abramowitz & Stegun 26.2.14), for which Φ(x) = φ(x)·R(−x).
func logPhiMills(x float64) (logPhi, mills float64) {
	if x > -37 {
		p := 0.5 * math.Erfc(-x/math.Sqrt2)
		return math.Log(p), math.Exp(-0.5*x*x-logSqrt2Pi) / p
	}
	t := -x
	// R(t) = 1/(t + 1/(t + 2/(t + 3/(t + …)))), evaluated from the tail;
	// at t ≥ 37 twenty terms are exact to double precision.
	r := t
	for j := 20; j >= 1; j-- {
		r = t + float64(j)/r
	}
	// r = 1/R(t)
	return -0.5*x*x - logSqrt2Pi - math.Log(r), r
}
