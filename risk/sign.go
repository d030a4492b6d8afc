package risk

import "math"

// Sign is the exact sign test of X against Base.
type Sign struct {
	Pos, Neg int     // topics where X beat Base, and lost to it (ties are dropped)
	P        float64 // two-sided p-value
	Warnings []string
}

// Sign is the sign test as R's binom.test(pos, pos + neg) with p = ½: ties
// are dropped, and under the null hypothesis Pos ~ Binomial(pos + neg, ½).
// R's two-sided p-value sums the probabilities of every outcome no more
// likely than the one observed, which for p = ½ is
//
//	P = min(1, 2·P(X ≤ min(pos, neg)))   (1 when pos = neg).
//
// With no untied topic (pos + neg = 0, where R stops) P is 1 with a warning.
func (p Pair) Sign() (Sign, error) {
	if err := p.check(); err != nil {
		return Sign{}, err
	}
	var r Sign
	for i := range p.X {
		switch {
		case p.X[i] > p.Base[i]:
			r.Pos++
		case p.X[i] < p.Base[i]:
			r.Neg++
		}
	}
	n := r.Pos + r.Neg
	switch {
	case n == 0:
		r.P = 1
		r.Warnings = append(r.Warnings, "every topic is tied: the sign test has no evidence")
	case r.Pos == r.Neg:
		r.P = 1
	default:
		r.P = math.Min(1, 2*binomialLowerHalf(min(r.Pos, r.Neg), n))
	}
	return r, nil
}
