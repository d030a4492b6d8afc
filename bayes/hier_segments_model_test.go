package bayes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"gonum.org/v1/gonum/mat"
)

// denseSegments is the brute-force reference of the segment model: y = Xθ +
// e with θ = (β0, T, S, SG) ~ N((m0, 0, 0, 0), diag(v0, B·I, C·I, E·I)) and
// e ~ N(0, A·I), on the observed cells, in SegmentFit's order of effects.
type denseSegments struct {
	X              *mat.Dense
	y              *mat.VecDense
	m0, v0         float64
	nT, nS, nCells int
}

func newDenseSegments(t *Table, topicSeg []int, G int, m0, v0 float64) *denseSegments {
	sys, top, y := t.observed()
	nT, nS := len(t.Topics), len(t.Systems)
	X := mat.NewDense(len(y), 1+nT+nS+nS*G, nil)
	for n := range y {
		X.Set(n, 0, 1)
		X.Set(n, 1+int(top[n]), 1)
		X.Set(n, 1+nT+int(sys[n]), 1)
		X.Set(n, 1+nT+nS+int(sys[n])*G+topicSeg[top[n]], 1)
	}
	return &denseSegments{X: X, y: mat.NewVecDense(len(y), y), m0: m0, v0: v0, nT: nT, nS: nS, nCells: nS * G}
}

func (d *denseSegments) priorVar(B, C, E float64) []float64 {
	v := []float64{d.v0}
	for range d.nT {
		v = append(v, B)
	}
	for range d.nS {
		v = append(v, C)
	}
	for range d.nCells {
		v = append(v, E)
	}
	return v
}

