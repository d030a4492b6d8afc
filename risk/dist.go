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

// tTwoSided is 2·P(T_df > |t|), R's 2*pt(-abs(t), df).
func tTwoSided(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df):
		return math.NaN()
	case math.IsInf(t, 0):
		return 0
	}
	return mathext.RegIncBeta(df/2, 0.5, df/(df+t*t))
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

// fSurvival is P(F_{d1,d2} > f), R's pf(f, d1, d2, lower.tail = FALSE).
func fSurvival(f, d1, d2 float64) float64 {
	switch {
	case math.IsNaN(f):
		return math.NaN()
	case f <= 0:
		return 1
	case math.IsInf(f, 1):
		return 0
	}
	return mathext.RegIncBeta(d2/2, d1/2, d2/(d2+d1*f))
}

// binomialLowerHalf is P(X ≤ k) for X ~ Binomial(n, 1/2), summed term by term
// from exact log binomial coefficients.
func binomialLowerHalf(k, n int) float64 {
	if k < 0 {
		return 0
	}
	if k >= n {
		return 1
	}
	lgN1, _ := math.Lgamma(float64(n + 1))
	sum := 0.0
	for i := 0; i <= k; i++ {
		a, _ := math.Lgamma(float64(i + 1))
		b, _ := math.Lgamma(float64(n - i + 1))
		sum += math.Exp(lgN1 - a - b - float64(n)*math.Ln2)
	}
	return sum
}
