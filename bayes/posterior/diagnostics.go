package posterior

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// Convergence diagnostics of MCMC draws, as R's posterior package 1.4.0
// computes them (R/convergence.R; Vehtari, Gelman, Simpson, Carpenter &
// Bürkner 2021, "Rank-normalization, folding, and localization: An improved R̂
// for assessing convergence of MCMC", Bayesian Analysis 16(2):667–718). The
// conventions they share (input layout, split chains, NaN cases) are in the
// doc of Summarize.

// Rhat returns posterior::rhat: the larger of the rank-normalised split-R̂ of the
// draws and of the folded draws |x − median(x)| (Vehtari et al. 2021, §4.2).
//
// Input layout and NaN cases: see Summarize.
func Rhat(chains [][]float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !w.load(chains, m, n) {
		return math.NaN()
	}
	w.sortPooled()
	return max(w.rhatBulk(), w.rhatTail())
}

// RhatBasic returns posterior::rhat_basic: the classic split-R̂ of Gelman et
// al. (2013), BDA3 §11.4, on the untransformed draws:
// R̂ = √((N'·var(x̄ₘ)/W + N' − 1)/N') over the 2M split chains of N' draws,
// with W the mean of the chain variances.
//
// Input layout and NaN cases: see Summarize.
func RhatBasic(chains [][]float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !w.load(chains, m, n) {
		return math.NaN()
	}
	w.splitRaw()
	return w.rhatOf(w.split, w.nc, w.rows)
}

// ESSBulk returns posterior::ess_bulk: the ESS of the rank-normalised split
// draws, z = Φ⁻¹((r − 3/8)/(S + 1/4)) with r the average rank among all S split
// draws.
//
// Input layout and NaN cases: see Summarize.
func ESSBulk(chains [][]float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !w.load(chains, m, n) {
		return math.NaN()
	}
	w.sortPooled()
	w.rankNormalise(w.split, w.orderX, w.sortedX)
	return w.ess(w.split, w.nc, w.rows)
}

// ESSTail returns posterior::ess_tail: the smaller of the ESS of the 5% and
// the 95% quantile (ESSQuantile).
//
// Input layout and NaN cases: see Summarize.
func ESSTail(chains [][]float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !w.load(chains, m, n) {
		return math.NaN()
	}
	w.sortPooled()
	return min(w.essQuantile(0.05), w.essQuantile(0.95))
}

// ESSBasic returns posterior::ess_basic: the ESS of the split draws without
// rank normalisation (Geyer's initial monotone sequence estimator, see ess).
// It equals ESSMean.
//
// Input layout and NaN cases: see Summarize.
func ESSBasic(chains [][]float64) float64 {
	return ESSMean(chains)
}

// ESSMean returns posterior::ess_mean, the ESS for estimating the mean: the
// ESS of the split draws.
//
// Input layout and NaN cases: see Summarize.
func ESSMean(chains [][]float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !w.load(chains, m, n) {
		return math.NaN()
	}
	w.splitRaw()
	return w.ess(w.split, w.nc, w.rows)
}

// ESSSd returns posterior::ess_sd (1.4.0): the ESS of the split absolute
// deviations from the mean, |x − x̄|.
//
// Input layout and NaN cases: see Summarize.
func ESSSd(chains [][]float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !w.load(chains, m, n) {
		return math.NaN()
	}
	mean := accurateMean(w.flat)
	w.splitTransformed(func(v float64) float64 { return math.Abs(v - mean) })
	return w.ess(w.split, w.nc, w.rows)
}

// ESSQuantile returns posterior::ess_quantile for one probability p ∈ [0, 1]:
// the ESS of the split indicator I(x ≤ q), q the type-7 p-quantile of all
// draws (for p = 1, p is replaced by (S − 0.5)/S). It is NaN for p outside
// [0, 1] (posterior stops with an error).
//
// Input layout and NaN cases: see Summarize.
func ESSQuantile(chains [][]float64, p float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !(p >= 0 && p <= 1) || !w.load(chains, m, n) {
		return math.NaN()
	}
	w.sortPooled()
	return w.essQuantile(p)
}

// MCSEMean returns posterior::mcse_mean = sd(x)/√ESSMean.
//
// Input layout and NaN cases: see Summarize.
func MCSEMean(chains [][]float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !w.load(chains, m, n) {
		return math.NaN()
	}
	w.splitRaw()
	return sampleSD(w.flat, accurateMean(w.flat)) / math.Sqrt(w.ess(w.split, w.nc, w.rows))
}

// MCSESd returns posterior::mcse_sd (≥ 1.2.2), which does not assume
// normality: with c = x − x̄, E = mean(c²) and ess the ESS of the split c²,
// Var(s²) ≈ (mean(c⁴) − E²)/ess (Kenney & Keeping 1951, p. 141) and, by a
// first-order Taylor expansion, MCSE(s) = √(Var(s²)/(4E)).
//
// Input layout and NaN cases: see Summarize.
func MCSESd(chains [][]float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !w.load(chains, m, n) {
		return math.NaN()
	}
	return w.mcseSD(accurateMean(w.flat))
}

