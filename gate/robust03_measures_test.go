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
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/parquettest"
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
// gate/trec), and from the Set so read written as a long CSV, a wide
// metric-column CSV (query_id, system, one column per measure), a long
// Parquet file and a wide one (issue 25, "Done when" 2): result.json's
// decision identical, byte for byte, across all five.
func TestRobust03ThreeMeasuresSameDecisionFromEveryInput(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates three runs and bootstraps 24 BCa intervals (seconds)")
	}
	t.Parallel()
	base := shared.Path(t, "data/trec_eval/robust03")
	var runs []string
	for _, run := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		runs = append(runs, filepath.Join(base, "runs", run+".run"))
	}
	qrels := filepath.Join(base, "qrels.txt")
	fromRuns := robust03Gate(t, append([]string{"--qrels", qrels}, runs...)...)
	// Runs + qrels also judge each rule under the other assumptions about
	// unjudged documents (rules[].assumed), which score files cannot: the
	// decision compared is the rest, the same for every input.
	for _, c := range fromRuns.Decision.Challengers {
		for i := range c.Rules {
			if len(c.Rules[i].Assumed) == 0 {
				t.Errorf("%s, rule %s: no outcomes under the other assumptions from runs + qrels", c.Name, c.Rules[i].Rule)
			}
			c.Rules[i].Assumed = nil
		}
	}
	want, _ := json.Marshal(fromRuns.Decision)

	measures := []string{"map", "ndcg_cut_10", "recall_1000"}
	set, _, _, err := scores.LoadSources(runs, scores.LoadOptions{Measures: measures, Qrels: qrels})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, in := range []struct {
		name  string
		write func(*scores.Set) ([]byte, error)
	}{
		{"long.csv", setLongCSV},
		{"wide.csv", setMeasuresCSV},
		{"long.parquet", setLongParquet},
		{"wide.parquet", setWideParquet},
	} {
		data, err := in.write(set)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, in.name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(robust03Gate(t, path).Decision)
		if !bytes.Equal(got, want) {
			t.Errorf("decision from runs + qrels:\n%s\nfrom %s:\n%s", want, in.name, got)
		}
	}
}

// Writers of a Set in the layouts a gate reads; each cell in its shortest
// exact decimal (CSV) or as the DOUBLE it is (Parquet), missing cells left out.

func setLongCSV(set *scores.Set) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("system,topic,measure,score\n")
	eachSetCell(set, func(m, sys, topic string, v float64) {
		fmt.Fprintf(&b, "%s,%s,%s,%s\n", sys, topic, m, strconv.FormatFloat(v, 'g', -1, 64))
	})
	return b.Bytes(), nil
}

func setMeasuresCSV(set *scores.Set) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("query_id,system," + strings.Join(set.Measures(), ",") + "\n")
	first := set.Tables[0]
	for _, sys := range first.Systems {
		for _, topic := range first.Topics {
			b.WriteString(topic + "," + sys)
			for _, tab := range set.Tables {
				b.WriteByte(',')
				if v := setCell(tab, sys, topic); !math.IsNaN(v) {
					b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
				}
			}
			b.WriteByte('\n')
		}
	}
	return b.Bytes(), nil
}

func setLongParquet(set *scores.Set) ([]byte, error) {
	cols := []parquettest.Column{{Name: "system", Node: parquettest.String}, {Name: "topic", Node: parquettest.String},
		{Name: "measure", Node: parquettest.String}, {Name: "score", Node: parquettest.Double}}
	var rows [][]any
	eachSetCell(set, func(m, sys, topic string, v float64) { rows = append(rows, []any{sys, topic, m, v}) })
	var b bytes.Buffer
	err := parquettest.Write(&b, cols, rows, 1000) // several row groups
	return b.Bytes(), err
}

func setWideParquet(set *scores.Set) ([]byte, error) {
	cols := []parquettest.Column{{Name: "query_id", Node: parquettest.String}, {Name: "system", Node: parquettest.String}}
	for _, m := range set.Measures() {
		cols = append(cols, parquettest.Column{Name: m, Node: parquet.Optional(parquettest.Double)})
	}
	var rows [][]any
	first := set.Tables[0]
	for _, sys := range first.Systems {
		for _, topic := range first.Topics {
			row := []any{topic, sys}
			for _, tab := range set.Tables {
				var cell any
				if v := setCell(tab, sys, topic); !math.IsNaN(v) {
					cell = v
				}
				row = append(row, cell)
			}
			rows = append(rows, row)
		}
	}
	var b bytes.Buffer
	err := parquettest.Write(&b, cols, rows, 0)
	return b.Bytes(), err
}

// eachSetCell calls f with every scored cell of the Set, measure by measure.
func eachSetCell(set *scores.Set, f func(measure, system, topic string, v float64)) {
	for _, tab := range set.Tables {
		for s, sys := range tab.Systems {
			for j, topic := range tab.Topics {
				if v := tab.Scores[s][j]; !math.IsNaN(v) {
					f(tab.Measure, sys, topic, v)
				}
			}
		}
	}
}

// setCell is the table's score of system on topic; NaN when it has none.
func setCell(tab *scores.Table, system, topic string) float64 {
	s, j := tab.SystemIndex(system), tab.TopicIndex(topic)
	if s < 0 || j < 0 {
		return math.NaN()
	}
	return tab.Scores[s][j]
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
