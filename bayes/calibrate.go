package bayes

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/risk"
	"gonum.org/v1/gonum/integrate/quad"
)

// Simulated pools for calibrating a release policy (riskgate calibrate): a
// generating model estimated from a user's pool, and pools drawn from it in
// which one challenger's true effect relative to the champion is a given
// number on the score scale.

// PoolModel generates pools like a user's. The champion and the artifacts
// follow the hierarchical model with bounded scores,
//
//	y_st = clamp(L_st),  L_st = β0 + T_t + S_s + e_st,
//	T_t ~ N(0, SD_topic²),  S_s ~ N(0, SD_system²),  e_st ~ N(0, σ²),
//
// clamp(x) = min(1, max(0, x)), as IR measures are bounded. A challenger is a
// change to the champion's ranker, so it is paired with the champion topic by
// topic:
//
//	y_ct = clamp(L_0t + Δ + u_t),  u_t ~ skew normal with mean 0, SD DiffSD, skewness DiffSkew,
//
// where L_0t is the champion's unclamped score and the shift Δ is chosen so
// that the challenger's true effect — its expected score minus the
// champion's, over the population of topics and the noise, given the
// champion's system effect — is the requested effect (LatentShift).
type PoolModel struct {
	Intercept float64 // β0
	Sigma     float64 // σ
	SDTopic   float64
	SDSystem  float64
	// DiffSD and DiffSkew are the standard deviation and the skewness of a
	// challenger's per-topic differences to the champion around their mean.
	// |DiffSkew| is below the skew normal's limit 0.9953 (EstimatePoolModel
	// caps it at 0.99).
	DiffSD, DiffSkew float64
	// ChampionMean is the mean score of the pool's champion (over the topics
	// it scored): what messages about the champion quote. Simulated
	// champions draw their system effect around Intercept.
	ChampionMean float64
	// Warnings are the estimation's caveats, as data.
	Warnings []string

	// systemSS and systemDF are the system sum of squares of the ANOVA over
	// the champion and the artifacts and its degrees of freedom (the
	// artifacts' number; 0 with none), over nTopics topics: what the pool
	// says of the system spread (WithPriorSystemSpread).
	systemSS float64
	systemDF int
	nTopics  int
}

// maxSkew is the largest |skewness| EstimatePoolModel passes on: the skew
// normal's skewness is below 0.9953 in absolute value.
const maxSkew = 0.99

