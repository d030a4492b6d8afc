package risk

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskgate/riskgate/internal/stats"
)

// WeightedMean is a weighted mean of per-topic values x_t with topic weights
// w_t ≥ 0 (traffic shares; any scale) and its standard error, the ratio
// (Hájek) estimator of a population mean and its linearisation variance
// (Cochran, Sampling Techniques, 3rd ed. 1977, §6.3–6.4, the variance of a
// ratio estimate with x = w_t·d_t and y = w_t; Lumley, Complex Surveys, 2010,
// §2.2, as survey::svymean gives it under svydesign(ids = ~1, weights = ~w)):
//
//	x̄_w = Σ w_t x_t / Σ w_t
//	SE² = n/(n − 1) · Σ w_t² (x_t − x̄_w)² / (Σ w_t)²
//
// over the n topics of positive weight. It is also the heteroscedasticity-
// consistent (HC1) sandwich variance of the weighted least-squares fit of
// x on a constant, R's sandwich::vcovHC(lm(x ~ 1, weights = w), type =
// "HC1") — the reference the tests use. With equal weights SE² = s²/n, so
// the test below is Student's t test of the mean exactly.
//
// EffectiveN is Kish's effective sample size (Σ w_t)²/Σ w_t² (Kish, Survey
// Sampling, 1965, §11.7): the unweighted topics that would give the same
// precision if the values had equal variances; a few heavy topics make it
// small.
type WeightedMean struct {
	Estimate   float64 // x̄_w
	SE         float64 // linearisation standard error
	N          int     // topics of positive weight
	EffectiveN float64 // (Σ w)²/Σ w²
}

// WeightedMeanOf returns the weighted mean of x with weights w (see
// WeightedMean). Every value must be finite, every weight finite and ≥ 0,
// and at least two topics must have a positive weight.
func WeightedMeanOf(x, w []float64) (WeightedMean, error) {
	if len(x) != len(w) {
		return WeightedMean{}, fmt.Errorf("risk: %d values and %d weights; expected one weight per value", len(x), len(w))
	}
	// Exact sums, so that the estimate does not depend on the topics' order.
	var swx, sw, sw2 stats.ExactSum
	n := 0
	for i, v := range x {
		switch {
		case !finite(v):
			return WeightedMean{}, fmt.Errorf("risk: value %d is %v; expected a finite number", i+1, v)
		case !finite(w[i]) || w[i] < 0:
			return WeightedMean{}, fmt.Errorf("risk: weight %d is %v; expected a finite number ≥ 0", i+1, w[i])
		case w[i] > 0:
			swx.Add(w[i] * v)
			sw.Add(w[i])
			sw2.Add(w[i] * w[i])
			n++
		}
	}
	if n < 2 {
		return WeightedMean{}, errors.New("risk: a weighted mean's standard error needs at least 2 topics of positive weight")
	}
	total := sw.Value()
	m := swx.Value() / total
	var dev stats.ExactSum
	for i, v := range x {
		if w[i] > 0 {
			e := w[i] * (v - m)
			dev.Add(e * e)
		}
	}
	nf := float64(n)
	se := math.Sqrt(nf / (nf - 1) * dev.Value() / (total * total))
	return WeightedMean{Estimate: m, SE: se, N: n, EffectiveN: total * total / sw2.Value()}, nil
}

// WeightedT is the t test of the weighted mean of X − Base with topic
// weights w (WeightedMeanOf of the differences): t = x̄_w/SE on n − 1
// degrees of freedom (n topics of positive weight, the design degrees of
// freedom survey::svymean's tests use), its p-values and the interval
// x̄_w ± t_{(1+level)/2, n−1}·SE. With equal weights it is PairedT.
func (p Pair) WeightedT(w []float64, level float64) (TTest, WeightedMean, error) {
	if err := p.check(); err != nil {
		return TTest{}, WeightedMean{}, err
	}
	if err := checkLevel(level); err != nil {
		return TTest{}, WeightedMean{}, err
	}
	wm, err := WeightedMeanOf(p.Deltas(), w)
	if err != nil {
		return TTest{}, WeightedMean{}, err
	}
	return tTest(wm.Estimate, wm.SE, float64(wm.N-1), level), wm, nil
}
