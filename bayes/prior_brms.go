package bayes

import (
	"math"

	"github.com/riskgate/riskgate/bayes/posterior"
)

// BrmsPriors returns brms's default priors (brms 2.18, statistics.md §2.2)
// for y ~ (1|topic) + (1|system) on the observed scores y, with s =
// max(2.5, round(mad y, 1)):
//
//	Intercept ~ student_t(3, round(median y, 1), s)   (brms's Intercept; here b_Intercept = γ)
//	sigma     ~ student_t(3, 0, s), σ > 0
//	sd_topic, sd_system ~ student_t(3, 0, s), SD > 0  (on the SDs themselves, not relative to σ)
//
// For the skew-normal family add SkewNormal{} (α ~ normal(0, 4)).
// ../shared/reference/brms/rb04_hier_priors.txt shows brms printing these
// for the BRisk pool at w = 5.
func BrmsPriors(y []float64) HierPriors {
	loc, s := brmsLocationScale(y)
	return HierPriors{
		Intercept: StudentT{3, loc, s},
		Sigma:     HalfStudentT{3, s},
		SDTopic:   HalfStudentT{3, s},
		SDSystem:  HalfStudentT{3, s},
	}
}

// TableBrmsPriors is BrmsPriors of t's observed scores.
func TableBrmsPriors(t *Table) HierPriors {
	_, _, y := t.observed()
	return BrmsPriors(y)
}

// BrmsInterceptSigmaPriors are brms's default priors of y ~ 1 (the
// one-to-one model on risk-adjusted differences): the intercept and σ priors
// of BrmsPriors.
func BrmsInterceptSigmaPriors(y []float64) (intercept, sigma Prior) {
	loc, s := brmsLocationScale(y)
	return StudentT{3, loc, s}, HalfStudentT{3, s}
}

// brmsLocationScale is brms's def_scale_prior for an identity link:
// location round(median y, 1) and scale max(2.5, round(mad y, 1)), with R's
// mad (1.4826 × the median absolute deviation) and R's round.
func brmsLocationScale(y []float64) (loc, scale float64) {
	return roundR(posterior.Quantile(y, 0.5), 1), math.Max(2.5, roundR(posterior.MAD(y), 1))
}

// roundR is R's round(x, digits) since R 4.0.0: of the two decimal
// candidates either side of x, the one nearer to x in double precision, the
// even one on an exact tie. (Rounding x·10^d half to even would give
// round(0.15, 1) = 0.2; R gives 0.1 because 0.15 is stored below 0.15.)
func roundR(x float64, digits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	p := math.Pow(10, float64(digits))
	lo, hi := math.Floor(x*p), math.Ceil(x*p)
	if lo == hi {
		return lo / p
	}
	a, b := lo/p, hi/p
	switch da, db := x-a, b-x; {
	case da < db:
		return a
	case db < da:
		return b
	case math.Mod(lo, 2) == 0:
		return a
	}
	return b
}
