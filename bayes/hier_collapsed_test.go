package bayes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"gonum.org/v1/gonum/mat"
)

var testScalePriors = []struct {
	name string
	sp   ScalePriors
}{
	{"rstanarm", ScalePriors{Sigma: Exponential{5}, SD: []Prior{Gamma{1, 1}, Gamma{1, 1}}, Relative: true, Scale: 0.2}},
	{"absolute", ScalePriors{Sigma: HalfStudentT{3, 0.5}, SD: []Prior{HalfNormal{0.3}, HalfStudentT{3, 0.25}}, Scale: 0.2}},
}

// denseGaussian is the brute-force reference: y = Xθ + e with θ = (β0, T, S)
// ~ N((m0, 0, 0), diag(v0, B·I, C·I)) and e ~ N(0, A·I), on the observed cells.
type denseGaussian struct {
	X      *mat.Dense
	y      *mat.VecDense
	m0, v0 float64
	nT, nS int
}

func newDenseGaussian(t *Table, m0, v0 float64) *denseGaussian {
	sys, top, y := t.observed()
	nT, nS := len(t.Topics), len(t.Systems)
	p := 1 + nT + nS
	X := mat.NewDense(len(y), p, nil)
	for n := range y {
		X.Set(n, 0, 1)
		X.Set(n, 1+int(top[n]), 1)
		X.Set(n, 1+nT+int(sys[n]), 1)
	}
	return &denseGaussian{X: X, y: mat.NewVecDense(len(y), y), m0: m0, v0: v0, nT: nT, nS: nS}
}

func (d *denseGaussian) priorVar(B, C float64) []float64 {
	v := []float64{d.v0}
	for range d.nT {
		v = append(v, B)
	}
	for range d.nS {
		v = append(v, C)
	}
	return v
}

