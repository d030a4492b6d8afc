package scores

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// Reference: ../shared/data/bayesian-risk/rb04.csv, 45 systems × 50 topics of
// average precision (Robust04), long layout with a header.
func TestLoadRB04(t *testing.T) {
	path := shared.Path(t, "data/bayesian-risk/rb04.csv")
	tab, err := Load([]string{path}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Systems) != 45 || len(tab.Topics) != 50 {
		t.Fatalf("got %d systems × %d topics, want 45 × 50", len(tab.Systems), len(tab.Topics))
	}
	if !tab.Complete() {
		t.Errorf("%d missing cells, want none", tab.Missing())
	}
	if tab.Measure != "" {
		t.Errorf("measure %q, want none (the file has no measure column)", tab.Measure)
	}
	// Spot checks, values copied from rb04.csv (line numbers are the file's).
	for _, c := range []struct {
		system, topic string
		want          float64
	}{
		{"Chal. 1", "t_301", 0.0622},        // line 2
		{"Chal. 1", "t_316", 0.62},          // line 5
		{"Champion", "t_301", 0.0546},       // line 202
		{"input.uogRobLT", "t_696", 0.5629}, // line 1651
		{"input.wdoqla1", "t_696", 0.2388},  // line 2251, the last
	} {
		s, i := tab.SystemIndex(c.system), tab.TopicIndex(c.topic)
		if s < 0 || i < 0 {
			t.Fatalf("%s/%s not in the table", c.system, c.topic)
		}
		if got := tab.Scores[s][i]; got != c.want {
			t.Errorf("%s on %s = %v, want %v (rb04.csv)", c.system, c.topic, got, c.want)
		}
	}
	// Every cell against an independent, naive reading of the file (it has
	// no quoted fields): tolerance 0, both parse the same decimal text.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	n := 0
	for sc.Scan() {
		parts := strings.Split(sc.Text(), ",")
		want, err := strconv.ParseFloat(parts[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		s, i := tab.SystemIndex(parts[0]), tab.TopicIndex(parts[1])
		if s < 0 || i < 0 {
			t.Fatalf("%q/%q not in the table", parts[0], parts[1])
		}
		if got := tab.Scores[s][i]; got != want {
			t.Errorf("%s on %s = %v, want %v", parts[0], parts[1], got, want)
		}
		n++
	}
	if n != 45*50 {
		t.Errorf("the file has %d data rows, want %d", n, 45*50)
	}
	// First-seen order is the file's order.
	if tab.Systems[0] != "Chal. 1" || tab.Systems[44] != "input.wdoqla1" || tab.Topics[0] != "t_301" || tab.Topics[49] != "t_696" {
		t.Errorf("order: systems %q…%q, topics %q…%q", tab.Systems[0], tab.Systems[44], tab.Topics[0], tab.Topics[49])
	}
}

// goldenTrecEvalFiles lists every trec_eval output under
// ../shared/data/trec_eval: */trec_eval{,_v9}/*.txt (v10 and v9 builds, all
// with -q) and trec_eval_test/upstream_expected/out.* (some without -q).
func goldenTrecEvalFiles(t *testing.T) []string {
	t.Helper()
	root := shared.Path(t, "data/trec_eval")
	var files []string
	for _, pattern := range []string{"*/trec_eval/*.txt", "*/trec_eval_v9/*.txt", "trec_eval_test/upstream_expected/out.*"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, ".stderr.txt") {
				files = append(files, f)
			}
		}
	}
	if len(files) < 48 {
		t.Fatalf("found %d golden trec_eval files, want the 48 of the README", len(files))
	}
	return files
}

// golden is a naive reading of a trec_eval output file: value[measure][topic]
// as printed, and the runid.
type golden struct {
	value map[string]map[string]string
	runid string
}

func readGolden(t *testing.T, path string) golden {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g := golden{value: map[string]map[string]string{}}
	for line := range strings.Lines(string(data)) {
		parts := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(parts) != 3 {
			t.Fatalf("%s: line %q is not measure<TAB>topic<TAB>value", path, line)
		}
		measure := strings.TrimRight(parts[0], " ")
		if parts[1] == "all" {
			if measure == "runid" {
				g.runid = parts[2]
			}
			continue
		}
		if g.value[measure] == nil {
			g.value[measure] = map[string]string{}
		}
		g.value[measure][parts[1]] = parts[2]
	}
	return g
}

