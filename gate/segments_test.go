package gate

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/shared"
	"github.com/riskgate/riskgate/policies"
)

// rb04Origins writes rb04's topics file into dir: each topic's origin,
// derived from its number (issue 26) — 301–450 the TREC 6–8 ad hoc tracks
// (30 of rb04's 50), 601–650 new in Robust 2003 (10), 651–700 in Robust
// 2004 (10) — and returns its path and rb04's.
func rb04Origins(t *testing.T, dir string) (topicsFile, rb04 string) {
	t.Helper()
	rb04 = shared.Path(t, "data/bayesian-risk/rb04.csv")
	var b strings.Builder
	b.WriteString("topic,origin\n")
	seen := map[string]bool{}
	for _, r := range shared.Records(t, rb04) {
		if seen[r["topic"]] {
			continue
		}
		seen[r["topic"]] = true
		b.WriteString(r["topic"] + "," + topicOrigin(r["topic"]) + "\n")
	}
	topicsFile = filepath.Join(dir, "origin.csv")
	if err := os.WriteFile(topicsFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return topicsFile, rb04
}

func topicOrigin(topic string) string {
	n, _ := strconv.Atoi(strings.TrimPrefix(topic, "t_"))
	switch {
	case n <= 450:
		return "trec678"
	case n <= 650:
		return "robust03"
	}
	return "robust04"
}

// segmentRef is engine/testdata/segments_tests.csv (R, segments_tests.R)
// by champion, challenger and segment.
func segmentRef(t *testing.T) map[[3]string]map[string]float64 {
	t.Helper()
	out := map[[3]string]map[string]float64{}
	for _, row := range shared.Records(t, "engine/testdata/segments_tests.csv") {
		m := map[string]float64{}
		for k, v := range row {
			if x, err := strconv.ParseFloat(v, 64); err == nil {
				m[k] = x
			}
		}
		out[[3]string{row["champion"], row["challenger"], row["segment"]}] = m
	}
	return out
}

// The gate on rb04 by topic origin, champion Chal. 4 against Champion and
// Chal. 3, which lose to it in every origin: a no_harm rule on the paired t
// test of d + 0.02 (alternative less) with Holm's correction across the 3
// segments × 2 challengers fails where the adjusted p is below its bound,
// each segment's unadjusted and adjusted p-values equal R's (t.test with mu
// = −0.02, p.adjust "holm"; segments_tests.R) to 1e-12, and result.json's
// segment table holds R's paired t interval of Δ in each; an all_pass rule
// with min_topics_per_segment 11 is inconclusive in the two origins of 10
// topics, never pass (and so is the no_harm rule there).
func TestGateSegmentsRB04(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	topics, rb04 := rb04Origins(t, dir)
	for _, minTopics := range []int{10, 11} {
		t.Run("min_topics_per_segment "+strconv.Itoa(minTopics), func(t *testing.T) { gateSegmentsRB04(t, topics, rb04, minTopics) })
	}
}

func gateSegmentsRB04(t *testing.T, topics, rb04 string, minTopics int) {
	policy := writeTemp(t, "seg.yaml", `version: 1
name: rb04-origin
champion: "Chal. 4"
challengers: ["Champion", "Chal. 3"]
inputs:
  topics_file: `+topics+`
requirements:
  min_topics_per_segment: `+strconv.Itoa(minTopics)+`
rules:
  - id: no-origin-harmed
    by: origin
    segments: no_harm
    quantity: tests.paired_t.p
    alternative: less
    margin: 0.02
    correction: holm
    at_least: 0.01
  - id: every-origin-non-inferior
    by: origin
    quantity: bca.lo
    loss_weight: 1
    margin: 0.05
    at_least: -1
    severity: warn
`)
	code, out, stderr := runMain(t, "gate", "--policy", policy, "--format", "json", rb04)
	if code != exitFail {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	ref := segmentRef(t)
	for _, c := range segmentDecision(t, out) {
		harm, every := c.Rules[0], c.Rules[1]
		if harm.By != "origin" || len(harm.Segments) != 3 || len(every.Segments) != 3 {
			t.Fatalf("%s: rule results %+v", c.Name, c.Rules)
		}
		for _, sr := range harm.Segments {
			want := ref[[3]string{"Chal. 4", c.Name, sr.Segment}]
			adj, raw := sr.Observed.Number, sr.Unadjusted.Number
			if math.Abs(adj-want["t_less_holm"]) > 1e-12 || math.Abs(raw-want["t_less"]) > 1e-12 {
				t.Errorf("%s in %s: p %v (unadjusted %v), R holm %v (%v)", c.Name, sr.Segment, adj, raw, want["t_less_holm"], want["t_less"])
			}
			wantOutcome := policies.OutcomeFail
			switch {
			case sr.Topics < minTopics:
				wantOutcome = policies.OutcomeInconclusive // min_topics_per_segment
			case want["t_less_holm"] >= 0.01:
				wantOutcome = policies.OutcomePass
			}
			if sr.Outcome != wantOutcome {
				t.Errorf("%s in %s: %s, want %s (adjusted p %v, at_least 0.01)", c.Name, sr.Segment, sr.Outcome, wantOutcome, adj)
			}
		}
		if harm.Outcome != policies.OutcomeFail || harm.Segment != "trec678" {
			t.Errorf("%s: no_harm %s in %q, want fail in trec678 (the first failing segment)", c.Name, harm.Outcome, harm.Segment)
		}
		for _, sr := range every.Segments {
			if sr.Topics < minTopics && sr.Outcome != policies.OutcomeInconclusive || sr.Topics >= minTopics && sr.Outcome != policies.OutcomePass {
				t.Errorf("%s: all_pass in %s (%d topics, min %d): %s, want inconclusive below the minimum, else pass (bca.lo + 0.05 ≥ −1)", c.Name, sr.Segment, sr.Topics, minTopics, sr.Outcome)
			}
		}
		if every.Outcome == policies.OutcomePass && minTopics == 11 {
			t.Errorf("%s: an all_pass rule with inconclusive segments passed", c.Name)
		}
	}
	if len(r.Segments) != 1 || r.Segments[0].Dimension != "origin" || len(r.Segments[0].Challengers) != 2 {
		t.Fatalf("segment tables %+v", r.Segments)
	}
	for _, ch := range r.Segments[0].Challengers {
		if ch.Worst != "trec678" {
			t.Errorf("%s: worst segment %q, want trec678", ch.Name, ch.Worst)
		}
		for _, row := range ch.Rows {
			want := ref[[3]string{"Chal. 4", ch.Name, row.Segment}]
			if math.Abs(float64(row.Delta)-want["delta"]) > 1e-12 || math.Abs(float64(row.Lo)-want["lo"]) > 1e-12 || math.Abs(float64(row.Hi)-want["hi"]) > 1e-12 ||
				row.Topics != int(want["topics"]) || (row.Outcome == policies.OutcomeFail) != (row.Segment != "robust03" && row.Topics >= minTopics) {
				t.Errorf("%s in %s: Δ %v [%v, %v] on %d topics (%s); R %v [%v, %v] on %v", ch.Name, row.Segment, row.Delta, row.Lo, row.Hi, row.Topics, row.Outcome,
					want["delta"], want["lo"], want["hi"], want["topics"])
			}
		}
	}
	var topicsInput bool
	for _, in := range r.Provenance.Inputs {
		topicsInput = topicsInput || in.Role == "topics" && in.Path == topics && len(in.SHA256) == 64
	}
	if !topicsInput {
		t.Errorf("the topics file is not among the inputs: %+v", r.Provenance.Inputs)
	}
}

// segmentDecision reads the by: rules' results of result.json.
func segmentDecision(t *testing.T, out string) []struct {
	Name  string
	Rules []segmentRuleJSON
} {
	t.Helper()
	var r struct {
		Decision struct {
			Challengers []struct {
				Name  string
				Rules []segmentRuleJSON
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r.Decision.Challengers
}

type segmentRuleJSON struct {
	Rule     string
	Measure  string
	By       string
	Segment  string
	Outcome  policies.Outcome
	Segments []struct {
		Segment              string
		Topics               int
		Observed, Unadjusted struct{ Number float64 }
		Outcome              policies.Outcome
	}
}

// A policy without by: rules gives the same result.json with a topics file
// as without one, but for the topics file among the inputs.
func TestGateTopicsFileWithoutByRules(t *testing.T) {
	t.Parallel()
	topics, rb04 := rb04Origins(t, t.TempDir())
	policy := writeTemp(t, "p.yaml", "version: 1\nname: plain\nchampion: Champion\nchallengers: [\"Chal. 1\"]\nrules:\n  - {id: t, quantity: tests.paired_t.p, alternative: less, at_least: 0.05}\n")
	_, with, _ := runMain(t, "gate", "--policy", policy, "--format", "json", "--topics-file", topics, rb04)
	_, without, _ := runMain(t, "gate", "--policy", policy, "--format", "json", rb04)
	var a, b result.Result
	if err := json.Unmarshal([]byte(with), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(without), &b); err != nil {
		t.Fatal(err)
	}
	if a.Segments != nil || len(a.Provenance.Inputs) != len(b.Provenance.Inputs)+1 {
		t.Errorf("segments %v; inputs %d with the topics file, %d without", a.Segments, len(a.Provenance.Inputs), len(b.Provenance.Inputs))
	}
	ja, _ := json.Marshal(a.Decision)
	jb, _ := json.Marshal(b.Decision)
	if string(ja) != string(jb) {
		t.Errorf("the decision differs with a topics file:\n%s\n%s", ja, jb)
	}
}

// Bad topics files, a topic of the scores the file lacks, a dimension the
// file lacks and a by: rule without a topics file: one line naming the file
// and line (or the policy's by: key), exit 2.
func TestGateSegmentsBadInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, rb04 := rb04Origins(t, dir)
	goodText, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(goodText), "\n"), "\n")
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	body := strings.Join(lines[1:], "\n") + "\n"
	withWeight := "topic,origin,weight\n" + strings.ReplaceAll(body, "\n", ",1\n")
	byPolicy := writeTemp(t, "by.yaml", "version: 1\nname: by\nchampion: Champion\nchallengers: [\"Chal. 1\"]\nrules:\n  - id: t\n    by: origin\n    quantity: tests.paired_t.p\n    alternative: less\n    margin: 0.02\n    correction: holm\n    segments: no_harm\n    at_least: 0.05\n")
	byLocale := writeTemp(t, "locale.yaml", "version: 1\nname: by\nchampion: Champion\nchallengers: [\"Chal. 1\"]\nrules:\n  - id: t\n    by: locale\n    quantity: mean_diff\n    at_least: 0\n")
	for _, c := range []struct {
		name   string
		policy string
		args   []string
		want   string
	}{
		{"duplicate topic", byPolicy, []string{"--topics-file", write("dup.csv", string(goodText)+lines[3]+"\n")}, "dup.csv:" + strconv.Itoa(len(lines)+1) + `: topic "` + strings.Split(lines[3], ",")[0] + `" is given twice (first at line 4)`},
		{"empty segment", byPolicy, []string{"--topics-file", write("empty.csv", "topic,origin\n"+strings.Replace(body, ",trec678\n", ",\n", 1))}, "empty.csv:2: empty segment"},
		{"negative weight", byPolicy, []string{"--topics-file", write("neg.csv", strings.Replace(withWeight, ",1\n", ",-1\n", 1))}, "neg.csv:2: weight of topic"},
		{"non-numeric weight", byPolicy, []string{"--topics-file", write("nan.csv", strings.Replace(withWeight, ",1\n", ",heavy\n", 1))}, "nan.csv:2: weight of topic"},
		{"missing segment column", byPolicy, []string{"--topics-file", write("nocol.csv", "topic\n"+strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(body, ",trec678", ""), ",robust03", ""), ",robust04", ""))}, "nocol.csv:1: no segment column"},
		{"missing topic column", byPolicy, []string{"--topics-file", write("notopic.csv", "name,origin\n"+body)}, "notopic.csv:1: no topic column"},
		{"topic not in the file", byPolicy, []string{"--topics-file", write("short.csv", strings.Join(lines[:len(lines)-1], "\n")+"\n")}, "short.csv: 1 topic(s) of the scores are not in the topics file: \"" + strings.Split(lines[len(lines)-1], ",")[0] + "\""},
		{"dimension not in the file", byLocale, []string{"--topics-file", good}, `locale.yaml:7:9: rules[0].by: the topics file has no dimension "locale" (its dimensions: origin)`},
		{"no topics file", byPolicy, nil, "by.yaml:7:9: rules[0].by: rule t has by: origin but no topics file: give --topics-file or inputs.topics_file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"gate", "--policy", c.policy}, c.args...), rb04)
			code, out, stderr := runMain(t, args...)
			checkOneLineError(t, code, out, stderr, c.want)
		})
	}
}

