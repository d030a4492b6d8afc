package bayes

import (
	"math"
	"slices"
)

// Quantile returns the p-quantile of x by R's default definition (type 7):
// with y the sorted sample and h = (n−1)p, Q = y[⌊h⌋] + (h−⌊h⌋)(y[⌊h⌋+1] − y[⌊h⌋])
// (0-based). Hyndman & Fan (1996), "Sample quantiles in statistical packages".
// x need not be sorted; NaN is returned for an empty sample.
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
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo < 0 {
		return y[0]
	}
	if lo >= n-1 {
		return y[n-1]
	}
	return y[lo] + (h-float64(lo))*(y[lo+1]-y[lo])
}

// HDI returns the shortest interval containing a share prob of the draws (the
// highest-density interval of a unimodal posterior). With y sorted and
// k = ⌈prob·S⌉, it is [y_i, y_{i+k}] for the i minimising y_{i+k} − y_i
// (Kruschke, Doing Bayesian Data Analysis, 2nd ed., 2015, HDIofMCMC). Ties
// between equally short intervals are broken as R's bayestestR::hdi does: the
// rightmost if the minima are not contiguous, else the middle one (rounded down).
// It returns NaNs when fewer than two draws fall inside or none outside.
func HDI(draws []float64, prob float64) (lo, hi float64) {
	y := slices.Clone(draws)
	slices.Sort(y)
	return HDISorted(y, prob)
}

// HDISorted is HDI for already sorted draws.
func HDISorted(y []float64, prob float64) (lo, hi float64) {
	s := len(y)
	k := int(math.Ceil(prob * float64(s)))
	if k < 2 || s-k < 1 {
		return math.NaN(), math.NaN()
	}
	best := math.Inf(1)
	var minima []int
	for i := 0; i < s-k; i++ {
		switch w := y[i+k] - y[i]; {
		case w < best:
			best = w
			minima = append(minima[:0], i)
		case w == best:
			minima = append(minima, i)
		}
	}
	i := minima[0]
	if len(minima) > 1 {
		contiguous := true
		for j := 1; j < len(minima); j++ {
			if minima[j] != minima[j-1]+1 {
				contiguous = false
				break
			}
		}
		if contiguous {
			sum := 0
			for _, m := range minima {
				sum += m + 1 // bayestestR averages 1-based indices
			}
			i = int(math.Floor(float64(sum)/float64(len(minima)))) - 1
		} else {
			i = minima[len(minima)-1]
		}
	}
	return y[i], y[i+k]
}

// Mean returns the arithmetic mean of x.
func Mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// SD returns the sample standard deviation of x (denominator n−1, as R's sd).
func SD(x []float64) float64 {
	m := Mean(x)
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

// MAD returns the median absolute deviation scaled by 1.4826 to estimate the
// standard deviation of normal data (R's mad with its defaults).
func MAD(x []float64) float64 {
	med := Quantile(x, 0.5)
	dev := make([]float64, len(x))
	for i, v := range x {
		dev[i] = math.Abs(v - med)
	}
	return 1.4826 * Quantile(dev, 0.5)
}

// ProbGreater returns the share of draws strictly greater than threshold: the
// posterior probability P(θ > threshold | data) estimated from the draws.
func ProbGreater(draws []float64, threshold float64) float64 {
	n := 0
	for _, v := range draws {
		if v > threshold {
			n++
		}
	}
	return float64(n) / float64(len(draws))
}
