package calibrate

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/internal/numfmt"
)

// The report of a calibration of several measures (Report.Resampling set):
// the same formats as one measure's, with a column per measure's true
// effect, the ship rate of the primary rules alone and the rules that
// blocked.

// cellScaleMeasures says what a cell of several measures is.
const cellScaleMeasures = "A cell's true effect on a measure is the challenger's expected improvement over the champion on it (for a lower-is-better measure, the champion's score minus the challenger's) over the population of your topics; " +
	"a cell of the effects axis moves the primary measure, every other measure at the guardrail effect (0 unless --guardrail-effect gives another); a cell at a rule's null edge puts that rule's measure at the edge of its null hypothesis and every other measure " +
	"clearly passing; its risk scales the spread of the challenger's per-topic improvements; ship = the gate passes (with or without warnings) and exits 0; " +
	"primary alone = the ship rate of the rules on the primary measure alone, on the same pools; blocked by = pools each fail rule failed (the gate stops at the first analysis that fails the challenger, cheapest first)."

// subtitleMeasures is the sentences under the title of a calibration of
// several measures.
func (r *Report) subtitleMeasures() []string {
	p, rs := r.Pools, r.Resampling
	var ms, sds []string
	for _, m := range rs.Measures {
		role := "guardrail"
		if m.Primary {
			role = "primary"
		}
		if len(m.FailRules) == 0 {
			role = "no fail rule"
		}
		extra := ""
		if m.LowerIsBetter {
			extra = ", lower is better"
		}
		ms = append(ms, fmt.Sprintf("%s (%s%s)", m.Measure, role, extra))
		sds = append(sds, fmt.Sprintf("%s %s", m.Measure, numfmt.G4(float64(m.DiffSD))))
	}
	var corr []string
	for a := range rs.Measures {
		for b := a + 1; b < len(rs.Measures); b++ {
			corr = append(corr, fmt.Sprintf("%s–%s %s", rs.Measures[a].Measure, rs.Measures[b].Measure, numfmt.Dash.Fixed(float64(rs.Correlation[a][b]), 3)))
		}
	}
	return []string{
		fmt.Sprintf("Policy %q (seed %d) on %s pools per cell (seed %d) resampled from your data: champion %s, challenger %s, %s, %s of %s.",
			r.Policy.Name, r.Policy.Seed, numfmt.Thousands(r.Reps), r.Seed, p.Champion, p.Challenger, numfmt.Plural(p.Artifacts, "artifact"), numfmt.Plural(p.Topics, "topic"), strings.Join(ms, ", ")),
		fmt.Sprintf("Each pool draws your topics with replacement, each with every system's scores on every measure; the challenger is the champion shifted per measure, plus the centred improvement of one of your %s on the drawn topic. Improvements' SD: %s; between-measure correlation: %s. Guardrail effect in the cells of the effects axis: %s.",
			numfmt.Plural(rs.Challengers, "challenger"), strings.Join(sds, ", "), strings.Join(corr, ", "), numfmt.G(float64(rs.GuardrailEffect))),
		cellScaleMeasures + " " + capitalize(r.Harm.Words) + ".",
	}
}

// riskColumn reports whether measure m has a risk-adjusted truth column:
// a non-inferiority rule on it at a loss weight other than 1 (at 1 it is
// the mean effect).
func (r *Report) riskColumn(m int) bool {
	if len(r.Cells) == 0 {
		return false
	}
	lw := r.Cells[0].Measures[m].LossWeight
	return lw != nil && *lw != 1
}

// cellName is a cell's first column: its effect, or the rules at whose
// null edge it is.
func cellName(c Cell) string {
	if c.Edge != nil {
		return "edge of " + strings.Join(c.Edge, ", ")
	}
	return numfmt.G(float64(c.Effect))
}

// blockedWords are the rules that blocked pools of a cell, with counts.
func blockedWords(c Cell) string {
	var out []string
	for _, b := range c.BlockedBy {
		if b.Count > 0 {
			out = append(out, fmt.Sprintf("%s %d", b.Rule, b.Count))
		}
	}
	if len(out) == 0 {
		return "–"
	}
	return strings.Join(out, ", ")
}

