package engine

import (
	"fmt"
	"math"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/stats"
)

// Traffic weights (issue 26 item 4, docs/weights.md). With a weight column
// in the topics file the gate's means are weighted: a system's mean and its
// mean difference to the champion — what mean and mean_diff rules read, the
// risk table, the summary, each measure's delta and a relative margin's
// champion mean — are
//
//	x̄_w = Σ w_t x_t / Σ w_t
//
// over the topics each is computed on (risk.WeightedMeanOf's estimate,
// the same exact sums). Without a weight column they are the plain means,
// computed as before; so are a segment's (a by: rule's value, as the
// segment table's Δ): the weights are the traffic over the whole table.

// topicWeights are the topics file's weights by topic; nil when unweighted.
func (c *core) topicWeights() map[string]float64 {
	if a := c.set.attributes; a != nil {
		return a.Weights
	}
	return nil
}

// weights are the topic weights the slice's means use: the topics file's
// on a slice of every topic, nil on a segment's or when unweighted.
func (s *slice) weights() map[string]float64 {
	if s.key.dimension != "" {
		return nil
	}
	return s.topicWeights()
}

// weightedMean is Σ w_t x_t / Σ w_t over the topics j where x_j and every
// other[j] are scored (NaN cells left out), w_t the weight of t.Topics[j];
// an error when those topics weigh nothing.
func weightedMean(t *scores.Table, w map[string]float64, x []float64, other ...[]float64) (float64, error) {
	var swx, sw stats.ExactSum
	for j, v := range x {
		if math.IsNaN(v) || anyNaN(other, j) {
			continue
		}
		wt := w[t.Topics[j]]
		swx.Add(wt * v)
		sw.Add(wt)
	}
	if total := sw.Value(); total > 0 {
		return swx.Value() / total, nil
	}
	return math.NaN(), fmt.Errorf("the topics scored have total weight 0 in the topics file")
}

func anyNaN(rows [][]float64, j int) bool {
	for _, r := range rows {
		if math.IsNaN(r[j]) {
			return true
		}
	}
	return false
}

// mean is system sy's mean score over the topics it is scored on, weighted
// when the gate is.
func (s *slice) mean(sy int) (float64, error) {
	if w := s.weights(); w != nil {
		return weightedMean(s.t, w, s.t.Scores[sy])
	}
	return stats.MeanDefined(s.t.Scores[sy]), nil
}

// meanDiff is challenger c's mean difference to the champion over the
// topics both are scored on, weighted when the gate is.
func (s *slice) meanDiff(c int) (float64, error) {
	if w := s.weights(); w != nil {
		x, base := s.t.Scores[c], s.t.Scores[s.champ]
		d := make([]float64, len(x))
		for j := range x {
			d[j] = x[j] - base[j] // NaN where either is missing
		}
		return weightedMean(s.t, w, d)
	}
	p := s.pair(c)
	if len(p.X) == 0 {
		return math.NaN(), fmt.Errorf("the challenger and the champion have no topic in common")
	}
	return stats.MeanDefined(p.X) - stats.MeanDefined(p.Base), nil
}

// weighting is result.json's note that the means are weighted; nil when
// they are not.
func (c *core) weighting() *result.Weighting {
	w := c.topicWeights()
	if w == nil {
		return nil
	}
	var sw, sw2 stats.ExactSum
	for _, topic := range c.table.Topics {
		sw.Add(w[topic])
		sw2.Add(w[topic] * w[topic])
	}
	n := math.NaN()
	if v := sw2.Value(); v > 0 {
		n = sw.Value() * sw.Value() / v
	}
	return result.NewWeighting(c.set.attributes.File, n)
}

// pairWeights are the weights of the topics of challenger c's pair with
// the champion (slice.pair: both scored), in its order; nil when unweighted.
func (s *slice) pairWeights(c int) []float64 {
	w := s.weights()
	if w == nil {
		return nil
	}
	x, base := s.t.Scores[c], s.t.Scores[s.champ]
	var out []float64
	for j := range x {
		if !math.IsNaN(x[j]) && !math.IsNaN(base[j]) {
			out = append(out, w[s.t.Topics[j]])
		}
	}
	return out
}
