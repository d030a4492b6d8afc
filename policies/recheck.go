package policies

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"
)

// RecheckRule is a rule as recorded beside a saved decision.
type RecheckRule struct {
	Quantity string
	Bound    Bound
	Severity Severity
}

// RecheckSpec is the policy a saved decision claims to apply: its rules by
// id (in order), waivers, selection and on_inconclusive, and the run's
// date for waiver expiry.
type RecheckSpec struct {
	RuleIDs        []string
	Rules          map[string]RecheckRule
	Waivers        []*Waiver
	Select         Select
	RankBy         string
	OnInconclusive Verdict
	Now            time.Time
}

// Recheck recomputes a saved decision from what it records — each rule's
// observed value against its bound and severity, the unmet requirements,
// the p-value corrections over the challengers, the waivers — with the
// rules Evaluate applies, and returns the first way the saved outcomes,
// verdicts or selection disagree. It is how riskgate publish refuses a
// result.json edited to pass; it cannot tell whether the observed values
// themselves are the ones computed.
//
// Where the saved decision does not say enough to recompute one outcome
// exactly (a pass capped by on_insufficient_pool, which the result does not
// record), any outcome that is not a pass is accepted.
func (d *Decision) Recheck(spec RecheckSpec) error {
	n := len(d.Challengers)
	for ci := range d.Challengers {
		c := &d.Challengers[ci]
		if len(c.Rules) != len(spec.RuleIDs) {
			return fmt.Errorf("challenger %q has %d rule results; the policy has %d rules", c.Name, len(c.Rules), len(spec.RuleIDs))
		}
		for ri := range c.Rules {
			rr := &c.Rules[ri]
			if rr.Rule != spec.RuleIDs[ri] {
				return fmt.Errorf("challenger %q: rule result %d is %q; the policy's rule %d is %q", c.Name, ri+1, rr.Rule, ri+1, spec.RuleIDs[ri])
			}
			if err := d.recheckRule(c.Name, ci, rr, spec, n); err != nil {
				return fmt.Errorf("challenger %q, rule %s: %v", c.Name, rr.Rule, err)
			}
		}
		if v, _ := challengerVerdict(c.Rules); v != c.Verdict {
			return fmt.Errorf("challenger %q: verdict %s; its rule outcomes give %s", c.Name, c.Verdict, v)
		}
	}
	// The run: decideRun again over the recorded challengers' verdicts and
	// rank values.
	p := &Policy{Name: d.Policy, Select: spec.Select, RankBy: spec.RankBy, OnInconclusive: spec.OnInconclusive}
	switch {
	case spec.Select != SelectBest && spec.Select != SelectAll:
		return fmt.Errorf("select %q: expected best or all", spec.Select)
	case spec.Select == SelectBest && LookupQuantity(spec.RankBy) == nil:
		return fmt.Errorf("rank_by %q is not a quantity", spec.RankBy)
	}
	again := &Decision{Select: d.Select, Selected: []string{}, Challengers: slices.Clone(d.Challengers)}
	values := NewValues()
	names := make([]string, n)
	q, ranked := p.RankQuery()
	for i := range again.Challengers {
		c := &again.Challengers[i]
		names[i], c.Selected = c.Name, false
		if ranked && c.Rank != nil {
			values.Set(c.Name, q, *c.Rank)
		}
	}
	p.decideRun(again, Evidence{Challengers: names, Values: values})
	switch {
	case again.Raw != d.Raw:
		return fmt.Errorf("raw verdict %s; the challengers' verdicts give %s", d.Raw, again.Raw)
	case again.Verdict != d.Verdict:
		return fmt.Errorf("verdict %s; the raw verdict %s with on_inconclusive %s gives %s", d.Verdict, d.Raw, spec.OnInconclusive, again.Verdict)
	case !slices.Equal(again.Selected, d.Selected):
		return fmt.Errorf("selected %q; the verdicts and ranks select %q", d.Selected, again.Selected)
	}
	for i := range again.Challengers {
		if again.Challengers[i].Selected != d.Challengers[i].Selected {
			return fmt.Errorf("challenger %q: selected %v disagrees with the run's selection", d.Challengers[i].Name, d.Challengers[i].Selected)
		}
	}
	return nil
}

