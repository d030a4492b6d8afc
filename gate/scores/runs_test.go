package scores

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// goldenPerTopic reads the per-topic lines of a trec_eval -q output:
// values[measure][topic] = printed value.
func goldenPerTopic(t *testing.T, path string) map[string]map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 3 || fields[1] == "all" {
			continue
		}
		name := strings.TrimSpace(fields[0])
		if out[name] == nil {
			out[name] = map[string]string{}
		}
		out[name][fields[1]] = fields[2]
	}
	return out
}

// TestLoadRunsMatchesTrecEval computes per-topic scores from the runs with
// loadRuns and compares them with trec_eval v10's -q values in the golden
// "core" outputs (../shared/data/trec_eval/*/trec_eval/*.core.txt), printed
// the same way (%6.4f): exact agreement. results.trunc is compared with the
// v9 output, since v10 without -c stops at the run's missing topic while
// loadRuns, like v9, leaves it out.
func TestLoadRunsMatchesTrecEval(t *testing.T) {
	t.Parallel() // reads ../shared only; the reference loads take most of the package's time
	root := shared.Path(t, "data/trec_eval")
	goldens, _ := filepath.Glob(filepath.Join(root, "*", "trec_eval", "*.core.txt"))
	if len(goldens) < 8 {
		t.Fatalf("found %d core outputs", len(goldens))
	}
	// One of each family of the core command; the other cutoffs share its code.
	measures := []string{"map", "P_10", "ndcg_cut_20", "recip_rank", "Rprec", "bpref"}
	for _, golden := range goldens {
		dataset := filepath.Dir(filepath.Dir(golden))
		runName := strings.TrimSuffix(filepath.Base(golden), ".core.txt")
		if runName == "results.trunc" {
			golden = filepath.Join(dataset, "trec_eval_v9", "results.trunc.core.txt")
		}
		want := goldenPerTopic(t, golden)
		runPath := filepath.Join(dataset, "runs", runName+".run")
		for _, m := range measures {
			b := NewBuilder(m)
			if err := loadRuns(b, []string{runPath}, filepath.Join(dataset, "qrels.txt"), m); err != nil {
				t.Fatalf("%s %s: %v", runPath, m, err)
			}
			tab := b.Table()
			if len(tab.Systems) != 1 {
				t.Fatalf("systems %v", tab.Systems)
			}
			if len(tab.Topics) != len(want[m]) {
				t.Errorf("%s %s: %d topics, trec_eval has %d", runName, m, len(tab.Topics), len(want[m]))
			}
			for i, topic := range tab.Topics {
				got := strconv.FormatFloat(tab.Scores[0][i], 'f', 4, 64)
				if w, ok := want[m][topic]; !ok || got != w {
					t.Errorf("%s %s topic %s: %s, trec_eval %q", runName, m, topic, got, w)
				}
			}
		}
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadRunsNamesAndErrors(t *testing.T) {
	dir := t.TempDir()
	qrels := writeFile(t, dir, "qrels", "q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n")
	runA := writeFile(t, dir, "a.run", "q1 Q0 a 1 2 sysA\nq1 Q0 b 2 1 sysA\nq9 Q0 a 1 1 sysA\n")
	runB := writeFile(t, dir, "b.run", "q2 Q0 c 1 2 sysB\nq1 Q0 b 1 1 sysB\n")
	b := NewBuilder("P_1")
	if err := loadRuns(b, []string{runA, runB}, qrels, "P_1"); err != nil {
		t.Fatal(err)
	}
	tab := b.Table()
	if strings.Join(tab.Systems, ",") != "sysA,sysB" {
		t.Errorf("systems %v", tab.Systems)
	}
	// P@1 by hand: sysA ranks a (relevant) first on q1 and has no q2; sysB
	// ranks b (non-relevant) on q1 and c (relevant) on q2. q9 is not judged.
	want := map[[2]string]float64{{"sysA", "q1"}: 1, {"sysB", "q1"}: 0, {"sysB", "q2"}: 1}
	for s, sys := range tab.Systems {
		for i, topic := range tab.Topics {
			w, ok := want[[2]string{sys, topic}]
			got := tab.Scores[s][i]
			if ok != !math.IsNaN(got) || (ok && got != w) {
				t.Errorf("%s %s = %v, want %v (present %v)", sys, topic, got, w, ok)
			}
		}
	}

	dup := writeFile(t, dir, "dup.run", "q1 Q0 a 1 2 sysA\n")
	err := loadRuns(NewBuilder("map"), []string{runA, dup}, qrels, "")
	if err == nil || !strings.Contains(err.Error(), "dup.run") || !strings.Contains(err.Error(), "a.run") {
		t.Errorf("same run name: %v", err)
	}
	err = loadRuns(NewBuilder("x"), []string{runA}, qrels, "ndcg_kut_10")
	if err == nil || !strings.Contains(err.Error(), "ndcg_cut_10") {
		t.Errorf("unknown measure should list valid names: %v", err)
	}
	for _, m := range []string{"gm_map", "runid", "relstring", "num_q"} {
		if err := loadRuns(NewBuilder(m), []string{runA}, qrels, m); err == nil {
			t.Errorf("%s has no per-topic value but was accepted", m)
		}
	}
	other := writeFile(t, dir, "other.run", "q7 Q0 a 1 2 sysC\n")
	err = loadRuns(NewBuilder("map"), []string{other}, qrels, "map")
	if err == nil || !strings.Contains(err.Error(), "other.run:1:") {
		t.Errorf("run with no qrels topic: %v", err)
	}
	short := writeFile(t, dir, "short.run", "q1 Q0 a 1 2 sysA\nq1 Q0 b 2\n")
	err = loadRuns(NewBuilder("map"), []string{short}, qrels, "map")
	if err == nil || !strings.HasPrefix(err.Error(), short+":2:") {
		t.Errorf("short line: %v", err)
	}
	if err := loadRuns(NewBuilder("map"), []string{runA}, "", "map"); err == nil {
		t.Error("missing qrels accepted")
	}
}

// TestLoadTrecEvalOutputEqualsScoredRuns is the foundation issue's check end to
// end through Load: a table loaded from trec_eval v10's -q output of a run (the
// golden "core" files) equals the table Load computes from the run and its
// qrels, topic by topic, at the printed precision (%6.4f is all trec_eval keeps).
func TestLoadTrecEvalOutputEqualsScoredRuns(t *testing.T) {
	t.Parallel() // reads ../shared only; the reference loads take most of the package's time
	root := shared.Path(t, "data/trec_eval")
	goldens, _ := filepath.Glob(filepath.Join(root, "*", "trec_eval", "*.core.txt"))
	compared := 0
	for _, golden := range goldens {
		dataset := filepath.Dir(filepath.Dir(golden))
		runName := strings.TrimSuffix(filepath.Base(golden), ".core.txt")
		if runName == "results.trunc" { // v10 stopped at the missing topic; see TestLoadRunsMatchesTrecEval
			continue
		}
		for _, m := range []string{"map", "P_10", "ndcg_cut_10", "bpref"} {
			fromOutput, err := Load([]string{golden}, LoadOptions{Format: TrecEval, Measures: []string{m}})
			if err != nil {
				t.Fatalf("%s: %v", golden, err)
			}
			fromRun, err := Load([]string{filepath.Join(dataset, "runs", runName+".run")},
				LoadOptions{Qrels: filepath.Join(dataset, "qrels.txt"), Measures: []string{m}})
			if err != nil {
				t.Fatalf("%s: %v", runName, err)
			}
			// The core outputs have no runid line, so only the values are compared.
			if len(fromOutput.Systems) != 1 || len(fromRun.Systems) != 1 || len(fromOutput.Topics) != len(fromRun.Topics) {
				t.Fatalf("%s %s: systems %v / %v, %d / %d topics", runName, m,
					fromOutput.Systems, fromRun.Systems, len(fromOutput.Topics), len(fromRun.Topics))
			}
			for i, topic := range fromRun.Topics {
				j := fromOutput.TopicIndex(topic)
				if j < 0 {
					t.Fatalf("%s %s: topic %s missing from the trec_eval output", runName, m, topic)
				}
				got := strconv.FormatFloat(fromRun.Scores[0][i], 'f', 4, 64)
				want := strconv.FormatFloat(fromOutput.Scores[0][j], 'f', 4, 64)
				if got != want {
					t.Errorf("%s %s topic %s: scored %s, trec_eval printed %s", runName, m, topic, got, want)
				}
				compared++
			}
		}
	}
	if compared < 1000 {
		t.Fatalf("compared only %d cells", compared)
	}
}
