package bayes

import (
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes/mcmc"
)

// segBalancedModel is the segment model on a complete table with the
// intercept and every effect integrated out.
//
// Write U_{s,g} = S_s + SG_{s,g}: each system's U_s ∈ R^G is N(0, Σ_U),
// Σ_U = C·11ᵀ + E·I (A = σ², B = SD_topic², C = SD_system², E = SD_segment²),
// independently across systems, and y_st = β0 + T_t + U_{s,g(t)} + e_st.
// Split y by orthonormal bases: over systems into their mean and n_S − 1
// contrasts, over topics into each segment's mean and its n_g − 1
// within-segment contrasts. The four kinds of coordinates are independent:
//
//   - system contrast × within-segment contrast: noise only, variance A,
//     (n_S − 1)(n_T − G) coordinates with sum of squares SS_E;
//   - system contrast × segment mean: d_s = (ȳ_{s,g} − ȳ_{·,g})_g has
//     covariance Σ1 = Σ_U + A·diag(1/n_g) across segments, and
//     M = Σ_s d_s d_sᵀ is their G × G sum of squares (n_S − 1 contrasts);
//   - system mean × within-segment contrast: ȳ_t − ȳ_{·,g(t)}, variance
//     λ = B + A/n_S, n_T − G coordinates with sum of squares SS_T;
//   - system mean × segment mean: r = (ȳ_{·,g} − m0)_g has covariance
//     R = diag(λ/n_g + E/n_S) + (C/n_S + v0)·11ᵀ.
//
// So, with N = n_S·n_T,
//
//	log p(y | A, B, C, E) = −½[(n_S−1)(n_T−G)·log A + SS_E/A + (n_S−1)·log|Σ1| + tr(Σ1⁻¹M)
//	                          + (n_T−G)·log λ + SS_T/λ + log|R| + rᵀR⁻¹r]
//	                        − ½[n_S·Σ_g log n_g + n_T·log n_S] − N·log √(2π),
//
// the last line being the Jacobian of the scaled coordinates. Σ1 and R are
// diagonal plus rank one, so their inverses and determinants cost O(G)
// (Sherman–Morrison) and the whole density O(G²) (for Mw). With G = 1 and
// E = 0 it is balancedModel's density. Generate draws (β0, T, S, SG) exactly
// (see drawEffects).
type segBalancedModel struct {
	nS, nT, G int
	nG        []float64 // topics per segment
	topicSeg  []int
	m0, v0    float64
	ssE, ssT  float64
	dfE, dfT  float64
	M         []float64 // G×G, Σ_s d_s d_sᵀ
	d         []float64 // n_S×G, d_{s,g} = ȳ_{s,g} − ȳ_{·,g}
	r         []float64 // ȳ_{·,g} − m0
	dT        []float64 // ȳ_t − ȳ_{·,g(t)}
	logConst  float64
	sp        ScalePriors
	names     []string

	// scratch
	sc               scales
	V, dV            []float64
	w1, w2, Mw, a    []float64
	xi, u, nu, z     []float64
	tbar, ubar, vsum []float64
}

func newSegBalancedModel(t *Table, segments []string, topicSeg, size []int, m0, v0 float64, sp ScalePriors) *segBalancedModel {
	nS, nT, G := len(t.Systems), len(t.Topics), len(segments)
	m := &segBalancedModel{nS: nS, nT: nT, G: G, topicSeg: topicSeg, m0: m0, v0: v0, sp: sp,
		nG: make([]float64, G), M: make([]float64, G*G), d: make([]float64, nS*G), r: make([]float64, G),
		dT: make([]float64, nT)}
	for g, n := range size {
		m.nG[g] = float64(n)
	}
	// ȳ_t, ȳ_{s,g}, ȳ_{·,g}
	colMean := make([]float64, nT)
	for _, row := range t.Scores {
		for j, v := range row {
			colMean[j] += v
		}
	}
	for j := range colMean {
		colMean[j] /= float64(nS)
	}
	segMean := make([]float64, G)
	for j, c := range colMean {
		segMean[topicSeg[j]] += c
	}
	for g := range segMean {
		segMean[g] /= m.nG[g]
		m.r[g] = segMean[g] - m0
	}
	for j, c := range colMean {
		m.dT[j] = c - segMean[topicSeg[j]]
		m.ssT += m.dT[j] * m.dT[j]
	}
	for s, row := range t.Scores {
		ds := m.d[s*G : (s+1)*G]
		for j, v := range row {
			ds[topicSeg[j]] += v
		}
		for g := range ds {
			ds[g] = ds[g]/m.nG[g] - segMean[g]
		}
		for j, v := range row {
			e := v - colMean[j] - ds[topicSeg[j]]
			m.ssE += e * e
		}
		for g := range G {
			for h := range G {
				m.M[g*G+h] += ds[g] * ds[h]
			}
		}
	}
	m.dfE = float64((nS - 1) * (nT - G))
	m.dfT = float64(nT - G)
	sumLogN := 0.0
	for _, n := range m.nG {
		sumLogN += math.Log(n)
	}
	m.logConst = -0.5*(float64(nS)*sumLogN+float64(nT)*math.Log(float64(nS))) - float64(nS*nT)*logSqrt2Pi
	m.names = segmentNames(t, segments)
	return m.Fork().(*segBalancedModel)
}

