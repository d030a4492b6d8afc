package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// The segment tables of rules per segment (issue 26; docs/policies.md,
// "Segments"): per dimension a by: rule names and per challenger, one row
// per segment — its topics, weight share, the champion's mean, Δ with its
// paired t interval, the partially pooled δ_g with P(δ_g < −margin) when a
// Bayesian by: rule asked for it, the outcome and the rules — built once
// here as text and laid out by each report. Nothing here when the result
// has no segments, so that a run without by: rules renders as before.

// maxWorstSegments is how many segments of a challenger the markdown
// report shows above the fold: the failing and inconclusive ones first.
const maxWorstSegments = 3

// segmentView is one challenger's segment table on one dimension, its
// cells as text (names through the report's escaper).
type segmentView struct {
	Dimension, Measure, Challenger string
	Head                           []string
	Align                          string
	Rows                           [][]string
	Outcomes                       []policies.Outcome
	// DeltaCol is the column of Δ; its interval is the next one, headed
	// IntervalHead.
	DeltaCol     int
	IntervalHead string
	// Parts are the rows' cells by name, for a report that lays them out
	// otherwise (report.html).
	Parts []segmentParts
	// PooledHead and PWorseHead head the pooled columns; "" without them.
	PooledHead, PWorseHead string
	HasWeight              bool
	// OutcomeRules are, per row, the rules whose outcome in the segment is
	// the row's.
	OutcomeRules [][]string
	// Note says what the numbers are.
	Note string
	// Items are the rows for the interval figure.
	Items []segmentItem
	// Margins are the figure's −margin lines: the distinct margins of the
	// dimension's by: rules on the challenger, ascending.
	Margins []float64
}

// segmentParts are one row's cells.
type segmentParts struct {
	Segment, Topics, Weight, ChampionMean, Delta, Interval, Pooled, PWorse, Rules string
}

// segmentItem is one segment in the interval figure.
type segmentItem struct {
	Segment        string
	Topics         int
	Outcome        policies.Outcome
	Delta, Lo, Hi  float64
	Pooled         bool
	PMean, PLo, PH float64
}

// segmentViews are the segment tables of r, per dimension then challenger,
// names escaped by name.
func segmentViews(r *result.Result, name func(string) string) []segmentView {
	var out []segmentView
	for _, t := range r.Segments {
		for _, sc := range t.Challengers {
			out = append(out, newSegmentView(r, t, sc, name))
		}
	}
	return out
}

