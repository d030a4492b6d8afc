package result

import (
	"math"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"
)

// Summary is one challenger's line of the summary every report leads with:
// what changed (the means, Δ and Δ%, wins, ties and losses over topics), how
// sure the model is that it is better, the risk figure the policy decides
// on, and the verdict with its reason. Numbers are NaN (null) when not
// computed.
type Summary struct {
	Challenger string           `json:"challenger"`
	Verdict    policies.Verdict `json:"verdict"`
	Selected   bool             `json:"selected"`
	Reason     string           `json:"reason"`
	// Means over the topics each system was scored on (the risk table's).
	ChampionMean jsonfloat.Float `json:"champion_mean"`
	Mean         jsonfloat.Float `json:"mean"`
	// Diff is Mean − ChampionMean; DiffPercent is Diff as a percentage of
	// ChampionMean.
	Diff        jsonfloat.Float `json:"diff"`
	DiffPercent jsonfloat.Float `json:"diff_percent"`
	Wins        *int            `json:"wins,omitempty"`
	Ties        *int            `json:"ties,omitempty"`
	Losses      *int            `json:"losses,omitempty"`
	// PBetter is P(δ > 0) in the raw-score fit (or BRisk's at w = 1, the same
	// model); absent without one, or when it did not converge. PBetterFit
	// names the fit it came from: FitHier or FitBRiskRaw.
	PBetter    *jsonfloat.Float `json:"p_better,omitempty"`
	PBetterFit string           `json:"p_better_fit,omitempty"`
	// RiskRule and Risk are the policy's risk rule (Result.RiskRule) and
	// what it observed for this challenger; absent when no rule weighs
	// losses, and the reports then show URisk at the risk table's w.
	RiskRule string                `json:"risk_rule,omitempty"`
	Risk     *policies.Observation `json:"risk,omitempty"`
	// Measures are the challenger's change on every other measure a rule
	// uses (Data.Measures after the first), in natural units; absent for a
	// one-measure gate.
	Measures []MeasureDelta `json:"measures,omitempty"`
	// WorstSegment is the segment, over the dimensions of the by: rules
	// (Result.Segments), the challenger does worst in; absent without a
	// by: rule.
	WorstSegment *WorstSegment `json:"worst_segment,omitempty"`
}

// WorstSegment is a challenger's worst segment: the segment table's row
// (SegmentChallenger.Worst) with the most severe outcome over the
// dimensions — fail, then warn, then inconclusive — ties going to the
// lower Δ, then to the first dimension. Delta is the challenger's mean
// difference to the champion there, [Lo, Hi] its paired t confidence
// interval at Level, and Rules the by: rules whose outcome in the segment
// is Outcome.
type WorstSegment struct {
	Dimension string           `json:"dimension"`
	Segment   string           `json:"segment"`
	Topics    int              `json:"topics"`
	Delta     jsonfloat.Float  `json:"delta"`
	Lo        jsonfloat.Float  `json:"lo"`
	Hi        jsonfloat.Float  `json:"hi"`
	Level     float64          `json:"level"`
	Outcome   policies.Outcome `json:"outcome"`
	Rules     []string         `json:"rules,omitempty"`
}

// MeasureDelta is a challenger's change on one measure, in the measure's
// natural units: the means over the topics both were scored on, Diff =
// Mean − ChampionMean (negative is better when LowerIsBetter), DiffPercent
// = 100·Diff/ChampionMean, and wins, ties and losses counted in the
// measure's direction (a win on a lower-is-better measure is a lower score).
type MeasureDelta struct {
	Measure       string          `json:"measure"`
	LowerIsBetter bool            `json:"lower_is_better,omitempty"`
	ChampionMean  jsonfloat.Float `json:"champion_mean"`
	Mean          jsonfloat.Float `json:"mean"`
	Diff          jsonfloat.Float `json:"diff"`
	DiffPercent   jsonfloat.Float `json:"diff_percent"`
	Wins          int             `json:"wins"`
	Ties          int             `json:"ties"`
	Losses        int             `json:"losses"`
}

