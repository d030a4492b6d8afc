package gate

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A gate of two measures, one lower-is-better, from a long CSV: every
// format names each rule's measure, the PR comment's summary gives a row
// per (challenger, measure) within its six columns, and latency's Δ is in
// milliseconds with "lower is better" said.
func TestGateSeveralMeasuresReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(25, 8))
	var b strings.Builder
	b.WriteString("system,topic,measure,score\n")
	for j := range 30 {
		base := 0.2 + 0.5*r.Float64()
		for i, sys := range []string{"prod", "cand"} {
			fmt.Fprintf(&b, "%s,t%02d,ndcg_cut_10,%.4f\n", sys, j, base+0.03*float64(i)+0.02*r.NormFloat64())
			fmt.Fprintf(&b, "%s,t%02d,latency_ms,%.1f\n", sys, j, 100+2*float64(i)+5*r.NormFloat64())
		}
	}
	data := filepath.Join(dir, "scores.csv")
	policy := filepath.Join(dir, "p.yaml")
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(policy, []byte(`version: 1
name: two
champion: prod
challengers: [cand]
inputs:
  measure: ndcg_cut_10
  lower_is_better: [latency_ms]
rules:
  - {id: ndcg-up, quantity: tests.paired_t.p, alternative: greater, at_most: 0.05}
  - {id: latency-holds, quantity: mean_diff, measure: latency_ms, at_least: -5}
  - {id: ndcg-holds, quantity: bca.lo, loss_weight: 2, margin: 0.02, at_least: 0}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	code, table, errw := runMain(t, "gate", "--policy", policy, "--out", out, data)
	if code != exitPass && code != exitFail {
		t.Fatalf("exit %d: %s", code, errw)
	}
	// Each label keeps its measure and says how its margin enters
	// (result.RuleLabel, Result.RiskLabel).
	for _, want := range []string{"  on latency_ms (lower is better)", "tests.paired_t.p on ndcg_cut_10", "mean_diff on latency_ms (lower is better)",
		"bca.lo on ndcg_cut_10 + margin 0.02, w = 2", "bca.lo on ndcg_cut_10 + margin 0.02 "} {
		if !strings.Contains(table, want) {
			t.Errorf("terminal report lacks %q:\n%s", want, table)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	var row string
	for _, line := range strings.Split(string(md), "\n") {
		if strings.HasPrefix(line, "| ↳ on latency_ms (lower is better)") {
			row = line
		}
	}
	if row == "" {
		t.Fatalf("report.md has no latency row:\n%s", md)
	}
	if cols := strings.Count(row, "|") - 1; cols != 6 {
		t.Errorf("latency row has %d columns, want the fold's 6: %s", cols, row)
	}
	if !strings.Contains(string(md), "mean_diff(measure=latency_ms)") || !strings.Contains(string(md), "tests.paired_t.p(alternative=greater,measure=ndcg_cut_10)") {
		t.Errorf("report.md's rules do not name their measures:\n%s", md)
	}
	res, err := os.ReadFile(filepath.Join(out, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"measures": [`, `"lower_is_better": [`, `"measure": "latency_ms",`} {
		if !strings.Contains(string(res), want) {
			t.Errorf("result.json lacks %s", want)
		}
	}
}
