package policies

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
)

func TestParseSegments(t *testing.T) {
	t.Parallel()
	p := mustParse(t, `version: 1
name: seg
loss_weight: 2
inputs: {topics_file: attrs/topics.csv}
requirements: {min_topics_per_segment: 8}
rules:
  - {id: a, by: origin, quantity: bca.lo, margin: 0.05, at_least: 0}
  - {id: b, by: locale, segments: no_harm, quantity: tests.wilcoxon.p, alternative: less, margin: 0.02, at_least: 0.05}
  - {id: c, by: origin, segments: no_harm, quantity: tests.sign.p, alternative: less, correction: bh, at_least: 0.05}
  - {id: d, by: origin, segments: no_harm, quantity: brisk.p_riskier, margin: 0.02, at_most: 0.9}
  - {id: e, quantity: tests.paired_t.p, alternative: greater, margin: 0.01, at_most: 0.05}
`)
	type got struct {
		by  string
		sem SegmentSemantics
		cor Correction
	}
	want := []got{{"origin", SegmentsAllPass, ""}, {"locale", SegmentsNoHarm, CorrectHolm}, {"origin", SegmentsNoHarm, CorrectBH}, {"origin", SegmentsNoHarm, ""}, {"", "", ""}}
	for i, r := range p.Rules {
		if g := (got{r.By, r.BySemantics, r.Correction}); g != want[i] {
			t.Errorf("rule %s: %+v, want %+v", r.ID, g, want[i])
		}
	}
	if p.Requirements.MinTopicsPerSegment != 8 || p.TopicsFilePath() != "attrs/topics.csv" {
		t.Errorf("min_topics_per_segment %d, topics file %q", p.Requirements.MinTopicsPerSegment, p.TopicsFilePath())
	}
	in := "version: 1\nname: seg\ninputs: {topics_file: attrs/topics.csv}\nrules:\n  - {id: a, by: origin, quantity: mean_diff, at_least: 0}\n"
	if p2, err := Parse("dir/p.yaml", []byte(in)); err != nil || p2.TopicsFilePath() != "dir/attrs/topics.csv" {
		t.Errorf("relative to the policy's folder: %v %v", p2, err)
	}
	if ds := p.Dimensions(); !slices.Equal(ds, []string{"origin", "locale"}) {
		t.Errorf("dimensions %v", ds)
	}
	// A by: rule's query names its dimension and no segment; a test's
	// takes the margin (and not the correction, which Evaluate applies).
	qs := p.Queries()
	for _, w := range []string{
		"bca.lo(loss_weight=2,level=0.95,correction=none,margin=0.05,by=origin)",
		"tests.wilcoxon.p(alternative=less,margin=0.02,by=locale)",
		"tests.sign.p(alternative=less,by=origin)",
		"brisk.p_riskier(loss_weight=2,margin=0.02,by=origin)",
		"tests.paired_t.p(alternative=greater,margin=0.01)",
	} {
		if !slices.ContainsFunc(qs, func(q Query) bool { return q.String() == w }) {
			t.Errorf("no query %s in %v", w, qs)
		}
	}
	if q := p.Query(p.Rules[4]); q.Label() != "tests.paired_t.p of Δ + 0.01" || q.MarginAdded() {
		t.Errorf("test with a margin: label %q, margin added %v", q.Label(), q.MarginAdded())
	}
	// Neither a test with a margin nor a by: rule (harm in a segment) is the
	// policy's definition of risk (calibrate's): that is the first fail rule
	// on the whole table's risk-adjusted difference.
	if r, _, ok := p.RiskDefinition(); ok {
		t.Errorf("risk definition: %s", r.ID)
	}
	g := mustParse(t, `version: 1
name: g
rules:
  - {id: t, quantity: tests.paired_t.p, alternative: greater, margin: 0.01, at_most: 0.05}
  - {id: b, quantity: bca.lo, loss_weight: 1, margin: 0.02, at_least: 0}
`)
	if r, _, ok := g.RiskDefinition(); !ok || r.ID != "b" {
		t.Errorf("risk definition with a test first: %v", r)
	}
}

