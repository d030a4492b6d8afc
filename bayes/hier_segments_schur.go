package bayes

import (
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/stats"
)

// segSchurModel is the segment model on a table with missing cells, with
// the intercept and every effect integrated out.
//
// Centre y at the intercept's prior mean m0 and write U_{s,g} = S_s +
// SG_{s,g} (as segBalancedModel does): θ = (x, U_1, …, U_{n_S}) with x =
// (β0 − m0, T) of size p = 1 + n_T, prior precision P = diag(1/v0, I/B,
// Σ_U⁻¹, …, Σ_U⁻¹), Σ_U = C·11ᵀ + E·I, and posterior precision
// Q = P + XᵀX/A with Qμ = b = Xᵀy/A. As for schurModel,
//
//	log p(y | A, B, C, E) = −½[N log 2πA + yᵀy/A − bᵀμ + log|Q| − log|P|].
//
// Q's U-block is block diagonal: system s's G × G block is
// H_s = Σ_U⁻¹ + diag(n_{s,g})/A (n_{s,g} its scores in segment g), diagonal
// minus rank one, so K_s = H_s⁻¹ and log|H_s| cost O(G) (Sherman–Morrison).
// Eliminating the U's leaves the Schur complement on x,
//
//	S = Q_xx − Σ_s Q_{x,s} K_s Q_{s,x},
//
// whose (t, t') entry subtracts Σ_s K_s[g(t), g(t')]/A² over the systems
// that scored both topics: the sum over all systems corrected by the missing
// cells only, in O(n_T² + Σ_s missing_s·n_T). Then log|Q| = log|S| +
// Σ_s log|H_s|, μ_x = S⁻¹(b_x − Σ_s Q_{x,s} K_s b_s) and μ_{U_s} =
// K_s(b_s − Q_{s,x} μ_x); the Cholesky factor of S costs O(p³).
//
// The gradient is Fisher's identity, ∂ log p(y | φ)/∂φ = E[∂ log p(y, θ | φ)/∂φ | y]:
//
//	∂/∂A = −½[N/A − yᵀy/A² + (bᵀμ + μᵀPμ)/A − (dim θ − tr Q⁻¹P)/A]
//	∂/∂B = −½[n_T/B − (‖μ_T‖² + tr (S⁻¹)_TT)/B²]
//	∂/∂C = −½·n_S·G/(E + GC) + ½·1ᵀĒ1/(E + GC)²
//	∂/∂E = −½·n_S·tr Σ_U⁻¹ + ½·tr(Σ_U⁻¹ĒΣ_U⁻¹)
//
// with Ē = Σ_s E[U_s U_sᵀ | y] = Σ_s (μ_{U_s}μ_{U_s}ᵀ + K_s + K_s Q_{s,x} S⁻¹ Q_{x,s} K_s),
// whose G × G blocks Q_{s,x}S⁻¹Q_{x,s} are sums of S⁻¹ over pairs of
// segments, again totals corrected by the missing cells.
type segSchurModel struct {
	nS, nT, G, p int
	topicSeg     []int
	N, m0, v0    float64
	syAll, yy    float64   // Σ(y − m0), Σ(y − m0)²
	colSum, cntT []float64 // per topic: Σ_s (y − m0), scores
	cnt, ysum    []float64 // n_S×G: n_{s,g}, Σ (y − m0)
	miss         [][]int32 // miss[s]: topics system s has no score on
	sp           ScalePriors
	names        []string

	// scratch
	sc              scales
	V, dV           []float64
	K               []float64 // n_S×G×G: K_s
	logDetH         float64   // Σ_s log|H_s|
	Ktot, kn, kb    []float64 // G×G Σ_s K_s; n_S×G: K_s n_s, K_s b_s
	S, L, Linv      []float64 // p×p
	rhs, mux        []float64 // p
	muU             []float64 // n_S×G
	rowSeg          []float64 // p×G: Σ_{t'∈h} (S⁻¹)_{i,1+t'}
	Bsum, Gs, KG    []float64 // G×G
	segSum, tmp     []float64 // G
	xi, u, Lk, diag []float64
}