// Reference: every golden trec_eval -q output of ../shared/data/trec_eval
// (README §3); per-topic values must equal the printed ones (tolerance 0:
// the loader parses the same decimal text), the system is the runid, else the
// file name.
func TestLoadGoldenTrecEval(t *testing.T) {
	t.Parallel() // reads ../shared only; the reference loads take most of the package's time
	measures := []string{"map", "P_10", "ndcg_cut_10", "num_ret", "bpref", "recip_rank", "rbp",
		"P_3", "ndcg_1=3,2=9,4=4.5", "utility_2,-1,0,0"} // the last three from out.test.meas_params
	checked, files := 0, 0
	for _, path := range goldenTrecEvalFiles(t) {
		g := readGolden(t, path)
		if len(g.value) == 0 {
			continue // no -q: TestGoldenWithoutQ
		}
		files++
		wantSystem := g.runid
		if wantSystem == "" {
			// The file name without its last extension: "pircRBa1.core.txt" gives "pircRBa1.core".
			base := filepath.Base(path)
			wantSystem = strings.TrimSuffix(base, filepath.Ext(base))
		}
		for _, m := range measures {
			topics, ok := g.value[m]
			if !ok {
				continue
			}
			tab, err := Load([]string{path}, LoadOptions{Measures: []string{m}})
			if err != nil {
				t.Errorf("%s --measure %s: %v", path, m, err)
				continue
			}
			if len(tab.Systems) != 1 || tab.Systems[0] != wantSystem {
				t.Errorf("%s: systems %q, want [%q]", path, tab.Systems, wantSystem)
				continue
			}
			if tab.Measure != m {
				t.Errorf("%s: measure %q, want %q", path, tab.Measure, m)
			}
			if len(tab.Topics) != len(topics) {
				t.Errorf("%s %s: %d topics, want %d", path, m, len(tab.Topics), len(topics))
			}
			for topic, text := range topics {
				want, err := strconv.ParseFloat(text, 64)
				if err != nil {
					t.Fatal(err)
				}
				i := tab.TopicIndex(topic)
				if i < 0 {
					t.Errorf("%s %s: topic %s missing", path, m, topic)
					continue
				}
				if got := tab.Scores[0][i]; got != want {
					t.Errorf("%s %s topic %s = %v, want %v", path, m, topic, got, want)
				}
				checked++
			}
		}
	}
	t.Logf("checked %d per-topic values in %d files", checked, files)
}

// Without --measure, a file of many measures loads into a Set of every
// numeric per-topic measure it holds.
func TestGoldenMeasureList(t *testing.T) {
	for _, path := range goldenTrecEvalFiles(t) {
		g := readGolden(t, path)
		if len(g.value) == 0 {
			continue
		}
		var want []string
		for m := range g.value {
			if m != "relstring" && !strings.HasPrefix(m, "relstring_") { // not numeric
				want = append(want, m)
			}
		}
		slices.Sort(want)
		set, _, _, err := LoadSources([]string{path}, LoadOptions{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		got := slices.Sorted(slices.Values(set.Measures()))
		if !slices.Equal(got, want) {
			t.Errorf("%s: measures\n%q\nwant\n%q", path, got, want)
		}
	}
}

// Several golden files load into one table, one system per run.
func TestLoadGoldenRobust03Together(t *testing.T) {
	var paths []string
	for _, run := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		paths = append(paths, shared.Path(t, "data/trec_eval/robust03/trec_eval/"+run+".all_trec.txt"))
	}
	tab, err := Load(paths, LoadOptions{Measures: []string{"ndcg_cut_10"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tab.Systems, []string{"NLPR03vb10", "pircRBa1", "rutcor03100"}) || len(tab.Topics) != 100 || !tab.Complete() {
		t.Errorf("got systems %q, %d topics, %d missing; want the 3 runs × 100 topics, complete", tab.Systems, len(tab.Topics), tab.Missing())
	}
	// The v9 output of the same run has the same runid: every cell is a duplicate.
	v9 := shared.Path(t, "data/trec_eval/robust03/trec_eval_v9/pircRBa1.all_trec.txt")
	_, err = Load([]string{paths[1], v9}, LoadOptions{Measures: []string{"map"}})
	want := v9 + `:4: duplicate score for system "pircRBa1" on topic "303"; expected one per (system, topic) (first given at ` + paths[1] + ":4)"
	if err == nil || err.Error() != want {
		t.Errorf("error\n%v\nwant\n%s", err, want)
	}
}

// Reference: the outputs of trec_eval run without -q (upstream_expected/out.test,
// out.test.a, out.comment.test) have only summary lines.
func TestGoldenWithoutQ(t *testing.T) {
	n := 0
	for _, path := range goldenTrecEvalFiles(t) {
		if len(readGolden(t, path).value) > 0 {
			continue
		}
		n++
		_, err := Load([]string{path}, LoadOptions{})
		want := path + `: no per-topic lines, only the summary (topic "all"); expected trec_eval output with per-topic values: rerun trec_eval with -q`
		if err == nil || err.Error() != want {
			t.Errorf("error\n%v\nwant\n%s", err, want)
		}
	}
	if n != 3 {
		t.Errorf("%d golden files without -q, want 3 (out.test, out.test.a, out.comment.test)", n)
	}
}
