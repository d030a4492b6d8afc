package risk

import (
	"math"

	"github.com/riskgate/riskgate/internal/stats"
)

// URisk is Wang, Bennett and Collins-Thompson's risk-sensitive utility
// (SIGIR 2012, "Robust ranking models via risk-sensitive optimization") of a
// system against its baseline over c topics:
//
//	Reward = (1/c) Σ_i max(0,  Δ_i)
//	Risk   = (1/c) Σ_i max(0, −Δ_i)
//	URisk  = Reward − w·Risk = mean_i d_i     (d_i from Pair.Adjusted)
//
// Larger is better; Benham et al.'s URisk⁻ (SIGIR 2020, Table 3) is −URisk.
type URisk struct {
	Value  float64 // Reward − W·Risk
	Reward float64 // mean gain over the topics (losses count 0)
	Risk   float64 // mean loss over the topics, non-negative (gains count 0)
	W      float64 // loss weight: losses count W times (W = 1 + α)
	N      int     // topics
}

// URisk returns the URisk of X against Base with losses counted w times:
// mean_i d_i with d_i = Δ_i, or w·Δ_i for a loss (Wang et al., SIGIR 2012).
func (p Pair) URisk(w float64) (URisk, error) {
	if err := p.check(); err != nil {
		return URisk{}, err
	}
	if err := checkWeight(w); err != nil {
		return URisk{}, err
	}
	var reward, risk float64
	for _, d := range p.Deltas() {
		if d >= 0 {
			reward += d
		} else {
			risk -= d
		}
	}
	c := float64(len(p.X))
	return URisk{
		// mean(d) rather than Reward − w·Risk: the same number, summed in
		// topic order as TRisk and the bootstrap sum it.
		Value:  stats.Mean(p.Adjusted(w)),
		Reward: reward / c,
		Risk:   risk / c,
		W:      w,
		N:      len(p.X),
	}, nil
}

// TRisk is Dinçer, Macdonald and Ounis's studentised URisk (SIGIR 2014,
// "Hypothesis testing for the risk-sensitive evaluation of retrieval
// systems"): the one-sample t statistic of the risk-adjusted differences,
//
//	TRisk = URisk / SE,   SE = s_d/√c,   s_d² = Σ(d_i − d̄)²/(c − 1),
//
// with the two-sided p-value 2·P(T_{c−1} > |TRisk|). The c − 1 denominator is
// the one in Dinçer and Macdonald's own code (jforests TRiskAwareSAROEval) and
// the one that reproduces Benham et al.'s Table 3; rmit-ir/trisk divides by c.
//
// When the differences are essentially constant (R t.test's rule
// SE < 10·ε·|URisk|) TRisk is +Inf or −Inf by the sign of URisk, or NaN when
// URisk is 0, P is 0 (or NaN), and Warnings says so. (jforests returns 0 there,
// which would read as "no evidence"; an infinite t says "every topic moved by
// the same amount".)
type TRisk struct {
	T        float64 // URisk/SE
	URisk    float64 // mean of the risk-adjusted differences
	SE       float64 // standard error of URisk
	DF       float64 // c − 1
	P        float64 // two-sided p-value
	W        float64 // loss weight
	Warnings []string
}

// TRisk returns the TRisk of X against Base with losses counted w times:
// mean(d)/(s_d/√c), two-sided p from t_{c−1} (Dinçer et al., SIGIR 2014).
func (p Pair) TRisk(w float64) (TRisk, error) {
	if err := p.check(); err != nil {
		return TRisk{}, err
	}
	if err := checkWeight(w); err != nil {
		return TRisk{}, err
	}
	d := p.Adjusted(w)
	n := float64(len(d))
	r := TRisk{URisk: stats.Mean(d), SE: math.Sqrt(stats.Variance(d) / n), DF: n - 1, W: w}
	if essentiallyConstant(r.URisk, r.SE) {
		r.T = infOrNaN(r.URisk)
		r.P = tTwoSided(r.T, r.DF)
		r.Warnings = append(r.Warnings, "the risk-adjusted differences are constant (zero variance): TRisk is infinite or undefined")
		return r, nil
	}
	r.T = r.URisk / r.SE
	r.P = tTwoSided(r.T, r.DF)
	return r, nil
}
