package bayes

import (
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/stats"
)

// schurModel is the Gaussian hierarchical model on a table with missing
// cells, with the intercept and the effects integrated out.
//
// Centre y at the intercept's prior mean m0 and let θ = (β0 − m0, T, S).
// Given A = σ², B = SD_topic², C = SD_system², θ has prior precision
// P = diag(1/v0, I/B, I/C) and posterior precision Q = P + XᵀX/A with
// Qμ = b = Xᵀy/A, and
//
//	log p(y | A, B, C) = −½[N log 2πA + yᵀy/A − bᵀμ + log|Q| − log|P|].
//
// Order θ as s = (β0, F) and g = G, where F is the factor with fewer levels.
// Q's G block D is diagonal, so with q_g the g-th column of Q_sg,
// S = Q_ss − Σ_g q_g q_gᵀ/D_g (the Schur complement) gives log|Q| =
// Σ log D_g + log|S|, μ_s = S⁻¹(b_s − Σ_g q_g b_g/D_g) and
// μ_g = (b_g − q_gᵀμ_s)/D_g. Because q_g is (count, observed-indicator)/A, the
// sums are formed from totals corrected by the missing cells only, in
// O(n_G + Σ_g missing_g² + n_F²); the Cholesky factor of S costs O(n_F³).
//
// The gradient uses ∂/∂A = −½[N/A − yᵀy/A² + (bᵀμ + μᵀPμ)/A − (p − tr Q⁻¹P)/A]
// and ∂/∂B = −½[n_T/B − (‖μ_T‖² + tr (Q⁻¹)_TT)/B²] (likewise C), with
// tr (Q⁻¹)_GG = Σ_g 1/D_g + tr(S⁻¹ Σ_g q_g q_gᵀ/D_g²).
type schurModel struct {
	nF, nG    int
	fIsTopic  bool
	N         float64
	m0, v0    float64
	cntF      []float64
	cntG      []float64
	miss      [][]int32 // miss[g] = F levels with no observation in level g
	syAll, yy float64   // Σ(y − m0), Σ(y − m0)²
	syF, syG  []float64
	sp        ScalePriors
	names     []string

	// scratch
	sc                 scales
	p                  int
	S, W2, L, Linv     []float64 // p×p, row-major
	D, wD, uG          []float64
	rhs, mus, mug, tmp []float64
	mw, mwc, mw2       []float64
	xi                 []float64
}

func newSchurModel(t *Table, m0, v0 float64, sp ScalePriors) *schurModel {
	nS, nT := len(t.Systems), len(t.Topics)
	m := &schurModel{m0: m0, v0: v0, sp: sp, fIsTopic: nT < nS}
	if m.fIsTopic {
		m.nF, m.nG = nT, nS
	} else {
		m.nF, m.nG = nS, nT
	}
	m.cntF = make([]float64, m.nF)
	m.cntG = make([]float64, m.nG)
	m.syF = make([]float64, m.nF)
	m.syG = make([]float64, m.nG)
	m.miss = make([][]int32, m.nG)
	for s, row := range t.Scores {
		for j, v := range row {
			f, g := s, j
			if m.fIsTopic {
				f, g = j, s
			}
			if math.IsNaN(v) {
				m.miss[g] = append(m.miss[g], int32(f))
				continue
			}
			y := v - m0
			m.N++
			m.cntF[f]++
			m.cntG[g]++
			m.syF[f] += y
			m.syG[g] += y
			m.syAll += y
			m.yy += y * y
		}
	}
	m.names = hierNames(t)
	return m.Fork().(*schurModel)
}

func (m *schurModel) Fork() mcmc.Model {
	c := *m
	c.sc = m.sp.compiledScales()
	c.p = 1 + m.nF
	pp := c.p * c.p
	c.S, c.W2, c.L, c.Linv = make([]float64, pp), make([]float64, pp), make([]float64, pp), make([]float64, pp)
	c.D, c.wD, c.uG, c.mug = make([]float64, m.nG), make([]float64, m.nG), make([]float64, m.nG), make([]float64, m.nG)
	c.rhs, c.mus, c.tmp = make([]float64, c.p), make([]float64, c.p), make([]float64, c.p)
	c.mw, c.mwc, c.mw2 = make([]float64, m.nF), make([]float64, m.nF), make([]float64, m.nF)
	c.xi = make([]float64, c.p+m.nG)
	return &c
}

func (m *schurModel) Dim() int        { return 3 }
func (m *schurModel) Names() []string { return m.names }

// variances returns A and the prior variances of F and G.
func (m *schurModel) variances(theta []float64) (A, varF, varG float64) {
	m.sp.eval(theta[:2], theta[2], &m.sc)
	A = m.sc.sigma * m.sc.sigma
	B, C := m.sc.sd[0]*m.sc.sd[0], m.sc.sd[1]*m.sc.sd[1]
	if m.fIsTopic {
		return A, B, C
	}
	return A, C, B
}

