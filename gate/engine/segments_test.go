package engine

import (
	"context"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/shared"
	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// rb04Segments is rb04 (../shared, 45 systems × 50 topics) with its topics'
// origin (issue 26): topics 301–450 from the TREC 6–8 ad hoc tracks (30),
// 601–650 new in Robust 2003 (10), 651–700 in Robust 2004 (10) — labels
// derived from the topic numbers.
func rb04Segments(t *testing.T) (*scores.Table, *scores.TopicAttributes) {
	t.Helper()
	recs := shared.Records(t, shared.Path(t, "data/bayesian-risk/rb04.csv"))
	var systems, topics []string
	for _, r := range recs {
		if !slices.Contains(systems, r["system"]) {
			systems = append(systems, r["system"])
		}
		if !slices.Contains(topics, r["topic"]) {
			topics = append(topics, r["topic"])
		}
	}
	tab := scores.NewTable("ap", systems, topics)
	for _, r := range recs {
		v, err := strconv.ParseFloat(r["score"], 64)
		if err != nil {
			t.Fatal(err)
		}
		tab.Scores[slices.Index(systems, r["system"])][slices.Index(topics, r["topic"])] = v
	}
	a := &scores.TopicAttributes{File: "origin.csv", Topics: topics, Dimensions: []string{"origin"},
		Segment: map[string]map[string]string{"origin": {}}}
	for _, topic := range topics {
		a.Segment["origin"][topic] = origin(topic)
	}
	return tab, a
}

// origin is the collection rb04's topic "t_NNN" came from.
func origin(topic string) string {
	n, _ := strconv.Atoi(strings.TrimPrefix(topic, "t_"))
	switch {
	case n <= 450:
		return "trec678"
	case n <= 650:
		return "robust03"
	}
	return "robust04"
}

func mustParse(t *testing.T, yaml string) *policies.Policy {
	t.Helper()
	p, err := policies.Parse("p.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The segments of a dimension are the table's, in the topics file's order,
// with their topic counts, and a classical by: query is computed on the
// segment's topics only: rb04's paired t, Wilcoxon and sign tests of d +
// 0.02 (alternative less) per origin equal R's t.test / wilcox.test with mu
// = −0.02 and binom.test on d + 0.02 (testdata/segments_tests.R) to 1e-12.
func TestSegmentTestsAgainstR(t *testing.T) {
	t.Parallel()
	tab, a := rb04Segments(t)
	p := mustParse(t, `version: 1
name: seg
champion: Champion
challengers: ["Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"]
rules:
  - {id: t, by: origin, quantity: tests.paired_t.p, alternative: less, margin: 0.02, at_least: 0.05}
  - {id: w, by: origin, quantity: tests.wilcoxon.p, alternative: less, margin: 0.02, at_least: 0.05}
  - {id: s, by: origin, quantity: tests.sign.p, alternative: less, margin: 0.02, at_least: 0.05}
`)
	c, err := newCore(t.Context(), p, Tables{tab}, scores.Alignment{}, settings{attributes: a})
	if err != nil {
		t.Fatal(err)
	}
	want := []policies.Segment{{Name: "trec678", Topics: 30}, {Name: "robust03", Topics: 10}, {Name: "robust04", Topics: 10}}
	if got := c.segs.order["origin"]; !slices.Equal(got, want) {
		t.Fatalf("segments %v, want %v", got, want)
	}
	qs := p.Queries()
	var rows []map[string]string
	for _, row := range shared.Records(t, "testdata/segments_tests.csv") {
		if row["champion"] == "Champion" {
			rows = append(rows, row)
		}
	}
	if len(rows) != 12 {
		t.Fatalf("%d reference rows, want 12", len(rows))
	}
	for _, row := range rows {
		for qi, col := range []string{"t_less", "wilcoxon_less", "sign_less"} {
			q := qs[qi].InSegment(row["segment"])
			s := c.sliceOf(q)
			if len(s.t.Topics) != atoi(t, row["topics"]) {
				t.Fatalf("%s: %d topics, want %s", row["segment"], len(s.t.Topics), row["topics"])
			}
			ch := slices.Index(c.roles.Challengers, row["challenger"])
			got, ok := s.observe(s.chals[ch], q).Number()
			wantP := atof(t, row[col])
			if !ok || math.Abs(got-wantP) > 1e-12 {
				t.Errorf("%s in %s, %s with margin 0.02: %v, R %v", row["challenger"], row["segment"], col, got, wantP)
			}
		}
	}
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	v, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// A by: rule's values are given in every segment (q.InSegment) and the
// result's segment table holds each challenger's rows: the paired t
// interval of Δ (R's t.test conf.int, testdata/segments_tests.R) and the
// topic counts; the whole table's values are not computed for it.
func TestSegmentValuesAndTable(t *testing.T) {
	t.Parallel()
	tab, a := rb04Segments(t)
	p := mustParse(t, `version: 1
name: seg
champion: Champion
challengers: ["Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"]
rules:
  - {id: ni, by: origin, quantity: bca.lo, loss_weight: 1, margin: 0.05, at_least: 0}
`)
	r, err := Run(t.Context(), p, Tables{tab}, Options{Attributes: a})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Segments) != 1 || r.Segments[0].Dimension != "origin" || len(r.Segments[0].Challengers) != 4 {
		t.Fatalf("segment tables %+v", r.Segments)
	}
	ref := map[[2]string]map[string]string{}
	for _, row := range shared.Records(t, "testdata/segments_tests.csv") {
		if row["champion"] == "Champion" {
			ref[[2]string{row["challenger"], row["segment"]}] = row
		}
	}
	for _, ch := range r.Segments[0].Challengers {
		if len(ch.Rows) != 3 {
			t.Fatalf("%s: %d rows", ch.Name, len(ch.Rows))
		}
		for _, row := range ch.Rows {
			w := ref[[2]string{ch.Name, row.Segment}]
			for _, v := range []struct {
				what      string
				got, want float64
			}{{"Δ", float64(row.Delta), atof(t, w["delta"])}, {"lo", float64(row.Lo), atof(t, w["lo"])}, {"hi", float64(row.Hi), atof(t, w["hi"])}} {
				if math.Abs(v.got-v.want) > 1e-12 {
					t.Errorf("%s in %s: %s %v, R %v", ch.Name, row.Segment, v.what, v.got, v.want)
				}
			}
			if row.Topics != atoi(t, w["topics"]) || row.Level != 0.95 || !slices.Equal(row.Rules, []string{"ni"}) || row.Outcome == "" {
				t.Errorf("%s in %s: %+v", ch.Name, row.Segment, row)
			}
		}
	}
	// The BCa of every segment, not of the whole table.
	d, c, err := decide(t.Context(), p, Tables{tab}, DecideOptions{Attributes: a})
	if err != nil || d == nil {
		t.Fatal(err)
	}
	v := c.values([]policies.Analysis{policies.AnalysisBCa})
	q := p.Queries()[0]
	for _, g := range []string{"trec678", "robust03", "robust04"} {
		s := c.sliceOf(q.InSegment(g))
		b, err := s.pair(s.chals[0]).BCa(1, risk.BootstrapOptions{B: gateBootstrapSamples, Level: 0.95, Seed: p.Seed})
		got, ok := v.Get("Chal. 1", q.InSegment(g)).Number()
		if err != nil || !ok || got != b.BCa.Lo+0.05 {
			t.Errorf("bca.lo in %s: %v, want %v + 0.05 (%v)", g, got, b.BCa.Lo, err)
		}
	}
	if _, ok := c.whole.bcaAt[[2]float64{1, 0.95}]; ok {
		t.Error("the whole table's BCa was computed for a by: rule")
	}
}

// A by: Bayesian rule reads the partially pooled segment model of the whole
// table, once per dimension: its P(δ_g < −margin) in each segment, the
// same whatever GOMAXPROCS is; no raw-score fit of the whole table is made
// for it.
func TestSegmentFitDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("two segment fits of rb04's 45 × 50 (about 2 CPU-s)")
	}
	tab, a := rb04Segments(t)
	p := mustParse(t, `version: 1
name: seg
champion: Champion
challengers: ["Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"]
model: {target_ess: 1000}
rules:
  - {id: worse, by: origin, segments: no_harm, quantity: bayes.p_worse, margin: 0.02, at_most: 0.9}
`)
	run := func(procs int) map[string]float64 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		_, c, err := decide(context.Background(), p, Tables{tab}, DecideOptions{Attributes: a})
		if err != nil {
			t.Fatal(err)
		}
		if c.whole.raw != nil {
			t.Error("a raw-score fit of the whole table for a by: rule")
		}
		out := map[string]float64{}
		v := c.values([]policies.Analysis{policies.AnalysisBayes})
		for _, ch := range c.roles.Challengers {
			for _, g := range c.segs.order["origin"] {
				x, ok := v.Get(ch, p.Queries()[0].InSegment(g.Name)).Number()
				if !ok {
					t.Fatalf("%s in %s: %v", ch, g.Name, v.Get(ch, p.Queries()[0].InSegment(g.Name)))
				}
				out[ch+"/"+g.Name] = x
			}
		}
		return out
	}
	one, two := run(1), run(2)
	for k, x := range one {
		if two[k] != x {
			t.Errorf("%s: P(worse) %v with GOMAXPROCS 1, %v with 2", k, x, two[k])
		}
	}
	if len(one) != 12 {
		t.Errorf("%d values, want 12", len(one))
	}
}