// rowsMeasures is the table of rates of a calibration of several measures
// and its column alignment.
func (r *Report) rowsMeasures() ([][]string, string) {
	st := numfmt.Dash
	head := []string{"cell", "risk"}
	align := "rr"
	for m, rm := range r.Resampling.Measures {
		head = append(head, "true "+rm.Measure)
		align += "r"
		if r.riskColumn(m) {
			head = append(head, fmt.Sprintf("true risk-adj. %s (w=%s)", rm.Measure, numfmt.G(float64(*r.Cells[0].Measures[m].LossWeight))))
			align += "r"
		}
	}
	head = append(head, "class", "pass", "warn", "fail", "inconclusive", "ship ± SE", "95% interval", "primary alone ± SE", "blocked by")
	align += "lrrrrrrrl"
	rows := [][]string{head}
	for _, c := range r.Cells {
		row := []string{cellName(c), numfmt.G(float64(c.Risk))}
		for m, mt := range c.Measures {
			row = append(row, st.Fixed(float64(mt.Effect), 4))
			if r.riskColumn(m) {
				row = append(row, st.Fixed(float64(*mt.TrueRiskDiff), 4))
			}
		}
		row = append(row, c.Class, st.Fixed(float64(c.PassRate), 3), st.Fixed(float64(c.WarnRate), 3), st.Fixed(float64(c.FailRate), 3), st.Fixed(float64(c.InconclusiveRate), 3),
			st.Fixed(float64(c.ShipRate), 3)+" ± "+st.Fixed(float64(c.SE), 3), st.Interval(float64(c.ShipCI95[0]), float64(c.ShipCI95[1]), 3),
			st.Fixed(float64(c.PrimaryAlone.Rate), 3)+" ± "+st.Fixed(float64(c.PrimaryAlone.SE), 3), blockedWords(c))
		rows = append(rows, row)
	}
	return rows, align
}

// writeCSVMeasures is the CSV of a calibration of several measures: a row
// per cell (its --effects value, or the rules at whose null edge it is), a
// column per measure's true effect and per fail rule's blocked count.
func (r *Report) writeCSVMeasures(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"effect", "null_edge_of", "risk"}
	for m, rm := range r.Resampling.Measures {
		head = append(head, "true_effect_"+rm.Measure)
		if r.riskColumn(m) {
			head = append(head, "true_risk_diff_"+rm.Measure)
		}
	}
	head = append(head, "class", "reps", "pass_rate", "warn_rate", "fail_rate", "inconclusive_rate", "ship_rate", "se", "ship_lo95", "ship_hi95", "raw_inconclusive_rate",
		"ship_rate_primary_alone", "se_primary_alone")
	if len(r.Cells) > 0 {
		for _, b := range r.Cells[0].BlockedBy {
			head = append(head, "blocked_by_"+b.Rule)
		}
	}
	cw.Write(head)
	for _, c := range r.Cells {
		effect := "" // a null edge's cell is off the effects axis
		if c.Edge == nil {
			effect = numfmt.CSV(c.Effect)
		}
		row := []string{effect, strings.Join(c.Edge, " "), numfmt.CSV(c.Risk)}
		for m, mt := range c.Measures {
			row = append(row, numfmt.CSV(mt.Effect))
			if r.riskColumn(m) {
				row = append(row, numfmt.CSV(*mt.TrueRiskDiff))
			}
		}
		row = append(row, c.Class, strconv.Itoa(c.Reps), numfmt.CSV(c.PassRate), numfmt.CSV(c.WarnRate), numfmt.CSV(c.FailRate), numfmt.CSV(c.InconclusiveRate),
			numfmt.CSV(c.ShipRate), numfmt.CSV(c.SE), numfmt.CSV(c.ShipCI95[0]), numfmt.CSV(c.ShipCI95[1]), numfmt.CSV(c.RawInconclusiveRate),
			numfmt.CSV(c.PrimaryAlone.Rate), numfmt.CSV(c.PrimaryAlone.SE))
		for _, b := range c.BlockedBy {
			row = append(row, strconv.Itoa(b.Count))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// where is the headline's "at …": the cell's effect, or the rules at whose
// null edge it is, and its risk.
func where(effect float64, edge []string, risk float64) string {
	if edge != nil {
		return fmt.Sprintf("at the null edge of %s, risk %s", strings.Join(edge, ", "), numfmt.G(risk))
	}
	return fmt.Sprintf("at effect %s, risk %s", numfmt.G(effect), numfmt.G(risk))
}
