package bayes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskgate/riskgate/bayes/posterior"
	"gonum.org/v1/gonum/floats"
)

// azzaliniLogPDF is the skew-normal log density in Azzalini's direct
// parameters, 2/ω·φ(z)·Φ(αz), with brms's conversion from (mean, sd, shape)
// (statistics.md §2.1) written out independently of SkewNormal.
func azzaliniLogPDF(y, mu, sigma, alpha float64) float64 {
	delta := alpha / math.Sqrt(1+alpha*alpha)
	omega := sigma / math.Sqrt(1-2/math.Pi*delta*delta)
	xi := mu - omega*delta*math.Sqrt(2/math.Pi)
	z := (y - xi) / omega
	phi := math.Exp(-z*z/2) / math.Sqrt(2*math.Pi)
	Phi := 0.5 * math.Erfc(-alpha*z/math.Sqrt2)
	return math.Log(2 / omega * phi * Phi)
}

func TestSkewNormalLogLik(t *testing.T) {
	t.Parallel()
	y := []float64{-0.4, -0.05, 0, 0.1, 0.3, 1.2}
	mu := []float64{0.05, 0.1, -0.1, 0.2, 0.0, 0.3}
	dmu := make([]float64, len(y))
	for _, alpha := range []float64{-12, -3.5, -0.2, 0, 0.7, 5} {
		for _, sigma := range []float64{0.05, 0.3, 1.5} {
			dex := []float64{0}
			got, dsigma := SkewNormal{}.LogLik(y, mu, sigma, []float64{alpha}, dmu, dex)
			want := 0.0
			for n := range y {
				want += azzaliniLogPDF(y[n], mu[n], sigma, alpha)
			}
			if math.IsInf(want, -1) {
				continue // Φ underflowed in the naive formula
			}
			if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("α %g σ %g: log-likelihood %.12g, Azzalini's formula %.12g", alpha, sigma, got, want)
			}
			// derivatives by central differences
			f := func(mu []float64, sigma, alpha float64) float64 {
				s := 0.0
				for n := range y {
					s += azzaliniLogPDF(y[n], mu[n], sigma, alpha)
				}
				return s
			}
			h := 1e-6
			if fd := (f(mu, sigma+h, alpha) - f(mu, sigma-h, alpha)) / (2 * h); math.Abs(fd-dsigma) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("α %g σ %g: ∂/∂σ %g, finite difference %g", alpha, sigma, dsigma, fd)
			}
			if fd := (f(mu, sigma, alpha+h) - f(mu, sigma, alpha-h)) / (2 * h); math.Abs(fd-dex[0]) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("α %g σ %g: ∂/∂α %g, finite difference %g", alpha, sigma, dex[0], fd)
			}
			for n := range y {
				mp := append([]float64(nil), mu...)
				mm := append([]float64(nil), mu...)
				mp[n] += h
				mm[n] -= h
				if fd := (f(mp, sigma, alpha) - f(mm, sigma, alpha)) / (2 * h); math.Abs(fd-dmu[n]) > 1e-5*math.Max(1, math.Abs(fd)) {
					t.Errorf("α %g σ %g: ∂/∂μ[%d] %g, finite difference %g", alpha, sigma, n, dmu[n], fd)
				}
			}
		}
	}
}

// TestLogPhiMills checks log Φ and φ/Φ on both sides of the switch to the
// continued fraction, against the leading terms of the asymptotic series
// log Φ(x) ≈ log φ(x) − log(−x) + log(1 − 1/x² + 3/x⁴ − 15/x⁶) far in the
// left tail, and against erfc near the switch.
func TestLogPhiMills(t *testing.T) {
	t.Parallel()
	for _, x := range []float64{-36.999, -37, -37.001, -50, -200} {
		lp, m := logPhiMills(x)
		x2 := x * x
		want := -x2/2 - logSqrt2Pi - math.Log(-x) + math.Log(1-1/x2+3/(x2*x2)-15/(x2*x2*x2))
		if math.Abs(lp-want) > 1e-10*math.Abs(want) {
			t.Errorf("log Φ(%g) = %.15g, asymptotic series %.15g", x, lp, want)
		}
		// m = φ/Φ ≈ −x/(1 − 1/x² + 3/x⁴ − 15/x⁶)
		if wm := -x / (1 - 1/x2 + 3/(x2*x2) - 15/(x2*x2*x2)); math.Abs(m-wm) > 1e-10*wm {
			t.Errorf("φ/Φ(%g) = %.15g, asymptotic series %.15g", x, m, wm)
		}
	}
	for _, x := range []float64{-30, -5, -1, 0, 2, 8.2999, 8.3001, 10, 30} {
		lp, m := logPhiMills(x)
		p := 0.5 * math.Erfc(-x/math.Sqrt2)
		if math.Abs(lp-math.Log(p)) > 1e-13*math.Max(1, math.Abs(lp)) {
			t.Errorf("log Φ(%g) = %g, want %g", x, lp, math.Log(p))
		}
		if wm := math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) / p; math.Abs(m-wm) > 1e-12*math.Max(1, wm) {
			t.Errorf("φ/Φ(%g) = %g, want %g", x, m, wm)
		}
	}
}

