package policies

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// maxLaxRhat is the largest model.max_rhat the lint accepts quietly: Vehtari
// et al. (2021) recommend R̂ < 1.01; above 1.05 chains that disagree visibly
// still count as converged.
const maxLaxRhat = 1.05

// Bounds on rules that the lint accepts quietly (docs/policies.md, "Lax
// policies", says why each).
const (
	// maxLaxP is the largest p-value bound (at_most) on a test's or TRisk's
	// p-value: above 0.1 a challenger no better than the champion passes
	// more than one time in ten by chance alone.
	maxLaxP = 0.1
	// minLaxProbability is the smallest posterior probability a rule may ask
	// for the challenger's side: P(better) at_least below 0.8, or
	// P(riskier) at_most above 0.2, passes a challenger that is worse (or
	// riskier) with a probability of more than one in five.
	minLaxProbability = 0.8
	// minLaxLevel is the lowest level of an interval whose end a rule
	// bounds: below 0.8 the interval's end is close to the point estimate,
	// and a challenger whose difference is mostly noise passes.
	minLaxLevel = 0.8
	// maxLaxMargin is the largest non-inferiority margin δ, in score units:
	// 0.1 is five times the default policy's 0.02 and nearly the whole spread
	// of the 45 Robust04 systems' mean scores (0.264 to 0.380 in rb04.csv), so
	// a challenger that much riskier than the champion is not "not riskier".
	maxLaxMargin = 0.1
	// maxLaxMarginPercent is the largest relative margin (margin: N%): 35%
	// of the champion's mean is maxLaxMargin on Robust04's champion (0.1 of
	// 0.274 in rb04.csv is 36%), five times the default policy's 0.02 there
	// (7%).
	maxLaxMarginPercent = 35
)

// Lax lists what makes the policy lax enough that a reviewer should know,
// each with its position: a waiver that matches every challenger (its
// challenger is "*" or as wide), a waiver expiring more than a year after
// now, on_inconclusive: pass (a gate that cannot decide passes), a
// model.max_rhat above 1.05, and each rule whose bound lets a challenger
// pass on weak evidence (laxRule). Warnings includes them (riskgate policy
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
	for _, r := range p.Rules {
		for _, l := range laxRule(r) {
			out = append(out, at(l.pos)+": "+l.msg)
		}
	}
	return out
}

type laxness struct {
	pos Pos
	msg string
}

// laxRule lists what in rule r lets a challenger pass on weak evidence: a
// p-value bounded at most above maxLaxP; a posterior probability of the
// challenger's side (P(better) at least, P(riskier) at most) asked below
// minLaxProbability; an interval's end bounded at a level below
// minLaxLevel; a margin above maxLaxMargin. Each is at the value that sets
// it.
func laxRule(r *Rule) []laxness {
	q := r.Quantity
	if q == nil {
		return nil
	}
	var out []laxness
	b := r.Bound
	pValue := q.Statistic == StatPValue || q.Statistic == StatTRiskP
	switch {
	case pValue && b.Op == AtMost && b.Value > maxLaxP:
		out = append(out, laxness{r.boundPos, fmt.Sprintf("rule %s passes a challenger whose %s is up to %s: one no better than the champion passes with that probability by chance alone; expected at most %s (0.05, or 0.025 one-sided, is usual)",
			r.ID, q.Name, formatNumber(b.Value), formatNumber(maxLaxP))})
	case q.Kind == KindProbability && q.Better == Higher && b.Op == AtLeast && b.Value < minLaxProbability:
		out = append(out, laxness{r.boundPos, fmt.Sprintf("rule %s passes a challenger with %s at least %s: one that is worse with a probability up to %s passes; expected at least %s (0.95 is usual)",
			r.ID, q.Name, formatNumber(b.Value), formatNumber(tidy(1-b.Value)), formatNumber(minLaxProbability))})
	case q.Kind == KindProbability && q.Better == Lower && b.Op == AtMost && b.Value > 1-minLaxProbability && r.BySemantics != SegmentsNoHarm:
		// (A segments: no_harm rule only blocks: its bound on the
		// probability of harm trades false blocks against missed harm, and
		// the evidence to ship comes from the policy's other rules.)
		out = append(out, laxness{r.boundPos, fmt.Sprintf("rule %s passes a challenger with %s at most %s: one that is riskier with a probability up to that passes; expected at most %s (0.05 is usual)",
			r.ID, q.Name, formatNumber(b.Value), formatNumber(1-minLaxProbability))})
	}
	// The level of an interval whose end is bounded (not the predictive
	// interval of topics_at_risk, where a lower level is stricter).
	if r.Level > 0 && r.Level < minLaxLevel && (q.Statistic == StatLo || q.Statistic == StatHi || q.Statistic == StatROPE) {
		out = append(out, laxness{r.levelPos, fmt.Sprintf("rule %s decides on a %s%% interval: so narrow an interval ends near the estimate, and a difference that is mostly noise passes; expected a level of at least %s (0.95 is usual)",
			r.ID, formatNumber(tidy(100*r.Level)), formatNumber(minLaxLevel))})
	}
	if r.Margin > maxLaxMargin {
		out = append(out, laxness{r.marginPos, fmt.Sprintf("rule %s's margin %s lets a challenger that much worse than the champion, in score units, count as not riskier; expected at most %s (the default policy's is 0.02)",
			r.ID, formatNumber(r.Margin), formatNumber(maxLaxMargin))})
	}
	if r.MarginPercent > maxLaxMarginPercent {
		out = append(out, laxness{r.marginPos, fmt.Sprintf("rule %s's margin %s%% of the champion's mean lets a challenger that much worse count as not riskier; expected at most %d%% (the default policy's 0.02 is about 7%% of Robust04's champion mean)",
			r.ID, formatNumber(r.MarginPercent), maxLaxMarginPercent)})
	}
	return out
}

// matchesEveryName says whether the glob matches every non-empty name: only
// stars, and at most one '?'.
func matchesEveryName(glob string) bool {
	return strings.Trim(glob, "*?") == "" && strings.Count(glob, "?") <= 1 && strings.Contains(glob, "*")
}

// tidy rounds away the binary noise of a difference or product of decimals
// (1 − 0.7, 100 × 0.6) for a message.
func tidy(v float64) float64 { return math.Round(v*1e9) / 1e9 }
