package posterior

import (
	"math"
	"slices"

	"github.com/riskgate/riskgate/internal/stats"
	"gonum.org/v1/gonum/dsp/fourier"
)

// defaultFFTFromLag sets when the autocovariances are computed for all
// remaining lags at once by FFT instead of one lag at a time: once the lags
// computed so far have cost as much as defaultFFTFromLag lags of a dense
// matrix (ski rental: never more than twice the cheaper choice). Geyer's
// sequence stops after a few lags for well-mixing chains, so lags on demand
// (O(N) each) beat an FFT (O(N log N) with a large constant, about 150–250
// lags' worth here); only slowly mixing chains switch. Both are exact up to
// rounding. A workspace with fftFromLag 0 computes by FFT only, as
// posterior does (the tests and BenchmarkSummarizeAll compare the two).
const defaultFFTFromLag = 150

// ess is posterior's .ess on a matrix v of nc chains of n draws stored chain
// after chain (call it on split chains). It returns S/τ̂ with S = nc·n and τ̂
// from Geyer's (1992) initial positive and initial monotone sequences of the
// multi-chain autocorrelations ρ̂(t) = 1 − (W − acov(t))/var⁺ (Vehtari et al.
// 2021, eq. 10; BDA3 §11.5), where acov(t) is the mean over chains of the
// biased autocovariance (1/n)Σᵢ(xᵢ − x̄)(xᵢ₊ₜ − x̄), W = acov(0)·n/(n − 1) and
// var⁺ = acov(0) + var(chain means). τ̂ = −1 + 2Σ_{t<T}ρ̂(t) + ρ̂(T) (the
// "improved" estimate), bounded below by 1/log₁₀S, which caps the ESS at
// S·log₁₀S. NaN for n < 3 or non-finite or constant values.
func (w *workspace) ess(v []float64, nc, n int) float64 {
	if n < 3 {
		return math.NaN()
	}
	lo, hi := w.chainStats(v, nc, n)
	return w.essGiven(v, nc, n, lo, hi)
}

// essGiven is ess with v's chain means in w.chainMeans and its extremes
// lo and hi (chainStats).
func (w *workspace) essGiven(v []float64, nc, n int, lo, hi float64) float64 {
	if n < 3 || !finiteVarying(lo, hi) {
		return math.NaN()
	}
	S := nc * n
	w.centered = grow(w.centered, S)
	for j := 0; j < nc; j++ {
		c := v[j*n : (j+1)*n]
		dst := w.centered[j*n : (j+1)*n]
		// Centre on the correctly rounded mean, as posterior's
		// autocovariance centres on R's mean (a constant chain has mean
		// and autocovariances exactly 0); the between-chain variance takes
		// matrixStats' chain means (w.chainMeans), as posterior's does.
		mu := accurateMean(c)
		for i, x := range c {
			dst[i] = x - mu
		}
	}
	w.acovInit(nc, n, centredChains, nc*n)
	return w.geyer()
}

// essIndicator is ess of the split indicator I(x ≤ q) (posterior's
// .ess_quantile), computed from the positions of the rarer of 0 and 1 in each
// split chain: with k such positions and μ = k/n, n·acov(t) = C(t) −
// μ(A(t) + B(t)) + (n − t)μ², C(t) counting the pairs at lag t, A(t) and B(t)
// the positions below n − t and from t on. Swapping 0 and 1 negates the
// centred values and leaves every autocovariance unchanged, so a lag costs
// O(min(k, n − k)) instead of O(n).
func (w *workspace) essIndicator(q float64) float64 {
	nc, n := w.nc, w.rows
	if n < 3 {
		return math.NaN()
	}
	S := nc * n
	w.ind = grow(w.ind, S)
	ones := 0
	for k, pos := range w.posMap {
		if pos >= 0 {
			if w.flat[k] <= q {
				w.ind[pos] = 1
				ones++
			} else {
				w.ind[pos] = 0
			}
		}
	}
	if ones == 0 || ones == S {
		return math.NaN() // constant
	}
	rare := uint8(1)
	if 2*ones > S {
		rare = 0
	}
	w.chainMeans = grow(w.chainMeans, nc)
	w.rareStart = grow(w.rareStart, nc+1)
	w.rarePos = w.rarePos[:0]
	for j := 0; j < nc; j++ {
		w.rareStart[j] = int32(len(w.rarePos))
		k := 0
		for i, b := range w.ind[j*n : (j+1)*n] {
			k += int(b)
			if b == rare {
				w.rarePos = append(w.rarePos, int32(i))
			}
		}
		w.chainMeans[j] = float64(k) / float64(n)
	}
	w.rareStart[nc] = int32(len(w.rarePos))
	w.rare = rare
	w.acovInit(nc, n, rareIndicator, len(w.rarePos)+nc)
	return w.geyer()
}

