package risk

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// The distribution functions the tests need, written against gonum's special
// functions so that tail probabilities keep their relative precision (a
// survival function computed as 1 − CDF would not).

// normalCDF is Φ(x).
func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// normalQuantile is Φ⁻¹(p) (Wichura's AS 241, as R's qnorm); ±Inf at 0 and 1.
func normalQuantile(p float64) float64 {
	switch {
	case math.IsNaN(p) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	}
	return mathext.NormalQuantile(p)
}

// tTwoSided is 2·P(T_df > |t|), R's 2*pt(-abs(t), df): I_{df/(df+t²)}(df/2, ½),
// or 1 − I_{t²/(df+t²)}(½, df/2) when that subtrahend is at most ½. The
// second keeps the digits of a p-value near 1: for a tiny t, df/(df + t²)
// rounds to 1, where t²/(df + t²) is exact to the last bit (R's pt takes
// the same complement, with an upper-tail incomplete beta function).
func tTwoSided(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df):
		return math.NaN()
	case math.IsInf(t, 0):
		return 0
	}
	t2 := t * t
	if y := t2 / (df + t2); y < 0.5 {
		if q := mathext.RegIncBeta(0.5, df/2, y); q <= 0.5 {
			return 1 - q
		}
	}
	return mathext.RegIncBeta(df/2, 0.5, df/(df+t2))
}

// tGreater is P(T_df > t), R's pt(t, df, lower.tail = FALSE). For t > 0 it
// is half the two-sided tail I_{df/(df+t²)}(df/2, 1/2), computed directly:
// 1 − CDF would cancel the digits of a small p-value.
func tGreater(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df):
		return math.NaN()
	case t == 0:
		return 0.5
	case math.IsInf(t, 1):
		return 0
	case math.IsInf(t, -1):
		return 1
	}
	half := 0.5 * tTwoSided(t, df)
	if t > 0 {
		return half
	}
	return 1 - half
}

// tQuantile is the p quantile of Student's t with df degrees of freedom (R's qt).
func tQuantile(p, df float64) float64 {
	switch {
	case math.IsNaN(p) || p < 0 || p > 1:
		return math.NaN()
	case p == 0.5:
		return 0
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	}
	// P(|T| > y) = I_{df/(df+y²)}(df/2, 1/2).
	tail := 2 * math.Min(p, 1-p)
	x := mathext.InvRegIncBeta(df/2, 0.5, tail)
	y := math.Sqrt(df * (1 - x) / x)
	if p < 0.5 {
		return -y
	}
	return y
}

// fSurvival is P(F_{d1,d2} > f), R's pf(f, d1, d2, lower.tail = FALSE):
// I_{d2/(d2+d1·f)}(d2/2, d1/2), or 1 − P(F ≤ f) = 1 − I_{d1·f/(d2+d1·f)}(d1/2, d2/2)
// when P(F ≤ f) is at most ½, which keeps the digits of a p-value near 1
// (see tTwoSided).
func fSurvival(f, d1, d2 float64) float64 {
	switch {
	case math.IsNaN(f):
		return math.NaN()
	case f <= 0:
		return 1
	case math.IsInf(f, 1):
		return 0
	}
	if y := d1 * f / (d2 + d1*f); y < 0.5 {
		if q := mathext.RegIncBeta(d1/2, d2/2, y); q <= 0.5 {
			return 1 - q
		}
	}
	return mathext.RegIncBeta(d2/2, d1/2, d2/(d2+d1*f))
}

// signTwoSided is the two-sided p-value of k successes out of n with success
// probability ½, as R's binom.test(k, n): by symmetry min(1, 2·P(X ≤ min(k, n − k))),
// with P(X ≤ j) = I_½(n − j, j + 1), the regularised incomplete beta
// function (constant time, where summing the terms would take O(j)). It is
// 1 when 2k = n, and for n = 0.
// binomHalfAtMost is P(B ≤ j) for B ~ Binomial(n, ½): I_½(n − j, j + 1), the
// regularised incomplete beta function (1 for j ≥ n, 0 for j < 0).
func binomHalfAtMost(j, n int) float64 {
	switch {
	case j < 0:
		return 0
	case j >= n:
		return 1
	}
	return mathext.RegIncBeta(float64(n-j), float64(j+1), 0.5)
}

func signTwoSided(k, n int) float64 {
	if n == 0 || 2*k == n {
		return 1
	}
	j := min(k, n-k)
	return math.Min(1, 2*mathext.RegIncBeta(float64(n-j), float64(j+1), 0.5))
}