// A relative margin (margin: N%) of a by: rule is N% of the champion's mean
// over the whole table in every segment: one δ for the rule, not a
// segment's own champion mean.
func TestSegmentRelativeMarginIsTheWholeTables(t *testing.T) {
	t.Parallel()
	tab, a := rb04Segments(t)
	p := mustParse(t, `version: 1
name: seg
champion: Champion
challengers: ["Chal. 1"]
rules:
  - {id: ni, by: origin, quantity: urisk, loss_weight: 1, margin: 10%, at_least: 0}
`)
	c, err := newCore(t.Context(), p, Tables{tab}, scores.Alignment{}, settings{attributes: a})
	if err != nil {
		t.Fatal(err)
	}
	champ := tab.Scores[tab.SystemIndex("Champion")]
	mean := 0.0
	for _, v := range champ {
		mean += v
	}
	want := 0.1 * mean / float64(len(champ))
	for _, g := range c.segs.order["origin"] {
		if got := c.absolute(p.Queries()[0].InSegment(g.Name)).Margin; math.Abs(got-want) > 1e-15 {
			t.Errorf("%s: margin %v, want 10%% of the whole table's champion mean, %v", g.Name, got, want)
		}
	}
}

// A by: rule's bayes.p_worse and brisk.p_riskier are the segment model's
// P(δ_g < −margin) in each segment — bayes.FitSegments on the raw scores,
// bayes.SegmentBRisk on the risk-adjusted pool at the rule's loss weight —
// fitted with the policy's settings and seed: the same draws, so the same
// numbers, matched by segment name (the model sorts its segments, the gate
// keeps the topics file's order).
func TestSegmentFitReadsTheModel(t *testing.T) {
	if testing.Short() {
		t.Skip("four segment fits of rb04's 45 × 50 (about 4 CPU-s)")
	}
	t.Parallel()
	tab, a := rb04Segments(t)
	p := mustParse(t, `version: 1
name: seg
champion: Champion
challengers: ["Chal. 1", "Chal. 3"]
model: {target_ess: 1000}
rules:
  - {id: worse, by: origin, segments: no_harm, quantity: bayes.p_worse, margin: 0.02, at_most: 0.9}
  - {id: riskier, by: origin, segments: no_harm, quantity: brisk.p_riskier, loss_weight: 2, margin: 0.01, at_most: 0.9}
`)
	_, c, err := decide(t.Context(), p, Tables{tab}, DecideOptions{Attributes: a})
	if err != nil {
		t.Fatal(err)
	}
	v := c.values([]policies.Analysis{policies.AnalysisBayes, policies.AnalysisBRisk})
	bt, champ, chals := c.whole.modelTable()
	label := make([]string, len(tab.Topics))
	for j, topic := range tab.Topics {
		label[j] = origin(topic)
	}
	opt := c.segmentOptions(bt)
	raw, err := bayes.FitSegments(bt, label, opt)
	if err != nil {
		t.Fatal(err)
	}
	br, err := bayes.SegmentBRisk(bt, label, champ, 2, bayes.SegmentBRiskOptions{Fit: opt, Challengers: chals})
	if err != nil {
		t.Fatal(err)
	}
	qs := p.Queries()
	for i, name := range c.roles.Challengers {
		for _, m := range []struct {
			fit    *bayes.SegmentFit
			q      policies.Query
			margin float64
		}{{raw, qs[0], 0.02}, {br.Fit, qs[1], 0.01}} {
			ds, err := m.fit.SegmentDiffs(chals[i], champ, m.margin, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				got, ok := v.Get(name, m.q.InSegment(d.Segment)).Number()
				if !ok || got != d.PBelow {
					t.Errorf("%s, %s in %s: %v, the model's P(δ_g < −%v) %v", name, m.q.Quantity, d.Segment, v.Get(name, m.q.InSegment(d.Segment)), m.margin, d.PBelow)
				}
			}
		}
	}
}

