package gate

import (
	"fmt"
	"math"
	"slices"

	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
	"gonum.org/v1/gonum/stat/distuv"
)

// The p-values behind the tests.<name>.p quantities: the challenger's scores
// (X) against the champion's (Base), with the alternative the rule names.
// Package risk computes the two-sided tests; the one-sided p-values follow R
// from the same statistics:
//
//	paired_t, welch_t  greater: P(T_df > t),  less: P(T_df < t)              (R t.test)
//	sign               greater: P(B ≥ wins),  less: P(B ≤ wins),
//	                   B ~ Binomial(wins + losses, ½)                          (R binom.test)
//	wilcoxon, exact    greater: P(V' ≥ V),    less: P(V' ≤ V)                  (R wilcox.test, psignrank)
//	wilcoxon, normal   z = (V − n(n+1)/4 ∓ ½)/σ,  σ² = n(n+1)(2n+1)/24 − Σ(t³ − t)/48,
//	                   greater: 1 − Φ(z) with −½,  less: Φ(z) with +½           (R wilcox.test, correct = TRUE)
//
// The permutation and bootstrap tests of package risk are two-sided only; a
// one-sided rule on them is unavailable (inconclusive), never guessed.

// testPValue returns the p-value of the named test under alt, with the
// test's warnings. b and seed set the permutation and bootstrap tests.
func testPValue(p risk.Pair, name string, alt policies.Alternative, b int, seed uint64) (float64, []string, error) {
	switch name {
	case "paired_t", "welch_t":
		r, err := p.PairedT(0.95)
		if name == "welch_t" {
			r, err = p.WelchT(0.95)
		}
		if err != nil {
			return math.NaN(), nil, err
		}
		switch alt {
		case policies.Greater:
			return r.PGreater, r.Warnings, nil
		case policies.Less:
			return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}.CDF(r.T), r.Warnings, nil
		}
		return r.P, r.Warnings, nil
	case "sign":
		r, err := p.Sign()
		if err != nil {
			return math.NaN(), nil, err
		}
		n := r.Pos + r.Neg
		switch alt {
		case policies.Greater:
			return binomialHalfAtLeast(r.Pos, n), r.Warnings, nil
		case policies.Less:
			return binomialHalfAtLeast(r.Neg, n), r.Warnings, nil // P(B ≤ wins) = P(B' ≥ losses)
		}
		return r.P, r.Warnings, nil
	case "wilcoxon":
		r, err := p.Wilcoxon(risk.WilcoxonAuto)
		if err != nil {
			return math.NaN(), nil, err
		}
		if alt == policies.TwoSided || alt == "" || math.IsNaN(r.P) {
			return r.P, r.Warnings, nil
		}
		return wilcoxonOneSided(p, r, alt), r.Warnings, nil
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

// binomialHalfAtLeast is P(B ≥ k) for B ~ Binomial(n, ½), summed exactly
// term by term in log space (1 when n = 0).
func binomialHalfAtLeast(k, n int) float64 {
	if k <= 0 {
		return 1
	}
	lgN, _ := math.Lgamma(float64(n + 1))
	s := 0.0
	for i := k; i <= n; i++ {
		a, _ := math.Lgamma(float64(i + 1))
		c, _ := math.Lgamma(float64(n - i + 1))
		s += math.Exp(lgN - a - c - float64(n)*math.Ln2)
	}
	return math.Min(1, s)
}

// wilcoxonOneSided is R's one-sided wilcox.test p-value for the statistic r
// that risk computed on p (see testPValue).
func wilcoxonOneSided(p risk.Pair, r risk.Wilcoxon, alt policies.Alternative) float64 {
	n := r.N
	u := float64(n*(n+1)) / 2
	if r.Exact {
		if alt == policies.Greater {
			return risk.PSignRank(u-r.V, n) // P(V' ≥ V) by symmetry
		}
		return risk.PSignRank(r.V, n)
	}
	var abs []float64
	for _, d := range p.Deltas() {
		if d != 0 {
			abs = append(abs, math.Abs(d))
		}
	}
	slices.Sort(abs)
	ties := 0.0
	for i := 0; i < len(abs); {
		j := i
		for j < len(abs) && abs[j] == abs[i] {
			j++
		}
		t := float64(j - i)
		ties += t*t*t - t
		i = j
	}
	nf := float64(n)
	sigma := math.Sqrt(nf*(nf+1)*(2*nf+1)/24 - ties/48)
	z := r.V - nf*(nf+1)/4
	if alt == policies.Greater {
		z = (z - 0.5) / sigma
		return 0.5 * math.Erfc(z/math.Sqrt2)
	}
	z = (z + 0.5) / sigma
	return 0.5 * math.Erfc(-z/math.Sqrt2)
}