func newSegSchurModel(t *Table, segments []string, topicSeg []int, m0, v0 float64, sp ScalePriors) *segSchurModel {
	nS, nT, G := len(t.Systems), len(t.Topics), len(segments)
	m := &segSchurModel{nS: nS, nT: nT, G: G, p: 1 + nT, topicSeg: topicSeg, m0: m0, v0: v0, sp: sp,
		colSum: make([]float64, nT), cntT: make([]float64, nT), cnt: make([]float64, nS*G), ysum: make([]float64, nS*G),
		miss: make([][]int32, nS)}
	for s, row := range t.Scores {
		for j, v := range row {
			if math.IsNaN(v) {
				m.miss[s] = append(m.miss[s], int32(j))
				continue
			}
			y := v - m0
			g := topicSeg[j]
			m.N++
			m.syAll += y
			m.yy += y * y
			m.colSum[j] += y
			m.cntT[j]++
			m.cnt[s*G+g]++
			m.ysum[s*G+g] += y
		}
	}
	m.names = segmentNames(t, segments)
	return m.Fork().(*segSchurModel)
}

func (m *segSchurModel) Fork() mcmc.Model {
	c := *m
	c.sc = m.sp.compiledScales()
	c.V, c.dV = make([]float64, 3), make([]float64, 3)
	G, p, nS := m.G, m.p, m.nS
	c.K, c.kn, c.kb, c.muU = make([]float64, nS*G*G), make([]float64, nS*G), make([]float64, nS*G), make([]float64, nS*G)
	c.Ktot, c.Bsum, c.Gs, c.KG = make([]float64, G*G), make([]float64, G*G), make([]float64, G*G), make([]float64, G*G)
	c.S, c.L, c.Linv = make([]float64, p*p), make([]float64, p*p), make([]float64, p*p)
	c.rhs, c.mux, c.rowSeg = make([]float64, p), make([]float64, p), make([]float64, p*G)
	c.segSum, c.tmp, c.diag = make([]float64, G), make([]float64, G), make([]float64, G)
	c.xi, c.u, c.Lk = make([]float64, p+nS*G+nS), make([]float64, nS*G), make([]float64, G*G)
	return &c
}

func (m *segSchurModel) Dim() int        { return 4 }
func (m *segSchurModel) Names() []string { return m.names }

// variances returns A = σ² and sets m.V to (B, C, E).
func (m *segSchurModel) variances(theta []float64) float64 {
	m.sp.eval(theta[:3], theta[3], &m.sc)
	for k, sd := range m.sc.sd {
		m.V[k] = sd * sd
	}
	return m.sc.sigma * m.sc.sigma
}

