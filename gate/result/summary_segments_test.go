package result

import (
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"
)

// The worst segment the summary names: the engine's choice
// (SegmentChallenger.Worst) when it names a row, else the first row of the
// most severe outcome, else the lowest Δ; over dimensions, the most severe
// outcome, ties to the lower Δ, then the first dimension.
func TestWorstSegment(t *testing.T) {
	t.Parallel()
	row := func(seg string, delta float64, o policies.Outcome) SegmentRow {
		return SegmentRow{Segment: seg, Topics: 10, Delta: jsonfloat.Float(delta), Lo: jsonfloat.Float(delta - 0.05), Hi: jsonfloat.Float(delta + 0.05), Level: 0.95, Outcome: o,
			Rules: []string{"r"}}
	}
	pass, fail, inc := policies.OutcomePass, policies.OutcomeFail, policies.OutcomeInconclusive
	for _, c := range []struct {
		name  string
		sc    SegmentChallenger
		worst string
	}{
		{"lowest Δ when all pass", SegmentChallenger{Rows: []SegmentRow{row("a", 0.02, pass), row("b", -0.01, pass), row("c", 0.01, pass)}}, "b"},
		{"the first failing before a lower Δ", SegmentChallenger{Rows: []SegmentRow{row("a", -0.2, pass), row("b", -0.01, fail), row("c", -0.1, fail)}}, "b"},
		{"fail before inconclusive", SegmentChallenger{Rows: []SegmentRow{row("a", -0.2, inc), row("b", 0.01, fail)}}, "b"},
		{"the engine's choice", SegmentChallenger{Worst: "c", Rows: []SegmentRow{row("a", -0.2, fail), row("c", 0.1, pass)}}, "c"},
		{"an unknown choice is recomputed", SegmentChallenger{Worst: "z", Rows: []SegmentRow{row("a", -0.2, pass), row("c", 0.1, inc)}}, "c"},
	} {
		got := WorstSegmentRow(c.sc)
		if got == nil || got.Segment != c.worst {
			t.Errorf("%s: worst %+v, want %s", c.name, got, c.worst)
		}
	}
	if WorstSegmentRow(SegmentChallenger{}) != nil {
		t.Error("a worst row without rows")
	}

	// Across dimensions; the rules named are those whose outcome in the
	// segment is the row's, from the decision.
	r := &Result{Segments: []SegmentTable{
		{Dimension: "origin", Challengers: []SegmentChallenger{{Name: "x", Rows: []SegmentRow{row("robust04", -0.05, inc)}}}},
		{Dimension: "locale", Challengers: []SegmentChallenger{{Name: "x", Rows: []SegmentRow{row("de", 0.02, fail), row("fr", -0.08, pass)}}}},
	}}
	cd := policies.ChallengerDecision{Name: "x", Rules: []policies.RuleResult{
		{Rule: "all-locales", By: "locale", Segments: []policies.SegmentResult{{Segment: "de", Outcome: fail}, {Segment: "fr", Outcome: pass}}},
		{Rule: "no-locale-harmed", By: "locale", Segments: []policies.SegmentResult{{Segment: "de", Outcome: pass}, {Segment: "fr", Outcome: pass}}},
		{Rule: "other-dimension", By: "origin", Segments: []policies.SegmentResult{{Segment: "de", Outcome: fail}}},
	}}
	ws := r.worstSegment(cd)
	if ws == nil || ws.Dimension != "locale" || ws.Segment != "de" || ws.Outcome != fail || strings.Join(ws.Rules, ",") != "all-locales" {
		t.Fatalf("worst segment %+v, want locale=de failing all-locales", ws)
	}
	want := "locale=de (10 topics): Δ +0.020, paired t 95% CI [-0.030, 0.070]; fails all-locales"
	if ws.Text() != want {
		t.Errorf("text %q, want %q", ws.Text(), want)
	}
	if r.worstSegment(policies.ChallengerDecision{Name: "y"}) != nil {
		t.Error("a worst segment for a challenger without rows")
	}
}

// A by: rule as the policy's risk rule: the summary's risk head says its
// value is the worst segment's.
func TestRiskLabelOfByRule(t *testing.T) {
	t.Parallel()
	q := policies.Query{Quantity: "bca.lo", LossWeight: 1, Level: 0.95, Margin: 0.05, By: "origin"}
	r := &Result{Decision: &policies.Decision{Challengers: []policies.ChallengerDecision{{Name: "x", Rules: []policies.RuleResult{
		{Rule: "every-origin", Quantity: q.Quantity, Query: q, Severity: policies.SeverityFail, By: "origin", Segment: "robust04"}}}}}}
	if got, want := r.RiskLabel(), "bca.lo + margin 0.05, w = 1, worst origin segment"; got != want {
		t.Errorf("risk label %q, want %q", got, want)
	}
}