func newSegmentView(r *result.Result, t result.SegmentTable, sc result.SegmentChallenger, name func(string) string) segmentView {
	v := segmentView{Dimension: t.Dimension, Measure: t.Measure, Challenger: sc.Name}
	hasWeight, level := false, 0.0
	var pooled *result.PooledDifference
	samePooled := true
	for _, row := range sc.Rows {
		hasWeight = hasWeight || row.Weight != nil
		if level == 0 {
			level = row.Level
		}
		if p := row.Pooled; p != nil {
			if pooled == nil {
				pooled = p
			} else if p.Fit != pooled.Fit || p.Level != pooled.Level || p.Margin != pooled.Margin {
				samePooled = false
			}
		}
	}
	interval := result.SegmentIntervalLabel(level)
	v.Head = []string{"Segment", "Topics"}
	v.Align = "lr"
	v.HasWeight = hasWeight
	if hasWeight {
		v.Head, v.Align = append(v.Head, "Weight share"), v.Align+"r"
	}
	v.DeltaCol, v.IntervalHead = len(v.Head)+1, interval
	v.Head = append(v.Head, "Champion mean", "Δ", interval)
	v.Align += "rrr"
	if pooled != nil {
		if samePooled {
			v.PooledHead, v.PWorseHead = fmt.Sprintf("Pooled δ_g [%s CrI] (segment model, %s)", numfmt.Percent(pooled.Level), pooled.Fit),
				"P(δ_g < −"+numfmt.G(pooled.Margin)+") ± MCSE"
		} else {
			v.PooledHead, v.PWorseHead = "Pooled δ_g [CrI] (segment model)", "P(δ_g < −margin) ± MCSE"
		}
		v.Head = append(v.Head, v.PooledHead, v.PWorseHead)
		v.Align += "rr"
	}
	v.Head = append(v.Head, "Outcome", "Rules")
	v.Align += "ll"
	for _, row := range sc.Rows {
		parts := segmentParts{Segment: name(row.Segment), Topics: fmt.Sprint(row.Topics)}
		cells := []string{parts.Segment, parts.Topics}
		if hasWeight {
			parts.Weight = "–"
			if row.Weight != nil {
				parts.Weight = numfmt.Dash.Fixed(100*float64(*row.Weight), 1) + "%"
			}
			cells = append(cells, parts.Weight)
		}
		iv := numfmt.Dash.Interval(float64(row.Lo), float64(row.Hi), 3)
		if row.Level != level {
			iv += " (" + result.SegmentIntervalLabel(row.Level) + ")"
		}
		parts.ChampionMean, parts.Delta, parts.Interval = meanText(row.ChampionMean), numfmt.Signed(float64(row.Delta)), iv
		cells = append(cells, parts.ChampionMean, parts.Delta, parts.Interval)
		item := segmentItem{Segment: row.Segment, Topics: row.Topics, Outcome: row.Outcome, Delta: float64(row.Delta), Lo: float64(row.Lo), Hi: float64(row.Hi)}
		if pooled != nil {
			if p := row.Pooled; p != nil {
				mean := numfmt.Signed(float64(p.Mean)) + " " + numfmt.Dash.Interval(float64(p.Lo), float64(p.Hi), 3)
				pw := numfmt.Dash.P(float64(p.PWorse)) + " ± " + numfmt.Dash.P(float64(p.PWorseMCSE))
				if !samePooled {
					mean += fmt.Sprintf(" (%s CrI, %s)", numfmt.Percent(p.Level), p.Fit)
					pw += " (margin " + numfmt.G(p.Margin) + ")"
				}
				parts.Pooled, parts.PWorse = mean, pw
				cells = append(cells, mean, pw)
				item.Pooled, item.PMean, item.PLo, item.PH = true, float64(p.Mean), float64(p.Lo), float64(p.Hi)
			} else {
				parts.Pooled, parts.PWorse = "–", "–"
				cells = append(cells, "–", "–")
			}
		}
		byOutcome := segmentRuleOutcomes(r, sc.Name, t.Dimension, row)
		parts.Rules = numfmt.OrDash(byOutcome.text(name))
		cells = append(cells, string(row.Outcome), parts.Rules)
		v.Parts = append(v.Parts, parts)
		v.OutcomeRules = append(v.OutcomeRules, byOutcome[row.Outcome])
		v.Rows = append(v.Rows, cells)
		v.Outcomes = append(v.Outcomes, row.Outcome)
		v.Items = append(v.Items, item)
	}
	v.Note = fmt.Sprintf("Δ = challenger − champion, the mean difference over the segment's topics%s; its interval is the %s.", onMeasureText(t.Measure), interval)
	if pooled != nil {
		v.Note += " Pooled δ_g is the challenger's difference in the segment from the partially pooled segment model (score ~ 1 + (1 | topic) + (1 | system) + (1 | system:segment), one fit on the whole table): posterior mean and central credible interval, and P(δ_g < −margin) with its Monte Carlo standard error."
	}
	if r.Decision != nil {
		for _, c := range r.Decision.Challengers {
			if c.Name != sc.Name {
				continue
			}
			for _, rr := range c.Rules {
				if m := rr.Query.Margin; rr.By == t.Dimension && m > 0 && !slices.Contains(v.Margins, m) {
					v.Margins = append(v.Margins, m)
				}
			}
		}
	}
	slices.Sort(v.Margins)
	return v
}

// onMeasureText is " of ap" for a table's measure, "" without one.
func onMeasureText(m string) string {
	if m == "" {
		return ""
	}
	return " in " + m
}

// worstRows are the rows of v the markdown report shows above the fold:
// those that did not pass, in row order, at most n; and how many more
// did not pass.
func (v segmentView) worstRows(n int) (rows []int, left int) {
	for i, o := range v.Outcomes {
		if o == policies.OutcomePass {
			continue
		}
		if len(rows) < n {
			rows = append(rows, i)
		} else {
			left++
		}
	}
	return rows, left
}

// segmentsTitle names a challenger's segment table: "Chal. 1 by origin".
func (v segmentView) title(name func(string) string) string {
	return name(v.Challenger) + " by " + name(v.Dimension)
}

