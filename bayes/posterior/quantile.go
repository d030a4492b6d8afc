package posterior

import (
	"math"
	"slices"

	"github.com/riskgate/riskgate/internal/stats"
)

// Quantile returns the p-quantile of x by R's default definition (type 7),
// computed as R's quantile computes it: with y the sorted sample, index =
// 1 + (n−1)p (1-based), lo = ⌊index⌋ and h = index − lo,
// Q = (1 − h)·y[lo] + h·y[lo+1] when h > 0 and y[lo+1] ≠ y[lo], else y[lo]
// (Hyndman & Fan 1996, "Sample quantiles in statistical packages"; R 4.2
// stats/R/quantile.R). The form matters to the last bit, which ess_tail
// and mcse_quantile feel through the indicator x ≤ Q. x need not be sorted;
// NaN is returned for an empty sample.
func Quantile(x []float64, p float64) float64 {
	if len(x) == 0 || math.IsNaN(p) {
		return math.NaN()
	}
	y := slices.Clone(x)
	slices.Sort(y)
	return QuantileSorted(y, p)
}

// QuantileSorted is Quantile for an already sorted sample.
func QuantileSorted(y []float64, p float64) float64 {
	n := len(y)
	if n == 0 {
		return math.NaN()
	}
	lo, h := type7(n, p)
	switch {
	case lo < 0:
		return y[0]
	case lo >= n-1:
		return y[n-1]
	}
	return interpolate7(y[lo], y[lo+1], h)
}

// type7 returns R's type-7 position of the p-quantile of n values: the
// 0-based index lo of the order statistic below it and the weight h of the
// one above, from R's 1-based index 1 + (n−1)p (whose fraction can differ
// from that of (n−1)p in the last bit).
func type7(n int, p float64) (lo int, h float64) {
	index := 1 + float64(n-1)*p
	l := math.Floor(index)
	return int(l) - 1, index - l
}

// interpolate7 is R's (1 − h)·a + h·b, or a when h = 0 or b = a.
func interpolate7(a, b, h float64) float64 {
	if h == 0 || a == b {
		return a
	}
	return (1-h)*a + h*b
}

// Quantiles returns the type-7 quantiles of x at ps (see Quantile) without
// changing x: the same bits as Quantile at each p, by selection.
func Quantiles(x []float64, ps ...float64) []float64 {
	return QuantilesInPlace(slices.Clone(x), ps...)
}

// QuantilesInPlace is Quantiles by selection, reordering x: O(n) per
// quantile rather than a sort's O(n log n). NaN if x is empty or holds NaN.
func QuantilesInPlace(x []float64, ps ...float64) []float64 {
	out := make([]float64, len(ps))
	n := len(x)
	if n == 0 || slices.ContainsFunc(x, math.IsNaN) {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	order := make([]int, len(ps))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case ps[a] < ps[b]:
			return -1
		case ps[a] > ps[b]:
			return 1
		}
		return 0
	})
	if tailQuantiles(x, ps, order, out) {
		return out
	}
	from := 0 // x[:from] holds the from smallest values, in place
	for _, i := range order {
		p := ps[i]
		if math.IsNaN(p) {
			out[i] = math.NaN()
			continue
		}
		lo, h := type7(n, p)
		switch {
		case lo < 0:
			out[i] = minOf(x)
			continue
		case lo >= n-1:
			out[i] = maxOf(x)
			continue
		}
		if lo >= from {
			stats.SelectRanks(x[from:], []int{lo - from})
			from = lo
		}
		a := x[lo]
		b := minOf(x[lo+1:])
		out[i] = interpolate7(a, b, h)
	}
	return out
}

func minOf(x []float64) float64 {
	m := x[0]
	for _, v := range x[1:] {
		m = min(m, v)
	}
	return m
}

func maxOf(x []float64) float64 {
	m := x[0]
	for _, v := range x[1:] {
		m = max(m, v)
	}
	return m
}