// factor forms every K_s, S and its Cholesky factor L, μ_x and μ_U at the
// given variances, reporting false if S is not positive definite.
func (m *segSchurModel) factor(A, B, C, E float64) bool {
	G, p := m.G, m.p
	// H_s = diag(1/E + n_sg/A) − q·11ᵀ, q = C/(E(E + GC)): K_s = D⁻¹ + κ·(D⁻¹1)(D⁻¹1)ᵀ
	q := C / (E * (E + float64(G)*C))
	m.logDetH = 0
	clear(m.Ktot)
	for s := range m.nS {
		n := m.cnt[s*G : (s+1)*G]
		w := m.diag
		sumW := 0.0
		for g := range G {
			d := 1/E + n[g]/A
			w[g] = 1 / d
			sumW += w[g]
			m.logDetH += math.Log(d)
		}
		m.logDetH += math.Log1p(-q * sumW)
		kappa := q / (1 - q*sumW)
		K := m.K[s*G*G : (s+1)*G*G]
		for g := range G {
			for h := range G {
				v := kappa * w[g] * w[h]
				if g == h {
					v += w[g]
				}
				K[g*G+h] = v
				m.Ktot[g*G+h] += v
			}
		}
		kn, kb, ys := m.kn[s*G:(s+1)*G], m.kb[s*G:(s+1)*G], m.ysum[s*G:(s+1)*G]
		for g := range G {
			var a, b float64
			for h := range G {
				a += K[g*G+h] * n[h]
				b += K[g*G+h] * ys[h] / A
			}
			kn[g], kb[g] = a, b
		}
	}

	// S = Q_xx − Σ_s Q_{x,s} K_s Q_{s,x}, first as if every system scored every topic
	a2 := 1 / (A * A)
	knTot, kbTot := m.tmp, m.segSum
	clear(knTot)
	clear(kbTot)
	s00, r0 := 1/m.v0+m.N/A, m.syAll/A
	for s := range m.nS {
		for g := range G {
			knTot[g] += m.kn[s*G+g]
			kbTot[g] += m.kb[s*G+g]
			s00 -= m.cnt[s*G+g] * m.kn[s*G+g] * a2
			r0 -= m.cnt[s*G+g] * m.kb[s*G+g] / A
		}
	}
	m.S[0], m.rhs[0] = s00, r0
	for j := range m.nT {
		g := m.topicSeg[j]
		v := m.cntT[j]/A - knTot[g]*a2
		m.S[1+j], m.S[(1+j)*p] = v, v
		m.rhs[1+j] = m.colSum[j]/A - kbTot[g]/A
		row := m.S[(1+j)*p+1 : (2+j)*p]
		kt := m.Ktot[g*G : (g+1)*G]
		for j2 := range m.nT {
			row[j2] = -kt[m.topicSeg[j2]] * a2
		}
		row[j] += m.cntT[j]/A + 1/B
	}
	// then without the missing cells: a system contributes to (t, t') only
	// when it scored both (add back its rows and columns, less their crossings)
	for s, ms := range m.miss {
		K := m.K[s*G*G : (s+1)*G*G]
		for _, t := range ms {
			g := m.topicSeg[t]
			kg := K[g*G : (g+1)*G]
			v := m.kn[s*G+g] * a2
			m.S[1+int(t)] += v
			m.S[(1+int(t))*p] += v
			m.rhs[1+t] += m.kb[s*G+g] / A
			row := m.S[(1+int(t))*p+1 : (2+int(t))*p]
			for j2 := range m.nT {
				v := kg[m.topicSeg[j2]] * a2
				row[j2] += v
				m.S[(1+j2)*p+1+int(t)] += v
			}
			for _, t2 := range ms {
				row[t2] -= kg[m.topicSeg[t2]] * a2
			}
		}
	}
	if !cholesky(m.S, m.L, p) {
		return false
	}
	choleskySolve(m.L, p, m.rhs, m.mux)
	m.uMean(m.mux, m.muU)
	return true
}

// uMean writes K_s(b_s − Q_{s,x}x) for every system into dst (n_S×G).
func (m *segSchurModel) uMean(x, dst []float64) {
	G := m.G
	A := m.sc.sigma * m.sc.sigma
	clear(m.segSum)
	for j := range m.nT {
		m.segSum[m.topicSeg[j]] += x[1+j]
	}
	for s := range m.nS {
		r := m.tmp
		for g := range G {
			r[g] = m.cnt[s*G+g]*x[0] + m.segSum[g]
		}
		for _, t := range m.miss[s] {
			r[m.topicSeg[t]] -= x[1+t]
		}
		for g := range G {
			r[g] = (m.ysum[s*G+g] - r[g]) / A
		}
		K := m.K[s*G*G : (s+1)*G*G]
		for g := range G {
			v := 0.0
			for h := range G {
				v += K[g*G+h] * r[h]
			}
			dst[s*G+g] = v
		}
	}
}

