package report

import (
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// The summary every report leads with: one row per challenger — the mean
// of the champion and of the challenger, the difference Δ and Δ%, wins,
// ties and losses over topics, P(better), the risk figure the policy
// decides on, and the verdict — then each challenger's reasons, each
// repeated reason once.

// summary is the summary table of a run: one result.Summary per
// challenger, with the head of the risk column and each row's risk figure
// as the rules print it.
type summary struct {
	// RiskHead names the risk figure: "P(riskier), w = 5" (Result.RiskLabel);
	// PBetterHead the fit P(better) comes from (result.PBetterLabel).
	RiskHead, PBetterHead string
	Rows                  []result.Summary
	risk                  map[string]string // challenger → its risk figure
}

func newSummary(r *result.Result) summary {
	s := summary{RiskHead: r.RiskLabel(), risk: map[string]string{}}
	risk := r.RiskRule()
	urisk := map[string]string{}
	for _, sr := range r.RiskTable.Systems {
		if sr.URisk != nil {
			urisk[sr.Name] = num(*sr.URisk, 3)
		}
	}
	rules := map[string]policies.Bound{}
	if risk != nil {
		rules[risk.Rule] = risk.Bound
	}
	// Computed from the result rather than read from r.Summary, so that a
	// result.json written before the summary existed renders one too.
	s.Rows = result.NewSummary(r)
	// The change on the other measures is the engine's, from their tables.
	for i := range s.Rows {
		for _, stored := range r.Summary {
			if stored.Challenger == s.Rows[i].Challenger {
				s.Rows[i].Measures = stored.Measures
			}
		}
	}
	s.PBetterHead = result.PBetterLabel(s.Rows)
	for _, rs := range s.Rows {
		switch {
		case rs.Risk != nil:
			s.risk[rs.Challenger] = observedText(*rs.Risk, rules[rs.RiskRule])
		case risk == nil && urisk[rs.Challenger] != "":
			s.risk[rs.Challenger] = urisk[rs.Challenger]
		}
	}
	return s
}

// riskText is a row's risk figure, "–" when there is none.
func (s summary) riskText(row result.Summary) string {
	if t, ok := s.risk[row.Challenger]; ok {
		return t
	}
	return "–"
}

// wtlText prints a row's wins, ties and losses: "30/2/18", "–" when not computed.
func wtlText(row result.Summary) string {
	if row.Wins == nil || row.Ties == nil || row.Losses == nil {
		return "–"
	}
	return fmt.Sprintf("%d/%d/%d", *row.Wins, *row.Ties, *row.Losses)
}

// pBetterText prints a row's P(better), "–" when there is no Bayesian fit.
func pBetterText(row result.Summary) string {
	if row.PBetter == nil {
		return "–"
	}
	return numfmt.Dash.P(float64(*row.PBetter))
}

// signedPct prints a percentage with its sign, "–" when not finite.
func signedPct(x float64) string {
	s := numfmt.Dash.Fixed(x, 1)
	if s != "–" && s[0] != '-' {
		s = "+" + s
	}
	if s != "–" {
		s += "%"
	}
	return s
}

// meanText prints a mean score as the summary shows it.
func meanText(x jsonfloat.Float) string { return numfmt.Dash.Fixed(float64(x), 3) }

// why is one reason a challenger did not pass a rule: the rule's reason and
// what would decide it. SameAs names the first challenger and rule the same
// sentence was given for, so that it is written once.
type why struct {
	Rule    string
	Outcome policies.Outcome
	Text    string
	// SameAs, when not nil, is the first challenger and rule given Text.
	SameAs *[2]string
}

// challengerWhy is a challenger's verdict and the reasons of every rule it
// did not pass.
type challengerWhy struct {
	Name     string
	Verdict  policies.Verdict
	Selected bool
	Reason   string // the decision's one line: "fails not-riskier"
	Rules    []why
}

// reasons lists each challenger's verdict and reasons, a sentence repeated
// for another challenger pointing at the first (SameAs).
func reasons(r *result.Result) []challengerWhy {
	if r.Decision == nil {
		return nil
	}
	first := map[string]*[2]string{} // sentence → first challenger and rule
	var out []challengerWhy
	for _, c := range r.Decision.Challengers {
		cw := challengerWhy{Name: c.Name, Verdict: c.Verdict, Selected: c.Selected, Reason: shortReason(r, c.Reason)}
		for _, rr := range c.Rules {
			if rr.Outcome == policies.OutcomePass {
				continue
			}
			text := rr.Reason
			if e := evidenceOf(r, c.Name, rr.Rule); e != nil {
				text += "; " + decideText(e)
			}
			if rr.Waiver != nil && rr.Waiver.Note != "" {
				text += "; " + rr.Waiver.Note
			}
			// An unmet requirement's reason is said once, where the
			// requirement is listed.
			for _, u := range r.Decision.Unmet {
				text = strings.ReplaceAll(text, "("+u.Reason+")", "(requirement "+u.Requirement+")")
			}
			w := why{Rule: rr.Rule, Outcome: rr.Outcome, Text: text}
			if f, ok := first[text]; ok {
				w.SameAs = f
			} else {
				first[text] = &[2]string{c.Name, rr.Rule}
			}
			cw.Rules = append(cw.Rules, w)
		}
		out = append(out, cw)
	}
	return out
}

// shortReason is a verdict's reason (the decision's or a challenger's)
// without the reasons of the rules in parentheses — "inconclusive on
// better-on-average (the Bayesian fit did not converge: …)" becomes
// "inconclusive on better-on-average" — for the reports that list each
// rule's reason below it, so that a long reason is not repeated for every
// challenger and again for the run.
func shortReason(r *result.Result, reason string) string {
	if r.Decision == nil {
		return reason
	}
	for _, c := range r.Decision.Challengers {
		for _, rr := range c.Rules {
			// Contains first, which allocates nothing: building " (…)" for
			// every rule, for every reason, was quadratic in the challengers
			// (1 CPU-s for 400 challengers of 5 rules).
			if rr.Outcome != policies.OutcomePass && rr.Reason != "" && strings.Contains(reason, rr.Reason) {
				reason = strings.ReplaceAll(reason, " ("+rr.Reason+")", "")
			}
		}
	}
	return reason
}

// measureLabel names a measure of a gate of several in a summary row:
// "on ndcg_cut_10", "on latency_ms (lower is better)".
func measureLabel(m result.MeasureDelta) string {
	if m.LowerIsBetter {
		return "on " + m.Measure + " (lower is better)"
	}
	return "on " + m.Measure
}

// measureWTL prints a measure's wins, ties and losses as wtlText does.
func measureWTL(m result.MeasureDelta) string {
	return fmt.Sprintf("%d/%d/%d", m.Wins, m.Ties, m.Losses)
}

// poolNote says, after a gate's count of artifacts, how many came from its
// run history (gate --pool) and how many stored systems it left out (its
// own inputs aside): " (8 from the pool ./pool, 1 left out)"; "" without
// a pool. name escapes the folder for the report.
func poolNote(r *result.Result, name func(string) string) string {
	p := r.Data.Pool
	if p == nil {
		return ""
	}
	out := 0
	for _, x := range p.Excluded {
		if x.Reason != "in-inputs" {
			out++
		}
	}
	note := fmt.Sprintf(" (%d from the pool %s", len(p.Artifacts), name(p.Dir))
	if out > 0 {
		note += fmt.Sprintf(", %d left out", out)
	}
	return note + ")"
}
