package calibrate

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/riskgate/riskgate/internal/numfmt"
)

// The report of a calibration of a policy with by: rules (Report.Segments
// set): a row per scenario — the challenger's overall true difference and,
// unless uniform, the regressing segment's size and difference — with the
// verdict rates, the fail rate (a regression caught, or a uniformly better
// challenger blocked) and the rules that blocked.

// cellScaleSegments says what a cell of a segment calibration is.
const cellScaleSegments = "A cell's overall effect is the challenger's true difference to the champion averaged over the topics, and the regressing segment's its true difference there " +
	"(every other segment the same, so that the average is the overall effect), on the unclamped score scale: clamping to [0, 1] shrinks a realised difference toward 0; " +
	"fail = the gate fails the challenger (a regression caught, or a uniformly better challenger blocked); ship = pass or warn; blocked by = pools each fail rule failed."

func (r *Report) subtitleSegments() []string {
	p, sc := r.Pools, r.Segments
	m := sc.Model
	return []string{
		fmt.Sprintf("Policy %q (seed %d) on %s simulated pools per cell (seed %d): champion %s, challenger %s, %s, %s in %d segments of %s.",
			r.Policy.Name, r.Policy.Seed, numfmt.Thousands(r.Reps), r.Seed, p.Champion, p.Challenger, numfmt.Plural(p.Artifacts, "artifact"), numfmt.Plural(p.Topics, "topic"), sc.Segments, sc.Dimension),
		fmt.Sprintf("Drawn from the segment model fitted to your pool (posterior medians): intercept %s, σ %s, sd_topic %s, sd_system %s, sd_segment %s; the challenger's residuals correlated %s with the champion's (its per-topic differences' SD %s, your challengers').",
			numfmt.G4(float64(m.Intercept)), numfmt.G4(float64(m.Sigma)), numfmt.G4(float64(m.SDTopic)), numfmt.G4(float64(m.SDSystem)), numfmt.G4(float64(m.SDSegment)),
			numfmt.Dash.Fixed(float64(m.Rho), 3), numfmt.G4(float64(m.DiffSD))),
		cellScaleSegments + " " + capitalize(r.Harm.Words) + ".",
	}
}

func (r *Report) rowsSegments() ([][]string, string) {
	st := numfmt.Dash
	rows := [][]string{{"overall", "segment of", "Δ there", "others", "class", "pass", "warn", "fail ± SE", "inconclusive", "ship ± SE", "blocked by"}}
	for _, c := range r.Cells {
		size, delta := "–", "–"
		if s := c.Segment; s.Size > 0 {
			size, delta = strconv.Itoa(s.Size), numfmt.G(float64(s.Delta))
		}
		rows = append(rows, []string{numfmt.G(float64(c.Effect)), size, delta, st.Fixed(float64(c.Segment.Others), 4), c.Class,
			st.Fixed(float64(c.PassRate), 3), st.Fixed(float64(c.WarnRate), 3), st.Fixed(float64(c.FailRate), 3) + " ± " + st.Fixed(float64(c.SERates.Fail), 3),
			st.Fixed(float64(c.InconclusiveRate), 3), st.Fixed(float64(c.ShipRate), 3) + " ± " + st.Fixed(float64(c.SE), 3), blockedWords(c)})
	}
	return rows, "rrrrlrrrrrl"
}

func (r *Report) headlinesSegments() []string {
	var out []string
	st := numfmt.Dash
	if f := r.Segments.Catch; f != nil {
		out = append(out, fmt.Sprintf("Worst catch rate (a segment regressing beyond the margin is failed): %s ± %s, %s.", st.Fixed(float64(f.Rate), 3), st.Fixed(float64(f.SE), 3), f.Scenario))
	}
	if f := r.Segments.FalseBlock; f != nil {
		out = append(out, fmt.Sprintf("Worst false-block rate (a uniformly better challenger is failed): %s ± %s, %s.", st.Fixed(float64(f.Rate), 3), st.Fixed(float64(f.SE), 3), f.Scenario))
	}
	return out
}

func (r *Report) writeCSVSegments(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"effect", "segment_size", "segment_delta", "others", "class", "reps", "pass_rate", "warn_rate", "fail_rate", "inconclusive_rate", "ship_rate", "se", "se_fail", "raw_inconclusive_rate"}
	if len(r.Cells) > 0 {
		for _, b := range r.Cells[0].BlockedBy {
			head = append(head, "blocked_by_"+b.Rule)
		}
	}
	cw.Write(head)
	for _, c := range r.Cells {
		size, delta := "", ""
		if s := c.Segment; s.Size > 0 {
			size, delta = strconv.Itoa(s.Size), numfmt.CSV(s.Delta)
		}
		row := []string{numfmt.CSV(c.Effect), size, delta, numfmt.CSV(c.Segment.Others), c.Class, strconv.Itoa(c.Reps),
			numfmt.CSV(c.PassRate), numfmt.CSV(c.WarnRate), numfmt.CSV(c.FailRate), numfmt.CSV(c.InconclusiveRate),
			numfmt.CSV(c.ShipRate), numfmt.CSV(c.SE), numfmt.CSV(c.SERates.Fail), numfmt.CSV(c.RawInconclusiveRate)}
		for _, b := range c.BlockedBy {
			row = append(row, strconv.Itoa(b.Count))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}
