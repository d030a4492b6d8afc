package gate

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// twoMeasureScores is a long CSV of ndcg_cut_10 and latency_ms for prod
// and cand over 30 topics (seeded).
func twoMeasureScores() string {
	r := rand.New(rand.NewPCG(25, 9))
	var b strings.Builder
	b.WriteString("system,topic,measure,score\n")
	for j := range 30 {
		base := 0.2 + 0.5*r.Float64()
		for i, sys := range []string{"prod", "cand"} {
			fmt.Fprintf(&b, "%s,t%02d,ndcg_cut_10,%.4f\n", sys, j, base+0.03*float64(i)+0.02*r.NormFloat64())
			fmt.Fprintf(&b, "%s,t%02d,latency_ms,%.1f\n", sys, j, 100+2*float64(i)+5*r.NormFloat64())
		}
	}
	return b.String()
}

func writeSetPolicy(t *testing.T, dir, ruleMeasure string) string {
	t.Helper()
	policy := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(policy, []byte(`version: 1
name: two
champion: prod
challengers: [cand]
inputs:
  measure: ndcg_cut_10
  lower_is_better: [latency_ms]
rules:
  - {id: ndcg-up, quantity: tests.paired_t.p, alternative: greater, at_most: 0.05}
  - {id: latency-holds, quantity: mean_diff, measure: `+ruleMeasure+`, at_least: -5}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	return policy
}

// The gate reads its inputs once for every measure (one scores.Set), so
// standard input now serves a policy whose rules name several measures,
// and decides as the same scores from a file do.
func TestGateRuleMeasuresFromStdin(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	data := twoMeasureScores()
	file := filepath.Join(dir, "scores.csv")
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := writeSetPolicy(t, dir, "latency_ms")
	fromFile, outFile, errFile := runMain(t, "gate", "--policy", policy, "--format", "json", file)
	fromStdin, outStdin, errStdin := runMainWithStdin(t, data, "gate", "--policy", policy, "--format", "json", "-")
	if fromFile == exitError || fromStdin == exitError {
		t.Fatalf("exit %d from the file (%s), %d from standard input (%s)", fromFile, errFile, fromStdin, errStdin)
	}
	if fromFile != fromStdin {
		t.Errorf("exit %d from the file, %d from standard input", fromFile, fromStdin)
	}
	decision := regexp.MustCompile(`(?s)"decision": \{.*?\n  \}`)
	a, b := decision.FindString(outFile), decision.FindString(outStdin)
	if a == "" || a != b {
		t.Errorf("decision from the file:\n%s\nfrom standard input:\n%s", a, b)
	}
	if !strings.Contains(outStdin, `"latency_ms"`) {
		t.Errorf("result.json from standard input does not name latency_ms:\n%.2000s", outStdin)
	}
}

// A rule measure the inputs do not hold is an error at the rule's
// measure: key (file:line:col), listing the measures present.
func TestGateRuleMeasureNotInInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "scores.csv")
	if err := os.WriteFile(file, []byte(twoMeasureScores()), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := writeSetPolicy(t, dir, "latency")
	code, _, errw := runMain(t, "gate", "--policy", policy, file)
	if code != exitError {
		t.Fatalf("exit %d, want %d: %s", code, exitError, errw)
	}
	for _, want := range []string{policy + ":10:", "latency-holds.measure:", `"latency"`, `did you mean "latency_ms"`, `"ndcg_cut_10", "latency_ms"`} {
		if !strings.Contains(errw, want) {
			t.Errorf("error lacks %q:\n%s", want, errw)
		}
	}
	if n := strings.Count(strings.TrimSpace(errw), "\n"); n != 0 {
		t.Errorf("error is %d lines, want one:\n%s", n+1, errw)
	}
}

// Runs + qrels with rules that name their measures and no default measure
// named (no inputs.measure, no --measure): the runs are scored on their
// default, map, and on every rule's measure — the same decision as with
// inputs.measure: map (a run holds every measure it can be scored on): the
// same challengers selected, with the same rules, values and outcomes.
// The guard on nERR@10 is a mean difference, not a BCa bound: the two
// gates differ only in how the runs are scored, which no analysis changes,
// and the BCa bootstraps were 1.0 of the test's 1.4 CPU-s
// (TestGateSegmentsSeveralMeasures judges BCa rules on their own measures).
func TestGateRunsScoredOnTheRulesMeasures(t *testing.T) {
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03")
	runs := []string{filepath.Join(dir, "runs", "NLPR03vb10.run"), filepath.Join(dir, "runs", "pircRBa1.run"), filepath.Join(dir, "runs", "rutcor03100.run")}
	rules := `loss_weight: 2
champion: rutcor03100
challengers: ["*"]
rules:
  - {id: q-better, measure: Q, quantity: tests.paired_t.p, alternative: greater, at_most: 0.025}
  - {id: nerr-guard, quantity: mean_diff, measure: nERR@10, at_least: -0.02}
`
	digest := func(policyText string) string {
		t.Helper()
		policy := filepath.Join(t.TempDir(), "p.yaml")
		if err := os.WriteFile(policy, []byte(policyText), 0o644); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"gate", "--policy", policy, "--format", "json", "--qrels", filepath.Join(dir, "qrels.txt")}, runs...)
		status, stdout, stderr := runMain(t, args...)
		if status != 0 {
			t.Fatalf("exit %d, want 0\n%s", status, stderr)
		}
		var r struct {
			Decision struct {
				Selected    json.RawMessage `json:"selected"`
				Challengers json.RawMessage `json:"challengers"`
			} `json:"decision"`
		}
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatal(err)
		}
		return string(r.Decision.Selected) + string(r.Decision.Challengers)
	}
	without := digest("version: 1\nname: q\n" + rules)
	with := digest("version: 1\nname: q\ninputs: {measure: map}\n" + rules)
	if without != with {
		t.Errorf("decision without a default measure:\n%s\nwith inputs.measure: map:\n%s", without, with)
	}
}

// TestGateScoreFilesWithQrelsNeedNoMap: --qrels beside score files (the run
// history's qrels fingerprint) does not make the gate ask them for map, the
// default measure of runs: a file holding only the rules' measures gets the
// message it gets without --qrels, a file that holds map too is judged with
// map as its default, as before. (map was required: "measure "map"
// (--measure) is in none of the inputs", a flag the user never gave.)
func TestGateScoreFilesWithQrelsNeedNoMap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var two, three, qrels strings.Builder
	two.WriteString("query_id,system,nDCG@10,recall_100\n")
	three.WriteString("query_id,system,nDCG@10,recall_100,map\n")
	for topic := 301; topic <= 320; topic++ {
		fmt.Fprintf(&qrels, "%d 0 d%d 1\n", topic, topic)
		for s, system := range []string{"prod", "cand", "a1"} {
			v := float64((topic*7+s*13)%17) / 17
			fmt.Fprintf(&two, "%d,%s,%.4f,%.4f\n", topic, system, v, 1-v)
			fmt.Fprintf(&three, "%d,%s,%.4f,%.4f,%.4f\n", topic, system, v, 1-v, v/2)
		}
	}
	policy := write("p.yaml", `version: 1
name: guards
champion: prod
challengers: [cand]
rules:
  - {id: ndcg-better, measure: ndcg_cut_10, quantity: tests.paired_t.p, at_most: 0.05}
  - {id: recall-guard, measure: recall_100, quantity: mean_diff, at_least: -0.05}
`)
	q := write("qrels", qrels.String())
	twoPath, threePath := write("two.csv", two.String()), write("three.csv", three.String())

	_, _, without := runMain(t, "gate", "--policy", policy, twoPath)
	status, _, with := runMain(t, "gate", "--policy", policy, "--qrels", q, twoPath)
	if status != 2 || with != without || strings.Contains(with, `"map"`) {
		t.Errorf("two measures with --qrels: exit %d, stderr %q; want exit 2 and the message without --qrels, %q", status, with, without)
	}
	status, stdout, stderr := runMain(t, "gate", "--policy", policy, "--qrels", q, "--format", "json", threePath)
	if status == 2 {
		t.Fatalf("three measures with --qrels: exit 2: %s", stderr)
	}
	var r struct {
		Data struct {
			Measure string `json:"measure"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.Data.Measure != "map" {
		t.Errorf("three measures with --qrels: the default measure is %q (%v), want map", r.Data.Measure, err)
	}
}
