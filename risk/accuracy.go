package risk

import (
	"fmt"
	"math"
)

// The frequentist tests Zhang et al. (SIGIR 2016, §4.2) tabulate beside
// their Bayesian comparison of two text classifiers, as Yang & Liu (SIGIR
// 1999, §4) define them, all two-sided: on the micro (document) level the
// sign test ("s-test", SignTest of the documents only one classifier gets
// right) and the proportions test of the accuracies ("p-test", which Zhang
// et al. call the unpaired t test; ProportionTest); on the macro (category)
// level the sign test ("S-test", Pair.Sign) and the paired t test ("T-test",
// Pair.PairedT) of the categories' measures.

// Proportions is the result of ProportionTest.
type Proportions struct {
	AccuracyA, AccuracyB float64 // the shares of the n decisions A and B got right
	Z                    float64
	P                    float64 // two-sided p-value
	Warnings             []string
}

// ProportionTest is Yang & Liu's proportions test ("p-test") of two
// classifiers A and B that made the same n decisions, rightA and rightB of
// them correct: with pa = rightA/n, pb = rightB/n and p = (pa + pb)/2,
//
//	Z = (pa − pb)/√(2p(1 − p)/n),   P = 2Φ(−|Z|)   (two-sided, normal).
//
// Z is 0 when pa = pb. When p(1 − p) = 0 (both always right, or both always
// wrong) Z and P are NaN, with a warning.
func ProportionTest(rightA, rightB, n int) (Proportions, error) {
	if n < 1 || rightA < 0 || rightA > n || rightB < 0 || rightB > n {
		return Proportions{}, fmt.Errorf("risk: %d and %d correct decisions out of %d; expected counts from 0 to n, n ≥ 1", rightA, rightB, n)
	}
	fn := float64(n)
	pa, pb := float64(rightA)/fn, float64(rightB)/fn
	p := (pa + pb) / 2
	r := Proportions{AccuracyA: pa, AccuracyB: pb}
	if p*(1-p) == 0 {
		r.Z, r.P = math.NaN(), math.NaN()
		r.Warnings = append(r.Warnings, "both classifiers are always right, or both always wrong: the proportions test is undefined")
		return r, nil
	}
	r.Z = (pa - pb) / math.Sqrt(2*p*(1-p)/fn)
	if pa == pb {
		r.Z = 0
	}
	r.P = 2 * normalCDF(-math.Abs(r.Z))
	return r, nil
}
