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
func testPValue(p risk.Pair, name string, alt policies.Alternative, b int, seed uint64) (float64, []string, error) {
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