// Decide and Run refuse a by: rule without topic attributes, or naming a
// dimension they do not give, rather than evaluate rules that could never
// be computed.
func TestSegmentDimensionsChecked(t *testing.T) {
	t.Parallel()
	tab, a := rb04Segments(t)
	p := mustParse(t, "version: 1\nname: seg\nchampion: Champion\nchallengers: [\"Chal. 1\"]\nrules:\n  - {id: d, by: locale, quantity: mean_diff, at_least: 0}\n")
	for _, attrs := range []*scores.TopicAttributes{nil, a} {
		if _, err := DecideWith(t.Context(), p, Tables{tab}, DecideOptions{Attributes: attrs}); err == nil || !strings.Contains(err.Error(), "locale") {
			t.Errorf("Decide with attributes %v: %v, want an error naming locale", attrs != nil, err)
		}
		if _, err := Run(t.Context(), p, Tables{tab}, Options{Attributes: attrs}); err == nil || !strings.Contains(err.Error(), "locale") {
			t.Errorf("Run with attributes %v: %v, want an error naming locale", attrs != nil, err)
		}
	}
}

// The segment model is Gaussian whatever model.family says, and a policy of
// another family is told so in the fit's warnings.
func TestSegmentFitSaysItIsGaussian(t *testing.T) {
	if testing.Short() {
		t.Skip("a segment fit of rb04's 45 × 50 (about 1 CPU-s)")
	}
	t.Parallel()
	tab, a := rb04Segments(t)
	for _, family := range []string{"gaussian", "skew_normal"} {
		p := mustParse(t, `version: 1
name: seg
champion: Champion
challengers: ["Chal. 1"]
model: {family: `+family+`, target_ess: 400}
rules:
  - {id: worse, by: origin, segments: no_harm, quantity: bayes.p_worse, margin: 0.02, at_most: 0.9}
`)
		_, c, err := decide(t.Context(), p, Tables{tab}, DecideOptions{Attributes: a})
		if err != nil {
			t.Fatal(err)
		}
		said := false
		for _, w := range c.segFitWarnings() {
			said = said || strings.Contains(w.text, "is Gaussian: model.family skew_normal applies to the whole-table fits only")
		}
		if said != (family == "skew_normal") {
			t.Errorf("model.family %s: the warning that the segment model is Gaussian said %v", family, said)
		}
	}
}
