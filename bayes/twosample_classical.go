package bayes

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ClassicalTest is the frequentist counterpart Sakai (SIGIR 2017, §4) tabulates
// beside each Bayesian test: the one-sided p-value of H1: μ1 > μ2, the
// two-sided confidence interval of μ1 − μ2, and sample effect sizes.
type ClassicalTest struct {
	Name      string  // "paired_t" or "welch_t"
	MeanDiff  float64 // x̄1 − x̄2
	T, DF     float64
	P         float64 // one-sided p-value, H0: μ1 = μ2 against H1: μ1 > μ2
	PTwoSided float64 // two-sided p-value, as R's t.test prints
	Lo, Hi    float64 // two-sided confidence interval of μ1 − μ2 at Level
	Level     float64
	// Sample Glass's Δ: (x̄1 − x̄2)/s1 and (x̄1 − x̄2)/s2 with sample standard
	// deviations (denominator n − 1), Sakai's "classical Glass2".
	Glass1, Glass2 float64
	R              float64 // Pearson correlation of the pairs (paired only; NaN otherwise)
}

// PairedTTest is R's t.test(x1, x2, paired = TRUE, conf.level = level): with
// d = x1 − x2, t = d̄ / (s_d/√n) on n − 1 degrees of freedom; CI d̄ ± t_{n−1,(1+level)/2}·s_d/√n.
func PairedTTest(x1, x2 []float64, level float64) ClassicalTest {
	n := len(x1)
	d := make([]float64, n)
	for i := range d {
		d[i] = x1[i] - x2[i]
	}
	mean, se := Mean(d), SD(d)/math.Sqrt(float64(n))
	res := tTest("paired_t", mean, se, float64(n-1), level)
	res.Glass1, res.Glass2 = mean/SD(x1), mean/SD(x2)
	res.R = pearson(x1, x2)
	return res
}

// WelchTTest is R's t.test(x1, x2, var.equal = FALSE, conf.level = level):
// t = (x̄1 − x̄2)/√(v1/n1 + v2/n2) with the Welch–Satterthwaite degrees of freedom
// (v1/n1 + v2/n2)² / ((v1/n1)²/(n1−1) + (v2/n2)²/(n2−1)) (Sakai eq. 10).
func WelchTTest(x1, x2 []float64, level float64) ClassicalTest {
	n1, n2 := float64(len(x1)), float64(len(x2))
	v1, v2 := SD(x1), SD(x2)
	v1, v2 = v1*v1, v2*v2
	a, b := v1/n1, v2/n2
	df := (a + b) * (a + b) / (a*a/(n1-1) + b*b/(n2-1))
	mean := Mean(x1) - Mean(x2)
	res := tTest("welch_t", mean, math.Sqrt(a+b), df, level)
	res.Glass1, res.Glass2 = mean/math.Sqrt(v1), mean/math.Sqrt(v2)
	res.R = math.NaN()
	return res
}

func tTest(name string, mean, se, df, level float64) ClassicalTest {
	t := mean / se
	dist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	// Survival keeps precision in the upper tail where 1 − CDF would cancel.
	p := dist.Survival(t)
	two := 2 * math.Min(p, dist.CDF(t))
	q := dist.Quantile((1 + level) / 2)
	return ClassicalTest{Name: name, MeanDiff: mean, T: t, DF: df, P: p, PTwoSided: math.Min(1, two),
		Lo: mean - q*se, Hi: mean + q*se, Level: level}
}

func pearson(x, y []float64) float64 {
	mx, my := Mean(x), Mean(y)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy / math.Sqrt(sxx*syy)
}
