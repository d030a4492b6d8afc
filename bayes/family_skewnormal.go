package bayes

import (
	"math"
	"math/rand/v2"
	"sync"

	"github.com/riskgate/riskgate/bayes/mcmc"
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
	return []FamilyParam{{Name: "alpha", Transform: mcmc.Identity{}, Prior: p}}
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
		lphi, mills := logPhiMillsFast(alpha * z)
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
// accurate over the whole real line: through erfc between x = −37, where Φ
// nears the smallest normal float64, and x = 8.3; below −37 through the
// continued fraction of the Mills ratio R(t) = (1 − Φ(t))/φ(t) at t = −x
// (Abramowitz & Stegun 26.2.14), for which Φ(x) = φ(x)·R(−x); above 8.3,
// where 1 − Φ(x) < 6·10⁻¹⁷, as log Φ(x) = log(1 − (1 − Φ(x))) ≈ −φ(x)/x and
// m(x) ≈ φ(x) (the neglected terms are below 10⁻¹⁸; one exp instead of an
// erfc, a log and an exp — strongly skewed fits put most observations here).
func logPhiMills(x float64) (logPhi, mills float64) {
	if x > 8.3 {
		phi := math.Exp(-0.5*x*x - logSqrt2Pi)
		return -phi / x, phi
	}
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

// The likelihood evaluates log Φ and φ/Φ once per observation and gradient;
// through erfc, log and exp that is most of a skew-normal fit's time. On
// [logPhiLo, logPhiHi] logPhiMillsFast reads them instead from a quintic
// Hermite interpolant of log Φ on a grid of step logPhiStep, built once from
// logPhiMills' values, first (φ/Φ) and second (−m(x + m)) derivatives. Its
// error is below |f⁽⁶⁾|·h⁶/(720·64) ≈ 10⁻¹³ (TestLogPhiMillsFast checks 10⁻¹¹
// relative), and the returned φ/Φ is the interpolant's exact derivative, so
// the sampler sees a density and a gradient that agree to rounding.
const (
	logPhiLo   = -37.0
	logPhiHi   = 8.3
	logPhiStep = 0.05
)

var logPhiPoly struct {
	once sync.Once
	c    [][6]float64 // per interval: p(t) = Σ c_k t^k, t = (x − x_i)/h
}

func logPhiCoefficients() [][6]float64 {
	logPhiPoly.once.Do(func() {
		h := logPhiStep
		n := int(math.Round((logPhiHi - logPhiLo) / h))
		f, d1, d2 := make([]float64, n+1), make([]float64, n+1), make([]float64, n+1)
		for i := range f {
			x := logPhiLo + float64(i)*h
			f[i], d1[i] = logPhiMills(x)
			d2[i] = -d1[i] * (x + d1[i])
		}
		c := make([][6]float64, n)
		for i := range c {
			df := f[i+1] - f[i]
			a0, a1 := h*d1[i], h*d1[i+1]
			b0, b1 := h*h*d2[i], h*h*d2[i+1]
			c[i] = [6]float64{
				f[i], a0, b0 / 2,
				10*df - 6*a0 - 4*a1 - 1.5*b0 + 0.5*b1,
				-15*df + 8*a0 + 7*a1 + 1.5*b0 - b1,
				6*df - 3*a0 - 3*a1 - 0.5*b0 + 0.5*b1,
			}
		}
		logPhiPoly.c = c
	})
	return logPhiPoly.c
}

// logPhiMillsFast is logPhiMills through the interpolant where it applies.
// Above logPhiHi it returns 0 and 0: there 1 − Φ(x) < 6·10⁻¹⁷ and φ(x) <
// 2·10⁻¹⁵, below what the sums of a log density and its gradient resolve,
// and skipping their exp matters because a strongly skewed fit puts many
// observations there.
func logPhiMillsFast(x float64) (logPhi, mills float64) {
	if x >= logPhiHi {
		return 0, 0
	}
	if !(x > logPhiLo) {
		return logPhiMills(x)
	}
	c := logPhiCoefficients()
	u := (x - logPhiLo) * (1 / logPhiStep)
	i := int(u)
	if i >= len(c) {
		i = len(c) - 1
	}
	t := u - float64(i)
	k := &c[i]
	logPhi = k[0] + t*(k[1]+t*(k[2]+t*(k[3]+t*(k[4]+t*k[5]))))
	mills = (k[1] + t*(2*k[2]+t*(3*k[3]+t*(4*k[4]+t*5*k[5])))) * (1 / logPhiStep)
	return logPhi, mills
}
