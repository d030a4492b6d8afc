package policies

import (
	"math"
	"strings"
	"testing"
)

// segPolicy has the design's rules per segment (docs/policies.md,
// "Segments"): all_pass on a BCa bound with a margin, and no_harm on a
// harm test with Holm (the default) and with BH.
const segPolicy = `version: 1
name: seg
requirements: {min_topics_per_segment: 5}
rules:
  - id: every-origin
    by: origin
    quantity: bca.lo
    loss_weight: 1
    margin: 0.05
    at_least: 0
  - id: no-harm-holm
    by: origin
    segments: no_harm
    quantity: tests.paired_t.p
    alternative: less
    margin: 0.02
    at_least: 0.05
  - id: no-harm-bh
    by: origin
    segments: no_harm
    quantity: tests.paired_t.p
    alternative: less
    margin: 0.02
    correction: bh
    at_least: 0.05
select: all
`

// rb04's origins (issue 26): 30 topics from TREC 6–8, 10 new in Robust 2003
// and 10 in Robust 2004.
var origins = []Segment{{"trec678", 30}, {"robust03", 10}, {"robust04", 10}}

// segValues sets each rule's value in each segment for challengers A and B.
// The harm tests' raw p-values, challenger-major over the segments, are
// p = c(0.004, 0.03, 0.2, 0.01, 0.5, 0.012).
func segValues(p *Policy) *Values {
	v := NewValues()
	set := func(rule, c string, xs ...float64) {
		for _, r := range p.Rules {
			if r.ID == rule {
				for gi, g := range origins {
					v.Set(c, p.Query(r).InSegment(g.Name), Number(xs[gi]))
				}
			}
		}
	}
	set("every-origin", "A", 0.01, -0.02, 0.03)
	set("every-origin", "B", 0.02, 0.01, 0.005)
	for _, id := range []string{"no-harm-holm", "no-harm-bh"} {
		set(id, "A", 0.004, 0.03, 0.2)
		set(id, "B", 0.01, 0.5, 0.012)
	}
	return v
}

func segmentOutcomes(rr RuleResult) string {
	var s []string
	for _, sr := range rr.Segments {
		s = append(s, sr.Segment+"="+string(sr.Outcome))
	}
	return strings.Join(s, " ")
}

