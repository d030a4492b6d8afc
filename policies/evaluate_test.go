package policies

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

const evalPolicy = `version: 1
name: eval
loss_weight: 5
requirements: {min_topics: 25, min_artifacts: 10, min_topic_coverage: 0.9}
rules:
  - id: better
    quantity: bayes.p_better
    at_least: 0.95
  - id: risk
    quantity: brisk.p_riskier
    at_most: 0.05
  - id: sig
    quantity: tests.wilcoxon.p
    alternative: greater
    correction: holm
    at_most: 0.05
    severity: warn
  - id: practical
    quantity: rope.decision
    rope: [-0.01, 0.01]
    in: [much_better, better]
    severity: warn
rank_by: bayes.diff.mean
`

func mustParse(t *testing.T, src string) *Policy {
	t.Helper()
	p, err := Parse("eval.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var goodFacts = Facts{Topics: 50, Artifacts: 40, TopicCoverage: 1}

var evalNow = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

// fill sets every rule's observation for a challenger, by rule id, plus rank_by.
func fill(p *Policy, v *Values, c string, obs map[string]Observation) {
	for _, r := range p.Rules {
		if o, ok := obs[r.ID]; ok {
			v.Set(c, p.Query(r), o)
		}
	}
	if q, ok := p.RankQuery(); ok {
		if o, ok := obs["rank"]; ok {
			v.Set(c, q, o)
		}
	}
}

// fourChallengers: A passes, B passes but its Holm-corrected test warns and it
// ranks higher, C fails, D's BRisk fit did not converge.
func fourChallengers(p *Policy) *Values {
	v := NewValues()
	fill(p, v, "A", map[string]Observation{"better": Number(0.99), "risk": Number(0.01), "sig": Number(0.001), "practical": Category("much_better"), "rank": Number(0.03)})
	fill(p, v, "B", map[string]Observation{"better": Number(0.97), "risk": Number(0.02), "sig": Number(0.04), "practical": Category("better"), "rank": Number(0.05)})
	fill(p, v, "C", map[string]Observation{"better": Number(0.6), "risk": Number(0.3), "sig": Number(0.3), "practical": Category("equivalent"), "rank": Number(0.001)})
	fill(p, v, "D", map[string]Observation{"better": Number(0.99), "risk": Unavailable("the BRisk fit did not converge (R-hat 1.08 > 1.01)"), "sig": Unavailable("not computed: D has ties on every topic"), "practical": Category("much_better"), "rank": Number(0.04)})
	return v
}

func outcomes(cd ChallengerDecision) string {
	var s []string
	for _, r := range cd.Rules {
		s = append(s, r.Rule+"="+string(r.Outcome))
	}
	return strings.Join(s, " ")
}

func TestEvaluateSelectBest(t *testing.T) {
	p := mustParse(t, evalPolicy)
	d := p.Evaluate(Evidence{Challengers: []string{"A", "B", "C", "D"}, Values: fourChallengers(p), Facts: goodFacts, Now: evalNow})
	want := map[string]struct {
		verdict  Verdict
		outcomes string
	}{
		"A": {Pass, "better=pass risk=pass sig=pass practical=pass"},
		"B": {Warn, "better=pass risk=pass sig=warn practical=pass"},
		"C": {Fail, "better=fail risk=fail sig=warn practical=warn"},
		"D": {Inconclusive, "better=pass risk=inconclusive sig=inconclusive practical=pass"},
	}
	for _, cd := range d.Challengers {
		w := want[cd.Name]
		if cd.Verdict != w.verdict || outcomes(cd) != w.outcomes {
			t.Errorf("%s: %s [%s], want %s [%s]", cd.Name, cd.Verdict, outcomes(cd), w.verdict, w.outcomes)
		}
	}
	// B (warn, 0.05) outranks A (pass, 0.03) by bayes.diff.mean: best is by rank_by among pass and warn.
	if d.Verdict != Warn || d.Raw != Warn || len(d.Selected) != 1 || d.Selected[0] != "B" {
		t.Errorf("verdict %s, selected %v: %s", d.Verdict, d.Selected, d.Reason)
	}
	if want := "B passes with warnings on sig and ranks first of 2 passing challengers by bayes.diff.mean (0.05)"; d.Reason != want {
		t.Errorf("reason %q, want %q", d.Reason, want)
	}
	// Holm over the 4 challengers (R: p.adjust(c(0.001, 0.04, 0.3, NA), "holm", n = 4)):
	// sorted 0.001, 0.04, 0.3 → 4·0.001, 3·0.04, 2·0.3 = 0.004, 0.12, 0.6 (cumulative max unchanged).
	for i, want := range []float64{0.004, 0.12, 0.6} {
		rr := d.Challengers[i].Rules[2]
		got, _ := rr.Observed.Number()
		raw, _ := rr.Unadjusted.Number()
		if math.Abs(got-want) > 1e-15 || rr.Correction != CorrectHolm {
			t.Errorf("%s: Holm-adjusted p = %v (raw %v), want %v", d.Challengers[i].Name, got, raw, want)
		}
	}
	if got := d.Challengers[1].Rules[2].Reason; got != "observed 0.12 (Holm-adjusted over 4 challengers; unadjusted 0.04); needs at most 0.05" {
		t.Errorf("reason: %q", got)
	}
	if got := d.Challengers[3].Reason; got != "inconclusive on risk (the BRisk fit did not converge (R-hat 1.08 > 1.01))" {
		t.Errorf("D reason: %q", got)
	}
	if d.Challengers[3].Rules[1].Reason != "the BRisk fit did not converge (R-hat 1.08 > 1.01)" {
		t.Errorf("D risk reason: %q", d.Challengers[3].Rules[1].Reason)
	}
}

func TestEvaluateSelectAll(t *testing.T) {
	p := mustParse(t, evalPolicy+"select: all\n")
	v := fourChallengers(p)
	d := p.Evaluate(Evidence{Challengers: []string{"A", "B", "C", "D"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Verdict != Fail || len(d.Selected) != 0 || !strings.HasPrefix(d.Reason, "C fails better and risk") {
		t.Errorf("verdict %s selected %v: %s", d.Verdict, d.Selected, d.Reason)
	}
	// Without C: D is inconclusive, so the run is.
	d = p.Evaluate(Evidence{Challengers: []string{"A", "B", "D"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Verdict != Inconclusive {
		t.Errorf("without C: %s: %s", d.Verdict, d.Reason)
	}
	// A and B: Holm over 2 challengers leaves B's p at max(2·0.001, 0.04) = 0.04, so
	// B passes; with B practically only equivalent, B warns, the run warns and both ship.
	d = p.Evaluate(Evidence{Challengers: []string{"A", "B"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Verdict != Pass || strings.Join(d.Selected, ",") != "A,B" {
		t.Errorf("A and B: %s %v: %s", d.Verdict, d.Selected, d.Reason)
	}
	v.Set("B", p.Query(p.Rules[3]), Category("equivalent"))
	d = p.Evaluate(Evidence{Challengers: []string{"A", "B"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Verdict != Warn || strings.Join(d.Selected, ",") != "A,B" || d.Reason != "B passes with warnings on practical" {
		t.Errorf("A and B: %s %v: %s", d.Verdict, d.Selected, d.Reason)
	}
	d = p.Evaluate(Evidence{Challengers: []string{"A"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Verdict != Pass || d.Reason != "every challenger passes every rule" {
		t.Errorf("A: %s: %s", d.Verdict, d.Reason)
	}
}

func TestEvaluateNonePassing(t *testing.T) {
	p := mustParse(t, evalPolicy)
	v := fourChallengers(p)
	d := p.Evaluate(Evidence{Challengers: []string{"C", "D"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Verdict != Inconclusive || len(d.Selected) != 0 || !strings.HasPrefix(d.Reason, "no challenger passes; D is inconclusive") {
		t.Errorf("C, D: %s: %s", d.Verdict, d.Reason)
	}
	d = p.Evaluate(Evidence{Challengers: []string{"C"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Verdict != Fail || d.Reason != "no challenger passes; C fails better and risk" {
		t.Errorf("C: %s: %q", d.Verdict, d.Reason)
	}
	d = p.Evaluate(Evidence{Values: v, Facts: goodFacts, Now: evalNow})
	if d.Verdict != Inconclusive || d.Reason != "there are no challengers to judge" {
		t.Errorf("none: %s: %s", d.Verdict, d.Reason)
	}
}

func TestOnInconclusive(t *testing.T) {
	for _, c := range []struct {
		setting string
		want    Verdict
	}{{"inconclusive", Inconclusive}, {"fail", Fail}, {"warn", Warn}, {"pass", Pass}} {
		p := mustParse(t, evalPolicy+"on_inconclusive: "+c.setting+"\n")
		d := p.Evaluate(Evidence{Challengers: []string{"C", "D"}, Values: fourChallengers(p), Facts: goodFacts, Now: evalNow})
		if d.Verdict != c.want || d.Raw != Inconclusive {
			t.Errorf("on_inconclusive %s: verdict %s (before %s)", c.setting, d.Verdict, d.Raw)
		}
		if c.setting != "inconclusive" && !strings.Contains(d.Reason, "(on_inconclusive: "+c.setting+")") {
			t.Errorf("reason does not say on_inconclusive: %s", d.Reason)
		}
	}
}

func TestRequirements(t *testing.T) {
	p := mustParse(t, evalPolicy)
	v := fourChallengers(p)
	// Too few topics: a requirement that is not met never lets a rule pass —
	// A's rules would pass, so they are inconclusive, and so is A.
	d := p.Evaluate(Evidence{Challengers: []string{"A"}, Values: v, Facts: Facts{Topics: 20, Artifacts: 40, TopicCoverage: 1}, Now: evalNow})
	if d.Verdict != Inconclusive || len(d.Unmet) != 1 || d.Unmet[0].Requirement != "min_topics" {
		t.Fatalf("%s %+v", d.Verdict, d.Unmet)
	}
	rr := d.Challengers[0].Rules[0]
	if rr.Outcome != OutcomeInconclusive || rr.Reason != "observed 0.99; needs at least 0.95, but it cannot pass: data requirements not met (20 topics; the policy requires at least 25 (requirements.min_topics))" {
		t.Errorf("rule: %s %q", rr.Outcome, rr.Reason)
	}
	// ... but a challenger that fails a fail rule on the evidence there is fails.
	d = p.Evaluate(Evidence{Challengers: []string{"C"}, Values: v, Facts: Facts{Topics: 20, Artifacts: 40, TopicCoverage: 1}, Now: evalNow})
	if d.Challengers[0].Verdict != Fail || !strings.Contains(d.Challengers[0].Rules[0].Reason+d.Challengers[0].Rules[1].Reason, "decided on the evidence available although data requirements are not met") {
		t.Errorf("C with too few topics: %s %+v", d.Challengers[0].Verdict, d.Challengers[0].Rules)
	}

	// Too few artifacts affects only the Bayesian analyses.
	q := mustParse(t, `version: 1
name: r
requirements: {min_artifacts: 10}
rules:
  - {id: w, quantity: wins, at_least: 30}
  - {id: b, quantity: bayes.p_better, at_least: 0.95}
`)
	// The Bayesian rule was judged on the model over the champion and the
	// challengers alone: its pass counts as on_insufficient_pool (warn by
	// default), its failure fails.
	v = NewValues()
	fill(q, v, "A", map[string]Observation{"w": Number(35), "b": Number(0.99), "rank": Number(0.02)})
	fill(q, v, "B", map[string]Observation{"w": Number(35), "b": Number(0.30), "rank": Number(0.02)})
	d = q.Evaluate(Evidence{Challengers: []string{"A", "B"}, Values: v, Facts: Facts{Topics: 50, Artifacts: 3, TopicCoverage: math.NaN()}, Now: evalNow})
	if got := outcomes(d.Challengers[0]); got != "w=pass b=warn" || d.Challengers[0].Verdict != Warn {
		t.Errorf("A: outcomes %s, verdict %s", got, d.Challengers[0].Verdict)
	}
	if got := d.Challengers[0].Rules[1].Reason; !strings.HasSuffix(got, "on the model with the day-one prior on the system spread (3 artifact systems; the Bayesian rules require at least 10 (requirements.min_artifacts)); a pass on it counts as warn (on_insufficient_pool)") {
		t.Errorf("A's reason %q", got)
	}
	if got := outcomes(d.Challengers[1]); got != "w=pass b=fail" || d.Challengers[1].Verdict != Fail {
		t.Errorf("B: outcomes %s, verdict %s", got, d.Challengers[1].Verdict)
	}
	for cap, want := range map[string]string{"inconclusive": "w=pass b=inconclusive", "fail": "w=pass b=fail", "warn": "w=pass b=warn"} {
		qc := mustParse(t, "version: 1\nname: r\nrequirements: {min_artifacts: 10}\non_insufficient_pool: "+cap+"\nrules:\n  - {id: w, quantity: wins, at_least: 30}\n  - {id: b, quantity: bayes.p_better, at_least: 0.95}\n")
		vc := NewValues()
		fill(qc, vc, "A", map[string]Observation{"w": Number(35), "b": Number(0.99), "rank": Number(0.02)})
		dc := qc.Evaluate(Evidence{Challengers: []string{"A"}, Values: vc, Facts: Facts{Topics: 50, Artifacts: 3, TopicCoverage: math.NaN()}, Now: evalNow})
		if got := outcomes(dc.Challengers[0]); got != want {
			t.Errorf("on_insufficient_pool: %s: outcomes %s, want %s", cap, got, want)
		}
	}
	if len(d.Unmet) != 1 || d.Unmet[0].Reason != "3 artifact systems; the Bayesian rules require at least 10 (requirements.min_artifacts)" {
		t.Errorf("unmet %+v", d.Unmet)
	}

	// min_artifacts does not matter to a policy without Bayesian rules.
	r := mustParse(t, "version: 1\nname: r\nrequirements: {min_artifacts: 10, min_topic_coverage: 0.9}\nrules: [{id: w, quantity: wins, at_least: 3}]\n")
	unmet := r.CheckRequirements(Facts{Topics: 50, Artifacts: 0, TopicCoverage: 0.8996})
	if len(unmet) != 1 || unmet[0].Reason != "89.9% of the topics are scored by every system; the policy requires 90% (requirements.min_topic_coverage)" {
		t.Errorf("unmet %+v", unmet)
	}
	unmet = r.CheckRequirements(Facts{Topics: 50, TopicCoverage: math.NaN()})
	if len(unmet) != 1 || !strings.HasPrefix(unmet[0].Reason, "topic coverage is unknown") {
		t.Errorf("unknown coverage: %+v", unmet)
	}
	// The zero Facts fail every requirement: a gate that forgets them cannot pass.
	if unmet := p.CheckRequirements(Facts{}); len(unmet) != 3 {
		t.Errorf("zero facts: %+v", unmet)
	}
}

func TestFailClosedObservations(t *testing.T) {
	p := mustParse(t, `version: 1
name: f
rules:
  - {id: p, quantity: bayes.p_better, at_least: 0.5}
  - {id: c, quantity: wins, at_most: 100}
  - {id: r, quantity: rope.decision, rope: [-0.01, 0.01], in: [better]}
select: all
`)
	for _, c := range []struct {
		name string
		obs  map[string]Observation
		want string
	}{
		{"not computed", map[string]Observation{}, "not computed"},
		{"NaN", map[string]Observation{"p": Number(math.NaN())}, "the value of bayes.p_better is NaN"},
		{"not a probability", map[string]Observation{"p": Number(1.5)}, "the value of bayes.p_better is 1.5, which is not a probability"},
		{"category for number", map[string]Observation{"p": Category("better")}, `the gate supplied category "better" for bayes.p_better, which is a number`},
		{"count not whole", map[string]Observation{"c": Number(2.5)}, "the value of wins is 2.5, which is not a count"},
		{"number for category", map[string]Observation{"r": Number(1)}, "the gate supplied 1 for rope.decision, which takes one of much_better, better, equivalent, worse, much_worse, undecided"},
		{"unknown outcome", map[string]Observation{"r": Category("great")}, `the gate supplied unknown outcome "great" for rope.decision`},
		{"unavailable", map[string]Observation{"p": Unavailable("")}, "no reason given"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := NewValues()
			fill(p, v, "A", c.obs)
			d := p.Evaluate(Evidence{Challengers: []string{"A"}, Values: v, Facts: goodFacts, Now: evalNow})
			found := false
			for _, rr := range d.Challengers[0].Rules {
				if _, set := c.obs[rr.Rule]; set || len(c.obs) == 0 {
					found = true
					if rr.Outcome != OutcomeInconclusive || !strings.Contains(rr.Reason, c.want) {
						t.Errorf("rule %s: %s %q, want inconclusive %q", rr.Rule, rr.Outcome, rr.Reason, c.want)
					}
				}
			}
			if !found || d.Verdict != Inconclusive {
				t.Errorf("verdict %s", d.Verdict)
			}
		})
	}
}

func TestWaivers(t *testing.T) {
	src := evalPolicy + `waivers:
  - {rule: better, challenger: "C*", reason: known regression, approver: alice, expires: 2026-06-01}
  - {rule: risk, challenger: C, reason: accepted, approver: bob, expires: 2026-05-31}
  - {rule: risk, challenger: C, reason: renewed, approver: carol, expires: 2026-12-31}
  - {rule: sig, challenger: Z, reason: gone, approver: dave, expires: 2027-01-01}
`
	p := mustParse(t, src)
	v := fourChallengers(p)
	d := p.Evaluate(Evidence{Challengers: []string{"C"}, Values: v, Facts: goodFacts, Now: evalNow.Add(23 * time.Hour)})
	c := d.Challengers[0]
	if got := outcomes(c); got != "better=waived risk=waived sig=warn practical=warn" {
		t.Fatalf("outcomes %s", got)
	}
	if c.Verdict != Warn || c.Reason != "passes with warnings on sig and practical (2 rules waived)" {
		t.Errorf("verdict %s: %s", c.Verdict, c.Reason)
	}
	better := c.Rules[0]
	if better.WaivedOutcome != OutcomeFail || !better.Waiver.Applied || better.Waiver.Note != "waived through 2026-06-01 by alice: known regression" {
		t.Errorf("better: %+v %+v", better, better.Waiver)
	}
	// The expired waiver of bob is skipped for carol's active one.
	if w := c.Rules[1].Waiver; w == nil || w.Approver != "carol" || !w.Applied {
		t.Errorf("risk waiver %+v", w)
	}
	notes := strings.Join(d.Notes, "\n")
	for _, want := range []string{
		"waiver of rule risk for C (approved by bob) expired on 2026-05-31 and no longer applies",
		"waiver of rule sig for Z matched no challenger in this run",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}

	// A day later alice's waiver has expired too: the rule fails again and says why.
	d = p.Evaluate(Evidence{Challengers: []string{"C"}, Values: v, Facts: goodFacts, Now: evalNow.Add(24 * time.Hour)})
	better = d.Challengers[0].Rules[0]
	if better.Outcome != OutcomeFail || better.Waiver == nil || better.Waiver.Applied || better.Waiver.Note != "waiver expired on 2026-06-01 and no longer applies" {
		t.Errorf("expired: %s %+v", better.Outcome, better.Waiver)
	}
	if d.Challengers[0].Verdict != Fail {
		t.Errorf("verdict %s", d.Challengers[0].Verdict)
	}
}

func TestWaiverCoversInconclusive(t *testing.T) {
	p := mustParse(t, evalPolicy+"waivers:\n  - {rule: risk, challenger: D, reason: fit known to be slow, approver: alice, expires: 2030-01-01}\n")
	d := p.Evaluate(Evidence{Challengers: []string{"D"}, Values: fourChallengers(p), Facts: goodFacts, Now: evalNow})
	rr := d.Challengers[0].Rules[1]
	if rr.Outcome != OutcomeWaived || rr.WaivedOutcome != OutcomeInconclusive {
		t.Errorf("%s (was %s)", rr.Outcome, rr.WaivedOutcome)
	}
}

func TestRanking(t *testing.T) {
	base := `version: 1
name: rank
loss_weight: 2
rules: [{id: w, quantity: wins, at_least: 0}]
`
	// Lower is better for brisk.p_riskier; ties keep data order.
	p := mustParse(t, base+"rank_by: brisk.p_riskier\n")
	q, _ := p.RankQuery()
	if q != (Query{Quantity: "brisk.p_riskier", LossWeight: 2}) {
		t.Fatalf("rank query %v", q)
	}
	v := NewValues()
	for c, r := range map[string]float64{"A": 0.2, "B": 0.01, "C": 0.01, "D": 0.5} {
		v.Set(c, p.Query(p.Rules[0]), Number(10))
		v.Set(c, q, Number(r))
	}
	d := p.Evaluate(Evidence{Challengers: []string{"A", "B", "C", "D"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Selected[0] != "B" {
		t.Errorf("selected %v", d.Selected)
	}
	// A challenger without a rank value ranks last, with a note.
	v.Set("B", q, Unavailable("fit failed"))
	v.Set("C", q, Number(math.NaN()))
	d = p.Evaluate(Evidence{Challengers: []string{"B", "C", "D"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Selected[0] != "D" || len(d.Notes) != 2 || !strings.Contains(d.Notes[0], "B passes but has no brisk.p_riskier value (fit failed)") {
		t.Errorf("selected %v, notes %q", d.Selected, d.Notes)
	}
	// Only one passing challenger.
	d = p.Evaluate(Evidence{Challengers: []string{"D"}, Values: v, Facts: goodFacts, Now: evalNow})
	if d.Reason != "D passes every rule and is the only challenger that passes" {
		t.Errorf("reason %q", d.Reason)
	}
}

func TestDecisionJSON(t *testing.T) {
	p := mustParse(t, evalPolicy)
	v := fourChallengers(p)
	v.Set("A", Query{Quantity: "bayes.diff.mean"}, Number(math.Inf(1)))
	d := p.Evaluate(Evidence{Challengers: []string{"A", "B", "C", "D"}, Values: v, Facts: goodFacts, Now: evalNow})
	out, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"verdict":"warn"`, `"selected":["B"]`, `"observed":{"number":0.12}`, `"unadjusted":{"number":0.04}`,
		`"observed":{"category":"better"}`, `"observed":{"unavailable":"the BRisk fit did not converge (R-hat 1.08 \u003e 1.01)"}`,
		`"query":{"quantity":"brisk.p_riskier","loss_weight":5}`, `"bound":{"at_most":0.05}`, `"bound_words":"at most 0.05"`, `"bound":{"in":["much_better","better"]}`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("JSON lacks %s", want)
		}
	}
	// Evaluate is deterministic.
	again, _ := json.Marshal(p.Evaluate(Evidence{Challengers: []string{"A", "B", "C", "D"}, Values: v, Facts: goodFacts, Now: evalNow}))
	if string(again) != string(out) {
		t.Error("two evaluations differ")
	}
}

func TestObservationJSON(t *testing.T) {
	for _, c := range []struct {
		o    Observation
		want string
	}{
		{Number(0.5), `{"number":0.5}`},
		{Number(math.NaN()), `{"unavailable":"value is NaN"}`},
		{Category("better"), `{"category":"better"}`},
		{Unavailable("x"), `{"unavailable":"x"}`},
		{Observation{}, `{"unavailable":"not computed"}`},
	} {
		got, err := json.Marshal(c.o)
		if err != nil || string(got) != c.want {
			t.Errorf("%v: %s %v, want %s", c.o, got, err, c.want)
		}
	}
}