// EstimatePoolModel estimates the generating model from a pool t with the
// given champion and challengers (indexes into t; every other system is an
// artifact), by moments:
//
//   - β0, σ, SD_topic and SD_system from the two-way ANOVA of the champion
//     and the artifacts (risk.Systems.TwoWayANOVA) on the topics they all
//     scored: β0 = the grand mean, σ² = MS_E, SD_system² = (MS_system − MS_E)/n_topics,
//     SD_topic² = (MS_topic − MS_E)/n_systems — the unbiased moment (REML,
//     when positive) estimates of the balanced random-effects model; a
//     negative one is set to 0 with a warning. The challengers are left
//     out: their scores are paired with the champion's, not independent
//     draws from the system population.
//   - DiffSD and DiffSkew from the challengers' per-topic differences to the
//     champion, each challenger's centred on its own mean and pooled:
//     DiffSD² = Σ(d − d̄_c)²/(N − C), DiffSkew = m3/m2^{3/2} with
//     m_k = Σ(d − d̄_c)^k/N (N differences, C challengers). These carry the
//     shape of the losses that the risk measures weigh (the risk-adjusted
//     difference is a fixed function of d).
//
// Moments rather than a posterior: they are closed-form and deterministic,
// need no MCMC and no prior, and for a balanced table equal the REML
// estimates; the simulation only needs the scales. With fewer than two
// systems besides the challengers, every system joins the ANOVA (warned).
func EstimatePoolModel(t *Table, champion int, challengers []int) (PoolModel, error) {
	var m PoolModel
	if champion < 0 || champion >= len(t.Systems) {
		return m, fmt.Errorf("champion index %d out of range (%d systems)", champion, len(t.Systems))
	}
	if len(challengers) == 0 {
		return m, errors.New("no challenger: the differences to the champion need one")
	}
	isChal := make([]bool, len(t.Systems))
	for _, c := range challengers {
		if c < 0 || c >= len(t.Systems) || c == champion {
			return m, fmt.Errorf("challenger index %d: not a system other than the champion", c)
		}
		isChal[c] = true
	}
	var base []int
	for s := range t.Systems {
		if !isChal[s] {
			base = append(base, s)
		}
	}
	independent := len(base) >= 2 // the champion and at least one artifact
	if !independent {
		base = base[:0]
		for s := range t.Systems {
			base = append(base, s)
		}
		m.Warnings = append(m.Warnings, "the pool has no artifact: the system and topic variances are estimated from every system, challengers included")
	}
	var complete []int // topics every base system scored
	for j := range t.Topics {
		if !slices.ContainsFunc(base, func(s int) bool { return math.IsNaN(t.Scores[s][j]) }) {
			complete = append(complete, j)
		}
	}
	if len(complete) < 2 {
		return m, fmt.Errorf("%d topic(s) scored by the champion and every artifact; the estimation needs at least 2", len(complete))
	}
	if len(complete) < len(t.Topics) {
		m.Warnings = append(m.Warnings, fmt.Sprintf("variances estimated on the %d of %d topics that the champion and every artifact scored", len(complete), len(t.Topics)))
	}
	rows := make(risk.Systems, len(base))
	for i, s := range base {
		for _, j := range complete {
			rows[i] = append(rows[i], t.Scores[s][j])
		}
	}
	a, err := rows.TwoWayANOVA()
	if err != nil {
		return m, err
	}
	msSys, msTopic, mse := a.Rows[0].MS, a.Rows[1].MS, a.MSE()
	nS, nT := float64(len(base)), float64(len(complete))
	grand := 0.0
	for _, r := range rows {
		grand += posterior.Mean(r)
	}
	m.Intercept = grand / nS
	m.Sigma = math.Sqrt(mse)
	component := func(name string, ms, n float64) float64 {
		v := (ms - mse) / n
		if v < 0 {
			m.Warnings = append(m.Warnings, fmt.Sprintf("the %s variance's moment estimate is negative (mean square %.4g below the residual's %.4g); it is set to 0", name, ms, mse))
			return 0
		}
		return math.Sqrt(v)
	}
	m.SDSystem = component("system", msSys, nT)
	m.SDTopic = component("topic", msTopic, nS)
	m.nTopics = len(complete)
	if independent {
		m.systemSS, m.systemDF = msSys*(nS-1), len(base)-1
	}
	m.ChampionMean = stats.MeanDefined(t.Scores[champion])

	var ss2, ss3 float64
	n, groups := 0, 0
	for _, c := range challengers {
		var d []float64
		for j := range t.Topics {
			x, b := t.Scores[c][j], t.Scores[champion][j]
			if !math.IsNaN(x) && !math.IsNaN(b) {
				d = append(d, x-b)
			}
		}
		if len(d) < 2 {
			continue
		}
		mean := posterior.Mean(d)
		for _, v := range d {
			e := v - mean
			ss2 += e * e
			ss3 += e * e * e
		}
		n += len(d)
		groups++
	}
	if n-groups < 1 {
		return m, errors.New("no challenger shares two topics with the champion: the differences cannot be estimated")
	}
	m.DiffSD = math.Sqrt(ss2 / float64(n-groups))
	if ss2 > 0 {
		m2, m3 := ss2/float64(n), ss3/float64(n)
		m.DiffSkew = m3 / math.Pow(m2, 1.5)
	}
	if math.Abs(m.DiffSkew) > maxSkew {
		m.Warnings = append(m.Warnings, fmt.Sprintf("the differences' skewness %.3g is beyond the skew normal's reach; simulated with %.2f", m.DiffSkew, math.Copysign(maxSkew, m.DiffSkew)))
		m.DiffSkew = math.Copysign(maxSkew, m.DiffSkew)
	}
	return m, nil
}

// skewNormalAlpha is the skew normal's shape α for skewness g (|g| < 0.9953):
// with c = (2g/(4 − π))^{1/3}, b = c/√(1 + c²) = δ√(2/π), α = δ/√(1 − δ²)
// (Azzalini 1985; skewness ((4 − π)/2)·b³/(1 − b²)^{3/2}).
func skewNormalAlpha(g float64) float64 {
	c := math.Cbrt(2 * g / (4 - math.Pi))
	b := c / math.Sqrt(1+c*c)
	delta := b / sqrt2OverPi
	return delta / math.Sqrt(1-delta*delta)
}

