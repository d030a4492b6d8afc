package risk

// Sign is the result of an exact two-sided sign test.
type Sign struct {
	Pos, Neg int     // pairs won by X, and lost to Base (ties are dropped)
	P        float64 // two-sided p-value
	// PGreater and PLess are the one-sided p-values of H1: X wins more often
	// (P(B ≥ Pos)) and less often (P(B ≤ Pos)), B ~ Binomial(Pos + Neg, ½):
	// R's binom.test(…, alternative = "greater" / "less").
	PGreater, PLess float64
	Warnings        []string
}

// SignTest is the exact sign test of pos wins against neg losses (ties
// already dropped), R's binom.test(pos, pos + neg) with p = ½: under the null
// hypothesis Pos ~ Binomial(pos + neg, ½), and R's two-sided p-value, the sum
// of the probabilities of every outcome no more likely than the one observed,
// is for p = ½
//
//	P = min(1, 2·P(X ≤ min(pos, neg)))   (1 when pos = neg).
//
// With no untied pair (pos + neg = 0, where R stops) P is 1; Pair.Sign warns.
//
// Over documents it is Yang & Liu's (SIGIR 1999, §4) micro sign test
// ("s-test") of two classifiers: pos counts the documents only A classifies
// correctly, neg those only B does; over categories (their measures, as a
// Pair) it is their macro "S-test".
func SignTest(pos, neg int) Sign {
	n := pos + neg
	return Sign{Pos: pos, Neg: neg, P: signTwoSided(pos, n),
		PGreater: binomHalfAtMost(neg, n), // P(B ≥ pos) = P(B ≤ neg) by symmetry
		PLess:    binomHalfAtMost(pos, n)}
}

// Sign is the sign test of X against Base: SignTest of the topics where X
// beat Base against those where it lost, ties dropped.
func (p Pair) Sign() (Sign, error) {
	o, err := p.Outcomes()
	if err != nil {
		return Sign{}, err
	}
	r := SignTest(o.Wins, o.Losses)
	if o.Wins+o.Losses == 0 {
		r.Warnings = append(r.Warnings, "every topic is tied: the sign test has no evidence")
	}
	return r, nil
}