// logMarginal is log N(y; m0·1, X P⁻¹ Xᵀ + A I) by a dense Cholesky.
func (d *denseSegments) logMarginal(A, B, C, E float64) float64 {
	N, p := d.X.Dims()
	pv := d.priorVar(B, C, E)
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

// posterior returns the mean and covariance of θ | y, A, B, C, E.
func (d *denseSegments) posterior(A, B, C, E float64) (*mat.VecDense, *mat.SymDense) {
	_, p := d.X.Dims()
	pv := d.priorVar(B, C, E)
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

// segCollapsed is what the tests see of the two collapsed segment models.
type segCollapsed interface {
	mcmc.Model
	abce(theta []float64) [4]float64
	loglik(theta []float64) float64
	draw(theta, xi, out []float64)
	nxi() int
}

func (m *segBalancedModel) abce(theta []float64) [4]float64 {
	A := m.variances(theta)
	return [4]float64{A, m.V[0], m.V[1], m.V[2]}
}
func (m *segBalancedModel) loglik(theta []float64) float64 {
	return m.LogDensity(theta, make([]float64, 4)) - m.sc.lp
}
func (m *segBalancedModel) draw(theta, xi, out []float64) {
	v := m.abce(theta)
	m.drawEffects(v[0], v[1], v[2], v[3], xi, out)
}
func (m *segBalancedModel) nxi() int { return len(m.xi) }

func (m *segSchurModel) abce(theta []float64) [4]float64 {
	A := m.variances(theta)
	return [4]float64{A, m.V[0], m.V[1], m.V[2]}
}
func (m *segSchurModel) loglik(theta []float64) float64 {
	return m.LogDensity(theta, make([]float64, 4)) - m.sc.lp
}
func (m *segSchurModel) draw(theta, xi, out []float64) {
	v := m.abce(theta)
	m.drawEffects(v[0], v[1], v[2], v[3], xi, out)
}
func (m *segSchurModel) nxi() int { return len(m.xi) }

// labelsBy cuts nT topics into segments of the given sizes, in order, named
// "g0", "g1", … but listed so that the sorted order differs from the
// topics' (the last segment's label sorts first).
func labelsBy(sizes ...int) []string {
	var out []string
	for g, n := range sizes {
		name := "g" + string(rune('0'+g))
		if g == len(sizes)-1 && g > 0 {
			name = "a_last"
		}
		for range n {
			out = append(out, name)
		}
	}
	return out
}

var testSegmentScalePriors = []struct {
	name string
	sp   ScalePriors
}{
	{"rstanarm", ScalePriors{Sigma: Exponential{5}, SD: []Prior{Gamma{1, 1}, Gamma{1, 1}, Gamma{1, 1}}, Relative: true, Scale: 0.2}},
	{"absolute", ScalePriors{Sigma: HalfStudentT{3, 0.5}, SD: []Prior{HalfNormal{0.3}, HalfStudentT{3, 0.25}, HalfNormal{0.1}}, Scale: 0.2}},
}

// TestSegmentModelsAgainstDenseGaussian checks both collapsed segment
// models' log marginal likelihood (to 1e-9 relative) and exact conditional
// draws (mean and covariance) against the dense Gaussian computation, and
// their gradients against finite differences, on complete and incomplete
// tables, with one segment, unequal segments and one-topic segments.
func TestSegmentModelsAgainstDenseGaussian(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(26, 1))
	type tc struct {
		name  string
		tab   *Table
		label []string
		schur bool
	}
	complete := smallTable(r, 4, 7, 0)
	cases := []tc{
		{"balanced", complete, labelsBy(3, 2, 2), false},
		{"balanced-one-segment", complete, labelsBy(7), false},
		{"balanced-singletons", complete, labelsBy(1, 1, 3, 1, 1), false},
		{"schur-complete", complete, labelsBy(3, 2, 2), true},
		{"schur-missing", smallTable(r, 5, 8, 0.25), labelsBy(4, 3, 1), true},
		{"schur-missing-many-systems", smallTable(r, 9, 5, 0.3), labelsBy(2, 3), true},
	}
	for _, c := range cases {
		for _, sp := range testSegmentScalePriors {
			t.Run(c.name+"/"+sp.name, func(t *testing.T) {
				segments, topicSeg, size, err := topicSegments(c.tab, c.label)
				if err != nil {
					t.Fatal(err)
				}
				m0, v0 := 0.31, 0.3
				var m segCollapsed
				if c.schur {
					m = newSegSchurModel(c.tab, segments, topicSeg, m0, v0, sp.sp)
				} else {
					m = newSegBalancedModel(c.tab, segments, topicSeg, size, m0, v0, sp.sp)
				}
				d := newDenseSegments(c.tab, topicSeg, len(segments), m0, v0)
				for range 4 {
					theta := []float64{2*r.Float64() - 1.5, 2*r.Float64() - 2.5, 2*r.Float64() - 2.5, 2*r.Float64() - 1}
					checkGradient(t, m, theta)
					v := m.abce(theta)
					if got, want := m.loglik(theta), d.logMarginal(v[0], v[1], v[2], v[3]); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
						t.Errorf("log marginal %.12g, dense %.12g", got, want)
					}
					checkSegmentConditional(t, m, theta, d)
				}
			})
		}
	}
}

// checkSegmentConditional probes the draw, which is affine in the normals ξ
// (out = a + Mξ), for its exact mean a and covariance MMᵀ and compares them
// with the dense posterior of (β0, T, S, SG).
func checkSegmentConditional(t *testing.T, m segCollapsed, theta []float64, d *denseSegments) {
	t.Helper()
	v := m.abce(theta)
	mean, cov := d.posterior(v[0], v[1], v[2], v[3])
	nOut := len(m.Names())
	idx := []int{IdxIntercept} // position in Names of θ's coordinates (β0, T, S, SG)
	for i := 5; i < nOut; i++ {
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
				t.Errorf("conditional cov[%s, %s]: %.12g, dense %.12g", m.Names()[o], m.Names()[idx[j]], mc.At(i, j), cov.At(i, j))
				return
			}
		}
	}
}