// tailSample is the stride of the sample tailQuantiles takes its
// thresholds from, and tailMinN the fewest values it handles.
const (
	tailSample = 32
	tailMinN   = 64 * tailSample
)

// tailQuantiles writes into out the type-7 quantiles at ps (visited in
// order, by increasing p) when every order statistic they need lies
// among the n/8 smallest or the n/8 largest of the n ≥ tailMinN values of
// x (a central interval's ends), and reports whether it did. It takes
// the order statistics from the values beyond two thresholds read off a
// strided sample of x (set so that, for draws in any order, at least as
// many values as needed lie beyond them but few more), gathered in one
// pass whose comparisons are almost all false, then selected among those
// few: about a quarter of QuantilesInPlace's work for those quantiles
// (BenchmarkQuantilesInPlaceTails). The order statistics are exact, so the
// quantiles are QuantilesInPlace's bits; when a threshold falls short of
// the values needed (data in some adversarial order) it reports false and
// the caller selects as usual. x is left unchanged.
func tailQuantiles(x []float64, ps []float64, order []int, out []float64) bool {
	n := len(x)
	if n < tailMinN {
		return false
	}
	// The ranks (0-based) each quantile reads: lo and lo + 1, or the
	// extremes.
	tail := n / 8
	var low, high []int
	need := func(r int) bool {
		switch {
		case r < tail:
			if !slices.Contains(low, r) {
				low = append(low, r)
			}
		case r >= n-tail:
			if !slices.Contains(high, r) {
				high = append(high, r)
			}
		default:
			return false
		}
		return true
	}
	for _, i := range order {
		if math.IsNaN(ps[i]) {
			continue
		}
		lo, _ := type7(n, ps[i])
		lo = min(max(lo, 0), n-2)
		if !need(lo) || !need(lo+1) {
			return false
		}
	}
	slices.Sort(low)
	slices.Sort(high)
	// Thresholds: the sample's order statistics below which about the
	// values needed, plus three standard deviations and a margin, lie.
	sample := make([]float64, 0, n/tailSample)
	for i := tailSample / 2; i < n; i += tailSample {
		sample = append(sample, x[i])
	}
	slices.Sort(sample)
	m := len(sample)
	at := func(count int) int {
		k := float64(count) / tailSample
		return int(k + 3*math.Sqrt(k) + 3)
	}
	tLo, tHi := math.NaN(), math.NaN() // v <= NaN and v >= NaN are false
	var below, above []float64
	if len(low) > 0 {
		k := min(at(low[len(low)-1]+1), m-1)
		tLo, below = sample[k], make([]float64, 0, 2*(k+1)*tailSample)
	}
	if len(high) > 0 {
		k := min(at(n-high[0]), m-1)
		tHi, above = sample[m-1-k], make([]float64, 0, 2*(k+1)*tailSample)
	}
	if tLo >= tHi {
		return false
	}
	for _, v := range x {
		if v <= tLo {
			below = append(below, v)
		} else if v >= tHi {
			above = append(above, v)
		}
	}
	// below holds the len(below) smallest values of x, above the
	// len(above) largest.
	if len(low) > 0 && len(below) <= low[len(low)-1] || len(high) > 0 && n-len(above) > high[0] {
		return false
	}
	stats.SelectRanks(below, low)
	shift := n - len(above)
	for i := range high {
		high[i] -= shift
	}
	stats.SelectRanks(above, high)
	y := func(r int) float64 {
		if r < tail {
			return below[r]
		}
		return above[r-shift]
	}
	for _, i := range order {
		p := ps[i]
		lo, h := type7(n, p)
		switch {
		case math.IsNaN(p):
			out[i] = math.NaN()
		case lo < 0:
			out[i] = y(0)
		case lo >= n-1:
			out[i] = y(n - 1)
		default:
			out[i] = interpolate7(y(lo), y(lo+1), h)
		}
	}
	return true
}