// geyer turns the autocovariances acovMean provides and the chain means into
// the ESS (see ess).
func (w *workspace) geyer() float64 {
	nc, n := w.acovNC, w.acovN
	S := nc * n
	acov0 := w.acovMean(0)
	meanVar := acov0 * float64(n) / float64(n-1)
	varPlus := meanVar * float64(n-1) / float64(n)
	if nc > 1 {
		grand := accurateMean(w.chainMeans[:nc])
		ss := 0.0
		for _, mu := range w.chainMeans[:nc] {
			ss += (mu - grand) * (mu - grand)
		}
		varPlus += ss / float64(nc-1)
	}
	rhoHat := func(t int) float64 { return 1 - (meanVar-w.acovMean(t))/varPlus }

	// Geyer's initial positive sequence (0-based lags; posterior's rho_hat_t).
	rho := grow(w.rho, n)
	w.rho = rho
	clear(rho)
	t := 0
	even, odd := 1.0, rhoHat(1)
	rho[0], rho[1] = even, odd
	for t < n-5 && !math.IsNaN(even+odd) && even+odd > 0 {
		t += 2
		even, odd = rhoHat(t), rhoHat(t+1)
		if even+odd >= 0 {
			rho[t], rho[t+1] = even, odd
		}
	}
	maxT := t
	if even > 0 {
		rho[maxT] = even // used by the improved estimate
	}
	// Geyer's initial monotone sequence.
	for t = 0; t <= maxT-4; {
		t += 2
		if rho[t]+rho[t+1] > rho[t-2]+rho[t-1] {
			rho[t] = (rho[t-2] + rho[t-1]) / 2
			rho[t+1] = rho[t]
		}
	}
	sum := rho[0] // R's sum(rho_hat_t[1:max_t]) is rho_hat_t[1] when max_t = 0
	for l := 1; l < maxT; l++ {
		sum += rho[l]
	}
	tau := -1 + 2*sum + rho[maxT]
	if bound := 1 / math.Log10(float64(S)); tau < bound {
		tau = bound // posterior warns "The ESS has been capped"
	}
	return float64(S) / tau
}

// acovSource is where acovMean reads the split chains' centred values.
type acovSource int

const (
	centredChains acovSource = iota // w.centered
	rareIndicator                   // the indicator w.ind, through the rare value's positions w.rarePos
)

// acovInit prepares acovMean for nc chains of n values read from src.
// lagWork is the cost of one lag in values touched.
func (w *workspace) acovInit(nc, n int, src acovSource, lagWork int) {
	w.acovNC, w.acovN = nc, n
	w.acov = grow(w.acov, n)
	w.acovDone = 0
	w.acovSrc = src
	w.acovFFTAt = n
	if lagWork > 0 {
		w.acovFFTAt = min(n, w.fftFromLag*nc*n/lagWork)
	}
}

// acovMean returns the mean over chains of the biased lag-t autocovariance,
// computing lags on demand: one at a time directly, or all that remain by FFT
// once the lags so far have cost as much as an FFT (see defaultFFTFromLag).
func (w *workspace) acovMean(t int) float64 {
	if t < w.acovDone {
		return w.acov[t]
	}
	if t >= w.acovFFTAt {
		w.acovFFT()
		return w.acov[t]
	}
	nc, n := w.acovNC, w.acovN
	for l := w.acovDone; l <= t; l++ {
		s := 0.0
		for j := 0; j < nc; j++ {
			if w.acovSrc == rareIndicator {
				s += w.indicatorLag(j, l) / float64(n)
			} else {
				s += dotLag(w.centered[j*n:(j+1)*n], l) / float64(n)
			}
		}
		w.acov[l] = s / float64(nc)
	}
	w.acovDone = t + 1
	return w.acov[t]
}

// indicatorLag returns Σᵢ cᵢcᵢ₊ₗ for split chain j's centred indicator.
func (w *workspace) indicatorLag(j, l int) float64 {
	n := w.acovN
	pos := w.rarePos[w.rareStart[j]:w.rareStart[j+1]]
	k := len(pos)
	ind := w.ind[j*n : (j+1)*n]
	pairs, below := 0, 0 // pairs at lag l; positions below n − l
	for _, a := range pos {
		if int(a)+l >= n {
			break
		}
		below++
		if ind[int(a)+l] == w.rare {
			pairs++
		}
	}
	from, _ := slices.BinarySearch(pos, int32(l)) // positions below l
	mu := float64(k) / float64(n)
	return float64(pairs) - mu*float64(below+k-from) + float64(n-l)*mu*mu
}

