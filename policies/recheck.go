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
	// By is the rule's dimension, when the record says; a rule result's
	// own query names it too, and Recheck judges a by: rule on its
	// segments whatever this says (an empty By checks nothing more).
	By string
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
	// MinTopicsPerSegment is requirements.min_topics_per_segment (0: none):
	// a segment with fewer topics must be inconclusive.
	MinTopicsPerSegment int
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
	// The rule's outcome before waivers: from its observed value, or from
	// its segments' for a by: rule (whose query names its dimension).
	by := rr.Query.By
	switch {
	case r.By != "" && r.By != by:
		return fmt.Errorf("query by %q; the policy's rule is by %q", by, r.By)
	case rr.By != by:
		return fmt.Errorf("by %q, but its query is by %q", rr.By, by)
	}
	var outcome Outcome
	if by != "" {
		o, err := d.recheckSegments(ci, rr, r, q, spec)
		if err != nil {
			return err
		}
		outcome = o
	} else {
		if err := d.recheckCorrection(ci, rr, n); err != nil {
			return err
		}
		o, err := recheckOutcome(rr.Observed, rr.Assumed, r, q)
		if err != nil {
			return err
		}
		outcome = o
	}
	// Unmet requirements (capUnmet): a pass they affect cannot stand.
	var affecting []Unmet
	for _, u := range d.Unmet {
		if slices.Contains(u.Affects, rr.Query.Analysis()) {
			affecting = append(affecting, u)
		}
	}
	allowed := []Outcome{outcome}
	switch {
	case outcome != OutcomePass || len(affecting) == 0:
	case slices.ContainsFunc(affecting, func(u Unmet) bool { return u.Requirement != "min_artifacts" }):
		allowed = []Outcome{OutcomeInconclusive}
	default: // on_insufficient_pool, not recorded: anything but a pass
		allowed = []Outcome{OutcomeWarn, OutcomeInconclusive, OutcomeFail}
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
		if by != "" {
			return fmt.Errorf("outcome %s; its segments give %s", before, allowed[0])
		}
		return fmt.Errorf("outcome %s; the observed %s against %s gives %s", before, rr.Observed, r.Bound.Words(), allowed[0])
	}
	return nil
}

// recheckCorrection checks a p-value corrected over the challengers
// against the correction of the recorded unadjusted ones.
func (d *Decision) recheckCorrection(ci int, rr *RuleResult, n int) error {
	if rr.Unadjusted == nil {
		return nil
	}
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
	return checkAdjusted(rr.Observed, rr.Correction, AdjustPValues(raw, rr.Correction, n)[ci])
}

// checkAdjusted checks that an observed value is the adjusted p-value adj.
func checkAdjusted(observed Observation, c Correction, adj float64) error {
	if v, ok := observed.Number(); !ok || !(v == adj || math.IsNaN(v) && math.IsNaN(adj)) {
		return fmt.Errorf("observed %s; %s-adjusting the recorded p-values gives %s", observed, c, Number(adj))
	}
	return nil
}

// recheckOutcome is the outcome an observation and its values under other
// assumptions about unjudged documents give (Evaluate's decide and
// checkJudgments): inconclusive without a usable value; else the bound's,
// or needs judgments when an assumption's outcome differs. Each recorded
// assumption's outcome must be its bound's.
func recheckOutcome(obs Observation, assumed []AssumedOutcome, r RecheckRule, q *Quantity) (Outcome, error) {
	if !obs.Present() || checkObservation(q, obs) != "" {
		return OutcomeInconclusive, nil
	}
	rule := &Rule{Bound: r.Bound, Severity: r.Severity}
	std := boundOutcome(rule, obs)
	out := std
	for _, a := range assumed {
		want := boundOutcome(rule, a.Observed)
		if !a.Observed.Present() || checkObservation(q, a.Observed) != "" || a.Outcome != want {
			return "", fmt.Errorf("outcome %s under the %s assumption; its observed %s against %s gives %s", a.Outcome, a.Assumption, a.Observed, r.Bound.Words(), want)
		}
		if want != std {
			out = OutcomeNeedsJudgments
		}
	}
	return out, nil
}