// TestSkewNormalRand checks that draws have the mean μ, the standard
// deviation σ and the skewness of brms's parameterisation (statistics.md §2.1:
// γ₁ = (4 − π)/2·b³/(1 − b²)^{3/2}, b = δ√(2/π)).
func TestSkewNormalRand(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	const n = 400000
	for _, alpha := range []float64{-8, 0, 3} {
		mu, sigma := 0.2, 0.3
		x := make([]float64, n)
		for i := range x {
			x[i] = SkewNormal{}.Rand(r, mu, sigma, []float64{alpha})
		}
		m, s := posterior.Mean(x), posterior.SD(x)
		m3 := 0.0
		for _, v := range x {
			m3 += math.Pow((v-m)/s, 3)
		}
		skew := m3 / n
		b, _, _ := skewNormalShape(alpha)
		want := (4 - math.Pi) / 2 * b * b * b / math.Pow(1-b*b, 1.5)
		if math.Abs(m-mu) > 5*sigma/math.Sqrt(n) || math.Abs(s-sigma) > 0.005*sigma || math.Abs(skew-want) > 0.02 {
			t.Errorf("α %g: mean %.4f sd %.4f skewness %.4f; want %.4f %.4f %.4f", alpha, m, s, skew, mu, sigma, want)
		}
	}
}

// mixedTestModel is a two-factor model on smallTable with the given family.
func mixedTestModel(t *testing.T, fam Family, p MixedParam) *MixedModel {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	tab := smallTable(r, 5, 7, 0.2)
	sys, top, y := tab.observed()
	m, err := NewMixedModel(y, []Factor{{"topic", tab.Topics, top}, {"system", tab.Systems, sys}}, fam,
		StudentT{3, 0.3, 2.5}, ScalePriors{Sigma: HalfStudentT{3, 2.5}, SD: []Prior{HalfStudentT{3, 2.5}, HalfStudentT{3, 2.5}}, Scale: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	m, err = m.WithParam(p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var testParams = []struct {
	name string
	p    MixedParam
}{
	{"non-centred", MixedParam{}},
	{"intercept-at-mean", MixedParam{InterceptAtMean: true}},
	{"centred-contrasts", MixedParam{Factors: []FactorParam{CentredContrasts, CentredContrasts}}},
	{"mixed", MixedParam{InterceptAtMean: true, Factors: []FactorParam{CentredContrasts, NonCentred}}},
}

// TestMixedModelParamGradient compares the gradient with central
// differences of step 10⁻⁴ (not checkGradient's 10⁻⁶: at points where σ is
// small the log density is large, and with the interpolated log Φ its
// rounding noise divided by a 10⁻⁶ step reaches 10⁻⁵, while the truncation
// error of a 10⁻⁴ step is about 10⁻⁹).
func TestMixedModelParamGradient(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 3))
	for _, fam := range []Family{Gaussian{}, SkewNormal{}} {
		for _, tc := range testParams {
			t.Run(fam.Name()+"/"+tc.name, func(t *testing.T) {
				m := mixedTestModel(t, fam, tc.p)
				for range 3 {
					th := randomPoint(r, m.Dim())
					g, scratch := make([]float64, m.Dim()), make([]float64, m.Dim())
					m.LogDensity(th, g)
					for i := range th {
						h := 1e-4 * math.Max(1, math.Abs(th[i]))
						x := append([]float64(nil), th...)
						x[i] += h
						up := m.LogDensity(x, scratch)
						x[i] -= 2 * h
						fd := (up - m.LogDensity(x, scratch)) / (2 * h)
						if d := math.Abs(fd - g[i]); d > 1e-6*math.Max(1, math.Abs(fd)) {
							t.Errorf("∂/∂θ[%d]: analytic %.10g, finite difference %.10g", i, g[i], fd)
						}
					}
				}
			})
		}
	}
}

// toParam maps a point of the default coordinates to the same parameters in
// the coordinates of m.Param, and returns the log-Jacobian term that relates
// the two densities: log p_new = log p_default + Σ_CC (J − 1)·(−log SD).
func toParam(m *MixedModel, th []float64) ([]float64, float64) {
	def := *m
	def.Param = MixedParam{}
	out := make([]float64, len(m.Names()))
	def.Fork().(*MixedModel).Generate(th, nil, out)
	K := len(m.Factors)
	nth := append([]float64(nil), th...)
	gamma := out[0]
	a := gamma
	i, off := 2+K, 1
	adj := 0.0
	for k, f := range m.Factors {
		J := len(f.Levels)
		b := append([]float64(nil), out[i:i+J]...)
		sd := out[2+k]
		if m.Param.InterceptAtMean {
			a += posterior.Mean(b)
		}
		if m.Param.factor(k) == CentredContrasts {
			householder(b) // H⁻¹ = H
			copy(nth[off:off+J-1], b[:J-1])
			nth[off+J-1] = b[J-1] / sd
			adj -= float64(J-1) * math.Log(sd)
		}
		i += J
		off += J
	}
	nth[0] = a
	return nth, adj
}

// TestMixedModelParamSamePosterior checks that every parameterisation is the
// same posterior: at corresponding points the log densities differ by the
// Jacobian of the change of coordinates plus a constant, and Generate gives
// the same quantities.
func TestMixedModelParamSamePosterior(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 4))
	for _, fam := range []Family{Gaussian{}, SkewNormal{}} {
		def := mixedTestModel(t, fam, MixedParam{})
		for _, tc := range testParams[1:] {
			m := mixedTestModel(t, fam, tc.p)
			g := make([]float64, m.Dim())
			var c0 float64
			for i := range 5 {
				th := randomPoint(r, m.Dim())
				nth, adj := toParam(m, th)
				c := m.LogDensity(nth, g) - def.LogDensity(th, g) - adj
				if i == 0 {
					c0 = c
				} else if math.Abs(c-c0) > 1e-9 {
					t.Errorf("%s/%s: log density differs from the default by %.12g, then %.12g", fam.Name(), tc.name, c0, c)
				}
				a, b := make([]float64, len(m.Names())), make([]float64, len(m.Names()))
				def.Generate(th, nil, a)
				m.Generate(nth, nil, b)
				for v := range a {
					if math.Abs(a[v]-b[v]) > 1e-12*math.Max(1, math.Abs(a[v])) {
						t.Errorf("%s/%s: %s is %g in the default coordinates, %g here", fam.Name(), tc.name, m.Names()[v], a[v], b[v])
					}
				}
			}
		}
	}
}