// fillCentredIndicator writes the centred rare-value indicator into
// w.centered, for the FFT.
func (w *workspace) fillCentredIndicator() {
	nc, n := w.acovNC, w.acovN
	w.centered = grow(w.centered, nc*n)
	for j := 0; j < nc; j++ {
		mu := float64(w.rareStart[j+1]-w.rareStart[j]) / float64(n)
		for i, b := range w.ind[j*n : (j+1)*n] {
			if b == w.rare {
				w.centered[j*n+i] = 1 - mu
			} else {
				w.centered[j*n+i] = -mu
			}
		}
	}
}

// dotLag returns Σᵢ c[i]·c[i+lag].
func dotLag(c []float64, lag int) float64 { return stats.Dot4(c[:len(c)-lag], c[lag:]) }

// acovFFT fills w.acov from lag w.acovDone on with autocovariances computed by
// FFT of each zero-padded centred chain (padded to twice the next 2·3·5-smooth
// length, as posterior does with nextn): acov = IFFT(|FFT(c)|²)/(L·n).
func (w *workspace) acovFFT() {
	nc, n := w.acovNC, w.acovN
	if w.acovSrc == rareIndicator {
		w.fillCentredIndicator()
	}
	L := 2 * nextSmooth(n)
	if w.fft == nil || w.fft.Len() != L {
		w.fft = fourier.NewFFT(L)
		w.fftIn = make([]float64, L)
		w.fftOut = make([]float64, L)
		w.fftCoef = make([]complex128, L/2+1)
	}
	from := w.acovDone
	for l := from; l < n; l++ {
		w.acov[l] = 0
	}
	for j := 0; j < nc; j++ {
		copy(w.fftIn, w.centered[j*n:(j+1)*n])
		clear(w.fftIn[n:])
		coef := w.fft.Coefficients(w.fftCoef, w.fftIn)
		for i, c := range coef {
			coef[i] = complex(real(c)*real(c)+imag(c)*imag(c), 0)
		}
		seq := w.fft.Sequence(w.fftOut, coef)
		scale := 1 / (float64(L) * float64(n))
		for l := from; l < n; l++ {
			w.acov[l] += seq[l] * scale
		}
	}
	for l := from; l < n; l++ {
		w.acov[l] /= float64(nc)
	}
	w.acovDone = n
}

// nextSmooth returns the smallest integer ≥ n whose only prime factors are 2,
// 3 and 5 (R's nextn).
func nextSmooth(n int) int {
	for ; ; n++ {
		m := n
		for _, p := range []int{2, 3, 5} {
			for m%p == 0 {
				m /= p
			}
		}
		if m == 1 {
			return n
		}
	}
}

// accurateMean is the mean correctly rounded from the exact sum
// (stats.ExactMean), as R's mean, a long-double sum with a correction pass,
// practically always gives: for draws like 1 ± 1e-12 a left-to-right sum is
// off by ulps that are 1e-4 of their spread, and so is every deviation
// from it.
func accurateMean(c []float64) float64 { return stats.ExactMean(c) }

// chainMeanRange is matrixStats::colMeans2, which posterior 1.4 uses for the
// chain means of R̂ and of the ESS's between-chain variance: a left-to-right
// sum divided by n. For draws far from 0 against their spread (1e6 ± 1) its
// rounding moves R̂ in the tenth digit, and posterior's values are those.
// The one exception: a constant chain's mean is its value, where the sum's
// rounding would give it a spurious variance about that mean (and chains
// each constant at different values an R̂ near 1e15 instead of +Inf). It
// returns the chain's smallest and largest values too, read in the same
// pass (NaN for both if any value is NaN).
func chainMeanRange(c []float64) (mean, lo, hi float64) {
	s := 0.0
	lo, hi = c[0], c[0]
	for _, x := range c {
		s += x
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo == hi {
		return lo, lo, hi
	}
	return s / float64(len(c)), lo, hi
}

// sampleSD is the standard deviation with denominator n − 1 about the given
// mean (R's sd); NaN for fewer than two values.
func sampleSD(x []float64, mean float64) float64 {
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss / float64(len(x)-1))
}

// grow returns s resliced to length n, reallocating when its capacity is short.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