// --unsegmented puts a topic of the scores the file lacks in segment
// "unsegmented", said in a warning; topics of the file without scores are
// a warning too.
func TestGateUnsegmented(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good, rb04 := rb04Origins(t, dir)
	text, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	short := filepath.Join(dir, "short.csv")
	missing := strings.Split(lines[len(lines)-1], ",")[0]
	if err := os.WriteFile(short, []byte(strings.Join(lines[:len(lines)-1], "\n")+"\nt_999,robust04\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := writeTemp(t, "p.yaml", "version: 1\nname: by\nchampion: Champion\nchallengers: [\"Chal. 1\"]\nrules:\n  - {id: d, by: origin, quantity: mean_diff, at_least: -1}\n")
	code, out, stderr := runMain(t, "gate", "--policy", policy, "--format", "json", "--topics-file", short, "--unsegmented", rb04)
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, w := range r.Warnings {
		texts = append(texts, w)
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, `1 topic(s) not in `+short+` are in segment "unsegmented": "`+missing+`"`) || !strings.Contains(all, "1 topic(s) of "+short+` have no scores: "t_999"`) {
		t.Errorf("warnings:\n%s", all)
	}
	rows := r.Segments[0].Challengers[0].Rows
	if last := rows[len(rows)-1]; last.Segment != "unsegmented" || last.Topics != 1 {
		t.Errorf("rows %+v: want the unsegmented segment last, with 1 topic", rows)
	}
	if !slices.Contains(strings.Fields(r.Provenance.Command), "--unsegmented") {
		t.Errorf("replay command %q lacks --unsegmented", r.Provenance.Command)
	}
}

// A by: Bayesian rule — the partially pooled segment model — decides the
// same, and result.json says the same, whatever GOMAXPROCS is.
func TestGateSegmentsBayesDeterministic(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("two gates with a segment fit of rb04's 45 × 50 (about 3 CPU-s each), in child processes")
	}
	topics, rb04 := rb04Origins(t, t.TempDir())
	policy := writeTemp(t, "p.yaml", `version: 1
name: pooled
champion: Champion
challengers: ["Chal. *"]
model: {target_ess: 1000}
rules:
  - {id: worse, by: origin, segments: no_harm, quantity: bayes.p_worse, margin: 0.02, at_most: 0.5}
`)
	var first string
	for _, procs := range []int{1, 2} {
		c := runMainChild(t, []string{"GOMAXPROCS=" + strconv.Itoa(procs)}, "gate", "--policy", policy, "--topics-file", topics, "--format", "json", "--dry-run", rb04)
		if c.status != 0 {
			t.Fatalf("GOMAXPROCS %d: exit %d: %s", procs, c.status, c.stderr)
		}
		var r result.Result
		if err := json.Unmarshal([]byte(c.stdout), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Segments) != 1 || r.Segments[0].Challengers[0].Rows[0].Pooled == nil {
			t.Fatalf("no pooled differences in %+v", r.Segments)
		}
		b, _ := json.Marshal(struct {
			D *policies.Decision
			S []result.SegmentTable
		}{r.Decision, r.Segments})
		if procs == 1 {
			first = string(b)
		} else if string(b) != first {
			t.Errorf("the decision or the segment table differs between GOMAXPROCS 1 and %d", procs)
		}
	}
}

// A by: rule is judged under the other assumptions about unjudged documents
// segment by segment: robust03's pircRBa1 against itself with the first 5
// documents of each topic's lines replaced by unjudged ones (as
// TestGateSyntheticUnjudgedTop5NeedsJudgments, by the file's lines) needs
// judgments in both halves of the topics (odd and even numbers).
func TestGateSegmentsNeedJudgments(t *testing.T) {
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03")
	data, err := os.ReadFile(filepath.Join(dir, "runs", "pircRBa1.run"))
	if err != nil {
		t.Fatal(err)
	}
	var b, topics strings.Builder
	topics.WriteString("topic,half\n")
	rank, seen := map[string]int{}, map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if !seen[f[0]] {
			seen[f[0]] = true
			n, _ := strconv.Atoi(f[0])
			topics.WriteString(f[0] + "," + [2]string{"even", "odd"}[n%2] + "\n")
		}
		if rank[f[0]]++; rank[f[0]] <= 5 {
			f[2] = "UNJUDGED-" + f[0] + "-" + strconv.Itoa(rank[f[0]])
		}
		f[5] = "pircRBa1-top5-unjudged"
		b.WriteString(strings.Join(f, " ") + "\n")
	}
	tmp := t.TempDir()
	synthetic, topicsFile := filepath.Join(tmp, "synthetic.run"), filepath.Join(tmp, "topics.csv")
	for path, text := range map[string]string{synthetic: b.String(), topicsFile: topics.String()} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	policy := writeTemp(t, "p.yaml", `version: 1
name: ndcg10-t
champion: pircRBa1
challengers: [pircRBa1-top5-unjudged]
inputs: {measure: ndcg_cut.10}
rules:
  - {id: better, by: half, quantity: tests.paired_t.p, alternative: greater, at_most: 0.025, judgments: check}
`)
	code, out, stderr := runMain(t, "gate", "--policy", policy, "--topics-file", topicsFile, "--format", "json", "--qrels", filepath.Join(dir, "qrels.txt"),
		filepath.Join(dir, "runs", "pircRBa1.run"), synthetic)
	if code != exitInconclusive {
		t.Fatalf("exit %d, want 3 (needs judgments)\n%s", code, stderr)
	}
	rr := segmentDecision(t, out)[0].Rules[0]
	if rr.Outcome != policies.OutcomeNeedsJudgments || len(rr.Segments) != 2 {
		t.Fatalf("rule %+v: want needs judgments in 2 segments", rr)
	}
	for _, sr := range rr.Segments {
		if sr.Outcome != policies.OutcomeNeedsJudgments {
			t.Errorf("segment %s (%d topics): %s, want needs judgments", sr.Segment, sr.Topics, sr.Outcome)
		}
	}
	// Read back, every segment keeps its outcomes under the other
	// assumptions (the decision digest covers them): publish accepts it.
	r, err := result.Read("result.json", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, sr := range r.Decision.Challengers[0].Rules[0].Segments {
		if len(sr.Assumed) == 0 {
			t.Errorf("segment %s: its assumed outcomes are lost when result.json is read back", sr.Segment)
		}
	}
	if err := r.Check("result.json", nil); err != nil {
		t.Errorf("publish's check refuses the result: %v", err)
	}
}

// Several measures combine with segments: in a gate of three measures
// (robust03's runs + qrels; map the default), by: rules on ndcg_cut.10 and
// recall.1000 are judged on their own measure in each half of the topics
// (odd and even numbers): every segment's value (Holm-adjusted p, BCa
// bound + margin), unadjusted p and outcome are the same bits as in a gate
// whose default measure is the rule's own.
func TestGateSegmentsSeveralMeasures(t *testing.T) {
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03")
	qrels, err := os.ReadFile(filepath.Join(dir, "qrels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var topics strings.Builder
	topics.WriteString("topic,half\n")
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(qrels)), "\n") {
		f := strings.Fields(line)
		if !seen[f[0]] {
			seen[f[0]] = true
			n, _ := strconv.Atoi(f[0])
			topics.WriteString(f[0] + "," + [2]string{"even", "odd"}[n%2] + "\n")
		}
	}
	topicsFile := writeTemp(t, "topics.csv", topics.String())
	head := "version: 1\nname: halves\nchampion: pircRBa1\nchallengers: [NLPR03vb10, rutcor03100]\n"
	rules := `  - {id: ndcg-halves, by: half, segments: no_harm, measure: ndcg_cut.10, quantity: tests.paired_t.p, alternative: less, margin: 0.02, at_least: 0.05, judgments: ignore}
  - {id: recall-halves, by: half, measure: recall.1000, quantity: bca.lo, loss_weight: 1, margin: 0.05, at_least: 0, judgments: ignore}
`
	gate := func(policy string) map[string]segmentRuleJSON {
		args := []string{"gate", "--policy", writeTemp(t, "p.yaml", policy), "--topics-file", topicsFile, "--format", "json",
			"--qrels", filepath.Join(dir, "qrels.txt")}
		for _, run := range []string{"pircRBa1", "NLPR03vb10", "rutcor03100"} {
			args = append(args, filepath.Join(dir, "runs", run+".run"))
		}
		code, out, stderr := runMain(t, args...)
		if code != exitPass && code != exitFail {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		got := map[string]segmentRuleJSON{}
		for _, c := range segmentDecision(t, out) {
			for _, r := range c.Rules {
				if r.By != "" {
					got[c.Name+"/"+r.Rule] = r
				}
			}
		}
		return got
	}
	all := gate(head + "inputs: {measure: map}\nrules:\n  - {id: map-better, quantity: tests.paired_t.p, alternative: greater, at_most: 0.05}\n" + rules)
	if len(all) != 4 {
		t.Fatalf("%d by: rule results in the three-measure gate, want 2 rules × 2 challengers", len(all))
	}
	for _, one := range []string{"ndcg_cut.10", "recall.1000"} {
		alone := gate(head + "inputs: {measure: " + one + "}\nrules:\n" + rules)
		for key, want := range alone {
			got := all[key]
			if got.Measure != want.Measure || len(got.Segments) != 2 || len(want.Segments) != 2 {
				t.Fatalf("%s: measure %q with %d segments in the three-measure gate, %q with %d with %s alone; want 2 each",
					key, got.Measure, len(got.Segments), want.Measure, len(want.Segments), one)
			}
			for i, w := range want.Segments {
				g := got.Segments[i]
				if g.Segment != w.Segment || g.Topics != w.Topics || g.Outcome != w.Outcome ||
					math.Float64bits(g.Observed.Number) != math.Float64bits(w.Observed.Number) ||
					math.Float64bits(g.Unadjusted.Number) != math.Float64bits(w.Unadjusted.Number) {
					t.Errorf("%s, segment %s: three-measure gate %+v, %s the default %+v", key, w.Segment, g, one, w)
				}
			}
		}
	}
}
