package bayes

import (
	"math"

	"gonum.org/v1/gonum/mathext"
	"gonum.org/v1/gonum/stat/distuv"
)

// The frequentist tests Zhang et al. (SIGIR 2016, §4.2) tabulate beside the
// Bayesian comparison, as Yang & Liu (SIGIR 1999, §4) define them: on the
// micro (document) level the sign test ("s-test") and the proportions test
// ("p-test", which Zhang et al. call the unpaired t-test) on accuracies; on
// the macro (category) level the sign test ("S-test") and the paired t-test
// ("T-test") on the categories' scores. All p-values are two-sided.

// SignTest is an exact two-sided sign test: of the pairs that differ, Wins
// favour A and Losses favour B; P is R's binom.test(Wins, Wins + Losses)$p.value.
type SignTest struct {
	Wins, Losses int
	P            float64
}

// NewSignTest returns the exact sign test of wins against losses (ties dropped).
func NewSignTest(wins, losses int) SignTest {
	return SignTest{Wins: wins, Losses: losses, P: BinomialTwoSidedHalf(wins, wins+losses)}
}

// BinomialTwoSidedHalf is the two-sided p-value of k successes in n trials
// with success probability ½, as R's binom.test: by symmetry
// min(1, 2·min(P(X ≤ k), P(X ≥ k))). P(X ≤ k) = I_½(n − k, k + 1), the
// regularised incomplete beta function. It is 1 for n = 0.
func BinomialTwoSidedHalf(k, n int) float64 {
	if n == 0 || 2*k == n {
		return 1
	}
	if 2*k > n {
		k = n - k
	}
	// P(X ≤ k) for k < n/2.
	tail := mathext.RegIncBeta(float64(n-k), float64(k+1), 0.5)
	return math.Min(1, 2*tail)
}

// AccuracySignTest is the s-test on one binary problem (or pooled problems):
// the documents that exactly one classifier gets right, counted for A (Wins)
// and for B (Losses).
func AccuracySignTest(c JointCounts) SignTest {
	// A right, B wrong: positives predicted (1,0), negatives predicted (0,1).
	wins := c.Pos[OnlyA10] + c.Neg[OnlyB01]
	losses := c.Pos[OnlyB01] + c.Neg[OnlyA10]
	return NewSignTest(wins, losses)
}

// ProportionTest is Yang & Liu's p-test of two accuracies pa and pb over the
// same n decisions: p = (pa + pb)/2, Z = (pa − pb)/√(2p(1−p)/n), two-sided
// normal p-value 2Φ(−|Z|). NaN when p(1−p) = 0 (both always right or wrong).
type ProportionTest struct {
	AccuracyA, AccuracyB float64
	Z, P                 float64
}

// AccuracyProportionTest is the p-test on a binary problem's accuracies.
func AccuracyProportionTest(c JointCounts) ProportionTest {
	n := float64(c.N())
	ca, cb := c.ConfusionA(), c.ConfusionB()
	pa, pb := (ca.TP+ca.TN)/n, (cb.TP+cb.TN)/n
	p := (pa + pb) / 2
	z := (pa - pb) / math.Sqrt(2*p*(1-p)/n)
	if pa == pb {
		z = 0
	}
	res := ProportionTest{AccuracyA: pa, AccuracyB: pb, Z: z, P: 2 * distuv.UnitNormal.CDF(-math.Abs(z))}
	if p*(1-p) == 0 {
		res.Z, res.P = math.NaN(), math.NaN()
	}
	return res
}

// MacroTests are Yang & Liu's S-test and T-test over categories: the sign
// test of the categories where A's score beats B's against those where B's
// beats A's, and the paired t-test of the scores (two-sided; mean difference,
// t, df, p and 95% CI). Categories whose score is undefined (NaN) for either
// classifier are left out; the T-test is NaN with fewer than two categories
// or no variation in the differences.
func MacroTests(a, b []float64) (SignTest, ClassicalTest) {
	var xa, xb []float64
	wins, losses := 0, 0
	for i := range a {
		if math.IsNaN(a[i]) || math.IsNaN(b[i]) {
			continue
		}
		xa, xb = append(xa, a[i]), append(xb, b[i])
		switch {
		case a[i] > b[i]:
			wins++
		case a[i] < b[i]:
			losses++
		}
	}
	sign := NewSignTest(wins, losses)
	if len(xa) < 2 {
		return sign, nanClassical()
	}
	t := PairedTTest(xa, xb, 0.95)
	t.R = math.NaN()
	return sign, t
}
