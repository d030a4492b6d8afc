package policies

import (
	"fmt"
	"strings"
	"time"
)

// maxLaxRhat is the largest model.max_rhat the lint accepts quietly: Vehtari
// et al. (2021) recommend R̂ < 1.01; above 1.05 chains that disagree visibly
// still count as converged.
const maxLaxRhat = 1.05

// Lax lists what makes the policy lax enough that a reviewer should know,
// each with its position: a waiver that matches every challenger (its
// challenger is "*" or as wide), a waiver expiring more than a year after
// now, on_inconclusive: pass (a gate that cannot decide passes), and a
// model.max_rhat above 1.05. Warnings includes them (riskgate policy
// validate prints them), and Evaluate adds them to the decision's notes, so
// that every report shows them beside the verdict.
func (p *Policy) Lax(now time.Time) []string {
	var out []string
	at := func(pos Pos) string {
		if pos.Line == 0 {
			return p.File
		}
		return fmt.Sprintf("%s:%d:%d", p.File, pos.Line, pos.Column)
	}
	yearOut := now.UTC().AddDate(1, 0, 0)
	for _, w := range p.Waivers {
		if matchesEveryName(w.Challenger.Text) {
			out = append(out, fmt.Sprintf("%s: the waiver of rule %s matches every challenger (challenger: %q); name the challengers it is for", at(w.Pos), w.Rule, w.Challenger.Text))
		}
		if w.Expires.After(yearOut) {
			out = append(out, fmt.Sprintf("%s: the waiver of rule %s for %s expires on %s, more than a year from now; expected a waiver to be reviewed within a year", at(w.Pos), w.Rule, w.Challenger.Text, w.ExpiresText()))
		}
	}
	if p.OnInconclusive == Pass {
		out = append(out, fmt.Sprintf("%s: on_inconclusive: pass lets a gate that cannot decide pass; expected inconclusive, warn or fail", at(p.OnInconclusivePos)))
	}
	if p.Model.MaxRhat > maxLaxRhat {
		out = append(out, fmt.Sprintf("%s: model.max_rhat %s counts chains that disagree as converged; expected at most %s (1.01 is recommended)", at(p.MaxRhatPos), formatNumber(p.Model.MaxRhat), formatNumber(maxLaxRhat)))
	}
	return out
}

// matchesEveryName says whether the glob matches every non-empty name: only
// stars, and at most one '?'.
func matchesEveryName(glob string) bool {
	return strings.Trim(glob, "*?") == "" && strings.Count(glob, "?") <= 1 && strings.Contains(glob, "*")
}
