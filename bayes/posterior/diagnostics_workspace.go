package posterior

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/dsp/fourier"
)

// workspace holds one variable's draws in the layouts the diagnostics need and
// the scratch buffers they share, so that Summarize sorts the draws once and
// SummarizeAll allocates once per worker. It is not safe for concurrent use.
type workspace struct {
	m, n     int // chains, iterations per chain
	rows, nc int // the split matrix: nc chains of rows draws

	flat   []float64 // the S = m·n draws, chain after chain
	posMap []int32   // flat index → position in the split matrix, −1 if dropped

	sorted  bool
	sortedX []float64 // flat, sorted
	orderX  []int32   // flat index of sortedX[i]
	median  float64
	folded  bool
	sortedF []float64 // |x − median|, sorted
	orderF  []int32
	radix   radixBuf

	split []float64 // a split matrix: nc chains of h values, chain after chain

	zS   int       // number of split draws the z table is for
	zTab []float64 // zTab[2r] = Φ⁻¹((r − 3/8)/(zS + 1/4)) for ranks r in steps of ½; NaN = not yet computed

	// ess scratch
	centered     []float64
	chainMeans   []float64
	acov         []float64
	acovDone     int
	acovNC       int
	acovN        int
	acovFFTAt    int // lag from which acovMean uses the FFT
	acovSrc      acovSource
	ind          []uint8 // split indicator I(x ≤ q)
	rare         uint8   // the rarer value of ind
	rarePos      []int32 // positions of rare in each split chain, chain after chain
	rareStart    []int32 // chain j's positions are rarePos[rareStart[j]:rareStart[j+1]]
	rho          []float64
	fft          *fourier.FFT
	fftIn        []float64
	fftOut       []float64
	fftCoef      []complex128
	layoutM      int // shape posMap was built for
	layoutN      int
	layoutIsInit bool
	fftFromLag   int // see defaultFFTFromLag
}

func newWorkspace() *workspace { return &workspace{fftFromLag: defaultFFTFromLag} }

// load copies the draws into w and reports whether they are all finite (and
// there is at least one).
func (w *workspace) load(chains [][]float64, m, n int) bool {
	w.m, w.n = m, n
	w.sorted, w.folded = false, false
	if m == 0 || n == 0 {
		return false
	}
	switch {
	case n == 1: // posterior does not split a single iteration
		w.rows, w.nc = 1, m
	case n <= 3: // see buildLayout
		w.rows, w.nc = m, 2
	default:
		w.rows, w.nc = n/2, 2*m
	}
	S := m * n
	w.flat = grow(w.flat, S)
	for j, c := range chains {
		copy(w.flat[j*n:(j+1)*n], c)
	}
	for _, x := range w.flat {
		if x-x != 0 {
			return false
		}
	}
	w.buildLayout()
	w.split = grow(w.split, w.nc*w.rows)
	return true
}

// buildLayout maps each draw to its place among the split chains: chain j's
// first ⌊N/2⌋ draws become split chain j, its last ⌊N/2⌋ split chain m + j
// (posterior's .split_chains column order); the middle draw of an odd N is
// dropped. posterior does not split N = 1, and for N = 2 or 3 R's dropping of
// dimensions makes .split_chains return the transpose: 2 "chains" (first and
// last draws) of M "iterations"; both quirks are reproduced.
func (w *workspace) buildLayout() {
	m, n := w.m, w.n
	h := n / 2
	if w.layoutIsInit && w.layoutM == m && w.layoutN == n {
		return
	}
	w.posMap = grow(w.posMap, m*n)
	for j := 0; j < m; j++ {
		for i := 0; i < n; i++ {
			p := int32(-1)
			switch {
			case n == 1:
				p = int32(j)
			case n <= 3:
				if i == 0 {
					p = int32(j)
				} else if i == n-1 {
					p = int32(m + j)
				}
			case i < h:
				p = int32(j*h + i)
			case i >= n-h:
				p = int32((m+j)*h + i - (n - h))
			}
			w.posMap[j*n+i] = p
		}
	}
	w.layoutM, w.layoutN, w.layoutIsInit = m, n, true
}

// splitRaw writes the split draws into w.split.
func (w *workspace) splitRaw() {
	for k, p := range w.posMap {
		if p >= 0 {
			w.split[p] = w.flat[k]
		}
	}
}

// splitTransformed writes f of the split draws into w.split.
func (w *workspace) splitTransformed(f func(float64) float64) {
	for k, p := range w.posMap {
		if p >= 0 {
			w.split[p] = f(w.flat[k])
		}
	}
}

// sortPooled sorts all draws, remembering where each came from.
func (w *workspace) sortPooled() {
	if w.sorted {
		return
	}
	S := len(w.flat)
	w.sortedX = grow(w.sortedX, S)
	w.orderX = grow(w.orderX, S)
	sortWithIndex(w.flat, w.sortedX, w.orderX, &w.radix)
	w.median = medianSorted(w.sortedX)
	w.sorted = true
}

// medianSorted is R's median of sorted values: the middle one, or the mean of
// the middle two.
func medianSorted(y []float64) float64 {
	n := len(y)
	if n%2 == 1 {
		return y[n/2]
	}
	return (y[n/2-1] + y[n/2]) / 2
}

