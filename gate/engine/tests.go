package engine

import (
	"fmt"
	"math"

	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// testPValue returns the p-value behind tests.<name>.p — the challenger's
// scores (X) against the champion's (Base) with the rule's alternative — and
// the test's warnings. Package risk computes every one of them (one-sided
// p-values as R's t.test, binom.test and wilcox.test with alternative =
// "greater"/"less"); the permutation and bootstrap tests are two-sided only,
// so a one-sided rule on them is unavailable (inconclusive), never guessed.
// b and seed set those two tests.
//
// With a margin δ > 0 the test is of d + δ, the challenger's difference to
// the champion plus the margin (H0 of alternative less: Δ ≥ −δ): R's
// t.test(x, y, paired = TRUE, mu = −δ), wilcox.test(x, y, paired = TRUE,
// mu = −δ), the sign test of the signs of d + δ, and the permutation and
// bootstrap tests of d + δ (shiftedPair); Welch's of x + δ against y, R's
// t.test(x, y, mu = −δ).
func testPValue(p risk.Pair, name string, alt policies.Alternative, margin float64, b int, seed uint64) (float64, []string, error) {
	if margin != 0 {
		p = shiftedPair(p, name, margin)
	}
	pick := func(two, greater, less float64) float64 {
		switch alt {
		case policies.Greater:
			return greater
		case policies.Less:
			return less
		}
		return two
	}
	switch name {
	case "paired_t", "welch_t":
		r, err := p.PairedT(0.95)
		if name == "welch_t" {
			r, err = p.WelchT(0.95)
		}
		if err != nil {
			return math.NaN(), nil, err
		}
		return pick(r.P, r.PGreater, r.PLess), r.Warnings, nil
	case "sign":
		r, err := p.Sign()
		if err != nil {
			return math.NaN(), nil, err
		}
		return pick(r.P, r.PGreater, r.PLess), r.Warnings, nil
	case "wilcoxon":
		r, err := p.Wilcoxon(risk.WilcoxonAuto)
		if err != nil {
			return math.NaN(), nil, err
		}
		return pick(r.P, r.PGreater, r.PLess), r.Warnings, nil
	case "permutation", "bootstrap":
		if alt != policies.TwoSided && alt != "" {
			return math.NaN(), nil, fmt.Errorf("the %s test is two-sided only in this build; use alternative: two_sided", name)
		}
		if name == "permutation" {
			r, err := p.Randomization(b, seed)
			return r.P, r.Warnings, err
		}
		r, err := p.StudentizedBootstrap(b, seed)
		return r.P, r.Warnings, err
	}
	return math.NaN(), nil, fmt.Errorf("unknown test %q", name)
}

// shiftedPair is the pair whose test of "no difference" is the test of d +
// δ: for the paired tests the differences d_i + δ against zeros (each d_i =
// X_i − Base_i computed first, then shifted, as R's x − y − mu, so that a
// difference of exactly −δ is a zero as in R), for Welch's two samples the
// challenger's scores shifted by δ.
func shiftedPair(p risk.Pair, name string, margin float64) risk.Pair {
	if name == "welch_t" {
		x := make([]float64, len(p.X))
		for i, v := range p.X {
			x[i] = v + margin
		}
		return risk.Pair{X: x, Base: p.Base}
	}
	d := p.Deltas()
	for i := range d {
		d[i] += margin
	}
	return risk.Pair{X: d, Base: make([]float64, len(d))}
}