// PoolTruth is what a simulated pool was drawn with.
type PoolTruth struct {
	Effect         float64 // the challenger's true effect on the score scale (as requested)
	Shift          float64 // Δ, the unclamped shift that gives it (LatentShift)
	ChampionEffect float64 // the champion's system effect S_0
	MeanDiff       float64 // the challenger's mean difference to the champion over the drawn topics
}

// Simulate draws one pool of len(topics) topics: systems[0] is the
// champion, systems[1] the challenger with true effect effect, and every
// other system an artifact. Draws, in order: the topic effects, the system
// effects (champion, then artifacts), the shift, then topic by topic the
// champion's error, the challenger's difference and each artifact's error.
func (m PoolModel) Simulate(r *rand.Rand, effect float64, systems, topics []string) (*Table, PoolTruth, error) {
	if len(systems) < 2 || len(topics) < 2 {
		return nil, PoolTruth{}, fmt.Errorf("%d systems and %d topics: need a champion, a challenger and 2 topics", len(systems), len(topics))
	}
	nT, nA := len(topics), len(systems)-2
	topic := make([]float64, nT)
	for j := range topic {
		topic[j] = m.SDTopic * r.NormFloat64()
	}
	champ := m.SDSystem * r.NormFloat64()
	arts := make([]float64, nA)
	for a := range arts {
		arts[a] = m.SDSystem * r.NormFloat64()
	}
	shift, err := m.LatentShift(effect, m.Intercept+champ)
	if err != nil {
		return nil, PoolTruth{}, fmt.Errorf("%w, as a champion simulated with system effect %+.3g (sd_system %.3g) is; your champion's mean score is %.3g",
			err, champ, m.SDSystem, m.ChampionMean)
	}
	t := &Table{Systems: systems, Topics: topics, Scores: make([][]float64, len(systems))}
	cells := make([]float64, len(systems)*nT)
	for s := range t.Scores {
		t.Scores[s] = cells[s*nT : (s+1)*nT : (s+1)*nT]
	}
	diff := SkewNormal{}
	extra := []float64{skewNormalAlpha(m.DiffSkew)}
	clamp := func(x float64) float64 { return min(1, max(0, x)) }
	sum := 0.0
	for j := range topics {
		l := m.Intercept + topic[j] + champ + m.Sigma*r.NormFloat64()
		t.Scores[0][j] = clamp(l)
		t.Scores[1][j] = clamp(l + diff.Rand(r, shift, m.DiffSD, extra))
		sum += t.Scores[1][j] - t.Scores[0][j]
		for a, s := range arts {
			t.Scores[2+a][j] = clamp(m.Intercept + topic[j] + s + m.Sigma*r.NormFloat64())
		}
	}
	return t, PoolTruth{Effect: effect, Shift: shift, ChampionEffect: champ, MeanDiff: sum / float64(nT)}, nil
}

// LatentShift returns the shift Δ of the challenger's unclamped scores that
// gives it the true effect effect over a champion whose unclamped scores
// over the topic population are L ~ N(championMean, SD_topic² + σ²):
//
//	E[clamp(L + Δ + u)] − E[clamp(L)] = effect.
//
// Clamping makes this differ from Δ: a shift moves no score past a bound,
// and zero-mean noise u near a bound raises the mean (a challenger with
// Δ = 0 that only adds noise would look better on average). Both sides are
// computed by meanClamped; the left side increases with Δ, and Δ is found
// by bisection to 1e-13. An effect the bounds make impossible is an error,
// which quotes the mean score E[clamp(L)] of such a system (not the pool's
// champion's, which the callers add).
func (m PoolModel) LatentShift(effect, championMean float64) (float64, error) {
	s := math.Hypot(m.SDTopic, m.Sigma)
	base, _ := meanClamped(championMean, s, 0, 0)
	target := effect + base
	alpha := skewNormalAlpha(m.DiffSkew)
	f := func(shift float64) (float64, float64) {
		v, dv := meanClamped(championMean+shift, s, m.DiffSD, alpha)
		return v - target, dv
	}
	lo, hi := -2-10*(s+m.DiffSD), 2+10*(s+m.DiffSD)
	if flo, _ := f(lo); flo > 0 {
		return 0, fmt.Errorf("a true effect of %g is impossible on [0, 1] scores for a system of mean score %.3g", effect, base)
	}
	if fhi, _ := f(hi); fhi < 0 {
		return 0, fmt.Errorf("a true effect of %g is impossible on [0, 1] scores for a system of mean score %.3g", effect, base)
	}
	return bracketedNewton(f, effect, lo, hi, 1e-13), nil
}