func (m *segBalancedModel) Fork() mcmc.Model {
	c := *m
	c.sc = m.sp.compiledScales()
	c.V, c.dV = make([]float64, 3), make([]float64, 3)
	G := m.G
	c.w1, c.w2, c.Mw, c.a = make([]float64, G), make([]float64, G), make([]float64, G), make([]float64, G)
	c.u, c.nu, c.z = make([]float64, m.nS*G), make([]float64, G), make([]float64, G)
	c.tbar, c.ubar, c.vsum = make([]float64, G), make([]float64, G), make([]float64, G)
	c.xi = make([]float64, 2+3*G+m.nS*(2+2*G)+m.nT)
	return &c
}

func (m *segBalancedModel) Dim() int        { return 4 }
func (m *segBalancedModel) Names() []string { return m.names }

// variances returns A = σ² and sets m.V to (B, C, E).
func (m *segBalancedModel) variances(theta []float64) float64 {
	m.sp.eval(theta[:3], theta[3], &m.sc)
	for k, sd := range m.sc.sd {
		m.V[k] = sd * sd
	}
	return m.sc.sigma * m.sc.sigma
}

// diagRankOne describes D + c·11ᵀ with D = diag(1/w): its inverse is
// diag(w) − κ·wwᵀ with κ = c/(1 + c·Σw), its log determinant
// −Σ log w + log(1 + c·Σw) (Sherman–Morrison, matrix determinant lemma).
type diagRankOne struct {
	w            []float64
	sumW, kappa  float64
	logDet       float64
	trWn, trW    float64 // tr(D⁻¹·diag(1/n)) and tr of the inverse
	oneWone      float64 // 1ᵀ(inverse)1
	sumW2, sumWn float64
}

// newDiagRankOne fills w with 1/d_g for d_g = dg(g) and returns the
// quantities of D + c·11ᵀ; n are the segment sizes (for tr(W·diag(1/n))).
func newDiagRankOne(w, n []float64, c float64, dg func(g int) float64) diagRankOne {
	var q diagRankOne
	q.w = w
	for g := range w {
		d := dg(g)
		w[g] = 1 / d
		q.logDet += math.Log(d)
		q.sumW += w[g]
		q.sumW2 += w[g] * w[g]
		q.sumWn += w[g] / n[g]
		q.trWn += w[g] * w[g] / n[g]
	}
	q.kappa = c / (1 + c*q.sumW)
	q.logDet += math.Log1p(c * q.sumW)
	q.trWn = q.sumWn - q.kappa*q.trWn
	q.trW = q.sumW - q.kappa*q.sumW2
	q.oneWone = q.sumW * (1 - q.kappa*q.sumW)
	return q
}

// solve writes (D + c·11ᵀ)⁻¹x into dst.
func (q *diagRankOne) solve(x, dst []float64) {
	wx := 0.0
	for g, w := range q.w {
		wx += w * x[g]
	}
	for g, w := range q.w {
		dst[g] = w*x[g] - q.kappa*w*wx
	}
}

