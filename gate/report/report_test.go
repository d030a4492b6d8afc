package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/mdcheck"

	"github.com/riskgate/riskgate/policies"
)

// Control characters in a name never reach the terminal.
func TestTextReportControlCharacters(t *testing.T) {
	t.Parallel()
	r := &result.Result{Policy: result.Policy{Name: "p"}, Data: result.Data{Champion: "c\x1b[2J"},
		Decision: &policies.Decision{Verdict: policies.Fail, Reason: "x\rfails", Challengers: []policies.ChallengerDecision{{Name: "a\nb\x07", Verdict: policies.Fail}}}}
	var b strings.Builder
	Text(&b, r, false)
	if strings.ContainsAny(b.String(), "\x1b\r\x07") || strings.Contains(b.String(), "a\nb") {
		t.Errorf("control characters reached the terminal: %q", b.String())
	}
}

// Long lists are cut with notes, and the report stays under the limit.
func TestMarkdownReportLimit(t *testing.T) {
	t.Parallel()
	r := &result.Result{Policy: result.Policy{Name: "big"}, Decision: &policies.Decision{Verdict: policies.Fail, Reason: strings.Repeat("why ", 5000)},
		RiskTable: result.RiskTable{LossWeight: 1}}
	long := strings.Repeat("<@x|", 40)
	for i := range 400 {
		name := fmt.Sprintf("%s-%03d", long, i)
		cd := policies.ChallengerDecision{Name: name, Verdict: policies.Fail, Reason: strings.Repeat("because ", 50)}
		for k := range 5 {
			cd.Rules = append(cd.Rules, policies.RuleResult{Rule: fmt.Sprintf("rule-%d", k), Outcome: policies.OutcomeFail,
				Observed: policies.Number(0.5), Bound: policies.Bound{Op: policies.AtLeast, Value: 0.95}, Reason: strings.Repeat("observed 0.5 ", 30)})
		}
		r.Decision.Challengers = append(r.Decision.Challengers, cd)
		r.Data.Challengers = append(r.Data.Challengers, name)
		r.RiskTable.Systems = append(r.RiskTable.Systems, result.SystemRisk{Name: name, Role: result.RoleChallenger})
		r.Warnings = append(r.Warnings, "warning about "+name)
	}
	var b strings.Builder
	if err := Markdown(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	mdcheck.Structure(t, md, MaxMarkdownBytes)
	for _, note := range []string{"more rule results", "more challengers", "more warnings"} {
		if !strings.Contains(md, note) {
			t.Errorf("no truncation note %q", note)
		}
	}
	if !utf8.ValidString(md) {
		t.Error("invalid UTF-8 after cutting")
	}
}