// addOuter adds scale·Σ_g w_g q̃_g q̃_gᵀ to the p×p matrix dst, where
// q̃_g = (count_g, observed_g) and observed_g[f] = 1 unless f ∈ miss[g]:
// totals over g corrected by the missing cells.
func (m *schurModel) addOuter(dst, w []float64, scale float64) {
	p := m.p
	var wsum, wc, wcc float64
	clear(m.mw)
	clear(m.mwc)
	for g, wg := range w {
		c := m.cntG[g]
		wsum += wg
		wc += wg * c
		wcc += wg * c * c
		for _, f := range m.miss[g] {
			m.mw[f] += wg
			m.mwc[f] += wg * c
		}
	}
	dst[0] += scale * wcc
	for f := range m.nF {
		v := scale * (wc - m.mwc[f])
		dst[f+1] += v
		dst[(f+1)*p] += v
		row := dst[(f+1)*p+1 : (f+2)*p]
		base := wsum - m.mw[f]
		for f2 := range m.nF {
			row[f2] += scale * (base - m.mw[f2])
		}
	}
	for g, wg := range w {
		ms := m.miss[g]
		for _, f := range ms {
			row := dst[(int(f)+1)*p+1:]
			for _, f2 := range ms {
				row[f2] += scale * wg
			}
		}
	}
}

// factor forms S, its Cholesky factor L, D and μ at the given variances.
func (m *schurModel) factor(A, varF, varG float64) bool {
	p := m.p
	clear(m.S)
	m.S[0] = 1/m.v0 + m.N/A
	for f := range m.nF {
		c := m.cntF[f] / A
		m.S[f+1] = c
		m.S[(f+1)*p] = c
		m.S[(f+1)*p+f+1] = c + 1/varF
	}
	for g := range m.nG {
		m.D[g] = m.cntG[g]/A + 1/varG
		m.wD[g] = 1 / m.D[g]
	}
	m.addOuter(m.S, m.wD, -1/(A*A))

	// rhs = b_s − Σ_g q_g b_g / D_g
	var usum, ucsum float64
	clear(m.mw)
	for g := range m.nG {
		u := m.syG[g] / (A * A * m.D[g])
		m.uG[g] = u
		usum += u
		ucsum += u * m.cntG[g]
		for _, f := range m.miss[g] {
			m.mw[f] += u
		}
	}
	m.rhs[0] = m.syAll/A - ucsum
	for f := range m.nF {
		m.rhs[f+1] = m.syF[f]/A - (usum - m.mw[f])
	}
	if !cholesky(m.S, m.L, p) {
		return false
	}
	choleskySolve(m.L, p, m.rhs, m.mus)
	// μ_g = (b_g − q_gᵀμ_s)/D_g
	sumF := 0.0
	for f := range m.nF {
		sumF += m.mus[f+1]
	}
	for g := range m.nG {
		q := m.cntG[g]*m.mus[0] + sumF
		for _, f := range m.miss[g] {
			q -= m.mus[f+1]
		}
		m.mug[g] = (m.syG[g]/A - q/A) / m.D[g]
	}
	return true
}

func (m *schurModel) LogDensity(theta, grad []float64) float64 {
	A, varF, varG := m.variances(theta)
	if !m.factor(A, varF, varG) {
		return math.NaN()
	}
	p := m.p
	logdetS := 0.0
	for i := range p {
		logdetS += math.Log(m.L[i*p+i])
	}
	logdetS *= 2
	logdetD := 0.0
	trDinv := 0.0
	for g := range m.nG {
		logdetD += math.Log(m.D[g])
		trDinv += m.wD[g]
	}
	bmu := m.syAll / A * m.mus[0]
	for f := range m.nF {
		bmu += m.syF[f] / A * m.mus[f+1]
	}
	normG := 0.0
	for g := range m.nG {
		bmu += m.syG[g] / A * m.mug[g]
		normG += m.mug[g] * m.mug[g]
	}
	normF := 0.0
	for f := range m.nF {
		normF += m.mus[f+1] * m.mus[f+1]
	}
	nF, nG := float64(m.nF), float64(m.nG)
	logdetP := -math.Log(m.v0) - nF*math.Log(varF) - nG*math.Log(varG)
	ll := -0.5*(m.N*math.Log(A)+m.yy/A-bmu+logdetS+logdetD-logdetP) - m.N*logSqrt2Pi

	// traces of Q⁻¹'s blocks from S⁻¹ = L⁻ᵀL⁻¹:
	// (S⁻¹)_ij = Σ_{k ≥ max(i,j)} (L⁻¹)_ki (L⁻¹)_kj, rows of (L⁻¹)ᵀ.
	lowerInverseT(m.L, m.Linv, p)
	clear(m.W2)
	for g := range m.nG {
		m.uG[g] = m.wD[g] * m.wD[g]
	}
	m.addOuter(m.W2, m.uG, 1/(A*A))
	var sinv00, trF, trSW float64
	for i := range p {
		ri := m.Linv[i*p+i : (i+1)*p]
		for j := 0; j <= i; j++ {
			v := stats.Dot4(ri, m.Linv[j*p+i:(j+1)*p])
			if i == j {
				trSW += v * m.W2[i*p+i]
				if i == 0 {
					sinv00 = v
				} else {
					trF += v
				}
			} else {
				trSW += 2 * v * m.W2[i*p+j]
			}
		}
	}
	trG := trDinv + trSW
	mu0 := m.mus[0]
	muPmu := mu0*mu0/m.v0 + normF/varF + normG/varG
	trQP := sinv00/m.v0 + trF/varF + trG/varG
	dim := float64(p + m.nG)
	dA := -0.5 * (m.N/A - m.yy/(A*A) + (bmu+muPmu)/A - (dim-trQP)/A)
	dF := -0.5 * (nF/varF - (normF+trF)/(varF*varF))
	dG := -0.5 * (nG/varG - (normG+trG)/(varG*varG))
	dB, dC := dG, dF // B = SD_topic², C = SD_system²
	B, C := varG, varF
	if m.fIsTopic {
		dB, dC = dF, dG
		B, C = varF, varG
	}
	m.sp.collapsedGradient(&m.sc, grad, A, B, C, dA, dB, dC)
	return ll + m.sc.lp
}