// ruleSegmentsText says, for a by: rule's row of a rules table, its
// dimension, semantics and worst segment: "by origin (no_harm): worst
// robust04 (10 topics); 2 of 3 segments pass"; "" for a rule without by:.
func ruleSegmentsText(rr policies.RuleResult) string {
	if rr.By == "" {
		return ""
	}
	s := "by " + rr.By
	if rr.BySemantics != "" {
		s += " (" + string(rr.BySemantics) + ")"
	}
	pass := 0
	topics := 0
	for _, sr := range rr.Segments {
		if sr.Outcome == policies.OutcomePass {
			pass++
		}
		if sr.Segment == rr.Segment {
			topics = sr.Topics
		}
	}
	if rr.Segment != "" {
		s += ": worst " + rr.Segment
		if topics > 0 {
			s += " (" + numfmt.Plural(topics, "topic") + ")"
		}
	}
	if len(rr.Segments) > 0 {
		s += fmt.Sprintf("; %d of %d segments pass", pass, len(rr.Segments))
	}
	return s
}

// nonPassing is how many of a by: rule's segments did not pass.
func nonPassing(rr policies.RuleResult) int {
	n := 0
	for _, sr := range rr.Segments {
		if sr.Outcome != policies.OutcomePass {
			n++
		}
	}
	return n
}

// failingSegments lists a by: rule's segments that did not pass, with
// their outcome and reason, for a CI system's failure message.
func failingSegments(rr policies.RuleResult) string {
	var ss []string
	for _, sr := range rr.Segments {
		if sr.Outcome == policies.OutcomePass {
			continue
		}
		s := fmt.Sprintf("%s (%s, %s)", sr.Segment, numfmt.Plural(sr.Topics, "topic"), sr.Outcome)
		if sr.Reason != "" {
			s += ": " + sr.Reason
		}
		ss = append(ss, s)
	}
	return strings.Join(ss, "; ")
}

// worstSegmentText is a summary row's worst segment, "" without one.
func worstSegmentText(row result.Summary) string {
	if row.WorstSegment == nil {
		return ""
	}
	return "worst segment: " + row.WorstSegment.Text()
}

// ruleOutcomes are a segment's by: rules grouped by their outcome there.
type ruleOutcomes map[policies.Outcome][]string

// segmentRuleOutcomes are the outcomes in row's segment of challenger's
// by: rules on dimension, from the decision; without them (a result that
// does not say), the row's rules under its outcome.
func segmentRuleOutcomes(r *result.Result, challenger, dimension string, row result.SegmentRow) ruleOutcomes {
	out := ruleOutcomes{}
	if r.Decision != nil {
		for _, c := range r.Decision.Challengers {
			if c.Name != challenger {
				continue
			}
			for _, rr := range c.Rules {
				if rr.By != dimension {
					continue
				}
				for _, sr := range rr.Segments {
					if sr.Segment == row.Segment {
						out[sr.Outcome] = append(out[sr.Outcome], rr.Rule)
					}
				}
			}
		}
	}
	if len(out) == 0 && len(row.Rules) > 0 {
		out[row.Outcome] = row.Rules
	}
	return out
}

// segmentOutcomeOrder is the order in which a segment's rules are listed:
// the most severe outcome first.
var segmentOutcomeOrder = []policies.Outcome{policies.OutcomeFail, policies.OutcomeWarn, policies.OutcomeNeedsJudgments, policies.OutcomeInconclusive,
	policies.OutcomeWaived, policies.OutcomePass}

// text lists the rules by outcome, the most severe first: "fail:
// every-origin-non-inferior, no-origin-harmed; pass: no-origin-probably-worse".
func (ro ruleOutcomes) text(name func(string) string) string {
	var parts []string
	for _, o := range segmentOutcomeOrder {
		if rules := ro[o]; len(rules) > 0 {
			names := make([]string, len(rules))
			for i, rule := range rules {
				names[i] = name(rule)
			}
			parts = append(parts, string(o)+": "+strings.Join(names, ", "))
		}
	}
	var others []policies.Outcome // any other outcome, in a fixed order
	for o := range ro {
		if !slices.Contains(segmentOutcomeOrder, o) {
			others = append(others, o)
		}
	}
	slices.Sort(others)
	for _, o := range others {
		names := make([]string, len(ro[o]))
		for i, rule := range ro[o] {
			names[i] = name(rule)
		}
		parts = append(parts, name(string(o))+": "+strings.Join(names, ", "))
	}
	return strings.Join(parts, "; ")
}