// bracketedNewton solves f(x) = 0 for an increasing f, given as (f(x),
// f'(x)), by Newton's method from x0 kept inside the bracket [lo, hi]
// (f(lo) ≤ 0 ≤ f(hi)), bisecting when a step would leave it, until a step
// or the bracket is below tol (at most 200 steps).
func bracketedNewton(f func(float64) (float64, float64), x0, lo, hi, tol float64) float64 {
	x := x0
	for range 200 {
		fx, dfx := f(x)
		if fx == 0 {
			return x
		}
		if fx < 0 {
			lo = x
		} else {
			hi = x
		}
		next := x - fx/dfx
		if !(next > lo && next < hi) {
			next = 0.5 * (lo + hi)
		}
		if math.Abs(next-x) < tol || hi-lo < tol {
			return next
		}
		x = next
	}
	return x
}

// meanClamped is E[clamp(X + u)] for X ~ N(mu, s²) and u an independent
// skew normal with mean 0, SD sdU and shape alpha (u = 0 when sdU = 0).
//
// For X ~ N(mu, s²), E[clamp(X)] = ∫_0^1 P(X > v) dv = s·[G(mu/s) − G((mu − 1)/s)]
// with G(z) = zΦ(z) + φ(z), the antiderivative of Φ. The skew normal is
// ξ + ω(δ|Z0| + √(1 − δ²)Z1) (Azzalini's representation), so given |Z0| = z,
// X + u is normal with mean mu + ξ + ωδz and variance s² + ω²(1 − δ²); the
// remaining integral over the half-normal z (density 2φ(z)) is taken by
// 64-point Gauss–Legendre on [0, 9] (the density beyond 9 is below 10⁻¹⁷).
// The second result is the derivative in mu, P(0 < X + u < 1).
func meanClamped(mu, s, sdU, alpha float64) (float64, float64) {
	if sdU == 0 {
		return meanClampedNormal(mu, s)
	}
	b, k, _ := skewNormalShape(alpha)
	omega := k * sdU
	xi := -omega * b
	delta := alpha / math.Sqrt(1+alpha*alpha)
	sd := math.Sqrt(s*s + omega*omega*(1-delta*delta))
	if delta == 0 {
		return meanClampedNormal(mu, sd)
	}
	x, w := halfNormalNodes()
	sum, dsum := 0.0, 0.0
	for i := range x {
		v, dv := meanClampedNormal(mu+xi+omega*delta*x[i], sd)
		sum += w[i] * v
		dsum += w[i] * dv
	}
	return sum, dsum
}

// meanClampedNormal is E[clamp(X)] for X ~ N(mu, s²) (see meanClamped) and
// its derivative in mu, P(0 < X < 1) = Φ(mu/s) − Φ((mu − 1)/s).
func meanClampedNormal(mu, s float64) (float64, float64) {
	if s == 0 {
		if mu > 0 && mu < 1 {
			return mu, 1
		}
		return min(1, max(0, mu)), 0
	}
	a, b := mu/s, (mu-1)/s
	pa, pb := stdNormalCDF(a), stdNormalCDF(b)
	return s * (a*pa + stdNormalPDF(a) - b*pb - stdNormalPDF(b)), pa - pb
}

func stdNormalCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
func stdNormalPDF(z float64) float64 { return math.Exp(-0.5*z*z) / math.Sqrt(2*math.Pi) }

// halfNormalNodes are the nodes on [0, 9] and the weights, the half-normal
// density 2φ(x) included, of meanClamped's quadrature.
var halfNormalNodes = sync.OnceValues(func() ([]float64, []float64) {
	const n = 64
	x, w := make([]float64, n), make([]float64, n)
	quad.Legendre{}.FixedLocations(x, w, 0, 9)
	for i := range w {
		w[i] *= 2 * stdNormalPDF(x[i])
	}
	return x, w
})
