package risk

import (
	"math"

	"github.com/riskgate/riskgate/internal/stats"
)

// TTest is the result of a t test of X against Base with a two-sided
// confidence interval for the difference in means.
type TTest struct {
	T  float64 // t statistic
	DF float64 // degrees of freedom (not an integer for Welch)
	P  float64 // two-sided p-value, 2·P(T_df > |t|)
	// PGreater is the one-sided p-value of H1: the mean difference is above 0,
	// P(T_df > t), R's t.test(…, alternative = "greater")$p.value; Sakai
	// (SIGIR 2017, §4) tabulates it beside his Bayesian tests.
	PGreater float64
	// PLess is the one-sided p-value of H1: the mean difference is below 0,
	// P(T_df < t), R's t.test(…, alternative = "less")$p.value.
	PLess    float64
	Estimate float64  // mean difference X − Base
	CI       Interval // confidence interval for Estimate
	Warnings []string
}

// PairedT is Student's paired t test, R's t.test(x, base, paired = TRUE,
// conf.level = level): with d_i = X_i − Base_i over n topics,
//
//	t = d̄/(s_d/√n),  df = n − 1,  p = 2·P(T_df > |t|),  p_greater = P(T_df > t),
//	CI = d̄ ± t_{(1+level)/2, df}·s_d/√n,   s_d the n − 1 standard deviation.
//
// Where R stops with "data are essentially constant" (s_d/√n < 10·ε·|d̄|), t
// is ±Inf (NaN if d̄ = 0), the interval is the single point d̄, and Warnings
// says so.
func (p Pair) PairedT(level float64) (TTest, error) {
	if err := p.check(); err != nil {
		return TTest{}, err
	}
	if err := checkLevel(level); err != nil {
		return TTest{}, err
	}
	d := p.Deltas()
	n := float64(len(d))
	m, v := meanVariance(d)
	se := math.Sqrt(v / n)
	return tTest(m, se, n-1, level), nil
}

// WelchT is Welch's unequal-variance two-sample t test of the pair's two
// samples, which ignores the pairing: TwoSamples.WelchT.
func (p Pair) WelchT(level float64) (TTest, error) {
	if err := p.check(); err != nil {
		return TTest{}, err
	}
	return TwoSamples(p).WelchT(level)
}

// WelchT is Welch's unequal-variance two-sample t test, R's
// t.test(x, base, var.equal = FALSE, conf.level = level):
//
//	t = (x̄ − b̄)/SE,  SE² = s_x²/n_x + s_b²/n_b,
//	df = SE⁴ / ((s_x²/n_x)²/(n_x − 1) + (s_b²/n_b)²/(n_b − 1))   (Welch–Satterthwaite;
//	Sakai, SIGIR 2017, eq. 10).
func (s TwoSamples) WelchT(level float64) (TTest, error) {
	if err := s.check(); err != nil {
		return TTest{}, err
	}
	if err := checkLevel(level); err != nil {
		return TTest{}, err
	}
	nx, nb := float64(len(s.X)), float64(len(s.Base))
	mx, vx := meanVariance(s.X)
	mb, vb := meanVariance(s.Base)
	vx, vb = vx/nx, vb/nb
	se := math.Sqrt(vx + vb)
	df := (vx + vb) * (vx + vb) / (vx*vx/(nx-1) + vb*vb/(nb-1))
	return tTest(mx-mb, se, df, level), nil
}

// meanVariance returns the mean of x, correctly rounded from the exact sum
// (stats.ExactMean) as R's mean practically always is, and the sample
// variance about it (n − 1 denominator). A mean difference far below the
// scores' scale (two nearly identical systems) is then the difference R
// computes, not an ulp of a left-to-right sum.
func meanVariance(x []float64) (mean, variance float64) {
	mean = stats.ExactMean(x)
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return mean, ss / float64(len(x)-1)
}

func tTest(m, se, df, level float64) TTest {
	r := TTest{Estimate: m, DF: df, CI: Interval{Level: level}}
	if essentiallyConstant(m, se) {
		r.T = infOrNaN(m)
		r.P, r.PGreater, r.PLess = tTwoSided(r.T, df), tGreater(r.T, df), tGreater(-r.T, df)
		r.CI.Lo, r.CI.Hi = m, m
		r.Warnings = append(r.Warnings, "the data are essentially constant (zero variance): t is infinite or undefined")
		return r
	}
	r.T = m / se
	r.P, r.PGreater, r.PLess = tTwoSided(r.T, df), tGreater(r.T, df), tGreater(-r.T, df)
	q := tQuantile((1+level)/2, df)
	r.CI.Lo, r.CI.Hi = m-q*se, m+q*se
	return r
}
