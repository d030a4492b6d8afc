package risk

import (
	"math"
	"slices"
)

// WilcoxonMethod chooses how the Wilcoxon signed-rank p-value is computed.
type WilcoxonMethod int

const (
	// WilcoxonAuto is R's default (exact = NULL): the exact distribution when
	// fewer than 50 non-zero differences remain and none are tied, else the
	// normal approximation.
	WilcoxonAuto WilcoxonMethod = iota
	// WilcoxonNormal always uses the normal approximation (R's exact = FALSE).
	WilcoxonNormal
)

// Wilcoxon is the Wilcoxon signed-rank test of X against Base.
type Wilcoxon struct {
	V float64 // sum of the ranks of |d_i| over the positive d_i (R's V)
	P float64 // two-sided p-value
	// PGreater and PLess are the one-sided p-values of H1: X's differences
	// lie above (below) 0, R's wilcox.test(…, alternative = "greater" /
	// "less"): P(V' ≥ V) and P(V' ≤ V) exactly, or 1 − Φ(z₋) and Φ(z₊) with
	// the continuity correction ∓½ in the normal approximation.
	PGreater, PLess float64
	N               int  // non-zero differences used
	Zeros           int  // zero differences dropped
	Ties            bool // some |d_i| are tied (average ranks were used)
	Exact           bool // P is from the exact null distribution
	Warnings        []string
}

// Wilcoxon is R's wilcox.test(x, base, paired = TRUE, correct = TRUE) with
// exact = NULL (WilcoxonAuto) or exact = FALSE (WilcoxonNormal). Zero
// differences are dropped; the n remaining |d_i| are ranked with average
// ranks for ties; V = Σ_{d_i > 0} rank_i.
//
// Exact (n < 50, no ties, no zeros, and method Auto): p = min(1, 2·P(V' ≤ V))
// if V ≤ n(n+1)/4, else min(1, 2·P(V' ≥ V)), V' with the signed-rank
// distribution (R's psignrank; see PSignRank).
//
// Normal approximation with continuity and tie corrections:
//
//	z = (V − n(n+1)/4 − sign(·)·½) / √(n(n+1)(2n+1)/24 − Σ_ties (t³ − t)/48),
//	p = 2·min(Φ(z), 1 − Φ(z)).
//
// With every difference zero, V = 0 and P is NaN (R's NaN), with a warning.
func (p Pair) Wilcoxon(method WilcoxonMethod) (Wilcoxon, error) {
	if err := p.check(); err != nil {
		return Wilcoxon{}, err
	}
	var d []float64
	r := Wilcoxon{}
	for _, v := range p.Deltas() {
		if v == 0 {
			r.Zeros++
			continue
		}
		d = append(d, v)
	}
	n := len(d)
	r.N = n
	ranks, tieSizes := averageRanks(d)
	r.Ties = len(tieSizes) > 0
	for i, v := range d {
		if v > 0 {
			r.V += ranks[i]
		}
	}
	fn := float64(n)
	if method == WilcoxonAuto && n < 50 && !r.Ties && r.Zeros == 0 {
		r.Exact = true
		r.PGreater, r.PLess = signRankUpper(r.V, n), PSignRank(r.V, n)
		r.P = math.Min(1, 2*math.Min(r.PGreater, r.PLess))
		return r, nil
	}
	z := r.V - fn*(fn+1)/4
	tieTerm := 0.0
	for _, t := range tieSizes {
		tt := float64(t)
		tieTerm += tt*tt*tt - tt
	}
	sigma := math.Sqrt(fn*(fn+1)*(2*fn+1)/24 - tieTerm/48)
	correction := 0.0
	switch {
	case z > 0:
		correction = 0.5
	case z < 0:
		correction = -0.5
	}
	r.PGreater = normalCDF(-(z - 0.5) / sigma)
	r.PLess = normalCDF((z + 0.5) / sigma)
	z = (z - correction) / sigma
	r.P = 2 * math.Min(normalCDF(z), normalCDF(-z))
	if n == 0 {
		r.Warnings = append(r.Warnings, "every difference is zero: the Wilcoxon test is undefined")
	}
	return r, nil
}

// averageRanks returns the ranks of |d_i| (1-based, ties given the average
// rank, as R's rank) and the sizes of the tie groups larger than one.
func averageRanks(d []float64) (ranks []float64, ties []int) {
	n := len(d)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		x, y := math.Abs(d[a]), math.Abs(d[b])
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	ranks = make([]float64, n)
	for i := 0; i < n; {
		j := i
		for j+1 < n && math.Abs(d[idx[j+1]]) == math.Abs(d[idx[i]]) {
			j++
		}
		avg := float64(i+j+2) / 2 // ranks i+1 … j+1
		for k := i; k <= j; k++ {
			ranks[idx[k]] = avg
		}
		if j > i {
			ties = append(ties, j-i+1)
		}
		i = j + 1
	}
	return ranks, ties
}

// signRankCounts returns c[k] = the number of subsets of {1, …, n} whose sum
// is k, for k = 0 … n(n+1)/2: the null distribution of V times 2ⁿ (exact in
// float64 while 2ⁿ < 2⁵³).
func signRankCounts(n int) []float64 {
	u := n * (n + 1) / 2
	c := make([]float64, u+1)
	c[0] = 1
	top := 0
	for j := 1; j <= n; j++ {
		top += j
		for k := top; k >= j; k-- {
			c[k] += c[k-j]
		}
	}
	return c
}

// PSignRank is P(V ≤ v) for the Wilcoxon signed-rank statistic of n
// untied, non-zero differences under the null hypothesis, R's psignrank(v, n):
// V is the sum of a uniformly random subset of {1, …, n}. It sums the
// shorter tail, as R does, so that both tails keep their precision. v is
// rounded down to an integer (after adding R's 1e-7 fuzz). n must be below
// 1024 (the counts are exact while n < 53).
func PSignRank(v float64, n int) float64 {
	x := math.Floor(v + 1e-7)
	u := float64(n * (n + 1) / 2)
	switch {
	case x < 0:
		return 0
	case x >= u:
		return 1
	}
	c := signRankCounts(n)
	f := math.Exp(-float64(n) * math.Ln2)
	p := 0.0
	if x <= u/2 {
		for k := 0; k <= int(x); k++ {
			p += c[k] * f
		}
		return p
	}
	// P(V ≤ x) = 1 − P(V ≥ x+1) = 1 − P(V ≤ u − x − 1) by symmetry.
	for k := 0; k < int(u-x); k++ {
		p += c[k] * f
	}
	return 1 - p
}

// signRankUpper is P(V ≥ v) = P(V ≤ u − v) by symmetry, summed directly.
func signRankUpper(v float64, n int) float64 {
	u := float64(n * (n + 1) / 2)
	return PSignRank(u-v, n)
}