// logMarginal is log N(y; X m, X P⁻¹ Xᵀ + A I) by a dense Cholesky.
func (d *denseGaussian) logMarginal(A, B, C float64) float64 {
	N, p := d.X.Dims()
	pv := d.priorVar(B, C)
	cov := mat.NewSymDense(N, nil)
	for i := range N {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k := range p {
				s += d.X.At(i, k) * pv[k] * d.X.At(j, k)
			}
			if i == j {
				s += A
			}
			cov.SetSym(i, j, s)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(cov) {
		panic("covariance not positive definite")
	}
	r := mat.NewVecDense(N, nil)
	for i := range N {
		r.SetVec(i, d.y.AtVec(i)-d.m0)
	}
	var sol mat.VecDense
	if err := ch.SolveVecTo(&sol, r); err != nil {
		panic(err)
	}
	return -0.5*(float64(N)*math.Log(2*math.Pi)+ch.LogDet()) - 0.5*mat.Dot(r, &sol)
}

// posterior returns the mean and covariance of θ | y, A, B, C.
func (d *denseGaussian) posterior(A, B, C float64) (*mat.VecDense, *mat.SymDense) {
	_, p := d.X.Dims()
	pv := d.priorVar(B, C)
	Q := mat.NewSymDense(p, nil)
	var xtx mat.Dense
	xtx.Mul(d.X.T(), d.X)
	for i := range p {
		for j := 0; j <= i; j++ {
			v := xtx.At(i, j) / A
			if i == j {
				v += 1 / pv[i]
			}
			Q.SetSym(i, j, v)
		}
	}
	b := mat.NewVecDense(p, nil)
	b.MulVec(d.X.T(), d.y)
	b.ScaleVec(1/A, b)
	b.SetVec(0, b.AtVec(0)+d.m0/d.v0)
	var ch mat.Cholesky
	ch.Factorize(Q)
	var mean mat.VecDense
	ch.SolveVecTo(&mean, b)
	var cov mat.SymDense
	ch.InverseTo(&cov)
	return &mean, &cov
}

type collapsed interface {
	mcmc.Model
	variancesABC(theta []float64) (A, B, C float64)
	loglik(theta []float64) float64
	draw(theta, xi, out []float64)
	nxi() int
}

func (m *balancedModel) variancesABC(theta []float64) (float64, float64, float64) {
	return m.variances(theta)
}
func (m *balancedModel) loglik(theta []float64) float64 {
	g := make([]float64, 3)
	return m.LogDensity(theta, g) - m.sc.lp
}
func (m *balancedModel) draw(theta, xi, out []float64) {
	A, B, C := m.variances(theta)
	m.drawEffects(A, B, C, xi, out)
}
func (m *balancedModel) nxi() int { return len(m.xi) }

func (m *schurModel) variancesABC(theta []float64) (float64, float64, float64) {
	A, vF, vG := m.variances(theta)
	if m.fIsTopic {
		return A, vF, vG
	}
	return A, vG, vF
}
func (m *schurModel) loglik(theta []float64) float64 {
	g := make([]float64, 3)
	return m.LogDensity(theta, g) - m.sc.lp
}
func (m *schurModel) draw(theta, xi, out []float64) { m.drawEffects(theta, xi, out) }
func (m *schurModel) nxi() int                      { return len(m.xi) }

func TestCollapsedAgainstDenseGaussian(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	type tc struct {
		name string
		tab  *Table
		mk   func(*Table, float64, float64, ScalePriors) collapsed
	}
	bal := func(t *Table, m0, v0 float64, sp ScalePriors) collapsed { return newBalancedModel(t, m0, v0, sp) }
	sch := func(t *Table, m0, v0 float64, sp ScalePriors) collapsed { return newSchurModel(t, m0, v0, sp) }
	complete := smallTable(r, 4, 6, 0)
	cases := []tc{
		{"balanced", complete, bal},
		{"schur-complete", complete, sch},
		{"schur-missing-systems-fewer", smallTable(r, 5, 7, 0.25), sch},
		{"schur-missing-topics-fewer", smallTable(r, 7, 4, 0.25), sch},
	}
	for _, c := range cases {
		for _, sp := range testScalePriors {
			t.Run(c.name+"/"+sp.name, func(t *testing.T) {
				m0, v0 := 0.31, 0.3
				m := c.mk(c.tab, m0, v0, sp.sp)
				d := newDenseGaussian(c.tab, m0, v0)
				for range 4 {
					theta := []float64{2*r.Float64() - 1.5, 2*r.Float64() - 2.5, 2*r.Float64() - 1}
					checkGradient(t, m, theta)
					A, B, C := m.variancesABC(theta)
					if got, want := m.loglik(theta), d.logMarginal(A, B, C); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
						t.Errorf("log marginal %.12g, dense %.12g", got, want)
					}
					checkConditional(t, m, theta, d)
				}
			})
		}
	}
}

// checkConditional probes the draw, which is affine in the normals ξ
// (out = a + Mξ), for its exact mean a and covariance MMᵀ and compares them
// with the dense posterior of (β0, T, S).
func checkConditional(t *testing.T, m collapsed, theta []float64, d *denseGaussian) {
	t.Helper()
	A, B, C := m.variancesABC(theta)
	mean, cov := d.posterior(A, B, C)
	nOut := len(m.Names())
	idx := []int{0} // hierNames position of θ's coordinates (β0, T, S)
	for i := 4; i < nOut; i++ {
		idx = append(idx, i)
	}
	nxi := m.nxi()
	xi := make([]float64, nxi)
	base := make([]float64, nOut)
	m.draw(theta, xi, base)
	M := mat.NewDense(len(idx), nxi, nil)
	out := make([]float64, nOut)
	for k := range nxi {
		clear(xi)
		xi[k] = 1
		m.draw(theta, xi, out)
		for i, o := range idx {
			M.Set(i, k, out[o]-base[o])
		}
	}
	var mc mat.Dense
	mc.Mul(M, M.T())
	scale := math.Sqrt(cov.At(0, 0))
	for i, o := range idx {
		if dm := math.Abs(base[o] - mean.AtVec(i)); dm > 1e-9*math.Max(1, scale) {
			t.Errorf("conditional mean of %s: %.12g, dense %.12g", m.Names()[o], base[o], mean.AtVec(i))
		}
		for j := range idx {
			if dc := math.Abs(mc.At(i, j) - cov.At(i, j)); dc > 1e-9*cov.At(0, 0) {
				t.Errorf("conditional cov[%d,%d]: %.12g, dense %.12g", i, j, mc.At(i, j), cov.At(i, j))
				return
			}
		}
	}
}
