package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/shared"
)

// The robust03 three-measure gate (issue 25): map must improve (paired t,
// one-sided), ndcg_cut_10 and recall_1000 must not regress by more than
// 0.02 (the lower end of the 95% BCa interval of the mean difference, plus
// 0.02, at least 0), champion rutcor03100, challengers NLPR03vb10 and
// pircRBa1, on ../shared's robust03 runs and qrels.
//
// Reference: trec_eval -q's per-topic values (../shared/data/trec_eval/
// robust03/trec_eval/*.all_trec.txt) through R 4.2 (t.test; boot 1.3-28.1,
// boot(R = 1e5) and boot.ci(type = "bca", conf = 0.95)), by
// testdata/robust03_measures/robust03_measures_ref.R into reference.csv.
// Tolerances: the p-value to 1e-9 relative (the same data and formula);
// a BCa end to 1e-3, about 4 Monte Carlo standard errors of the difference
// of two independent bootstraps of 1e5 replicates (each end's MC SE ≈
// 1.7e-4 here: √(0.025·0.975/1e5)/density at the end).
const robust03Measures = "testdata/robust03_measures"

func TestRobust03ThreeMeasuresAgainstR(t *testing.T) {
	if testing.Short() {
		t.Skip("bootstraps 4 BCa intervals of 1e5 replicates (seconds)")
	}
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03/trec_eval")
	var files []string
	for _, run := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		files = append(files, filepath.Join(dir, run+".all_trec.txt"))
	}
	r := robust03Gate(t, files...)
	checkRobust03(t, r, readRobust03Reference(t, filepath.Join(robust03Measures, "reference.csv")))
}

// With Rscript installed, the script is run afresh and the gate compared
// with its fresh numbers.
func TestRobust03ThreeMeasuresAgainstRLive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Rscript (a minute)")
	}
	rscript, err := exec.LookPath("Rscript")
	if err != nil {
		t.Skip("Rscript is not installed; TestRobust03ThreeMeasuresAgainstR compares the stored output")
	}
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03/trec_eval")
	out := filepath.Join(t.TempDir(), "reference.csv")
	if b, err := exec.Command(rscript, filepath.Join(robust03Measures, "robust03_measures_ref.R"), dir, out).CombinedOutput(); err != nil {
		t.Fatalf("Rscript: %v\n%s", err, b)
	}
	stored, fresh := readRobust03Reference(t, filepath.Join(robust03Measures, "reference.csv")), readRobust03Reference(t, out)
	for k, v := range stored {
		if fresh[k] != v {
			t.Errorf("%s: R gives %v now, the stored reference %v: regenerate it (the script says how)", k, fresh[k], v)
		}
	}
}

// The same gate fed from the runs and qrels (every measure evaluated by
// gate/trec) and from a long CSV of the same scores decides the same:
// result.json's decision identical; its values agree with trec_eval -q's
// (4 decimals) to within rounding.
func TestRobust03ThreeMeasuresSameDecisionFromEveryInput(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates three runs and bootstraps 12 BCa intervals (seconds)")
	}
	t.Parallel()
	base := shared.Path(t, "data/trec_eval/robust03")
	var runs []string
	for _, run := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		runs = append(runs, filepath.Join(base, "runs", run+".run"))
	}
	fromRuns := robust03Gate(t, append([]string{"--qrels", filepath.Join(base, "qrels.txt")}, runs...)...)

	// A long CSV (system, topic, measure, score) of gate/trec's evaluation.
	var csv bytes.Buffer
	csv.WriteString("system,topic,measure,score\n")
	for _, m := range []string{"map", "ndcg_cut_10", "recall_1000"} {
		tab, err := scores.Load(runs, scores.LoadOptions{Measures: []string{m}, Qrels: filepath.Join(base, "qrels.txt")})
		if err != nil {
			t.Fatal(err)
		}
		for i, sys := range tab.Systems {
			for j, topic := range tab.Topics {
				fmt.Fprintf(&csv, "%s,%s,%s,%s\n", sys, topic, m, strconv.FormatFloat(tab.Scores[i][j], 'g', -1, 64))
			}
		}
	}
	long := filepath.Join(t.TempDir(), "long.csv")
	if err := os.WriteFile(long, csv.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fromCSV := robust03Gate(t, long)
	a, _ := json.Marshal(fromRuns.Decision)
	b, _ := json.Marshal(fromCSV.Decision)
	if !bytes.Equal(a, b) {
		t.Errorf("decision from runs + qrels:\n%s\nfrom the long CSV:\n%s", a, b)
	}
}

// robust03Gate runs the policy on the inputs (args after the policy) and
// reads its result.json.
func robust03Gate(t *testing.T, args ...string) *result.Result {
	t.Helper()
	out := t.TempDir()
	code, _, errw := runMain(t, append([]string{"gate", "--policy", filepath.Join(robust03Measures, "policy.yaml"), "--out", out, "--format", "json"}, args...)...)
	if code != exitFail && code != exitPass {
		t.Fatalf("exit %d: %s", code, errw)
	}
	data, err := os.ReadFile(filepath.Join(out, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Read("result.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func readRobust03Reference(t *testing.T, path string) map[string]float64 {
	t.Helper()
	ref := map[string]float64{}
	for _, rec := range shared.Records(t, path) {
		ref[rec["challenger"]+" "+rec["rule"]] = shared.ParseFloat(t, rec["value"])
	}
	if len(ref) != 6 {
		t.Fatalf("%s: %d reference values, want 6", path, len(ref))
	}
	return ref
}

func checkRobust03(t *testing.T, r *result.Result, ref map[string]float64) {
	t.Helper()
	measures := map[string]string{"map-improves": "map", "ndcg10-holds": "ndcg_cut_10", "recall1000-holds": "recall_1000"}
	for _, c := range r.Decision.Challengers {
		for _, rr := range c.Rules {
			key := c.Name + " " + rr.Rule
			want, ok := ref[key]
			if !ok {
				t.Errorf("%s: no reference", key)
				continue
			}
			if rr.Measure != measures[rr.Rule] {
				t.Errorf("%s: measure %q, want %q", key, rr.Measure, measures[rr.Rule])
			}
			got, _ := rr.Observed.Number()
			tol := 1e-3 // BCa: Monte Carlo error
			if rr.Rule == "map-improves" {
				tol = 1e-9 * math.Max(math.Abs(want), 1e-300)
			}
			if math.Abs(got-want) > tol {
				t.Errorf("%s = %.10g, R %.10g (|Δ| %.3g > %.3g)", key, got, want, math.Abs(got-want), tol)
			}
		}
	}
}
