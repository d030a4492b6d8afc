package engine

import (
	"fmt"
	"math"
	"slices"

	"github.com/riskgate/riskgate/gate/judgments"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// The needs-judgments step (docs/gate.md, "Needs judgments"; issue 28).
// For runs scored against qrels, a rule is also judged with the champion
// and the challengers scored under the other assumptions about the
// documents the qrels have not judged — condensed lists (trec_eval -J:
// unjudged documents left out) and optimistic (unjudged documents within
// the measure's depth relevant at the lowest relevant level) —
// judgments.ScoreVariants. Each assumption is a slice of its own
// (sliceKey.variant, its table from tableOf), so every analysis and reader
// works on it unchanged; policies.Evaluate compares the outcomes and says
// "needs judgments" where they differ.
//
// The optimistic assumption is defined where the judging pool reached the
// depth the measure reads: a measure with a cutoff k (ndcg_cut.10, P.10,
// nERR@10) of which the champion's top k are judged, judged@k ≥
// optimisticCoverage on average. Deeper, it would make relevant every
// document past the pool's depth, which no pool supports: on robust03's
// official qrels (pooled to depth 125) it turns a t test of Q (the whole
// ranking) with p = 1e-24 into p = 1, and a BCa bound of recall.1000 from
// +0.36 to −0.16. Such measures are judged under the standard and the
// condensed assumptions.

// assumptionWords say what each variant assumes, for a rule's reason.
var assumptionWords = map[judgments.Variant]string{
	judgments.Condensed:  "if they are left out",
	judgments.Optimistic: "if they are relevant",
}

// variants are the per-topic scores of the champion and the challengers
// under each assumption on one measure, and which challengers have
// unjudged documents within the depth the measure reads.
type variants struct {
	vs *judgments.VariantScores
	// affected are the challengers with an unjudged document within the
	// measure's depth on a topic of the gate.
	affected map[string]bool
	// optimistic says the optimistic assumption is defined: the measure
	// has a cutoff, within the depth the pool reached (see above).
	optimistic bool
	err        error // why the measure has no variants (judged@k, a condensed measure)
}

// optimisticCoverage is the champion's mean judged@k from which the pool is
// taken to have reached depth k (see above): on robust03's official qrels
// the three runs have judged@10 from 0.929 (rutcor03100) to 0.998, and
// rutcor03100 has judged@1000 0.280 (riskgate eval -m judged@k).
const optimisticCoverage = 0.9

// variantsOf returns the variants of measure, computed once: nil when the
// gate has no rankings, or the champion is not among its runs.
func (c *core) variantsOf(measure string) *variants {
	if c.set.rankings == nil {
		return nil
	}
	if v, ok := c.variants[measure]; ok {
		return v
	}
	r := c.set.rankings
	var systems []judgments.System
	for _, name := range append([]string{c.roles.Champion}, c.roles.Challengers...) {
		if i := slices.Index(r.Systems, name); i >= 0 {
			systems = append(systems, judgments.System{Name: name, Topics: r.Topics[i]})
		} else if name == c.roles.Champion {
			c.variants[measure] = nil // a champion from a score file: nothing to compare under another assumption
			return nil
		}
	}
	v := &variants{affected: map[string]bool{}}
	c.timed("judgments", func() {
		v.vs, v.err = judgments.ScoreVariants(systems, r.Qrels, measure, r.Options)
	})
	if v.err == nil {
		if d := v.vs.Depth; d > 0 {
			v.optimistic = judgments.NewCoverage(systems[0], d).Mean() >= optimisticCoverage
		}
		topics := map[string]bool{}
		for _, t := range c.table.Topics {
			topics[t] = true
		}
		for _, s := range v.vs.Systems[1:] { // the challengers
			for i, docs := range s.Unjudged {
				if len(docs) > 0 && topics[s.Topics[i]] {
					v.affected[s.System] = true
				}
			}
		}
	}
	c.variants[measure] = v
	return v
}

// variantTable is the table of measure with the champion's and the
// challengers' scores under variant: each cell the variant scores (a topic
// the run retrieved nothing for, filled or missing, keeps its cell).
func (c *core) variantTable(measure string, variant judgments.Variant) *scores.Table {
	t := c.tables[measure]
	v := c.variantsOf(measure)
	out := scores.NewTable(t.Measure, t.Systems, t.Topics)
	for i := range t.Scores {
		copy(out.Scores[i], t.Scores[i])
	}
	at := make(map[string]int, len(t.Topics))
	for j, topic := range t.Topics {
		at[topic] = j
	}
	for _, s := range v.vs.Systems {
		i := t.SystemIndex(s.System)
		for k, topic := range s.Topics {
			if j, ok := at[topic]; ok && !math.IsNaN(out.Scores[i][j]) {
				out.Scores[i][j] = s.Values[variant][k]
			}
		}
	}
	return out
}

// assumptions are the values of every query of the computed analyses for
// every challenger with unjudged documents within the depth of the query's
// measure, under the condensed and the optimistic assumption; none without
// rankings.
func (c *core) assumptions(computed []policies.Analysis) []policies.Assumption {
	if c.set.rankings == nil {
		return nil
	}
	var out []policies.Assumption
	for _, variant := range []judgments.Variant{judgments.Condensed, judgments.Optimistic} {
		a := policies.Assumption{Name: variant.String(), Words: assumptionWords[variant], Values: policies.NewValues()}
		for _, rq := range c.p.Queries() {
			if !slices.Contains(computed, rq.Analysis()) || rq.By != "" && pooled(rq) {
				continue // a by: rule's Bayesian quantity: its segment model is fitted once, to the scores as loaded
			}
			for _, q := range c.inSegments(rq) {
				key := c.keyOf(q)
				v := c.variantsOf(key.measure)
				if v == nil || v.err != nil || variant == judgments.Optimistic && !v.optimistic {
					continue
				}
				key.variant = variant
				var s *slice
				for i, name := range c.roles.Challengers {
					if !v.affected[name] {
						continue
					}
					if s == nil {
						c.phase(fmt.Sprintf("%s scores%s", variant, c.slice(sliceKey{measure: key.measure}).of()))
						s = c.slice(key)
					}
					a.Values.Set(name, q, s.observe(s.chals[i], q))
				}
			}
		}
		out = append(out, a)
	}
	return out
}
