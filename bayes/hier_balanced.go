package bayes

import (
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/stats"
)

// balancedModel is the Gaussian hierarchical model on a complete table with
// the intercept and all effects integrated out.
//
// Given A = σ², B = SD_topic², C = SD_system² and the intercept prior
// N(m0, v0), y is Gaussian with mean m0·1 and covariance
// v0·11ᵀ + B·Z_T Z_Tᵀ + C·Z_S Z_Sᵀ + A·I. On a complete n_S × n_T table that
// covariance has four eigenspaces: the grand mean (eigenvalue
// λ0 = A + n_S·B + n_T·C + N·v0), topic contrasts (λT = A + n_S·B, dimension
// n_T − 1), system contrasts (λS = A + n_T·C, n_S − 1) and the residual
// (A, (n_S − 1)(n_T − 1)). The projections of y − m0 on them have squared
// lengths N(ȳ − m0)², SS_topic, SS_system and SS_residual, so
//
//	log p(y | A, B, C) = −½ Σ_spaces [dim·log λ + SS/λ] − (N/2)·log 2π,
//
// an O(1) function of four sufficient statistics. The sampler explores only
// θ = (u_topic, u_system, v) (ScalePriors' coordinates); Generate then draws
// (β0, T, S) exactly from their Gaussian conditional (see drawEffects).
type balancedModel struct {
	nS, nT        int
	N             float64
	ybar, m0, v0  float64
	ssE, ssT, ssS float64
	dT, dS        []float64 // topic and system means minus the grand mean
	sp            ScalePriors
	names         []string
	sc            scales
	xi            []float64
}

func newBalancedModel(t *Table, m0, v0 float64, sp ScalePriors) *balancedModel {
	nS, nT := len(t.Systems), len(t.Topics)
	m := &balancedModel{nS: nS, nT: nT, N: float64(nS * nT), m0: m0, v0: v0, sp: sp}
	rowMean := make([]float64, nS)
	colMean := make([]float64, nT)
	for s, row := range t.Scores {
		sum := 0.0
		for j, v := range row {
			sum += v
			colMean[j] += v
		}
		rowMean[s] = sum / float64(nT)
	}
	for j := range colMean {
		colMean[j] /= float64(nS)
	}
	m.ybar = posterior.Mean(rowMean)
	m.dT = make([]float64, nT)
	m.dS = make([]float64, nS)
	for j, c := range colMean {
		m.dT[j] = c - m.ybar
		m.ssT += float64(nS) * m.dT[j] * m.dT[j]
	}
	for s, r := range rowMean {
		m.dS[s] = r - m.ybar
		m.ssS += float64(nT) * m.dS[s] * m.dS[s]
	}
	for s, row := range t.Scores {
		for j, v := range row {
			e := v - rowMean[s] - colMean[j] + m.ybar
			m.ssE += e * e
		}
	}
	m.names = hierNames(t)
	return m.Fork().(*balancedModel)
}

// hierNames is the layout every hierarchical path generates.
func hierNames(t *Table) []string {
	names := []string{"intercept", "sigma", "sd_topic", "sd_system"}
	for _, l := range t.Topics {
		names = append(names, "topic["+l+"]")
	}
	for _, l := range t.Systems {
		names = append(names, "system["+l+"]")
	}
	return names
}

func (m *balancedModel) Fork() mcmc.Model {
	c := *m
	c.sc = m.sp.compiledScales()
	c.xi = make([]float64, 4+m.nT+m.nS)
	return &c
}

func (m *balancedModel) Dim() int        { return 3 }
func (m *balancedModel) Names() []string { return m.names }

func (m *balancedModel) variances(theta []float64) (A, B, C float64) {
	m.sp.eval(theta[:2], theta[2], &m.sc)
	return m.sc.sigma * m.sc.sigma, m.sc.sd[0] * m.sc.sd[0], m.sc.sd[1] * m.sc.sd[1]
}

func (m *balancedModel) LogDensity(theta, grad []float64) float64 {
	A, B, C := m.variances(theta)
	nS, nT := float64(m.nS), float64(m.nT)
	l0 := A + nS*B + nT*C + m.N*m.v0
	lT := A + nS*B
	lS := A + nT*C
	dfE := (nS - 1) * (nT - 1)
	q0 := m.N * (m.ybar - m.m0) * (m.ybar - m.m0)
	ll := -0.5*(math.Log(l0)+q0/l0+(nT-1)*math.Log(lT)+m.ssT/lT+(nS-1)*math.Log(lS)+m.ssS/lS+
		dfE*math.Log(A)+m.ssE/A) - m.N*logSqrt2Pi

	// ∂ℓ/∂λ for each eigenspace, then through λ(A, B, C)
	g0 := -0.5 * (1/l0 - q0/(l0*l0))
	gT := -0.5 * ((nT-1)/lT - m.ssT/(lT*lT))
	gS := -0.5 * ((nS-1)/lS - m.ssS/(lS*lS))
	gE := -0.5 * (dfE/A - m.ssE/(A*A))
	dA := g0 + gT + gS + gE
	dB := nS * (g0 + gT)
	dC := nT * (g0 + gS)
	m.sp.collapsedGradient(&m.sc, grad, A, B, C, dA, dB, dC)
	return ll + m.sc.lp
}

