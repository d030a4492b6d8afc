package result

import (
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// The labels every report prints beside a number, so that each says what it
// is: which fit a P(better) comes from, whether a risk figure is a bound or a
// bound plus a margin, at which loss weight. The renderers call these and
// nothing else; docs/gate.md states the convention and names, for every
// label, the result.json field holding the number.

// The fits a summary's P(better) can come from (Summary.PBetterFit).
const (
	// FitHier is the hierarchical model on the raw scores (Result.Bayes).
	FitHier = "bayes"
	// FitBRiskRaw is BRisk's fit at w = 1 (the risk sweep's): the same
	// model on the same scores, used when no rule needs the raw-score fit.
	FitBRiskRaw = "brisk(loss_weight=1)"
)

// RawFit is the hierarchical model on the raw scores, and which fit it is:
// Bayes (FitHier), or, when no rule needed that fit, BRisk's at w = 1
// (FitBRiskRaw: the same model on the same scores, which the risk sweep
// fits); nil when the run has neither. The summary's P(better) and
// report.html's Figure 4 read it.
func (r *Result) RawFit() (*FitResult, string) {
	if r.Bayes != nil {
		return r.Bayes, FitHier
	}
	for _, f := range r.BRisk {
		if f != nil && f.LossWeight == 1 {
			return f, FitBRiskRaw
		}
	}
	return nil, ""
}

// FitLabel names a fit RawFit returns, for a caption: "the hierarchical
// fit on the raw scores" or "BRisk's fit at w = 1 (the same model on the same
// scores)".
func FitLabel(name string) string {
	if name == FitBRiskRaw {
		return "BRisk's fit at w = 1 (the same model on the same scores; no rule needed the raw-score fit)"
	}
	return "the hierarchical fit on the raw scores"
}

// PBetterLabel is the head of the summary's P(better) column: "P(better)
// [hier fit]", "P(better) [BRisk fit, w = 1]", or "P(better)" when no row has
// one.
func PBetterLabel(rows []Summary) string {
	for _, s := range rows {
		switch s.PBetterFit {
		case FitHier:
			return "P(better) [hier fit]"
		case FitBRiskRaw:
			return "P(better) [BRisk fit, w = 1]"
		}
	}
	return "P(better)"
}

// shortNames are the risk quantities' names in a column head.
var shortNames = map[string]string{"brisk.p_riskier": "P(riskier)", "urisk": "URisk", "trisk": "TRisk"}

// QueryLabel names what a rule's observed value is: the quantity ("bca.lo",
// "P(riskier)" in a summary head) or, with a margin, how the margin enters
// ("bca.lo + margin 0.02": the bound plus the margin; see policies.Query.Label).
func QueryLabel(q policies.Query) string { return queryLabel(q, "") }

// queryLabel is QueryLabel with on after the quantity's name: " on
// ndcg_cut_10" in a gate of several measures (onMeasure).
func queryLabel(q policies.Query, on string) string {
	if n, ok := shortNames[q.Quantity]; ok && q.Margin == 0 {
		return n + on
	}
	return q.LabelAs(q.Quantity + on)
}

// onMeasure is " on ndcg_cut_10" (" on latency_ms (lower is better)"), the
// measure a rule was judged on, when the gate has several measures; "" with
// one, or when the result does not say (an older result.json).
func (r *Result) onMeasure(rr policies.RuleResult) string {
	if len(r.Data.Measures) < 2 || rr.Measure == "" {
		return ""
	}
	if rr.LowerIsBetter {
		return " on " + rr.Measure + " (lower is better)"
	}
	return " on " + rr.Measure
}

// RiskLabel is the head of the summary's risk column: the policy's risk rule
// (Result.RiskRule) labelled as QueryLabel does, with its measure in a gate
// of several, at its loss weight — "bca.lo + margin 0.02, w = 2", "bca.lo on
// ndcg_cut_10 + margin 0.02, w = 2", "P(riskier), w = 5", and for a by: rule
// "…, worst origin segment" — or, when no rule weighs losses, URisk at the
// risk table's loss weight.
func (r *Result) RiskLabel() string {
	if rr := r.RiskRule(); rr != nil {
		label := queryLabel(rr.Query, r.onMeasure(*rr)) + ", w = " + numfmt.G(rr.Query.LossWeight)
		if rr.By != "" {
			// A by: rule's value is its worst segment's (RuleResult.Segment).
			label += ", worst " + rr.By + " segment"
		}
		return label
	}
	return "URisk, w = " + numfmt.G(max(r.RiskTable.LossWeight, 1))
}

// RuleLabel names what a rule result's observed value is, in the rules
// tables: the quantity, on its measure in a gate of several, with how its
// margin enters (policies.Query.Label): "bca.lo on ndcg_cut_10 + margin 0.02".
func (r *Result) RuleLabel(rr policies.RuleResult) string {
	return rr.Query.LabelAs(rr.Quantity + r.onMeasure(rr))
}

// RuleObserved prints a rule result's observed value for a rules table:
// with a margin added, "value + margin = observed" (policies.RuleResult.ObservedText).
func RuleObserved(rr policies.RuleResult) string { return rr.ObservedText() }

// SegmentIntervalLabel says what a segment row's interval is: "paired t
// 95% CI" (SegmentRow.Lo, Hi).
func SegmentIntervalLabel(level float64) string {
	return "paired t " + numfmt.Percent(level) + " CI"
}

// OutcomeVerb is a segment's or rule's outcome as the verb of a sentence
// naming the rules: "fails", "warns on", "is inconclusive on", "passes".
func OutcomeVerb(o policies.Outcome) string {
	switch o {
	case policies.OutcomeFail:
		return "fails"
	case policies.OutcomeWarn:
		return "warns on"
	case policies.OutcomeInconclusive:
		return "is inconclusive on"
	case policies.OutcomeWaived:
		return "is waived on"
	case policies.OutcomePass:
		return "passes"
	}
	return string(o) + " on"
}

// Text is the worst segment as the summary line names it: "origin=robust04
// (10 topics): Δ -0.082, paired t 95% CI [-0.150, -0.010]; fails
// no-origin-harmed". Names are as given: the caller escapes the whole for
// its channel.
func (w WorstSegment) Text() string {
	s := fmt.Sprintf("%s=%s (%s): Δ %s, %s %s", w.Dimension, w.Segment, numfmt.Plural(w.Topics, "topic"), numfmt.Signed(float64(w.Delta)),
		SegmentIntervalLabel(w.Level), numfmt.Dash.Interval(float64(w.Lo), float64(w.Hi), 3))
	if len(w.Rules) > 0 {
		s += "; " + OutcomeVerb(w.Outcome) + " " + strings.Join(w.Rules, ", ")
	} else {
		s += "; " + string(w.Outcome)
	}
	return s
}

// WeightingText says, for every report, that the means are traffic-weighted
// (Result.Weighting): "mean and mean_diff are traffic-weighted means, Σ w·x
// / Σ w, with the weights of topics.csv; 31.2 effective topics (Kish)"; ""
// for plain means.
func (r *Result) WeightingText() string {
	w := r.Weighting
	if w == nil {
		return ""
	}
	return w.Note + "; " + numfmt.Dash.Fixed(float64(w.EffectiveTopics), 1) + " effective topics (Kish)"
}