func (m *segBalancedModel) LogDensity(theta, grad []float64) float64 {
	A := m.variances(theta)
	B, C, E := m.V[0], m.V[1], m.V[2]
	G, nS := m.G, float64(m.nS)

	// Σ1 = diag(E + A/n_g) + C·11ᵀ: log|Σ1|, tr(Σ1⁻¹M) and the traces of Z1 = Σ1⁻¹MΣ1⁻¹
	q1 := newDiagRankOne(m.w1, m.nG, C, func(g int) float64 { return E + A/m.nG[g] })
	wMw, trWM := 0.0, 0.0
	for g := range G {
		row := m.M[g*G : (g+1)*G]
		s := 0.0
		for h, x := range row {
			s += x * m.w1[h]
		}
		m.Mw[g] = s
		wMw += m.w1[g] * s
		trWM += m.w1[g] * row[g]
	}
	trWM -= q1.kappa * wMw
	var trZ1n, trZ1 float64
	for g, w := range m.w1 {
		z := w * w * (m.M[g*G+g] - 2*q1.kappa*m.Mw[g] + q1.kappa*q1.kappa*wMw)
		trZ1 += z
		trZ1n += z / m.nG[g]
	}
	oneZ1one := (1 - q1.kappa*q1.sumW) * (1 - q1.kappa*q1.sumW) * wMw

	// R = diag(λ/n_g + E/n_S) + (C/n_S + v0)·11ᵀ, a = R⁻¹r
	lambda := B + A/nS
	q2 := newDiagRankOne(m.w2, m.nG, C/nS+m.v0, func(g int) float64 { return lambda/m.nG[g] + E/nS })
	q2.solve(m.r, m.a)
	var quad2, trZ2n, trZ2, sumA float64
	for g, a := range m.a {
		quad2 += m.r[g] * a
		trZ2 += a * a
		trZ2n += a * a / m.nG[g]
		sumA += a
	}
	oneZ2one := sumA * sumA

	phi := m.dfE*math.Log(A) + m.ssE/A + (nS-1)*q1.logDet + trWM + m.dfT*math.Log(lambda) + m.ssT/lambda + q2.logDet + quad2
	ll := -0.5*phi + m.logConst

	gl := m.dfT/lambda - m.ssT/(lambda*lambda)
	dA := m.dfE/A - m.ssE/(A*A) + (nS-1)*q1.trWn - trZ1n + gl/nS + (q2.trWn-trZ2n)/nS
	m.dV[0] = gl + q2.trWn - trZ2n
	m.dV[1] = (nS-1)*q1.oneWone - oneZ1one + (q2.oneWone-oneZ2one)/nS
	m.dV[2] = (nS-1)*q1.trW - trZ1 + (q2.trW-trZ2)/nS
	for k := range m.dV {
		m.dV[k] *= -0.5
	}
	m.sc.varianceGradient(grad, m.sp.Relative, A, -0.5*dA, m.V, m.dV)
	return ll + m.sc.lp
}

func (m *segBalancedModel) Generate(theta []float64, r *rand.Rand, out []float64) {
	A := m.variances(theta)
	for i := range m.xi {
		m.xi[i] = r.NormFloat64()
	}
	out[IdxSigma] = m.sc.sigma
	copy(out[IdxSDTopic:], m.sc.sd)
	m.drawEffects(A, m.V[0], m.V[1], m.V[2], m.xi, out)
}