func (m *balancedModel) Generate(theta []float64, r *rand.Rand, out []float64) {
	A, B, C := m.variances(theta)
	for i := range m.xi {
		m.xi[i] = r.NormFloat64()
	}
	out[0], out[1], out[2], out[3] = 0, m.sc.sigma, m.sc.sd[0], m.sc.sd[1]
	m.drawEffects(A, B, C, m.xi, out)
}

// drawEffects writes β0 into out[0] and the topic and system effects into
// out[4:] (hierNames' layout), drawn from their joint Gaussian conditional
// given A, B, C and y, using the standard normals xi (len 4 + n_T + n_S).
//
// Write T = T̄·1 + T_c with T_c summing to zero, and likewise S. The
// likelihood's sum of squares splits as
// N(ȳ − β0 − T̄ − S̄)² + n_S‖d_T − T_c‖² + n_T‖d_S − S_c‖² + SS_residual
// and the prior makes T̄ ~ N(0, B/n_T), T_c ~ N(0, B(I − J/n_T)) independent
// (likewise S), so:
//   - T_c: every contrast coordinate has precision 1/B + n_S/A, hence
//     T_c = k_T·d_T + √(AB/(A + n_S B))·(ξ − ξ̄) with k_T = n_S B/(A + n_S B);
//   - S_c likewise with n_T and C;
//   - (β0, T̄, S̄) has prior N((m0, 0, 0), diag(v0, B/n_T, C/n_S)) and one
//     observation ȳ ~ N(β0 + T̄ + S̄, A/N); it is drawn by conditioning a prior
//     draw x on a simulated observation (Matheron's rule):
//     x ← x + v/(Σv + A/N)·(ȳ − Σx − e), e ~ N(0, A/N).
//
// O(n_T + n_S) per draw.
func (m *balancedModel) drawEffects(A, B, C float64, xi, out []float64) {
	nS, nT := float64(m.nS), float64(m.nT)
	// the three means
	v := [3]float64{m.v0, B / nT, C / nS}
	x := [3]float64{m.m0 + math.Sqrt(v[0])*xi[0], math.Sqrt(v[1]) * xi[1], math.Sqrt(v[2]) * xi[2]}
	e := math.Sqrt(A/m.N) * xi[3]
	vsum := v[0] + v[1] + v[2] + A/m.N
	resid := m.ybar - (x[0] + x[1] + x[2] + e)
	for i := range x {
		x[i] += v[i] / vsum * resid
	}
	out[0] = x[0]

	contrasts := func(d, z, dst []float64, k, s, mean float64) {
		zbar := posterior.Mean(z)
		for i := range d {
			dst[i] = mean + k*d[i] + s*(z[i]-zbar)
		}
	}
	xiT, xiS := xi[4:4+m.nT], xi[4+m.nT:]
	contrasts(m.dT, xiT, out[4:4+m.nT], nS*B/(A+nS*B), math.Sqrt(A*B/(A+nS*B)), x[1])
	contrasts(m.dS, xiS, out[4+m.nT:], nT*C/(A+nT*C), math.Sqrt(A*C/(A+nT*C)), x[2])
}

// ModeStart writes the moment (ANOVA) estimates of A, B and C in the
// sampler's coordinates (u_topic, u_system, v) into theta: A = SS_residual/
// ((n_S − 1)(n_T − 1)), B = (SS_topic/(n_T − 1) − A)/n_S, C likewise, a
// component whose estimate is not positive set to A/(10·n) (n its
// observations per level). A warm-started chain starts near it.
func (m *balancedModel) ModeStart(theta []float64) bool {
	nS, nT := float64(m.nS), float64(m.nT)
	dfE := (nS - 1) * (nT - 1)
	if !(dfE >= 1) || !(m.ssE > 0) {
		return false
	}
	A := m.ssE / dfE
	B := max((m.ssT/(nT-1)-A)/nS, A/(10*nS))
	C := max((m.ssS/(nS-1)-A)/nT, A/(10*nT))
	m.sp.unconstrain(math.Sqrt(A), []float64{math.Sqrt(B), math.Sqrt(C)}, theta)
	return stats.AllFinite(theta)
}

// contrastMoments is the conditional mean and SD of S_a − S_b given σ and
// SD_system (and y): by drawEffects, S_a − S_b = k_S·(d_S[a] − d_S[b]) +
// √(AC/(A + n_T C))·(ξ_a − ξ_b) with k_S = n_T C/(A + n_T C), A = σ²,
// C = SD_system², so the mean is k_S·(d_S[a] − d_S[b]) and the variance
// 2AC/(A + n_T C). SD_topic does not enter.
func (m *balancedModel) contrastMoments(sigma, _, sdSystem float64, a, b int) (mean, sd float64) {
	A, C := sigma*sigma, sdSystem*sdSystem
	den := A + float64(m.nT)*C
	return float64(m.nT) * C / den * (m.dS[a] - m.dS[b]), math.Sqrt(2 * A * C / den)
}