// NewSummary is the summary of r: one Summary per challenger of the
// decision, in its order.
func NewSummary(r *Result) []Summary {
	if r.Decision == nil {
		return nil
	}
	champMean := math.NaN()
	rows := map[string]SystemRisk{}
	for _, sr := range r.RiskTable.Systems {
		if sr.Role == RoleChampion {
			champMean = float64(sr.Mean)
		}
		rows[sr.Name] = sr
	}
	pBetter := map[string]jsonfloat.Float{}
	raw, rawFit := r.RawFit()
	if raw != nil && raw.Unavailable == "" && raw.Converged {
		for _, c := range raw.Comparisons {
			pBetter[c.Challenger] = c.PBetter
		}
	}
	risk := r.RiskRule()
	out := []Summary{}
	for _, c := range r.Decision.Challengers {
		s := Summary{Challenger: c.Name, Verdict: c.Verdict, Selected: c.Selected, Reason: c.Reason,
			ChampionMean: jsonfloat.Float(champMean), Mean: jsonfloat.Float(math.NaN()), Diff: jsonfloat.Float(math.NaN()), DiffPercent: jsonfloat.Float(math.NaN())}
		if sr, ok := rows[c.Name]; ok {
			s.Mean = sr.Mean
			if sr.MeanDiff != nil {
				s.Diff = *sr.MeanDiff
				if champMean != 0 {
					s.DiffPercent = jsonfloat.Float(100 * float64(*sr.MeanDiff) / champMean)
				}
			}
			s.Wins, s.Ties, s.Losses = sr.Wins, sr.Ties, sr.Losses
		}
		if p, ok := pBetter[c.Name]; ok {
			s.PBetter, s.PBetterFit = &p, rawFit
		}
		if risk != nil {
			for _, rr := range c.Rules {
				if rr.Rule == risk.Rule {
					s.RiskRule = rr.Rule
					o := rr.Observed
					s.Risk = &o
				}
			}
		}
		s.WorstSegment = r.worstSegment(c)
		out = append(out, s)
	}
	return out
}

// outcomeSeverity orders segment outcomes, the most severe first.
func outcomeSeverity(o policies.Outcome) int {
	switch o {
	case policies.OutcomeFail:
		return 0
	case policies.OutcomeWarn:
		return 1
	case policies.OutcomeInconclusive:
		return 2
	}
	return 3
}

// WorstSegmentRow is the row of a segment table that the summary names for
// a challenger: the one SegmentChallenger.Worst names, else the first row
// of the most severe outcome, else the one with the lowest Δ; nil without
// rows.
func WorstSegmentRow(sc SegmentChallenger) *SegmentRow {
	var worst *SegmentRow
	for i := range sc.Rows {
		row := &sc.Rows[i]
		if sc.Worst != "" {
			if row.Segment == sc.Worst {
				return row
			}
			continue
		}
		if worst == nil || worseRow(row, worst) {
			worst = row
		}
	}
	if worst == nil && len(sc.Rows) > 0 && sc.Worst != "" {
		return WorstSegmentRow(SegmentChallenger{Name: sc.Name, Rows: sc.Rows})
	}
	return worst
}

// worseRow: a has a more severe outcome than b, or the same and a lower Δ.
func worseRow(a, b *SegmentRow) bool {
	sa, sb := outcomeSeverity(a.Outcome), outcomeSeverity(b.Outcome)
	if sa != sb {
		return sa < sb
	}
	if sa < 3 {
		return false // the first of the most severe outcome, in row order
	}
	return float64(a.Delta) < float64(b.Delta)
}

// worstSegment is c's WorstSegment over r.Segments; nil without one.
func (r *Result) worstSegment(c policies.ChallengerDecision) *WorstSegment {
	var best *WorstSegment
	for _, t := range r.Segments {
		for _, sc := range t.Challengers {
			if sc.Name != c.Name {
				continue
			}
			row := WorstSegmentRow(sc)
			if row == nil {
				continue
			}
			ws := &WorstSegment{Dimension: t.Dimension, Segment: row.Segment, Topics: row.Topics, Delta: row.Delta, Lo: row.Lo, Hi: row.Hi,
				Level: row.Level, Outcome: row.Outcome, Rules: segmentRules(c, t.Dimension, row)}
			if best == nil || outcomeSeverity(ws.Outcome) < outcomeSeverity(best.Outcome) ||
				outcomeSeverity(ws.Outcome) == outcomeSeverity(best.Outcome) && float64(ws.Delta) < float64(best.Delta) {
				best = ws
			}
		}
	}
	return best
}

// segmentRules are the by: rules on dimension whose outcome in row's
// segment is row's outcome (the rules that make it), in rule order; the
// row's own list when the decision does not say.
func segmentRules(c policies.ChallengerDecision, dimension string, row *SegmentRow) []string {
	var rules []string
	for _, rr := range c.Rules {
		if rr.By != dimension {
			continue
		}
		for _, sr := range rr.Segments {
			if sr.Segment == row.Segment && sr.Outcome == row.Outcome {
				rules = append(rules, rr.Rule)
			}
		}
	}
	if len(rules) == 0 {
		return row.Rules
	}
	return rules
}
