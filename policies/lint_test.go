package policies

import (
	"strings"
	"testing"
)

// Issue 17, item 8: lax policies passed with only a quiet note.
const laxPolicy = `version: 1
name: lax
on_inconclusive: pass
model:
  max_rhat: 1.1
rules:
  - id: better
    quantity: mean_diff
    at_least: 0
waivers:
  - {rule: better, challenger: "*", reason: always, approver: alice, expires: 2099-12-31}
  - {rule: better, challenger: "exp-?*", reason: soon, approver: bob, expires: 2026-12-31}
  - {rule: better, challenger: "?*", reason: every name, approver: carol, expires: 2026-07-01}
`

func TestLaxPolicy(t *testing.T) {
	p := mustParse(t, laxPolicy)
	got := p.Lax(evalNow) // 2026-06-01
	want := []string{
		`eval.yaml:11:5: the waiver of rule better matches every challenger (challenger: "*")`,
		"eval.yaml:11:5: the waiver of rule better for * expires on 2099-12-31, more than a year from now",
		`eval.yaml:13:5: the waiver of rule better matches every challenger (challenger: "?*")`,
		"eval.yaml:3:18: on_inconclusive: pass lets a gate that cannot decide pass",
		"eval.yaml:5:13: model.max_rhat 1.1 counts chains that disagree as converged; expected at most 1.05",
	}
	if len(got) != len(want) {
		t.Errorf("%d warnings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	all := strings.Join(got, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("lacks %q:\n%s", w, all)
		}
	}
	if w := strings.Join(p.Warnings(evalNow), "\n"); !strings.Contains(w, want[3]) {
		t.Errorf("Warnings (policy validate) lack the lint:\n%s", w)
	}
	// Evaluate puts them beside the verdict.
	d := p.Evaluate(Evidence{Challengers: []string{"exp-1"}, Values: NewValues(), Facts: goodFacts, Now: evalNow})
	if notes := strings.Join(d.Notes, "\n"); !strings.Contains(notes, "lax policy: "+want[3]) {
		t.Errorf("decision notes lack the lint:\n%s", notes)
	}
	// Within a year, a named challenger, the default on_inconclusive and
	// max_rhat 1.05: quiet.
	tight := mustParse(t, strings.NewReplacer("on_inconclusive: pass", "on_inconclusive: warn", "max_rhat: 1.1", "max_rhat: 1.05",
		`"*"`, "exp-1", "2099-12-31", "2027-06-01", `"?*"`, `"exp-??"`).Replace(laxPolicy))
	if got := tight.Lax(evalNow); len(got) != 0 {
		t.Errorf("a tight policy: %q", got)
	}
	for glob, every := range map[string]bool{"*": true, "**": true, "?*": true, "*?*": true, "?": false, "??*": false, "a*": false, "": false} {
		if matchesEveryName(glob) != every {
			t.Errorf("matchesEveryName(%q) = %v", glob, !every)
		}
	}
}