func TestEvaluateSegments(t *testing.T) {
	t.Parallel()
	p := mustParse(t, segPolicy)
	if r := p.Rules[1]; r.BySemantics != SegmentsNoHarm || r.Correction != CorrectHolm {
		t.Fatalf("no_harm test: semantics %q, correction %q; want no_harm with holm, the default", r.BySemantics, r.Correction)
	}
	if r := p.Rules[0]; r.BySemantics != SegmentsAllPass || r.By != "origin" || r.ByPos != (Pos{Line: 6, Column: 9}) {
		t.Fatalf("all_pass rule: %+v", r)
	}
	ev := Evidence{Challengers: []string{"A", "B"}, Values: segValues(p), Facts: goodFacts, Now: evalNow,
		Segments: map[string][]Segment{"origin": origins}}
	d := p.Evaluate(ev)

	// The adjusted p-values are R's, over the 3 segments × 2 challengers:
	//   p <- c(0.004, 0.03, 0.2, 0.01, 0.5, 0.012)
	//   p.adjust(p, "holm") → 0.024 0.09 0.4 0.05 0.5 0.05
	//   p.adjust(p, "BH")   → 0.024 0.045 0.24 0.024 0.5 0.024
	want := map[string][][]float64{
		"no-harm-holm": {{0.024, 0.09, 0.4}, {0.05, 0.5, 0.05}},
		"no-harm-bh":   {{0.024, 0.045, 0.24}, {0.024, 0.5, 0.024}},
	}
	raw := [][]float64{{0.004, 0.03, 0.2}, {0.01, 0.5, 0.012}}
	for ri, id := range []string{"no-harm-holm", "no-harm-bh"} {
		for ci := range 2 {
			rr := d.Challengers[ci].Rules[ri+1]
			if rr.Rule != id || rr.By != "origin" || rr.BySemantics != SegmentsNoHarm || len(rr.Segments) != 3 {
				t.Fatalf("%s: %+v", id, rr)
			}
			for gi, sr := range rr.Segments {
				got, _ := sr.Observed.Number()
				u, _ := sr.Unadjusted.Number()
				if math.Abs(got-want[id][ci][gi]) > 1e-15 || u != raw[ci][gi] {
					t.Errorf("%s %s %s: adjusted %v (raw %v), want %v (raw %v)", id, d.Challengers[ci].Name, sr.Segment, got, u, want[id][ci][gi], raw[ci][gi])
				}
			}
		}
	}
	outcomesOf := func(ci, ri int) string {
		rr := d.Challengers[ci].Rules[ri]
		return string(rr.Outcome) + " [" + segmentOutcomes(rr) + "] worst " + rr.Segment
	}
	for _, c := range []struct {
		ci, ri int
		want   string
	}{
		// A's BCa bound fails in robust03 only: all_pass fails on one failing segment.
		{0, 0, "fail [trec678=pass robust03=fail robust04=pass] worst robust03"},
		// B passes everywhere; its worst is the segment closest to the bound (0.005 in robust04).
		{1, 0, "pass [trec678=pass robust03=pass robust04=pass] worst robust04"},
		// Holm: A is harmed in trec678 (0.024 < 0.05); B's 0.05 holds at_least 0.05
		// exactly in trec678 and robust04, the first of which is its worst.
		{0, 1, "fail [trec678=fail robust03=pass robust04=pass] worst trec678"},
		{1, 1, "pass [trec678=pass robust03=pass robust04=pass] worst trec678"},
		// BH blocks more readily: A in trec678 and robust03, B in trec678 and robust04.
		{0, 2, "fail [trec678=fail robust03=fail robust04=pass] worst trec678"},
		{1, 2, "fail [trec678=fail robust03=pass robust04=fail] worst trec678"},
	} {
		if got := outcomesOf(c.ci, c.ri); got != c.want {
			t.Errorf("%s %s: %s, want %s", d.Challengers[c.ci].Name, p.Rules[c.ri].ID, got, c.want)
		}
	}
	for _, c := range []struct {
		ci, ri int
		want   string
	}{
		{0, 0, "in segment robust03 (10 topics): observed bca.lo -0.07 + margin 0.05 = -0.02; needs at least 0; 2 of 3 segments pass"},
		{1, 0, "in segment robust04 (10 topics): observed bca.lo -0.045 + margin 0.05 = 0.005; needs at least 0; 3 of 3 segments pass"},
		{0, 1, "in segment trec678 (30 topics): observed 0.024 (Holm-adjusted over 3 segments × 2 challengers; unadjusted 0.004); needs at least 0.05; 2 of 3 segments pass"},
		{1, 2, "in segment trec678 (30 topics): observed 0.024 (Benjamini–Hochberg-adjusted over 3 segments × 2 challengers; unadjusted 0.01); needs at least 0.05; 1 of 3 segments pass"},
	} {
		if got := d.Challengers[c.ci].Rules[c.ri].Reason; got != c.want {
			t.Errorf("%s %s reason:\n got %q\nwant %q", d.Challengers[c.ci].Name, p.Rules[c.ri].ID, got, c.want)
		}
	}
	if rr := d.Challengers[0].Rules[1]; rr.Correction != CorrectHolm || rr.Query.By != "origin" || rr.Query.Segment != "" {
		t.Errorf("rule result's correction %q, query %s", rr.Correction, rr.Query)
	}
	if d.Verdict != Fail || d.Challengers[1].Reason != "fails no-harm-bh" {
		t.Errorf("verdict %s; B: %s", d.Verdict, d.Challengers[1].Reason)
	}
	if err := d.Recheck(p.RecheckSpec(evalNow)); err != nil {
		t.Errorf("recheck: %v", err)
	}
}