func (d *Decision) recheckRule(challenger string, ci int, rr *RuleResult, spec RecheckSpec, n int) error {
	r, ok := spec.Rules[rr.Rule]
	if !ok {
		return fmt.Errorf("not a rule of the policy")
	}
	q := LookupQuantity(rr.Quantity)
	switch {
	case q == nil || rr.Quantity != r.Quantity:
		return fmt.Errorf("quantity %q; the policy's rule bounds %q", rr.Quantity, r.Quantity)
	case !reflect.DeepEqual(rr.Bound, r.Bound):
		return fmt.Errorf("bound %s; the policy's rule says %s", rr.Bound, r.Bound)
	case rr.Severity != r.Severity:
		return fmt.Errorf("severity %s; the policy's rule says %s", rr.Severity, r.Severity)
	}
	// A corrected p-value is recomputed over the challengers.
	if rr.Unadjusted != nil {
		if rr.Correction == "" || rr.Correction == CorrectNone {
			return fmt.Errorf("an unadjusted value without a correction")
		}
		raw := make([]float64, n)
		for i, c := range d.Challengers {
			raw[i] = math.NaN()
			if ri := slices.IndexFunc(c.Rules, func(x RuleResult) bool { return x.Rule == rr.Rule }); ri >= 0 {
				if u := c.Rules[ri].Unadjusted; u != nil {
					if v, ok := u.Number(); ok && v >= 0 && v <= 1 {
						raw[i] = v
					}
				} else if v, ok := c.Rules[ri].Observed.Number(); ok && c.Rules[ri].Correction == "" && v >= 0 && v <= 1 {
					raw[i] = v
				}
			}
		}
		adj := AdjustPValues(raw, rr.Correction, n)[ci]
		if v, ok := rr.Observed.Number(); !ok || !(v == adj || math.IsNaN(v) && math.IsNaN(adj)) {
			return fmt.Errorf("observed %s; %s-adjusting the recorded p-values gives %s", rr.Observed, rr.Correction, Number(adj))
		}
	}
	// The outcomes the recorded evidence allows before waivers.
	var allowed []Outcome
	var affecting []Unmet
	for _, u := range d.Unmet {
		if slices.Contains(u.Affects, rr.Query.Analysis()) {
			affecting = append(affecting, u)
		}
	}
	switch {
	case !rr.Observed.Present() || checkObservation(q, rr.Observed) != "":
		allowed = []Outcome{OutcomeInconclusive}
	case !r.Bound.Holds(rr.Observed):
		allowed = []Outcome{OutcomeFail}
		if r.Severity == SeverityWarn {
			allowed = []Outcome{OutcomeWarn}
		}
	case len(affecting) == 0:
		allowed = []Outcome{OutcomePass}
	case slices.ContainsFunc(affecting, func(u Unmet) bool { return u.Requirement != "min_artifacts" }):
		allowed = []Outcome{OutcomeInconclusive}
	default: // on_insufficient_pool, not recorded: anything but a pass
		allowed = []Outcome{OutcomeWarn, OutcomeInconclusive, OutcomeFail}
	}
	// Under other assumptions about unjudged documents (judgments.go): each
	// recorded outcome is its bound's, and one that differs from the
	// standard outcome makes the rule need judgments.
	if len(rr.Assumed) > 0 {
		std := allowed
		for _, a := range rr.Assumed {
			want := boundOutcome(&Rule{Bound: r.Bound, Severity: r.Severity}, a.Observed)
			if !a.Observed.Present() || checkObservation(q, a.Observed) != "" || a.Outcome != want {
				return fmt.Errorf("outcome %s under the %s assumption; its observed %s against %s gives %s", a.Outcome, a.Assumption, a.Observed, r.Bound.Words(), want)
			}
			if len(std) == 1 && std[0] != OutcomeInconclusive && want != std[0] {
				allowed = []Outcome{OutcomeNeedsJudgments}
			}
		}
	}
	var active *Waiver
	for _, w := range spec.Waivers {
		if w.Rule == rr.Rule && w.Challenger.Match(challenger) && w.Active(spec.Now) {
			active = w
			break
		}
	}
	before := rr.Outcome
	if rr.Outcome == OutcomeWaived {
		if active == nil {
			return fmt.Errorf("waived, but no waiver of the policy covering it was active on %s", spec.Now.UTC().Format(dateLayout))
		}
		if before = rr.WaivedOutcome; before == OutcomePass || before == OutcomeWaived {
			return fmt.Errorf("waived, recording %q as the outcome waived", before)
		}
	} else if active != nil && rr.Outcome != OutcomePass && slices.Contains(allowed, rr.Outcome) {
		return fmt.Errorf("outcome %s, but an active waiver covers it", rr.Outcome)
	}
	if !slices.Contains(allowed, before) {
		return fmt.Errorf("outcome %s; the observed %s against %s gives %s", before, rr.Observed, r.Bound.Words(), allowed[0])
	}
	return nil
}

// RecheckSpec is the policy as Recheck needs it, with now the run's date.
func (p *Policy) RecheckSpec(now time.Time) RecheckSpec {
	s := RecheckSpec{Rules: map[string]RecheckRule{}, Waivers: p.Waivers, Select: p.Select, OnInconclusive: p.OnInconclusive, Now: now}
	if p.Select == SelectBest {
		s.RankBy = p.RankBy
	}
	for _, r := range p.Rules {
		s.RuleIDs = append(s.RuleIDs, r.ID)
		s.Rules[r.ID] = RecheckRule{Quantity: r.Quantity.Name, Bound: r.Bound, Severity: r.Severity}
	}
	return s
}