func TestHouseholder(t *testing.T) {
	t.Parallel()
	for _, J := range []int{1, 2, 5, 50} {
		// H is orthogonal, symmetric (H² = I) and maps e_J to 1/√J.
		e := make([]float64, J)
		e[J-1] = 1
		householder(e)
		for i, v := range e {
			if math.Abs(v-1/math.Sqrt(float64(J))) > 1e-15 {
				t.Errorf("J %d: H e_J [%d] = %g", J, i, v)
			}
		}
		r := rand.New(rand.NewPCG(uint64(J), 1))
		x := make([]float64, J)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		y := append([]float64(nil), x...)
		householder(y)
		if nx, ny := floats.Dot(x, x), floats.Dot(y, y); math.Abs(nx-ny) > 1e-12*nx {
			t.Errorf("J %d: ‖Hx‖² %g, ‖x‖² %g", J, ny, nx)
		}
		householder(y)
		for i := range x {
			if math.Abs(x[i]-y[i]) > 1e-12 {
				t.Errorf("J %d: HHx ≠ x at %d", J, i)
			}
		}
	}
}

// TestLogPhiMillsFast checks the interpolant against logPhiMills on a grid
// that puts points at, between and near the knots.
func TestLogPhiMillsFast(t *testing.T) {
	t.Parallel()
	worstF, worstM := 0.0, 0.0
	for x := logPhiLo - 0.5; x < logPhiHi; x += 0.0037 {
		lf, mf := logPhiMillsFast(x)
		le, me := logPhiMills(x)
		df := math.Abs(lf-le) / math.Max(1, math.Abs(le))
		dm := math.Abs(mf-me) / math.Max(1, math.Abs(me))
		worstF, worstM = max(worstF, df), max(worstM, dm)
		if df > 1e-11 || dm > 1e-9 {
			t.Fatalf("x = %g: log Φ %.17g vs %.17g, φ/Φ %.17g vs %.17g", x, lf, le, mf, me)
		}
	}
	t.Logf("worst relative error: log Φ %.2g, φ/Φ %.2g", worstF, worstM)
}
