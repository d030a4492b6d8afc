package bayes

import "math"

// WithPriorSystemSpread returns m with SD_system replaced by its posterior
// median under a prior on τ = SD_system/σ (IRPools, for calibrating on a
// pool with fewer artifacts than a policy requires), given what the pool
// says of the spread: the system sum of squares of EstimatePoolModel's
// two-way ANOVA over the champion and the k artifacts,
//
//	SS_system / (σ² + n_T·SD_system²) ~ χ²(k),
//
// the likelihood of the balanced random-effects model (its expected mean
// square is σ² + n_T·SD_system²), with σ at its moment estimate. With one
// artifact (k = 1) the moment estimate rests on one difference of two
// system means; the posterior keeps it from an SD of zero or of the whole
// score range. With no artifact the pool says nothing about the spread (the
// challengers are paired with the champion, not drawn from the population):
// the posterior is the prior, SD_system = σ·median(τ).
//
// The median is that of the posterior on a grid of 20,001 points, even in
// log τ over [10⁻⁶, 50], integrated by the trapezoidal rule and
// interpolated linearly: deterministic, and within 10⁻⁶ relative of the
// exact median for any k up to 1,000 (TestWithPriorSystemSpread).
func (m PoolModel) WithPriorSystemSpread(prior Prior) PoolModel {
	const n = 20001
	lo, hi := math.Log(1e-6), math.Log(50)
	step := (hi - lo) / (n - 1)
	sigma2, nT, df := m.Sigma*m.Sigma, float64(m.nTopics), float64(m.systemDF)
	logp := make([]float64, n)
	best := math.Inf(-1)
	for i := range logp {
		u := lo + float64(i)*step
		tau := math.Exp(u)
		lp, _ := prior.LogPDF(tau)
		lp += u // the Jacobian of τ = exp(u)
		if df > 0 {
			v := sigma2 * (1 + nT*tau*tau)
			lp += -0.5*df*math.Log(v) - 0.5*m.systemSS/v
		}
		logp[i] = lp
		best = math.Max(best, lp)
	}
	cdf := make([]float64, n)
	for i := 1; i < n; i++ {
		cdf[i] = cdf[i-1] + 0.5*step*(math.Exp(logp[i-1]-best)+math.Exp(logp[i]-best))
	}
	half := 0.5 * cdf[n-1]
	i := 1
	for cdf[i] < half {
		i++
	}
	u := lo + step*(float64(i-1)+(half-cdf[i-1])/(cdf[i]-cdf[i-1]))
	m.SDSystem = m.Sigma * math.Exp(u)
	return m
}

// SystemSpreadArtifacts is the number of artifacts behind the pool's
// moment estimate of the system spread (0: none, every system's ANOVA).
func (m PoolModel) SystemSpreadArtifacts() int { return m.systemDF }
