package engine

import (
	"math"
	"slices"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
)

// defaultSegmentLevel is the level of a segment table's interval of Δ when
// no by: rule on its dimension has a level.
const defaultSegmentLevel = 0.95

// segmentTables are the result's segment tables (result.SegmentTable): per
// dimension of the by: rules, each challenger against the champion in every
// segment — the champion's mean (natural units), Δ (challenger − champion,
// improvement orientation) with its paired t interval at the first by:
// rule's level on the dimension (0.95 when none has one), the partially
// pooled δ_g when a Bayesian by: rule fitted the segment model, and the
// worst outcome of the dimension's by: rules there. The measure is that of
// the dimension's first by: rule. None without by: rules.
func (c *core) segmentTables(d *policies.Decision) []result.SegmentTable {
	var out []result.SegmentTable
	for _, dim := range c.p.Dimensions() {
		segs := c.segs.order[dim]
		if len(segs) == 0 {
			continue
		}
		var first, pooledQ *policies.Query
		level := 0.0
		for _, q := range c.p.Queries() {
			if q.By != dim {
				continue
			}
			if first == nil {
				first = &q
			}
			if level == 0 && q.Level > 0 && !pooled(q) {
				level = q.Level
			}
			if pooledQ == nil && pooled(q) && c.keyOf(q).measure == c.keyOf(*first).measure {
				pooledQ = &q
			}
		}
		if level == 0 {
			level = defaultSegmentLevel
		}
		measure := c.keyOf(*first).measure
		whole := c.slice(sliceKey{measure: measure})
		var fit *segFitted
		if pooledQ != nil {
			w := 0.0
			if pooledQ.Analysis() == policies.AnalysisBRisk {
				w = pooledQ.LossWeight
			}
			if f, ok := whole.segFits[segFitKey{dim, w}]; ok && f.sf != nil && f.converged {
				fit = f
			}
		}
		tab := result.SegmentTable{Dimension: dim, Measure: measure}
		for ci, name := range c.roles.Challengers {
			ch := result.SegmentChallenger{Name: name, Rows: []result.SegmentRow{}}
			var pooledDiffs map[string]result.PooledDifference
			if fit != nil {
				pooledDiffs = fit.pooledDifferences(whole.chals[ci], c.absolute(*pooledQ))
			}
			for _, g := range segs {
				row := c.segmentRow(measure, dim, g, ci, level)
				if p, ok := pooledDiffs[g.Name]; ok {
					row.Pooled = &p
				}
				row.Outcome, row.Rules = segmentOutcome(d, ci, dim, g.Name)
				ch.Rows = append(ch.Rows, row)
			}
			ch.Worst = worstSegment(ch.Rows)
			tab.Challengers = append(tab.Challengers, ch)
		}
		out = append(out, tab)
	}
	return out
}

// segmentRow is challenger ci (in roles order) against the champion in
// segment g of dimension dim on measure, without the pooled difference and
// the outcome.
func (c *core) segmentRow(measure, dim string, g policies.Segment, ci int, level float64) result.SegmentRow {
	s := c.slice(sliceKey{measure: measure, dimension: dim, segment: g.Name})
	p := s.pair(s.chals[ci])
	row := result.SegmentRow{Segment: g.Name, Topics: g.Topics, Level: level,
		ChampionMean: jsonfloat.Float(math.NaN()), Delta: jsonfloat.Float(math.NaN()), Lo: jsonfloat.Float(math.NaN()), Hi: jsonfloat.Float(math.NaN())}
	if len(p.Base) > 0 {
		m := stats.Mean(p.Base)
		if c.p.LowerIsBetter(measure) {
			m = -m // the natural units of the measure
		}
		row.ChampionMean = jsonfloat.Float(m)
		row.Delta = jsonfloat.Float(stats.Mean(p.X) - stats.Mean(p.Base))
	}
	if t, err := p.PairedT(level); err == nil {
		row.Delta, row.Lo, row.Hi = jsonfloat.Float(t.Estimate), jsonfloat.Float(t.CI.Lo), jsonfloat.Float(t.CI.Hi)
	}
	if w := c.set.attributes; w != nil && w.Weights != nil {
		in, all := 0.0, 0.0
		for j, topic := range c.table.Topics {
			all += w.Weights[topic]
			if c.segs.label[dim][j] == g.Name {
				in += w.Weights[topic]
			}
		}
		if all > 0 {
			row.Weight = jsonfloat.Ptr(in / all)
		}
	}
	return row
}

// pooledDifferences are challenger c's (an index in the fitted table)
// partially pooled differences per segment, at query q's margin and level
// (0.95 when it has none).
func (f *segFitted) pooledDifferences(c int, q policies.Query) map[string]result.PooledDifference {
	level := q.Level
	if level == 0 {
		level = defaultSegmentLevel
	}
	ds, err := f.sf.SegmentDiffs(c, f.champ, q.Margin, level)
	if err != nil {
		return nil
	}
	out := map[string]result.PooledDifference{}
	for _, d := range ds {
		out[d.Segment] = result.PooledDifference{Fit: f.fit, Mean: jsonfloat.Float(d.Interval.Mean),
			Lo: jsonfloat.Float(d.Interval.Lo), Hi: jsonfloat.Float(d.Interval.Hi), Level: level, Margin: q.Margin,
			PWorse: jsonfloat.Float(d.PBelow), PWorseMCSE: jsonfloat.Float(d.PBelowMCSE)}
	}
	return out
}

// outcomeRank orders outcomes worst first, for a segment's worst outcome.
var outcomeRank = map[policies.Outcome]int{policies.OutcomeFail: 0, policies.OutcomeWarn: 1, policies.OutcomeInconclusive: 2,
	policies.OutcomeWaived: 3, policies.OutcomePass: 4}

// segmentOutcome is the worst outcome, in segment g, of the by: rules on
// dimension dim for challenger ci, with those rules' ids.
func segmentOutcome(d *policies.Decision, ci int, dim, g string) (policies.Outcome, []string) {
	var worst policies.Outcome
	rules := []string{}
	if ci >= len(d.Challengers) {
		return worst, rules
	}
	for _, rr := range d.Challengers[ci].Rules {
		if rr.By != dim {
			continue
		}
		for _, sr := range rr.Segments {
			if sr.Segment != g {
				continue
			}
			if !slices.Contains(rules, rr.Rule) {
				rules = append(rules, rr.Rule)
			}
			if worst == "" || outcomeRank[sr.Outcome] < outcomeRank[worst] {
				worst = sr.Outcome
			}
		}
	}
	return worst, rules
}

// worstSegment is result.SegmentChallenger.Worst of rows: the first fail,
// then warn, then inconclusive in row order, else the lowest Δ.
func worstSegment(rows []result.SegmentRow) string {
	for _, o := range []policies.Outcome{policies.OutcomeFail, policies.OutcomeWarn, policies.OutcomeInconclusive} {
		for _, r := range rows {
			if r.Outcome == o {
				return r.Segment
			}
		}
	}
	worst, low := "", math.Inf(1)
	for _, r := range rows {
		if d := float64(r.Delta); d < low {
			worst, low = r.Segment, d
		}
	}
	return worst
}