// A segment below requirements.min_topics_per_segment is inconclusive
// whatever its value: it makes a rule that passes elsewhere inconclusive,
// but never hides a segment that fails.
func TestSegmentBelowMinimum(t *testing.T) {
	t.Parallel()
	p := mustParse(t, segPolicy)
	small := []Segment{{"trec678", 30}, {"robust03", 10}, {"robust04", 4}}
	ev := Evidence{Challengers: []string{"A", "B"}, Values: segValues(p), Facts: goodFacts, Now: evalNow,
		Segments: map[string][]Segment{"origin": small}}
	d := p.Evaluate(ev)
	b := d.Challengers[1].Rules[0]
	if b.Outcome != OutcomeInconclusive || segmentOutcomes(b) != "trec678=pass robust03=pass robust04=inconclusive" || b.Segment != "robust04" {
		t.Errorf("B every-origin: %s [%s] worst %s", b.Outcome, segmentOutcomes(b), b.Segment)
	}
	if want := "segment robust04 has 4 topics; the policy requires 5 (requirements.min_topics_per_segment); observed bca.lo -0.045 + margin 0.05 = 0.005 there; 2 of 3 segments pass"; b.Reason != want {
		t.Errorf("reason:\n got %q\nwant %q", b.Reason, want)
	}
	// A fails in robust03 (10 topics): the small robust04 does not hide it.
	if a := d.Challengers[0].Rules[0]; a.Outcome != OutcomeFail || a.Segment != "robust03" {
		t.Errorf("A every-origin: %s, worst %s", a.Outcome, a.Segment)
	}
	// A small segment's p-value still counts in the family of 6 comparisons:
	// the adjusted values are those of TestEvaluateSegments.
	if v, _ := d.Challengers[1].Rules[1].Segments[2].Observed.Number(); v != 0.05 {
		t.Errorf("B robust04 Holm-adjusted p %v, want 0.05", v)
	}
	if d.Challengers[1].Rules[1].Outcome != OutcomeInconclusive || d.Challengers[1].Verdict != Fail {
		t.Errorf("B: %s / %s", d.Challengers[1].Rules[1].Outcome, d.Challengers[1].Verdict)
	}
	if err := d.Recheck(p.RecheckSpec(evalNow)); err != nil {
		t.Errorf("recheck: %v", err)
	}
	// With the all_pass rule alone B is inconclusive, and so is the gate.
	p2 := mustParse(t, strings.Split(segPolicy, "  - id: no-harm-holm")[0]+"select: all\n")
	d = p2.Evaluate(Evidence{Challengers: []string{"B"}, Values: segValues(p2), Facts: goodFacts, Now: evalNow,
		Segments: map[string][]Segment{"origin": small}})
	if d.Verdict != Inconclusive || !strings.HasPrefix(d.Challengers[0].Reason, "inconclusive on every-origin (segment robust04 has 4 topics") {
		t.Errorf("B alone: %s: %s", d.Verdict, d.Challengers[0].Reason)
	}
}

// A by: rule whose dimension has no segments, or whose value is missing in
// a segment, is inconclusive: it never passes.
func TestSegmentsMissing(t *testing.T) {
	t.Parallel()
	p := mustParse(t, segPolicy)
	d := p.Evaluate(Evidence{Challengers: []string{"B"}, Values: segValues(p), Facts: goodFacts, Now: evalNow})
	rr := d.Challengers[0].Rules[0]
	if rr.Outcome != OutcomeInconclusive || rr.Reason != "the gate supplied no segments of origin, the dimension the rule is judged by" {
		t.Errorf("no segments: %s: %s", rr.Outcome, rr.Reason)
	}
	v := segValues(p)
	v.Set("B", p.Query(p.Rules[0]).InSegment("robust03"), Unavailable("the bootstrap failed"))
	d = p.Evaluate(Evidence{Challengers: []string{"B"}, Values: v, Facts: goodFacts, Now: evalNow, Segments: map[string][]Segment{"origin": origins}})
	rr = d.Challengers[0].Rules[0]
	if rr.Outcome != OutcomeInconclusive || rr.Reason != "in segment robust03 (10 topics): the bootstrap failed; 2 of 3 segments pass" {
		t.Errorf("missing value: %s: %s", rr.Outcome, rr.Reason)
	}
	if err := d.Recheck(p.RecheckSpec(evalNow)); err != nil {
		t.Errorf("recheck: %v", err)
	}
}

