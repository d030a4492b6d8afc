package policies

import (
	"strings"
	"testing"
	"time"
)

const twoMeasurePolicy = `version: 1
name: two-measures
inputs:
  measure: map
  lower_is_better: [latency_ms]
rules:
  - id: map-improves
    quantity: tests.paired_t.p
    alternative: greater
    at_most: 0.05
  - id: ndcg-holds
    quantity: bca.lo
    measure: ndcg_cut_10
    loss_weight: 1
    margin: 0.02
    at_least: 0
  - id: latency-holds
    quantity: urisk
    measure: latency_ms
    loss_weight: 1
    margin: 5%
    at_least: 0
`

func TestRuleMeasures(t *testing.T) {
	t.Parallel()
	p, err := Parse("two.yaml", []byte(twoMeasurePolicy))
	if err != nil {
		t.Fatal(err)
	}
	// ndcg_cut_10 is spelt canonically (trec_eval's printed name).
	if got, want := strings.Join(p.RuleMeasures(), ","), "ndcg_cut_10,latency_ms"; got != want {
		t.Errorf("RuleMeasures = %s, want %s", got, want)
	}
	if q := p.Query(p.Rules[0]); q.Measure != "" {
		t.Errorf("a rule naming no measure has query measure %q, want the default (empty)", q.Measure)
	}
	q := p.Query(p.Rules[2])
	if q.Measure != "latency_ms" || q.MarginPercent != 5 || q.Margin != 0 {
		t.Errorf("latency rule query = %+v, want measure latency_ms, margin 5%%", q)
	}
	if got, want := q.String(), "urisk(loss_weight=1,margin=5%,measure=latency_ms)"; got != want {
		t.Errorf("query = %s, want %s", got, want)
	}
	if !p.LowerIsBetter("latency_ms") || p.LowerIsBetter("map") {
		t.Error("lower_is_better not read")
	}
}

func TestCheckMeasuresNamesTheRuleKey(t *testing.T) {
	t.Parallel()
	p, err := Parse("two.yaml", []byte(twoMeasurePolicy))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CheckMeasures([]string{"map", "ndcg_cut_10", "latency_ms"}); err != nil {
		t.Errorf("every measure present: %v", err)
	}
	err = p.CheckMeasures([]string{"map", "ndcg_cut_10", "latency"})
	want := `two.yaml:19:14: rules[2].measure: no input holds measure "latency_ms"; did you mean "latency"? (measures present: map, ndcg_cut_10, latency)`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

func TestMarginPercentErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ margin, want string }{
		{`"0%"`, `expected a relative margin above 0% and at most 100%`},
		{`"150%"`, `expected a relative margin above 0% and at most 100%`},
		{`"x%"`, `expected a relative margin`},
		{`2`, `expected a margin from 0 to 1 in score units`},
	} {
		src := strings.Replace(twoMeasurePolicy, "margin: 5%", "margin: "+tc.margin, 1)
		_, err := Parse("two.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "two.yaml:21:13: rules[2].margin: "+tc.want) {
			t.Errorf("margin %s: got %v, want %q at 21:13", tc.margin, err, tc.want)
		}
	}
}

func TestExplainSaysMeasureAndDirection(t *testing.T) {
	t.Parallel()
	p, err := Parse("two.yaml", []byte(twoMeasurePolicy))
	if err != nil {
		t.Fatal(err)
	}
	text := p.Explain(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	for _, want := range []string{
		"map-improves (severity fail): tests.paired_t.p on map must be at most 0.05",
		"ndcg-holds (severity fail): bca.lo on ndcg_cut_10 must be at least 0",
		"latency-holds (severity fail): urisk on latency_ms (lower is better) must be at least 0",
		"Lower is better on latency_ms: the rule is judged on the improvement",
		"margin 5% of the champion's mean latency_ms",
		"Measures: ndcg_cut_10 and latency_ms, named by the rules; a rule that names none is judged on map.",
	} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("explain lacks %q:\n%s", want, text)
		}
	}
}
