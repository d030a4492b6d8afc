package result

import (
	"fmt"
	"slices"
	"strings"
)

// Warning is one warning as data: what it says, what it is about and the
// rules of the policy whose values it concerns, so that a report can put the
// warnings that matter to the decision first and say which concern no rule.
type Warning struct {
	Text string `json:"text"`
	// About is what the warning is about: AboutPolicy, AboutInputs, or the
	// analysis (policies.Analysis) whose computation raised it.
	About string `json:"about"`
	// Rules are the ids of the rules whose values it concerns, in policy
	// order; empty when none (a quantity only the reports show, such as the
	// risk table's ZRisk when no rule bounds it).
	Rules []string `json:"rules"`
}

// What a warning not raised by an analysis is about.
const (
	AboutPolicy = "policy" // the policy file: its settings, waivers, laxity
	AboutInputs = "inputs" // the inputs and their alignment: every rule
)

// AffectsNoRule reports whether the warning concerns a quantity no rule of
// the policy uses: an analysis's warning tied to no rule.
func (w Warning) AffectsNoRule() bool {
	return len(w.Rules) == 0 && w.About != AboutPolicy && w.About != AboutInputs && w.About != ""
}

// rank is the warning's place: a warning tied to rules first, then one
// about the policy or the inputs, then one that affects no rule.
func (w Warning) rank() int {
	switch {
	case len(w.Rules) > 0:
		return 0
	case !w.AffectsNoRule():
		return 1
	}
	return 2
}

// SetWarnings records ws in r ranked — those tied to rules first, then the
// policy's and the inputs', then those that affect no rule, each group in
// its order — as WarningDetails and, their texts, Warnings.
func (r *Result) SetWarnings(ws []Warning) {
	ranked := slices.Clone(ws)
	slices.SortStableFunc(ranked, func(a, b Warning) int { return a.rank() - b.rank() })
	r.WarningDetails = ranked
	r.Warnings = make([]string, len(ranked))
	for i, w := range ranked {
		if w.Rules == nil {
			ranked[i].Rules = []string{}
		}
		r.Warnings[i] = w.Text
	}
}

// warningDetails are r's warnings as data; a result.json written before
// warning_details existed gives each text with nothing known about it
// (About "": neither tied to a rule nor said to affect none).
func (r *Result) warningDetails() []Warning {
	if len(r.WarningDetails) == len(r.Warnings) {
		return r.WarningDetails
	}
	out := make([]Warning, len(r.Warnings))
	for i, t := range r.Warnings {
		out[i] = Warning{Text: t}
	}
	return out
}

// WarningList is r's warnings in their ranked order, each with the label
// a report prints before it: "rule not-riskier", "rules a, b" (the rules it
// concerns), "policy", "inputs", "affects no rule", or "" when nothing is
// known about it.
func (r *Result) WarningList() (labels, texts []string) {
	for _, w := range r.warningDetails() {
		label := w.About
		switch {
		case len(w.Rules) > 0:
			label = "rules " + strings.Join(w.Rules, ", ")
			if len(w.Rules) == 1 {
				label = "rule " + w.Rules[0]
			}
		case w.AffectsNoRule():
			label = "affects no rule"
		}
		labels, texts = append(labels, label), append(texts, w.Text)
	}
	return labels, texts
}

// WarningsLabel counts r's warnings for a report's last line, those that
// affect no rule apart: "3 warnings", "1 warning (affects no rule)", "3
// warnings (1 affects no rule)"; "" when there are none.
func (r *Result) WarningsLabel() string {
	ws := r.warningDetails()
	if len(ws) == 0 {
		return ""
	}
	none := 0
	for _, w := range ws {
		if w.AffectsNoRule() {
			none++
		}
	}
	n := fmt.Sprintf("%d warnings", len(ws))
	if len(ws) == 1 {
		n = "1 warning"
	}
	switch {
	case none == 0:
		return n
	case none == len(ws) && none == 1:
		return n + " (affects no rule)"
	case none == len(ws):
		return n + " (none affects a rule)"
	case none == 1:
		return n + " (1 affects no rule)"
	}
	return fmt.Sprintf("%s (%d affect no rule)", n, none)
}