// A waiver covers the whole by: rule; unmet requirements cap its pass.
func TestSegmentsWaiverAndUnmet(t *testing.T) {
	t.Parallel()
	src := segPolicy + "waivers:\n  - {rule: every-origin, challenger: A, reason: robust03 is known, approver: alice, expires: 2030-01-01}\n"
	p := mustParse(t, strings.Replace(src, "requirements: {", "requirements: {min_topics: 60, ", 1))
	ev := Evidence{Challengers: []string{"A", "B"}, Values: segValues(p), Facts: goodFacts, Now: evalNow,
		Segments: map[string][]Segment{"origin": origins}}
	d := p.Evaluate(ev)
	a, b := d.Challengers[0].Rules[0], d.Challengers[1].Rules[0]
	if a.Outcome != OutcomeWaived || a.WaivedOutcome != OutcomeFail || a.Segments[1].Outcome != OutcomeFail {
		t.Errorf("A: %s (waived %s)", a.Outcome, a.WaivedOutcome)
	}
	// 50 topics < min_topics 60: B's pass cannot stand.
	if b.Outcome != OutcomeInconclusive || !strings.HasSuffix(b.Reason, "3 of 3 segments pass, but it cannot pass: data requirements not met (50 topics; the policy requires at least 60 (requirements.min_topics))") {
		t.Errorf("B: %s: %s", b.Outcome, b.Reason)
	}
	if err := d.Recheck(p.RecheckSpec(evalNow)); err != nil {
		t.Errorf("recheck: %v", err)
	}
}

// Under another assumption about unjudged documents each segment is judged
// again on its own value there, with the harm tests' p-values adjusted in
// the same family as the standard ones.
func TestSegmentsJudgments(t *testing.T) {
	t.Parallel()
	p := mustParse(t, segPolicy)
	v := segValues(p)
	opt := NewValues()
	// Optimistic: A's robust03 BCa bound clears 0 (so that segment needs
	// judgments), and B's trec678 harm p-value is 0.002 instead of 0.01.
	opt.Set("A", p.Query(p.Rules[0]).InSegment("robust03"), Number(0.01))
	opt.Set("B", p.Query(p.Rules[1]).InSegment("trec678"), Number(0.002))
	ev := Evidence{Challengers: []string{"A", "B"}, Values: v, Facts: goodFacts, Now: evalNow,
		Segments:    map[string][]Segment{"origin": origins},
		Assumptions: []Assumption{{Name: "optimistic", Words: "if the unjudged documents are relevant", Values: opt}}}
	d := p.Evaluate(ev)
	a := d.Challengers[0].Rules[0]
	if a.Outcome != OutcomeNeedsJudgments || a.Segments[1].Outcome != OutcomeNeedsJudgments || a.Segment != "robust03" || len(a.Segments[1].Assumed) != 1 {
		t.Errorf("A every-origin: %s [%s]", a.Outcome, segmentOutcomes(a))
	}
	// B's trec678 under the optimistic assumption: Holm over
	// c(0.004, 0.03, 0.2, 0.002, 0.5, 0.012) (A's standard values stand in, as
	// unaffected), R: p.adjust(c(0.004, 0.03, 0.2, 0.002, 0.5, 0.012), "holm")[4] = 0.012,
	// below 0.05: harm, where the standard 0.05 is none.
	b := d.Challengers[1].Rules[1]
	if got := b.Segments[0].Assumed; len(got) != 1 || got[0].Outcome != OutcomeFail {
		t.Fatalf("B trec678 assumed: %+v", got)
	} else if x, _ := got[0].Observed.Number(); math.Abs(x-0.012) > 1e-15 {
		t.Errorf("B trec678 optimistic Holm-adjusted p %v, want 0.012", x)
	}
	if b.Outcome != OutcomeNeedsJudgments || b.Segment != "trec678" {
		t.Errorf("B no-harm-holm: %s worst %s", b.Outcome, b.Segment)
	}
	if err := d.Recheck(p.RecheckSpec(evalNow)); err != nil {
		t.Errorf("recheck: %v", err)
	}
}