// fold sorts the folded draws |x − median(x)| by merging the two halves of the
// sorted draws, which are already ordered by distance from the median.
func (w *workspace) fold() {
	if w.folded {
		return
	}
	w.sortPooled()
	S := len(w.sortedX)
	w.sortedF = grow(w.sortedF, S)
	w.orderF = grow(w.orderF, S)
	med := w.median
	r, _ := slices.BinarySearch(w.sortedX, med) // first draw ≥ median
	l := r - 1
	for i := 0; i < S; i++ {
		var takeLeft bool
		switch {
		case l < 0:
			takeLeft = false
		case r >= S:
			takeLeft = true
		default:
			takeLeft = math.Abs(w.sortedX[l]-med) <= math.Abs(w.sortedX[r]-med)
		}
		if takeLeft {
			w.sortedF[i], w.orderF[i] = math.Abs(w.sortedX[l]-med), w.orderX[l]
			l--
		} else {
			w.sortedF[i], w.orderF[i] = math.Abs(w.sortedX[r]-med), w.orderX[r]
			r++
		}
	}
	w.folded = true
}

// rankNormalise writes into dst, at each draw's split position, posterior's
// z_scale of the split values: z = Φ⁻¹((r − 3/8)/(S' + 1/4)), r the average
// rank (ties.method = "average") among the S' split values. sorted and order
// are the values in increasing order and their flat indices.
func (w *workspace) rankNormalise(dst []float64, order []int32, sorted []float64) {
	sPrime := w.nc * w.rows
	if w.zS != sPrime {
		w.zS = sPrime
		w.zTab = grow(w.zTab, 2*sPrime+1)
		for i := range w.zTab {
			w.zTab[i] = math.NaN()
		}
	}
	rank := 0 // ranks given so far
	for i := 0; i < len(sorted); {
		j := i + 1
		for j < len(sorted) && sorted[j] == sorted[i] {
			j++
		}
		kept := 0
		for _, k := range order[i:j] {
			if w.posMap[k] >= 0 {
				kept++
			}
		}
		if kept > 0 {
			twice := 2*rank + kept + 1 // first + last rank of the tie group
			z := w.zTab[twice]
			if math.IsNaN(z) {
				z = normalQuantile((float64(twice)/2 - 3.0/8) / (float64(sPrime) + 0.25))
				w.zTab[twice] = z
			}
			for _, k := range order[i:j] {
				if p := w.posMap[k]; p >= 0 {
					dst[p] = z
				}
			}
			rank += kept
		}
		i = j
	}
}

// rhatBulk is the rank-normalised split-R̂ of the draws.
func (w *workspace) rhatBulk() float64 {
	w.sortPooled()
	w.rankNormalise(w.split, w.orderX, w.sortedX)
	return w.rhatOf(w.split, w.nc, w.rows)
}

// rhatTail is the rank-normalised split-R̂ of the folded draws.
func (w *workspace) rhatTail() float64 {
	w.fold()
	w.rankNormalise(w.split, w.orderF, w.sortedF)
	return w.rhatOf(w.split, w.nc, w.rows)
}

// essQuantile is posterior's .ess_quantile: the ESS of the split indicator
// I(x ≤ q), q the type-7 p-quantile of all draws (p = 1 becomes (S − ½)/S).
func (w *workspace) essQuantile(p float64) float64 {
	w.sortPooled()
	S := len(w.flat)
	if p == 1 {
		p = (float64(S) - 0.5) / float64(S)
	}
	return w.essIndicator(QuantileSorted(w.sortedX, p))
}

// Φ(−1) and Φ(1) as posterior writes them.
const (
	pMinus1Sigma = 0.1586553
	pPlus1Sigma  = 0.8413447
)

// mcseQuantile is posterior's .mcse_quantile (see MCSEQuantile).
func (w *workspace) mcseQuantile(p float64) float64 {
	ess := w.essQuantile(p)
	if math.IsNaN(ess) {
		return math.NaN()
	}
	a, b := ess*p+1, ess*(1-p)+1
	a1, a2 := qbeta(pMinus1Sigma, a, b), qbeta(pPlus1Sigma, a, b)
	S := len(w.sortedX)
	i1 := max(int(math.Floor(a1*float64(S))), 1)
	i2 := max(min(int(math.Ceil(a2*float64(S))), S), 1)
	return (w.sortedX[i2-1] - w.sortedX[i1-1]) / 2
}

// mcseSD is posterior's mcse_sd given the mean of the draws (see MCSESd).
func (w *workspace) mcseSD(mean float64) float64 {
	var e2, e4 float64
	for _, x := range w.flat {
		c2 := (x - mean) * (x - mean)
		e2 += c2
		e4 += c2 * c2
	}
	S := float64(len(w.flat))
	e2 /= S
	e4 /= S
	w.splitTransformed(func(x float64) float64 { return (x - mean) * (x - mean) })
	ess := w.ess(w.split, w.nc, w.rows)
	varVar := (e4 - e2*e2) / ess
	return math.Sqrt(varVar / e2 / 4)
}