// drawEffects writes β0 and the effects (SegmentFit's layout) drawn from
// their joint Gaussian conditional given A, B, C, E and y, using the
// standard normals xi. Along the decomposition of the density:
//
//   - U's system contrasts: in the model where every system's V_s ~ N(0, Σ_U)
//     independently and d_s = V_s + ε_s, ε_s ~ N(0, A·diag(1/n_g)), the
//     contrasts V_s − V̄ given d have the law of U's contrasts given the
//     data; each V_s is drawn by Matheron's rule (a prior draw corrected by
//     Σ_U·Σ1⁻¹ times its simulated residual), then centred;
//   - (β0, the segment means T̄_g of T, the system means Ū_g of U) given
//     r: prior N((m0, 0, 0), diag(v0, B/n_g, Σ_U/n_S)) and the observation
//     ȳ_{·,g} = β0 + T̄_g + Ū_g + ē_g, ē_g ~ N(0, A/(n_S·n_g)), whose
//     covariance is R: Matheron's rule again;
//   - T's within-segment contrasts: precision 1/B + n_S/A, so
//     T_t = T̄_g + k·(ȳ_t − ȳ_{·,g}) + √(AB/(A + n_S·B))·(ξ_t − ξ̄_g) with
//     k = n_S·B/(A + n_S·B) (ξ̄_g the mean over segment g's topics);
//   - S and SG from U = Ū + U's contrasts (splitSystemSegment).
//
// O(n_S·G + n_T) per draw.
func (m *segBalancedModel) drawEffects(A, B, C, E float64, xi, out []float64) {
	G, nS := m.G, float64(m.nS)
	take := func(n int) []float64 { v := xi[:n]; xi = xi[n:]; return v }
	sqC, sqE := math.Sqrt(C), math.Sqrt(E)

	// system means: (β0, T̄, Ū) given r
	q2 := newDiagRankOne(m.w2, m.nG, C/nS+m.v0, func(g int) float64 { return (B+A/nS)/m.nG[g] + E/nS })
	x0 := take(2)
	beta := m.m0 + math.Sqrt(m.v0)*x0[0]
	ubarC := sqC * x0[1] / math.Sqrt(nS)
	xT, xU, xe := take(G), take(G), take(G)
	tbar, ubar := m.tbar, m.ubar
	for g := range G {
		tbar[g] = math.Sqrt(B/m.nG[g]) * xT[g]
		ubar[g] = ubarC + sqE*xU[g]/math.Sqrt(nS)
		m.nu[g] = m.r[g] + m.m0 - (beta + tbar[g] + ubar[g] + math.Sqrt(A/(nS*m.nG[g]))*xe[g])
	}
	q2.solve(m.nu, m.z)
	sumZ := 0.0
	for _, z := range m.z {
		sumZ += z
	}
	beta += m.v0 * sumZ
	for g := range G {
		tbar[g] += B / m.nG[g] * m.z[g]
		ubar[g] += (C*sumZ + E*m.z[g]) / nS
	}
	out[IdxIntercept] = beta

	// system contrasts: V_s given d_s, centred
	q1 := newDiagRankOne(m.w1, m.nG, C, func(g int) float64 { return E + A/m.nG[g] })
	vbar := m.vsum
	clear(vbar)
	for s := range m.nS {
		xs := take(1 + 2*G)
		v := m.u[s*G : (s+1)*G]
		ds := m.d[s*G : (s+1)*G]
		for g := range G {
			v[g] = sqC*xs[0] + sqE*xs[1+g]
			m.nu[g] = ds[g] - v[g] - math.Sqrt(A/m.nG[g])*xs[1+G+g]
		}
		q1.solve(m.nu, m.z)
		sumZ := 0.0
		for _, z := range m.z {
			sumZ += z
		}
		for g := range G {
			v[g] += C*sumZ + E*m.z[g]
			vbar[g] += v[g]
		}
	}
	for g := range G {
		vbar[g] = ubar[g] - vbar[g]/nS
	}
	for s := range m.nS {
		v := m.u[s*G : (s+1)*G]
		for g := range G {
			v[g] += vbar[g]
		}
	}

	// topics: within-segment contrasts around T̄_g
	xiT := take(m.nT)
	clear(m.nu)
	for j, x := range xiT {
		m.nu[m.topicSeg[j]] += x
	}
	k, sd := nS*B/(A+nS*B), math.Sqrt(A*B/(A+nS*B))
	topics := out[5 : 5+m.nT]
	for j, x := range xiT {
		g := m.topicSeg[j]
		topics[j] = tbar[g] + k*m.dT[j] + sd*(x-m.nu[g]/m.nG[g])
	}
	splitSystemSegment(m.u, G, C, E, take(m.nS), out[5+m.nT:])
}

// splitSystemSegment writes S_s and SG_{s,g} (SegmentFit's layout: n_S
// systems, then n_S·G cells) into out given every system's U_s = S_s +
// SG_{s,·} (u, n_S×G): under the prior, S_s given U_s is normal with mean
// C·ΣU_s/(E + G·C) and variance C·E/(E + G·C) (Σ_U⁻¹1 = 1/(E + G·C)), and
// the likelihood sees S and SG only through U. xi holds n_S standard normals.
func splitSystemSegment(u []float64, G int, C, E float64, xi, out []float64) {
	nS := len(xi)
	den := E + float64(G)*C
	sd := math.Sqrt(C * E / den)
	cells := out[nS:]
	for s := range nS {
		us := u[s*G : (s+1)*G]
		sum := 0.0
		for _, x := range us {
			sum += x
		}
		S := C*sum/den + sd*xi[s]
		out[s] = S
		for g, x := range us {
			cells[s*G+g] = x - S
		}
	}
}