func TestCheckDimensions(t *testing.T) {
	t.Parallel()
	p := mustParse(t, `version: 1
name: seg
rules:
  - {id: a, by: origin, quantity: mean_diff, at_least: 0}
  - {id: b, quantity: mean_diff, at_least: 0}
  - {id: c, by: locale, quantity: mean_diff, at_least: 0}
`)
	if err := p.CheckDimensions([]string{"locale", "origin", "band"}); err != nil {
		t.Errorf("every dimension present: %v", err)
	}
	err := p.CheckDimensions([]string{"orgin", "band"})
	want := "eval.yaml:4:17: rules[0].by: the topics file has no dimension \"origin\"; did you mean \"orgin\"? (its dimensions: orgin, band)\n" +
		"eval.yaml:6:17: rules[2].by: the topics file has no dimension \"locale\" (its dimensions: orgin, band)"
	if err == nil || err.Error() != want {
		t.Errorf("missing dimensions:\n got %v\nwant %s", err, want)
	}
	var ie *inputerr.Error
	if !errors.As(unwrapAll(err)[0], &ie) || ie.Line != 4 || ie.Column != 17 {
		t.Errorf("not an *inputerr.Error at the by: value: %#v", err)
	}
	err = p.CheckDimensions(nil)
	if err == nil || !strings.HasPrefix(err.Error(), "eval.yaml:4:17: rules[0].by: rule a has by: origin but no topics file: give --topics-file or inputs.topics_file\n") {
		t.Errorf("no topics file: %v", err)
	}
}

func TestSegmentWarnings(t *testing.T) {
	t.Parallel()
	p := mustParse(t, `version: 1
name: seg
loss_weight: 2
requirements: {min_topics_per_segment: 5}
rules:
  - {id: t-all, by: origin, quantity: tests.paired_t.p, alternative: two_sided, at_most: 0.05}
  - {id: t-greater, by: origin, quantity: tests.paired_t.p, alternative: greater, margin: 0.02, at_most: 0.05}
  - {id: harm, by: origin, segments: no_harm, quantity: brisk.p_riskier, margin: 0.02, at_most: 0.9}
  - {id: riskier-all, by: origin, quantity: brisk.p_riskier, margin: 0.02, at_most: 0.3}
`)
	ws := strings.Join(p.Warnings(evalNow), "\n")
	for _, w := range []string{
		"eval.yaml:6:5: rule t-all must pass in every segment of origin (segments: all_pass), but a p-value of alternative two_sided cannot show the challenger non-inferior there",
		"eval.yaml:9:85: rule riskier-all passes a challenger with brisk.p_riskier at most 0.3",
	} {
		if !strings.Contains(ws, w) {
			t.Errorf("no warning %q in\n%s", w, ws)
		}
	}
	for _, not := range []string{"rule t-greater", "rule harm", "min_topics_per_segment"} {
		if strings.Contains(ws, not) {
			t.Errorf("unexpected warning on %s:\n%s", not, ws)
		}
	}
	q := mustParse(t, "version: 1\nname: q\nrequirements: {min_topics_per_segment: 5}\nrules:\n  - {id: a, quantity: mean_diff, at_least: 0}\n")
	if ws := q.Warnings(evalNow); !slices.Contains(ws, "eval.yaml: requirements.min_topics_per_segment has no effect: no rule has by:") {
		t.Errorf("warnings %q", ws)
	}
}

// Explain says how each semantics combines the segments and controls its
// errors.
func TestExplainSegments(t *testing.T) {
	t.Parallel()
	p := mustParse(t, `version: 1
name: seg
loss_weight: 2
rules:
  - {id: bh, by: origin, segments: no_harm, quantity: tests.sign.p, alternative: less, correction: bh, at_least: 0.05}
  - {id: pooled, by: band, segments: no_harm, quantity: brisk.p_riskier, margin: 0.02, at_most: 0.9}
  - {id: all, by: origin, quantity: tests.paired_t.p, alternative: greater, margin: 0.01, correction: holm, at_most: 0.025}
`)
	text := strings.Join(strings.Fields(p.Explain(evalNow)), " ")
	for _, want := range []string{
		"Benjamini–Hochberg-corrected over the segments and the challengers",
		"the Benjamini–Hochberg adjustment controls the false discovery rate",
		"The rule fails when some segment's adjusted p-value is below 0.05. Otherwise it is inconclusive when a segment is, and passes when every segment passes",
		"the value is read off the segment's difference in the partially pooled segment model of the risk-adjusted pool (BRisk form)",
		"No correction across segments: partial pooling is the remedy for multiplicity",
		"margin 0.01: the test compares the challenger's scores plus 0.01 with the champion's, so a small p-value shows the challenger non-inferior",
		"With segments: all_pass the bound must hold in every segment: an intersection–union test",
		"The correction is over the segments and the challengers together.",
		"The by: rules name origin and band, columns of a topics file that --topics-file must give.",
		"The Bayesian rules by band take their values from the partially pooled segment model",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("explain lacks %q:\n%s", want, text)
		}
	}
}
