package policies

import (
	"strings"
	"testing"
	"time"
)

// Every decision Evaluate makes rechecks clean, over the evaluation tests'
// scenarios (select best and all, each on_inconclusive, corrections,
// waivers active and expired, unmet requirements); turning any outcome that
// is not a pass into a pass, or the run's verdict into pass, is caught.
func TestRecheckAgreesWithEvaluate(t *testing.T) {
	waivers := `waivers:
  - {rule: better, challenger: "C*", reason: known regression, approver: alice, expires: 2026-06-01}
  - {rule: risk, challenger: D, reason: fit known to be slow, approver: bob, expires: 2030-01-01}
`
	cases := []struct {
		name  string
		src   string
		facts Facts
		now   time.Time
	}{
		{"best", evalPolicy, goodFacts, evalNow},
		{"all", evalPolicy + "select: all\n", goodFacts, evalNow},
		{"on_inconclusive pass", evalPolicy + "on_inconclusive: pass\n", goodFacts, evalNow},
		{"waivers", evalPolicy + waivers, goodFacts, evalNow},
		{"waiver expired", evalPolicy + waivers, goodFacts, evalNow.AddDate(0, 0, 2)},
		{"few topics", evalPolicy, Facts{Topics: 10, Artifacts: 40, TopicCoverage: 1}, evalNow},
		{"few artifacts", evalPolicy, Facts{Topics: 50, Artifacts: 2, TopicCoverage: 1}, evalNow},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.src)
			ev := Evidence{Challengers: []string{"A", "B", "C", "D"}, Values: fourChallengers(p), Facts: c.facts, Now: c.now}
			spec := p.RecheckSpec(c.now)
			if err := p.Evaluate(ev).Recheck(spec); err != nil {
				t.Fatalf("a decision Evaluate made: %v", err)
			}
			forged := 0
			for ci := range 4 {
				for ri := range len(p.Rules) {
					d := p.Evaluate(ev)
					rr := &d.Challengers[ci].Rules[ri]
					if rr.Outcome == OutcomePass {
						continue
					}
					rr.Outcome, rr.WaivedOutcome = OutcomePass, ""
					forged++
					if err := d.Recheck(spec); err == nil {
						t.Errorf("challenger %s rule %s forged to pass: not caught", d.Challengers[ci].Name, rr.Rule)
					}
				}
			}
			if d := p.Evaluate(ev); d.Verdict != Pass {
				d.Verdict = Pass
				if err := d.Recheck(spec); err == nil || !strings.Contains(err.Error(), "verdict") {
					t.Errorf("run verdict forged to pass: %v", err)
				}
			}
			t.Logf("%d forged outcomes caught", forged)
		})
	}
}