func (m *segSchurModel) LogDensity(theta, grad []float64) float64 {
	A := m.variances(theta)
	B, C, E := m.V[0], m.V[1], m.V[2]
	if !m.factor(A, B, C, E) {
		return math.NaN()
	}
	G, p := m.G, m.p
	nS, nT, fG := float64(m.nS), float64(m.nT), float64(G)
	logDetS := 0.0
	for i := range p {
		logDetS += math.Log(m.L[i*p+i])
	}
	logDetS *= 2
	bmu := m.syAll * m.mux[0] / A
	normT := 0.0
	for j := range m.nT {
		bmu += m.colSum[j] * m.mux[1+j] / A
		normT += m.mux[1+j] * m.mux[1+j]
	}
	var uu, u1u float64 // Σ_s ‖μ_U‖², Σ_s (1ᵀμ_U)²
	for s := range m.nS {
		sum := 0.0
		for g := range G {
			mu := m.muU[s*G+g]
			bmu += m.ysum[s*G+g] / A * mu
			uu += mu * mu
			sum += mu
		}
		u1u += sum * sum
	}
	c := C / (E + fG*C)
	logDetSigmaU := fG*math.Log(E) + math.Log1p(fG*C/E)
	ll := -0.5*(m.N*math.Log(A)+m.yy/A-bmu+logDetS+m.logDetH+math.Log(m.v0)+nT*math.Log(B)+nS*logDetSigmaU) - m.N*logSqrt2Pi

	// S⁻¹ = L⁻ᵀL⁻¹: (S⁻¹)_ij = Σ_{k ≥ max(i,j)} (L⁻¹)_ki (L⁻¹)_kj, the rows of
	// Linv = (L⁻¹)ᵀ being L⁻¹'s columns. Only its diagonal, its sums over
	// segments and its entries at the missing cells are needed: O(p²·G)
	// beyond L⁻¹, not the whole inverse's O(p³).
	lowerInverseT(m.L, m.Linv, p)
	inv := m.Linv
	sinv := func(i, j int) float64 {
		if i < j {
			i, j = j, i
		}
		return stats.Dot4(inv[i*p+i:(i+1)*p], inv[j*p+i:(j+1)*p])
	}
	sinv00, trTT := sinv(0, 0), 0.0
	for j := 1; j < p; j++ {
		trTT += sinv(j, j)
	}
	// rowSeg[i][h] = Σ_{t∈h} (S⁻¹)_{i,1+t} = Σ_k (L⁻¹)_ki·W[k][h], W[k][h] = Σ_{t∈h} (L⁻¹)_{k,1+t}
	W := m.S[:p*G] // S itself is no longer needed
	clear(W)
	for j := range m.nT {
		h := m.topicSeg[j]
		for k, v := range inv[(1+j)*p+1+j : (2+j)*p] {
			W[(1+j+k)*G+h] += v
		}
	}
	clear(m.rowSeg)
	for i := range p {
		rs := m.rowSeg[i*G : (i+1)*G]
		for k := i; k < p; k++ {
			v := inv[i*p+k]
			for h, w := range W[k*G : (k+1)*G] {
				rs[h] += v * w
			}
		}
	}
	clear(m.Bsum)
	for j := range m.nT {
		g := m.topicSeg[j]
		for h, v := range m.rowSeg[(1+j)*G : (2+j)*G] {
			m.Bsum[g*G+h] += v
		}
	}
	// Σ_s Cov(U_s | y) = Σ_s K_s + K_s Γ_s K_s with Γ_s = Q_{s,x}S⁻¹Q_{x,s}:
	// only its trace and 1ᵀ·1 are needed
	var trCov, oneCov float64
	for s := range m.nS {
		n := m.cnt[s*G : (s+1)*G]
		Gs := m.Gs
		copy(Gs, m.Bsum)
		r0 := m.tmp
		copy(r0, m.rowSeg[:G])
		for _, t := range m.miss[s] {
			g := m.topicSeg[t]
			r0[g] -= sinv(0, 1+int(t))
			rs := m.rowSeg[(1+int(t))*G : (2+int(t))*G]
			for h, v := range rs {
				Gs[g*G+h] -= v
				Gs[h*G+g] -= v
			}
			for _, t2 := range m.miss[s] {
				Gs[g*G+m.topicSeg[t2]] += sinv(1+int(t), 1+int(t2))
			}
		}
		for g := range G {
			for h := range G {
				Gs[g*G+h] = (n[g]*n[h]*sinv00 + n[g]*r0[h] + n[h]*r0[g] + Gs[g*G+h]) / (A * A)
			}
		}
		K := m.K[s*G*G : (s+1)*G*G]
		// KG = K·Γ; then tr(KΓK) = Σ_gh KG_gh K_hg and 1ᵀKΓK1 = Σ_g (KG·K1)_g
		for g := range G {
			for h := range G {
				v := 0.0
				for k := range G {
					v += K[g*G+k] * Gs[k*G+h]
				}
				m.KG[g*G+h] = v
			}
		}
		k1 := m.diag
		for g := range G {
			v := 0.0
			for h := range G {
				v += K[g*G+h]
			}
			k1[g] = v
		}
		for g := range G {
			trCov += K[g*G+g]
			oneCov += k1[g]
			v := 0.0
			for h := range G {
				trCov += m.KG[g*G+h] * K[h*G+g]
				v += m.KG[g*G+h] * k1[h]
			}
			oneCov += v
		}
	}
	trE, oneE := trCov+uu, oneCov+u1u
	muPmu := m.mux[0]*m.mux[0]/m.v0 + normT/B + (uu-c*u1u)/E
	trQP := sinv00/m.v0 + trTT/B + (trCov-c*oneCov)/E
	dim := float64(p + m.nS*G)
	dA := -0.5 * (m.N/A - m.yy/(A*A) + (bmu+muPmu)/A - (dim-trQP)/A)
	m.dV[0] = -0.5 * (nT/B - (normT+trTT)/(B*B))
	den := E + fG*C
	m.dV[1] = -0.5*nS*fG/den + 0.5*oneE/(den*den)
	m.dV[2] = -0.5*nS*(fG-c*fG)/E + 0.5*(trE-2*c*oneE+c*c*fG*oneE)/(E*E)
	m.sc.varianceGradient(grad, m.sp.Relative, A, dA, m.V, m.dV)
	return ll + m.sc.lp
}

