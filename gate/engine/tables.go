package engine

import (
	"fmt"
	"math"
	"slices"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
)

// Tables are the score tables a gate decides on, one per measure, with the
// same systems and topics in the same order; the first is the default
// measure's: the table of the rules that name no measure, whose systems and
// topics the roles, the facts and the result's data are of. A one-measure
// gate is Tables{t}.
type Tables []*scores.Table

// Measures are the tables' measures, in order.
func (ts Tables) Measures() []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Measure
	}
	return out
}

// byMeasure indexes the tables by measure, checking that each has the
// default table's systems and topics in its order (a slice's indexes are
// the default table's) and that no measure repeats.
func (ts Tables) byMeasure() (map[string]*scores.Table, error) {
	m := map[string]*scores.Table{}
	for _, t := range ts {
		if _, dup := m[t.Measure]; dup {
			return nil, fmt.Errorf("two score tables of measure %q", t.Measure)
		}
		if !slices.Equal(t.Systems, ts[0].Systems) || !slices.Equal(t.Topics, ts[0].Topics) {
			return nil, fmt.Errorf("the score table of %q has other systems or topics than that of %q", t.Measure, ts[0].Measure)
		}
		m[t.Measure] = t
	}
	return m, nil
}

// negated is t with every score negated: a lower-is-better measure in the
// improvement orientation (core.tableOf).
func negated(t *scores.Table) *scores.Table {
	out := scores.NewTable(t.Measure, t.Systems, t.Topics)
	for i, row := range t.Scores {
		for j, v := range row {
			out.Scores[i][j] = -v
		}
	}
	return out
}

// absolute is query q with a relative margin resolved: δ = MarginPercent/100
// × |the champion's mean score on the query's measure over the gate's
// topics| (NaN cells left out; the absolute value, so that the negated
// scores of a lower-is-better measure give the same δ as its natural ones;
// every segment of a by: rule has the same δ, the whole table's).
// Every reader, threshold and evidence works on absolute margins.
func (c *core) absolute(q policies.Query) policies.Query {
	if q.MarginPercent == 0 {
		return q
	}
	s := c.slice(sliceKey{measure: c.keyOf(q).measure})
	q.Margin = q.MarginPercent / 100 * math.Abs(stats.MeanDefined(s.t.Scores[s.champ]))
	q.MarginPercent = 0
	return q
}

// measureOf is the measure query q is computed on, by name.
func (c *core) measureOf(q policies.Query) string { return c.keyOf(q).measure }

// ruleMeasures are the measures the policy's queries read, the default
// measure's first, then in rule order.
func (c *core) ruleMeasures() []string {
	out := []string{c.table.Measure}
	for _, q := range c.p.Queries() {
		if m := c.measureOf(q); !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// measureSummary records, in a gate whose rules use several measures, the
// measures (Data.Measures, Data.LowerIsBetter) and each challenger's change
// on every measure after the default one (Summary.Measures), in natural
// units from the measure's own table.
func (c *core) measureSummary(r *result.Result) {
	ms := c.ruleMeasures()
	if len(ms) < 2 {
		return
	}
	r.Data.Measures = ms
	for _, m := range ms {
		if c.p.LowerIsBetter(m) {
			r.Data.LowerIsBetter = append(r.Data.LowerIsBetter, m)
		}
	}
	champ := c.whole.champ
	for i := range r.Summary {
		ch := c.table.SystemIndex(r.Summary[i].Challenger)
		for _, m := range ms[1:] {
			r.Summary[i].Measures = append(r.Summary[i].Measures, measureDelta(c.tables[m], champ, ch, c.p.LowerIsBetter(m)))
		}
	}
}

// measureDelta is challenger ch's change against champion champ on table t
// (natural units), over the topics both were scored on.
func measureDelta(t *scores.Table, champ, ch int, lower bool) result.MeasureDelta {
	d := result.MeasureDelta{Measure: t.Measure, LowerIsBetter: lower}
	var x, base []float64
	for j := range t.Topics {
		a, b := t.Scores[ch][j], t.Scores[champ][j]
		if math.IsNaN(a) || math.IsNaN(b) {
			continue
		}
		x, base = append(x, a), append(base, b)
		better := a > b
		if lower {
			better = a < b
		}
		switch {
		case a == b:
			d.Ties++
		case better:
			d.Wins++
		default:
			d.Losses++
		}
	}
	cm, m := stats.Mean(base), stats.Mean(x)
	d.ChampionMean, d.Mean, d.Diff = jsonfloat.Float(cm), jsonfloat.Float(m), jsonfloat.Float(m-cm)
	d.DiffPercent = jsonfloat.Float(math.NaN())
	if cm != 0 {
		d.DiffPercent = jsonfloat.Float(100 * (m - cm) / cm)
	}
	return d
}
