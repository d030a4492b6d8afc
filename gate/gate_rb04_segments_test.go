package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/parquettest"
	"github.com/riskgate/riskgate/internal/shared"
)

// rb04SegmentRefs are the per-origin R references of every rb04 system
// against Champion (risk/testdata/rb04_segments: rb04_segments_ref.R, R 4.2.2
// and boot 1.3-28.1; risk's TestSegmentPairedTAgainstR and
// TestSegmentBCaAgainstR compare package risk with them).
const rb04SegmentRefs = "../risk/testdata/rb04_segments"

// Issue 26's "Done when" 1 at the gate: riskgate gate on rb04 with a topics
// file of the topics' origins (derived from the topic numbers: 301–450
// trec6-8, 601–650 robust03, 651–700 robust04, the labels of ../shared's
// rb04_topics.csv) and by: origin rules, all 44 challengers against
// Champion. result.json's per-segment values equal R's on each subset:
//
//   - the paired t test's p-values — two-sided, alternative greater, and the
//     harm test of margin 0.02 (alternative less, t.test mu = −0.02; the
//     no_harm rule's unadjusted p) — to 1e-12 relative, as package risk's;
//   - the 95% BCa lower end of URisk at loss weights 1 and 5 (bca.lo before
//     its margin) within 5·√2 Monte Carlo standard errors of R's
//     boot.ci(type = "bca") with R = 1e5 (the script records each end's
//     MCSE; the gate's bootstrap has the same B, so the difference of two
//     independent bootstraps has √2 times it; TestSegmentBCaAgainstR says
//     why 5).
//
// 44 × 3 × 2 bootstraps of 1e5: seconds, so not under -short (package risk
// compares the same numbers under -short).
func TestGateRB04SegmentsAgainstR(t *testing.T) {
	if testing.Short() {
		t.Skip("bootstraps 264 BCa intervals of 1e5 replicates (seconds); TestSegmentPairedTAgainstR and TestSegmentBCaAgainstR check package risk under -short")
	}
	t.Parallel()
	rb04 := shared.Path(t, "data/bayesian-risk/rb04.csv")
	dir := t.TempDir()
	var topics strings.Builder
	topics.WriteString("topic,origin\n")
	seen := map[string]bool{}
	for _, r := range shared.Records(t, rb04) {
		if !seen[r["topic"]] {
			seen[r["topic"]] = true
			topics.WriteString(r["topic"] + "," + rb04OriginLabel(t, r["topic"]) + "\n")
		}
	}
	// The labels derived from the numbers are ../shared's.
	for _, r := range shared.Records(t, shared.Path(t, "data/bayesian-risk/rb04_topics.csv")) {
		if got := rb04OriginLabel(t, r["topic"]); got != r["origin"] {
			t.Fatalf("topic %s: origin %q from its number, rb04_topics.csv %q", r["topic"], got, r["origin"])
		}
	}
	topicsFile := filepath.Join(dir, "origin.csv")
	if err := os.WriteFile(topicsFile, []byte(topics.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := writeTemp(t, "origin.yaml", `version: 1
name: rb04-origin-references
champion: Champion
challengers: ["*"]
inputs:
  topics_file: `+topicsFile+`
requirements:
  min_topics_per_segment: 10
rules:
  - id: harm
    by: origin
    segments: no_harm
    quantity: tests.paired_t.p
    alternative: less
    margin: 0.02
    correction: holm
    at_least: 0.000001
  - id: two-sided
    by: origin
    quantity: tests.paired_t.p
    at_most: 1
  - id: greater
    by: origin
    quantity: tests.paired_t.p
    alternative: greater
    at_most: 1
  - id: urisk1
    by: origin
    quantity: bca.lo
    loss_weight: 1
    margin: 0.02
    at_least: -1
  - id: urisk5
    by: origin
    quantity: bca.lo
    loss_weight: 5
    at_least: -10
`)
	code, out, stderr := runMain(t, "gate", "--policy", policy, "--format", "json", rb04)
	if code == exitError {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	type key struct{ system, origin string }
	ttest := map[key]map[string]string{}
	for _, r := range shared.Records(t, rb04SegmentRefs+"/ttest.csv") {
		ttest[key{r["system"], r["origin"]}] = r
	}
	bca := map[key]map[string]string{}
	for _, r := range shared.Records(t, rb04SegmentRefs+"/bca.csv") {
		bca[key{r["system"], r["origin"] + " w=" + r["loss_weight"]}] = r
	}
	challengers := segmentDecision(t, out)
	if len(challengers) != 44 {
		t.Fatalf("%d challengers in result.json, want 44", len(challengers))
	}
	var pDev, bDev struct {
		what string
		dev  float64
	}
	compared := 0
	for _, c := range challengers {
		if len(c.Rules) != 5 {
			t.Fatalf("%s: %d rule results, want 5", c.Name, len(c.Rules))
		}
		for i, rule := range c.Rules {
			if len(rule.Segments) != 3 {
				t.Fatalf("%s rule %d: %d segments, want 3", c.Name, i, len(rule.Segments))
			}
			for _, sr := range rule.Segments {
				k := key{c.Name, sr.Segment}
				ref, ok := ttest[k]
				if !ok {
					t.Fatalf("no R reference for %s in %s", c.Name, sr.Segment)
				}
				if want := ref["topics"]; fmt.Sprint(sr.Topics) != want {
					t.Errorf("%s in %s: %d topics, R %s", c.Name, sr.Segment, sr.Topics, want)
				}
				what := fmt.Sprintf("%s in %s", c.Name, sr.Segment)
				switch i {
				case 0, 1, 2: // p-values, 1e-12 relative
					got, col := sr.Observed.Number, [...]string{"harm_p_less", "p", "p_greater"}[i]
					if i == 0 {
						got = sr.Unadjusted.Number // the no_harm rule's Holm-adjusted p is Observed
					}
					want := shared.ParseFloat(t, ref[col])
					e := math.Abs(got-want) / math.Abs(want)
					if e > pDev.dev {
						pDev.what, pDev.dev = what+" "+col, e
					}
					if e > 1e-12 {
						t.Errorf("%s: %s %.17g, R %.17g (rel. %.2g)", what, col, got, want, e)
					}
				case 3, 4: // BCa lower ends, Monte Carlo error
					w, margin := "1", 0.02
					if i == 4 {
						w, margin = "5", 0
					}
					b := bca[key{c.Name, sr.Segment + " w=" + w}]
					want, s := shared.ParseFloat(t, b["lo"]), shared.ParseFloat(t, b["lo_mcse"])
					got := sr.Observed.Number - margin
					z := math.Abs(got-want) / (math.Sqrt2 * s)
					if z > bDev.dev {
						bDev.what, bDev.dev = what+" w = "+w, z
					}
					if z > 5 {
						t.Errorf("%s: bca.lo at w = %s %.6f, R %.6f: %.1f combined Monte Carlo SEs (> 5)", what, w, got, want, z)
					}
				}
				compared++
			}
		}
	}
	t.Logf("%d per-segment values compared; p-values worst rel. %.2g (%s); BCa ends at most %.2f combined Monte Carlo SEs from R's (%s)",
		compared, pDev.dev, pDev.what, bDev.dev, bDev.what)
}

// rb04OriginLabel is an rb04 topic's origin from its number, with
// rb04_topics.csv's labels.
func rb04OriginLabel(t *testing.T, topic string) string {
	t.Helper()
	var n int
	if _, err := fmt.Sscanf(topic, "t_%d", &n); err != nil {
		t.Fatalf("rb04 topic %q has no number", topic)
	}
	switch {
	case n >= 301 && n <= 450:
		return "trec6-8"
	case n >= 601 && n <= 650:
		return "robust03"
	case n >= 651 && n <= 700:
		return "robust04"
	}
	t.Fatalf("rb04 topic %q is in no origin", topic)
	return ""
}

// A Parquet topics file (written by the independent writer: string ids,
// DOUBLE weights, row groups of 20) gives the gate the same decision, segment
// tables and weighting as the same file in CSV; its SHA-256 is among the
// inputs.
func TestGateTopicsFileParquet(t *testing.T) {
	t.Parallel()
	rb04 := shared.Path(t, "data/bayesian-risk/rb04.csv")
	dir := t.TempDir()
	var csvText strings.Builder
	csvText.WriteString("topic,origin,weight\n")
	var rows [][]any
	for _, r := range shared.Records(t, "../risk/testdata/weighted/weights.csv") {
		origin := rb04OriginLabel(t, r["topic"])
		csvText.WriteString(r["topic"] + "," + origin + "," + r["weight"] + "\n")
		rows = append(rows, []any{r["topic"], origin, shared.ParseFloat(t, r["weight"])})
	}
	csvPath, pqPath := filepath.Join(dir, "topics.csv"), filepath.Join(dir, "topics.parquet")
	if err := os.WriteFile(csvPath, []byte(csvText.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var pq bytes.Buffer
	cols := []parquettest.Column{{Name: "topic", Node: parquettest.String}, {Name: "origin", Node: parquettest.String}, {Name: "weight", Node: parquettest.Double}}
	if err := parquettest.Write(&pq, cols, rows, 20); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pqPath, pq.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := writeTemp(t, "p.yaml", `version: 1
name: parquet-topics
champion: Champion
challengers: ["Chal. 1", "Chal. 3"]
requirements:
  min_topics_per_segment: 10
rules:
  - id: no-origin-harmed
    by: origin
    segments: no_harm
    quantity: tests.paired_t.p
    alternative: less
    margin: 0.02
    at_least: 0.05
  - id: traffic
    quantity: mean_diff
    at_least: 0
`)
	decide := func(topics string) (string, *result.Result) {
		code, out, stderr := runMain(t, "gate", "--policy", policy, "--format", "json", "--topics-file", topics, rb04)
		if code == exitError {
			t.Fatalf("%s: exit %d\n%s", topics, code, stderr)
		}
		var r result.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return out, &r
	}
	csvOut, fromCSV := decide(csvPath)
	pqOut, fromPQ := decide(pqPath)
	if len(fromCSV.Segments) != 1 || len(fromCSV.Segments[0].Challengers) != 2 || len(fromCSV.Segments[0].Challengers[0].Rows) != 3 {
		t.Fatalf("segment tables from CSV %+v, want one dimension, 2 challengers, 3 segments", fromCSV.Segments)
	}
	for _, part := range []struct {
		name string
		a, b any
	}{
		{"decision", segmentDecision(t, csvOut), segmentDecision(t, pqOut)},
		{"segment tables", fromCSV.Segments, fromPQ.Segments},
		{"risk table", fromCSV.RiskTable, fromPQ.RiskTable},
	} {
		a, _ := json.Marshal(part.a)
		b, _ := json.Marshal(part.b)
		if !bytes.Equal(a, b) {
			t.Errorf("%s from CSV:\n%s\nfrom Parquet:\n%s", part.name, a, b)
		}
	}
	if fromPQ.Weighting == nil || fromPQ.Weighting.File != pqPath || fromPQ.Weighting.EffectiveTopics != fromCSV.Weighting.EffectiveTopics {
		t.Errorf("weighting from Parquet %+v, from CSV %+v", fromPQ.Weighting, fromCSV.Weighting)
	}
	var digested bool
	for _, in := range fromPQ.Provenance.Inputs {
		digested = digested || in.Role == "topics" && in.Path == pqPath && len(in.SHA256) == 64
	}
	if !digested {
		t.Errorf("the Parquet topics file is not among the inputs: %+v", fromPQ.Provenance.Inputs)
	}
}