func (m *segSchurModel) Generate(theta []float64, r *rand.Rand, out []float64) {
	for i := range m.xi {
		m.xi[i] = r.NormFloat64()
	}
	A := m.variances(theta)
	out[IdxSigma] = m.sc.sigma
	copy(out[IdxSDTopic:], m.sc.sd)
	m.drawEffects(A, m.V[0], m.V[1], m.V[2], m.xi, out)
}

// drawEffects writes β0 and the effects (SegmentFit's layout) drawn from
// their Gaussian conditional with the standard normals xi: x = μ_x + L⁻ᵀξ_x
// (S = LLᵀ), then U_s = K_s(b_s − Q_{s,x}x) + chol(K_s)·ξ_s, then S and SG
// from U (splitSystemSegment).
func (m *segSchurModel) drawEffects(A, B, C, E float64, xi, out []float64) {
	if !m.factor(A, B, C, E) {
		out[IdxIntercept] = math.NaN()
		for i := 5; i < len(out); i++ {
			out[i] = math.NaN()
		}
		return
	}
	G, p := m.G, m.p
	x := m.rhs // scratch: rhs is no longer needed
	for i := p - 1; i >= 0; i-- {
		v := xi[i]
		for k := i + 1; k < p; k++ {
			v -= m.L[k*p+i] * x[k]
		}
		x[i] = v / m.L[i*p+i]
	}
	for i := range x {
		x[i] += m.mux[i]
	}
	out[IdxIntercept] = x[0] + m.m0
	copy(out[5:5+m.nT], x[1:])
	m.uMean(x, m.u)
	xiU := xi[p : p+m.nS*G]
	for s := range m.nS {
		K := m.K[s*G*G : (s+1)*G*G]
		if !cholesky(K, m.Lk, G) {
			for i := 5 + m.nT; i < len(out); i++ {
				out[i] = math.NaN()
			}
			return
		}
		us, xs := m.u[s*G:(s+1)*G], xiU[s*G:(s+1)*G]
		for g := range G {
			us[g] += stats.Dot4(m.Lk[g*G:g*G+g+1], xs)
		}
	}
	splitSystemSegment(m.u, G, C, E, xi[p+m.nS*G:], out[5+m.nT:])
}