// Recheck reproduces every segment outcome, and catches a segment, a
// rule or a correction forged.
func TestRecheckSegments(t *testing.T) {
	t.Parallel()
	p := mustParse(t, segPolicy)
	small := []Segment{{"trec678", 30}, {"robust03", 10}, {"robust04", 4}}
	ev := Evidence{Challengers: []string{"A", "B"}, Values: segValues(p), Facts: goodFacts, Now: evalNow,
		Segments: map[string][]Segment{"origin": small}}
	spec := p.RecheckSpec(evalNow)
	if err := p.Evaluate(ev).Recheck(spec); err != nil {
		t.Fatal(err)
	}
	forgeries := []struct {
		name  string
		forge func(d *Decision)
		want  string
	}{
		{"segment outcome", func(d *Decision) { d.Challengers[0].Rules[0].Segments[1].Outcome = OutcomePass }, "segment robust03: outcome pass"},
		{"small segment passes", func(d *Decision) {
			rr := &d.Challengers[1].Rules[0]
			rr.Segments[2].Outcome, rr.Outcome = OutcomePass, OutcomePass
			d.Challengers[1].Verdict = Pass
		}, "segment robust04: outcome pass"},
		{"small segment grows", func(d *Decision) {
			for ci := range d.Challengers {
				d.Challengers[ci].Rules[0].Segments[2].Topics = 5
			}
		}, "segment robust04: outcome inconclusive; its observed 0.03 against at least 0 gives pass"},
		{"rule outcome", func(d *Decision) { d.Challengers[0].Rules[0].Outcome = OutcomePass }, "outcome pass; its segments give fail"},
		{"adjusted p", func(d *Decision) { d.Challengers[0].Rules[1].Segments[0].Observed = Number(0.06) }, "segment trec678: observed 0.06; holm-adjusting the recorded p-values gives 0.024"},
		{"unadjusted p", func(d *Decision) { u := Number(0.02); d.Challengers[1].Rules[2].Segments[0].Unadjusted = &u }, "segment trec678: observed 0.024; bh-adjusting"},
		{"worst segment", func(d *Decision) { d.Challengers[0].Rules[0].Segment = "trec678" }, "the worst segment is robust03"},
		{"segments dropped", func(d *Decision) { d.Challengers[0].Rules[0].Segments, d.Challengers[0].Rules[0].By = nil, "" }, `by "", but its query is by "origin"`},
		{"segment renamed", func(d *Decision) { d.Challengers[0].Rules[0].Segments[0].Segment = "trec" }, `segment 1 is trec (30 topics); challenger "B"'s is trec678 (30 topics)`},
	}
	for _, f := range forgeries {
		d := p.Evaluate(ev)
		f.forge(d)
		if err := d.Recheck(spec); err == nil || !strings.Contains(err.Error(), f.want) {
			t.Errorf("%s: %v, want an error with %q", f.name, err, f.want)
		}
	}
}

// A rule whose outcome depends on unjudged documents needs judgments even
// when a requirement is unmet (Evaluate checks judgments before capping a
// pass), and Recheck agrees, with or without by:.
func TestRecheckNeedsJudgmentsUnmet(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\nname: nj\nrequirements: {min_topics: 60}\nrules:\n  - {id: m, quantity: mean_diff, at_least: 0}\n  - {id: s, by: origin, quantity: mean_diff, at_least: 0}\n")
	v, opt := NewValues(), NewValues()
	for _, r := range p.Rules {
		q := p.Query(r)
		v.Set("A", q, Number(0.01))
		opt.Set("A", q, Number(-0.01))
		for _, g := range origins {
			v.Set("A", q.InSegment(g.Name), Number(0.01))
		}
		opt.Set("A", q.InSegment("robust04"), Number(-0.01))
	}
	d := p.Evaluate(Evidence{Challengers: []string{"A"}, Values: v, Facts: goodFacts, Now: evalNow,
		Segments:    map[string][]Segment{"origin": origins},
		Assumptions: []Assumption{{Name: "condensed", Words: "if the unjudged documents are left out", Values: opt}}})
	if len(d.Unmet) != 1 || outcomes(d.Challengers[0]) != "m=needs judgments s=needs judgments" || d.Challengers[0].Rules[1].Segment != "robust04" {
		t.Fatalf("unmet %v; %s", d.Unmet, outcomes(d.Challengers[0]))
	}
	if err := d.Recheck(p.RecheckSpec(evalNow)); err != nil {
		t.Errorf("recheck: %v", err)
	}
}
