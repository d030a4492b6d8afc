package risk

import (
	"fmt"
	"math"
)

// Pair holds the per-topic scores of a system X and of its baseline Base (in
// riskgate, a challenger and the champion), aligned topic by topic:
// X[i] and Base[i] are the scores of the same topic. Every measure is
// reward-positive: larger means X did better than Base.
type Pair struct {
	X, Base []float64
}

// check validates p: equal lengths, at least two topics, finite scores.
func (p Pair) check() error {
	if len(p.X) != len(p.Base) {
		return fmt.Errorf("risk: the two systems have %d and %d topics; scores must be paired topic by topic", len(p.X), len(p.Base))
	}
	if len(p.X) < 2 {
		return fmt.Errorf("risk: need at least 2 common topics, have %d", len(p.X))
	}
	for i := range p.X {
		if !finite(p.X[i]) || !finite(p.Base[i]) {
			return fmt.Errorf("risk: topic %d has a non-finite score (%v, %v)", i, p.X[i], p.Base[i])
		}
	}
	return nil
}

// TwoSamples holds the scores of two independent samples, X and Base, in
// any order and of any sizes (at least two each): the unpaired view of two
// systems, e.g. each system's scores on the topics it was scored on. A Pair
// converts to TwoSamples(p).
type TwoSamples struct {
	X, Base []float64
}

// check validates s: at least two scores per sample, all finite.
func (s TwoSamples) check() error {
	for _, x := range []struct {
		name   string
		scores []float64
	}{{"X", s.X}, {"Base", s.Base}} {
		if len(x.scores) < 2 {
			return fmt.Errorf("risk: sample %s has %d scores; need at least 2", x.name, len(x.scores))
		}
		for i, v := range x.scores {
			if !finite(v) {
				return fmt.Errorf("risk: score %d of sample %s is %v; expected a finite number", i, x.name, v)
			}
		}
	}
	return nil
}

// Deltas returns Δ_i = X_i − Base_i.
func (p Pair) Deltas() []float64 {
	d := make([]float64, len(p.X))
	for i := range d {
		d[i] = p.X[i] - p.Base[i]
	}
	return d
}

// Adjusted returns the risk-adjusted differences of X against Base with
// losses counted w times:
//
//	d_i = Δ_i if Δ_i ≥ 0, else w·Δ_i     (Δ_i = X_i − Base_i)
//
// w = 1 + α in Wang et al. (SIGIR 2012) and the TREC Web track, w = r in
// Benham et al. (SIGIR 2020); w = 1 gives the plain differences.
func (p Pair) Adjusted(w float64) []float64 {
	d := p.Deltas()
	for i, v := range d {
		if v < 0 {
			d[i] = w * v
		}
	}
	return d
}

func checkWeight(w float64) error {
	if !finite(w) || w <= 0 {
		return fmt.Errorf("risk: loss weight %v must be a positive number (losses count w times; w = 1 + α)", w)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// essentiallyConstant reports whether a mean m with standard error se is, to
// machine precision, a constant: R's t.test refuses such data ("data are
// essentially constant") with the same rule, se < 10·ε·|m|.
func essentiallyConstant(m, se float64) bool {
	const eps = 2.220446049250313e-16
	return se < 10*eps*math.Abs(m) || se == 0
}

// infOrNaN is the ratio m/0 for a statistic whose standard error vanished:
// ±Inf by the sign of m, NaN when m is 0.
func infOrNaN(m float64) float64 {
	switch {
	case m > 0:
		return math.Inf(1)
	case m < 0:
		return math.Inf(-1)
	}
	return math.NaN()
}
