package policies

import (
	"strings"
	"testing"
)

const judgmentsPolicy = `version: 1
name: judged
rules:
  - id: better
    quantity: tests.paired_t.p
    alternative: greater
    correction: bonferroni
    at_most: 0.025
  - id: holds
    quantity: mean_diff
    at_least: -0.01
    severity: warn
  - id: ignored
    quantity: wins
    at_least: 50
    judgments: ignore
rank_by: mean_diff
`

// A rule whose outcome changes with the assumption about unjudged
// documents needs judgments (inconclusive for a fail rule, a warning for a
// warn rule), its reason names every value; one whose outcome does not
// change keeps it, and so does a judgments: ignore rule. The p-values under
// an assumption are corrected over the challengers as the standard ones
// (Bonferroni over 2: the standard 0.01 becomes 0.02, a pass; condensed
// 0.02 becomes 0.04, a fail). Recheck accepts the decision.
func TestEvaluateNeedsJudgments(t *testing.T) {
	p := mustParse(t, judgmentsPolicy)
	v, condensed, optimistic := NewValues(), NewValues(), NewValues()
	for _, c := range []string{"a", "b"} {
		fill(p, v, c, map[string]Observation{"better": Number(0.01), "holds": Number(0.02), "ignored": Number(60), "rank": Number(0.02)})
	}
	// a: the t rule fails when the unjudged are left out; the mean
	// difference holds under every assumption, the ignored rule would fail.
	fill(p, condensed, "a", map[string]Observation{"better": Number(0.02), "holds": Number(0.005), "ignored": Number(20)})
	fill(p, optimistic, "a", map[string]Observation{"better": Number(0.001), "holds": Number(0.04), "ignored": Number(80)})
	ev := Evidence{Challengers: []string{"a", "b"}, Values: v, Facts: goodFacts, Now: evalNow, Assumptions: []Assumption{
		{Name: "condensed", Words: "if they are left out", Values: condensed},
		{Name: "optimistic", Words: "if they are relevant", Values: optimistic},
	}}
	d := p.Evaluate(ev)
	a, b := d.Challengers[0], d.Challengers[1]
	if got := a.Rules[0]; got.Outcome != OutcomeNeedsJudgments || len(got.Assumed) != 2 ||
		!strings.Contains(got.Reason, "0.02 if the unjudged documents are not relevant (standard: pass)") ||
		!strings.Contains(got.Reason, "0.04 if they are left out (condensed: fail)") || !strings.Contains(got.Reason, "(optimistic: pass)") {
		t.Errorf("a's t rule: %s %q %+v", got.Outcome, got.Reason, got.Assumed)
	}
	if got := a.Rules[1]; got.Outcome != OutcomePass || len(got.Assumed) != 2 {
		t.Errorf("a's mean rule holds under every assumption: %s %q", got.Outcome, got.Reason)
	}
	if got := a.Rules[2]; got.Outcome != OutcomePass || got.Assumed != nil {
		t.Errorf("a's ignored rule: %s %+v", got.Outcome, got.Assumed)
	}
	if a.Verdict != Inconclusive || b.Verdict != Pass || d.Verdict != Pass || d.Selected[0] != "b" {
		t.Errorf("verdicts a %s, b %s, run %s selecting %v", a.Verdict, b.Verdict, d.Verdict, d.Selected)
	}
	for _, rr := range b.Rules {
		if rr.Assumed != nil || rr.Outcome != OutcomePass {
			t.Errorf("b has no unjudged documents: %s %s %+v", rr.Rule, rr.Outcome, rr.Assumed)
		}
	}
	if err := d.Recheck(p.RecheckSpec(evalNow)); err != nil {
		t.Errorf("recheck: %v", err)
	}
	// A recorded outcome that the recorded assumptions do not give is refused.
	d.Challengers[0].Rules[0].Assumed[0].Outcome = OutcomePass
	if err := d.Recheck(p.RecheckSpec(evalNow)); err == nil || !strings.Contains(err.Error(), "condensed") {
		t.Errorf("recheck of a tampered assumption: %v", err)
	}
	// A warn rule that needs judgments warns.
	fill(p, condensed, "a", map[string]Observation{"better": Number(0.001), "holds": Number(-0.05)})
	d = p.Evaluate(ev)
	if got := d.Challengers[0]; got.Rules[1].Outcome != OutcomeNeedsJudgments || got.Verdict != Warn {
		t.Errorf("warn rule: %s, challenger %s", got.Rules[1].Outcome, got.Verdict)
	}
}

// policy explain says what judgments: ignore does.
func TestExplainJudgmentsIgnore(t *testing.T) {
	out := mustParse(t, judgmentsPolicy).Explain(evalNow)
	if strings.Count(out, "Judgments: ignore.") != 1 || !strings.Contains(out, `cannot say "needs`) {
		t.Errorf("explain:\n%s", out)
	}
}

// The default policy for runs is the default with the coverage guard
// appended to its rules, and nothing else changed.
func TestDefaultForRuns(t *testing.T) {
	d, r := Default(), DefaultForRuns()
	if len(r.Rules) != len(d.Rules)+1 {
		t.Fatalf("%d rules, the default has %d", len(r.Rules), len(d.Rules))
	}
	g := r.Rules[len(r.Rules)-1]
	if g.ID != "judged-coverage" || g.Quantity.Name != "mean_diff" || g.Measure != "judged@10" || g.Bound.Op != AtLeast || g.Bound.Value != -0.10 || g.Severity != SeverityWarn {
		t.Errorf("guard %s: %s on %s, %s %v, severity %s", g.ID, g.Quantity.Name, g.Measure, g.Bound.Op, g.Bound.Value, g.Severity)
	}
	for i, rule := range d.Rules {
		if rule.ID != r.Rules[i].ID || rule.Quantity != r.Rules[i].Quantity {
			t.Errorf("rule %d: %s, the default's %s", i, r.Rules[i].ID, rule.ID)
		}
	}
	if r.Select != d.Select || r.RankBy != d.RankBy || r.LossWeight != d.LossWeight || r.OnInconclusive != d.OnInconclusive {
		t.Errorf("settings differ from the default's")
	}
}