func (m *schurModel) Generate(theta []float64, r *rand.Rand, out []float64) {
	for i := range m.xi {
		m.xi[i] = r.NormFloat64()
	}
	m.drawEffects(theta, m.xi, out)
}

// drawEffects writes hierNames' layout for θ, drawing (β0, T, S) from their
// Gaussian conditional with the standard normals xi: x_s = μ_s + L⁻ᵀξ_s
// (S = LLᵀ), then x_g = (b_g − q_gᵀx_s)/D_g + ξ_g/√D_g.
func (m *schurModel) drawEffects(theta, xi, out []float64) {
	A, varF, varG := m.variances(theta)
	out[1], out[2], out[3] = m.sc.sigma, m.sc.sd[0], m.sc.sd[1]
	if !m.factor(A, varF, varG) {
		for i := range out {
			if i == 0 || i >= 4 {
				out[i] = math.NaN()
			}
		}
		return
	}
	p := m.p
	// x_s = μ_s + L⁻ᵀ ξ_s: back substitution with Lᵀ
	xs := m.tmp
	for i := p - 1; i >= 0; i-- {
		v := xi[i]
		for k := i + 1; k < p; k++ {
			v -= m.L[k*p+i] * xs[k]
		}
		xs[i] = v / m.L[i*p+i]
	}
	for i := range xs {
		xs[i] += m.mus[i]
	}
	out[0] = xs[0] + m.m0
	// hierNames: topics at out[4:4+n_T], systems after them
	fOut, gOut := out[4+m.nG:], out[4:4+m.nG]
	if m.fIsTopic {
		fOut, gOut = out[4:4+m.nF], out[4+m.nF:]
	}
	copy(fOut, xs[1:])
	sumF := 0.0
	for f := range m.nF {
		sumF += xs[f+1]
	}
	for g := range m.nG {
		q := m.cntG[g]*xs[0] + sumF
		for _, f := range m.miss[g] {
			q -= xs[f+1]
		}
		gOut[g] = (m.syG[g]/A-q/A)/m.D[g] + xi[p+g]/math.Sqrt(m.D[g])
	}
}

// cholesky writes the lower Cholesky factor of the p×p matrix a (row-major)
// into l, reporting false if a is not positive definite.
func cholesky(a, l []float64, p int) bool {
	for i := range p {
		li := l[i*p : (i+1)*p]
		for j := 0; j <= i; j++ {
			s := a[i*p+j] - stats.Dot4(li[:j], l[j*p:j*p+j])
			if i == j {
				if !(s > 0) {
					return false
				}
				li[i] = math.Sqrt(s)
			} else {
				li[j] = s / l[j*p+j]
			}
		}
		clear(li[i+1:])
	}
	return true
}

// choleskySolve solves LLᵀx = b.
func choleskySolve(l []float64, p int, b, x []float64) {
	for i := range p {
		x[i] = (b[i] - stats.Dot4(l[i*p:i*p+i], x)) / l[i*p+i]
	}
	for i := p - 1; i >= 0; i-- {
		s := x[i]
		for k := i + 1; k < p; k++ {
			s -= l[k*p+i] * x[k]
		}
		x[i] = s / l[i*p+i]
	}
}

// lowerInverseT writes (L⁻¹)ᵀ, upper triangular, into invT: row j of invT is
// column j of L⁻¹, found by forward substitution on Le_j.
func lowerInverseT(l, invT []float64, p int) {
	clear(invT)
	for j := range p {
		x := invT[j*p : (j+1)*p]
		x[j] = 1 / l[j*p+j]
		for i := j + 1; i < p; i++ {
			x[i] = -stats.Dot4(l[i*p+j:i*p+i], x[j:i]) / l[i*p+i]
		}
	}
}