// RecheckSpec is the policy as Recheck needs it, with now the run's date.
func (p *Policy) RecheckSpec(now time.Time) RecheckSpec {
	s := RecheckSpec{Rules: map[string]RecheckRule{}, Waivers: p.Waivers, Select: p.Select, OnInconclusive: p.OnInconclusive, Now: now,
		MinTopicsPerSegment: p.Requirements.MinTopicsPerSegment}
	if p.Select == SelectBest {
		s.RankBy = p.RankBy
	}
	for _, r := range p.Rules {
		s.RuleIDs = append(s.RuleIDs, r.ID)
		s.Rules[r.ID] = RecheckRule{Quantity: r.Quantity.Name, Bound: r.Bound, Severity: r.Severity, By: r.By}
	}
	return s
}

// recheckSegments recomputes a by: rule's outcome from its recorded
// segments (judgeSegments): every challenger's result of the rule lists
// the same segments; a corrected p-value is the adjustment of the recorded
// unadjusted ones over the segments × challengers; each segment's outcome
// is its observation's (recheckOutcome), inconclusive below
// spec.MinTopicsPerSegment; the rule's segment, observed value and
// outcome are those combineSegments gives.
func (d *Decision) recheckSegments(ci int, rr *RuleResult, r RecheckRule, q *Quantity, spec RecheckSpec) (Outcome, error) {
	segs := rr.Segments
	if len(segs) == 0 {
		return OutcomeInconclusive, nil
	}
	k := len(segs)
	var raw []float64
	for _, c := range d.Challengers {
		ri := slices.IndexFunc(c.Rules, func(x RuleResult) bool { return x.Rule == rr.Rule })
		if ri < 0 {
			return "", fmt.Errorf("challenger %q has no result of the rule", c.Name)
		}
		other := c.Rules[ri].Segments
		if len(other) != k {
			return "", fmt.Errorf("%s; challenger %q's has %s", plural(k, "segment"), c.Name, plural(len(other), "segment"))
		}
		for gi, sr := range other {
			if sr.Segment != segs[gi].Segment || sr.Topics != segs[gi].Topics {
				return "", fmt.Errorf("segment %d is %s (%s); challenger %q's is %s (%s)", gi+1, segs[gi].Segment, plural(segs[gi].Topics, "topic"), c.Name, sr.Segment, plural(sr.Topics, "topic"))
			}
			v := math.NaN()
			if sr.Unadjusted != nil {
				if u, ok := sr.Unadjusted.Number(); ok && u >= 0 && u <= 1 {
					v = u
				}
			}
			raw = append(raw, v)
		}
	}
	var adj []float64
	for gi, sr := range segs {
		if sr.Unadjusted != nil {
			if rr.Correction == "" || rr.Correction == CorrectNone {
				return "", fmt.Errorf("segment %s: an unadjusted value without a correction", sr.Segment)
			}
			if adj == nil {
				adj = AdjustPValues(raw, rr.Correction, len(raw))
			}
			if err := checkAdjusted(sr.Observed, rr.Correction, adj[ci*k+gi]); err != nil {
				return "", fmt.Errorf("segment %s: %v", sr.Segment, err)
			}
		}
		want, err := recheckOutcome(sr.Observed, sr.Assumed, r, q)
		if err != nil {
			return "", fmt.Errorf("segment %s: %v", sr.Segment, err)
		}
		if sr.Topics < spec.MinTopicsPerSegment {
			want = OutcomeInconclusive
		}
		if sr.Outcome != want {
			return "", fmt.Errorf("segment %s: outcome %s; its observed %s against %s gives %s", sr.Segment, sr.Outcome, sr.Observed, r.Bound.Words(), want)
		}
	}
	w, outcome := combineSegments(segs, r.Bound)
	if worst := segs[w]; rr.Segment != worst.Segment || !sameObservation(rr.Observed, worst.Observed) {
		return "", fmt.Errorf("segment %s, observed %s; the worst segment is %s, observed %s", rr.Segment, rr.Observed, worst.Segment, worst.Observed)
	}
	return outcome, nil
}

// sameObservation reports whether two observations are the same value (a
// NaN the same as a NaN).
func sameObservation(a, b Observation) bool {
	if x, ok := a.Number(); ok && math.IsNaN(x) {
		y, ok := b.Number()
		return ok && math.IsNaN(y)
	}
	return a == b
}