// MCSEQuantile returns posterior::mcse_quantile for one probability p: with
// ess = ESSQuantile(p) and a = qbeta((Φ(−1), Φ(1)), ess·p + 1, ess·(1 − p) + 1),
// the half-distance between the sorted draws y[max(⌊a₁S⌋, 1)] and
// y[min(⌈a₂S⌉, S)] (1-based), i.e. a ±1σ interval of the quantile estimate
// mapped back through the empirical distribution.
//
// Input layout and NaN cases: see Summarize.
func MCSEQuantile(chains [][]float64, p float64) float64 {
	m, n := shape(chains)
	w := newWorkspace()
	if !(p >= 0 && p <= 1) || !w.load(chains, m, n) {
		return math.NaN()
	}
	w.sortPooled()
	return w.mcseQuantile(p)
}

// EBFMI returns the energy Bayesian fraction of missing information of one
// chain from its sampler energies, in Betancourt's convention (Betancourt 2016,
// "Diagnosing suboptimal cotangent disintegrations in Hamiltonian Monte Carlo",
// arXiv:1604.00695, eq. 10):
//
//	E-BFMI = Σₙ₌₂ᴺ (Eₙ − Eₙ₋₁)² / Σₙ₌₁ᴺ (Eₙ − Ē)².
//
// rstan's get_bfmi divides the numerator by N and the denominator by N − 1, so
// it reports this value times (N − 1)/N; the difference (0.1% at N = 1,000)
// does not matter against the usual threshold of 0.2 (rstan) or 0.3
// (Betancourt). NaN for fewer than 2 energies, non-finite or constant energies.
func EBFMI(energy []float64) float64 {
	if len(energy) < 2 {
		return math.NaN()
	}
	for _, e := range energy {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			return math.NaN()
		}
	}
	mean := Mean(energy)
	num, den := 0.0, 0.0
	for i, e := range energy {
		if i > 0 {
			d := e - energy[i-1]
			num += d * d
		}
		den += (e - mean) * (e - mean)
	}
	if den == 0 {
		return math.NaN()
	}
	return num / den
}

// isConstantTol is posterior's tolerance for "constant" draws: |max − min| <
// .Machine$double.eps.
const isConstantTol = 0x1p-52

// shape returns the number of chains and of iterations per chain.
func shape(chains [][]float64) (m, n int) {
	m = len(chains)
	if m == 0 {
		return 0, 0
	}
	n = len(chains[0])
	for _, c := range chains[1:] {
		if len(c) != n {
			panic("bayes: chains of different lengths")
		}
	}
	return m, n
}

// rhatOf is posterior's .rhat on a matrix of nc chains of n draws stored
// chain after chain: √((n·var(x̄ₘ)/W + n − 1)/n), W the mean chain variance
// (n − 1 denominators), with posterior's chain means (see chainMeanRange).
// NaN if any value is non-finite or all are equal (within isConstantTol).
func (w *workspace) rhatOf(v []float64, nc, n int) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	lo, hi := w.chainStats(v, nc, n)
	return w.rhatGiven(v, nc, n, lo, hi)
}

// rhatAndESS is rhatOf and ess of the same matrix, its chain means and
// extremes read once.
func (w *workspace) rhatAndESS(v []float64, nc, n int) (rhat, ess float64) {
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	lo, hi := w.chainStats(v, nc, n)
	return w.rhatGiven(v, nc, n, lo, hi), w.essGiven(v, nc, n, lo, hi)
}

// chainStats writes the means of the nc chains of n values in v into
// w.chainMeans (posterior's: matrixStats::colMeans2, chainMeanRange) and
// returns the smallest and the largest value (NaN if any is NaN).
func (w *workspace) chainStats(v []float64, nc, n int) (lo, hi float64) {
	w.chainMeans = grow(w.chainMeans, nc)
	lo, hi = math.Inf(1), math.Inf(-1)
	for j := 0; j < nc; j++ {
		mu, clo, chi := chainMeanRange(v[j*n : (j+1)*n])
		w.chainMeans[j] = mu
		lo, hi = min(lo, clo), max(hi, chi)
	}
	return lo, hi
}

// finiteVarying reports whether values whose extremes are lo and hi are
// all finite and not all equal (posterior's should_return_NA, negated).
func finiteVarying(lo, hi float64) bool {
	return lo-lo == 0 && hi-hi == 0 && math.Abs(hi-lo) >= isConstantTol
}

// rhatGiven is rhatOf with v's chain means in w.chainMeans and its
// extremes lo and hi (chainStats).
func (w *workspace) rhatGiven(v []float64, nc, n int, lo, hi float64) float64 {
	if !finiteVarying(lo, hi) {
		return math.NaN()
	}
	// posterior: colVars about the chain means
	sumVar := 0.0
	for j := 0; j < nc; j++ {
		c, mu := v[j*n:(j+1)*n], w.chainMeans[j]
		ss := 0.0
		for _, x := range c {
			ss += (x - mu) * (x - mu)
		}
		sumVar += ss / float64(n-1)
	}
	grand := accurateMean(w.chainMeans[:nc])
	vb := 0.0
	for _, mu := range w.chainMeans[:nc] {
		vb += (mu - grand) * (mu - grand)
	}
	varBetween := float64(n) * vb / float64(nc-1)
	varWithin := sumVar / float64(nc)
	return math.Sqrt((varBetween/varWithin + float64(n) - 1) / float64(n))
}

// normalQuantile is Φ⁻¹ (Wichura's AS 241, the algorithm of R's qnorm).
func normalQuantile(p float64) float64 { return mathext.NormalQuantile(p) }

// qbeta is the quantile of the Beta(a, b) distribution.
func qbeta(p, a, b float64) float64 { return mathext.InvRegIncBeta(a, b, p) }
