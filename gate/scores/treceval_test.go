package scores

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

var robust03Runs = []string{"NLPR03vb10", "pircRBa1", "rutcor03100"}

// goldenText reads a golden trec_eval output of robust03.
func goldenText(t *testing.T, dir, run, kind string) string {
	t.Helper()
	data, err := os.ReadFile(shared.Path(t, "data/trec_eval/robust03/"+dir+"/"+run+"."+kind+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Reference: trec_eval v10 and v9 -q outputs of the three robust03 runs
// (../shared/data/trec_eval/robust03/trec_eval{,_v9}/*.all_trec.txt, each
// ending in its summary, which starts with "runid all NAME"), concatenated
// as a loop over the runs writes them. Each run loads as its own system,
// cell for cell (tolerance 0: the same printed text) as its file alone.
func TestTrecEvalMultiRunGolden(t *testing.T) {
	for _, dir := range []string{"trec_eval", "trec_eval_v9"} {
		t.Run(dir, func(t *testing.T) {
			var all strings.Builder
			var alone []string
			for _, run := range robust03Runs {
				all.WriteString(goldenText(t, dir, run, "all_trec"))
				alone = append(alone, shared.Path(t, "data/trec_eval/robust03/"+dir+"/"+run+".all_trec.txt"))
			}
			inDir(t, map[string]string{"runs.txt": all.String()})
			for _, m := range []string{"map", "ndcg_cut_10", "P_10"} {
				got, err := Load([]string{"runs.txt"}, LoadOptions{Measures: []string{m}})
				if err != nil {
					t.Fatal(err)
				}
				want, err := Load(alone, LoadOptions{Measures: []string{m}})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Systems, robust03Runs) || len(got.Topics) != 100 {
					t.Fatalf("%s: systems %q, %d topics; want the 3 runs × 100 topics", m, got.Systems, len(got.Topics))
				}
				sameTable(t, got, want)
			}
		})
	}
}

// The layouts a multi-run file comes in, each built from the golden outputs.
func TestTrecEvalMultiRunLayouts(t *testing.T) {
	core := func(run string) string { return goldenText(t, "trec_eval", run, "core") } // no runid line
	allTrec := func(run string) string { return goldenText(t, "trec_eval", run, "all_trec") }
	runid := func(run string) string { return "runid                 \tall\t" + run + "\n" }
	cases := []struct {
		name, text string
		systems    []string
		err        string // a prefix of the error, after the file name
	}{
		{"runid at the top", runid("mine") + core("pircRBa1"), []string{"mine"}, ""},
		{"runid at the top and in the summary", runid("pircRBa1") + allTrec("pircRBa1"), []string{"pircRBa1"}, ""},
		{"runid before each run", runid("a") + core("NLPR03vb10") + runid("b") + core("pircRBa1") + runid("c") + core("rutcor03100"),
			[]string{"a", "b", "c"}, ""},
		{"runid before each run, no summaries", runid("a") + perTopic(core("NLPR03vb10")) + runid("b") + perTopic(core("pircRBa1")),
			[]string{"a", "b"}, ""},
		{"runid after, then before", allTrec("NLPR03vb10") + runid("b") + core("pircRBa1"), []string{"NLPR03vb10", "b"}, ""},
		{"one run without runid, first", core("NLPR03vb10") + allTrec("pircRBa1"), []string{"NLPR03vb10.run", "pircRBa1"}, ""},
		{"two runs without runid", core("NLPR03vb10") + core("pircRBa1"), nil,
			":1011: a second run (per-topic lines after a summary) that no runid line names, like the run at line 1; expected"},
		{"two runs of one runid", allTrec("pircRBa1") + allTrec("pircRBa1"), nil,
			`:19300: runid "pircRBa1" names a second run, as line 9601 does; expected one run per runid`},
		{"runid at the top, another in the summary", runid("mine") + allTrec("pircRBa1"), nil,
			`:9602: runid "pircRBa1" names no run: no per-topic lines follow it; expected`},
		{"runid right after the per-topic lines", perTopic(core("pircRBa1")) + runid("late"), []string{"late"}, ""},
		{"runid after the summary, naming nothing", core("pircRBa1") + runid("late"), nil, `:1011: runid "late" names no run`},
		{"runid naming nothing", allTrec("pircRBa1") + runid("x"), nil, `:9700: runid "x" names no run`},
		{"two runids in a row", runid("x") + runid("y") + core("pircRBa1"), nil, `:1: runid "x" names no run`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The file is named as a run would be, to tell its name from a runid.
			inDir(t, map[string]string{"NLPR03vb10.run.txt": c.text})
			tab, err := Load([]string{"NLPR03vb10.run.txt"}, LoadOptions{Format: TrecEval, Measures: []string{"map"}})
			if c.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), "NLPR03vb10.run.txt"+c.err) {
					t.Fatalf("error\n%v\nwant one starting\nNLPR03vb10.run.txt%s", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tab.Systems, c.systems) {
				t.Fatalf("systems %q, want %q", tab.Systems, c.systems)
			}
			for s := range tab.Systems {
				n := 0
				for _, v := range tab.Scores[s] {
					if v == v {
						n++
					}
				}
				if n != 100 {
					t.Errorf("%s has %d scores, want its 100 topics", tab.Systems[s], n)
				}
			}
		})
	}
}

// perTopic drops the summary lines of a trec_eval output.
func perTopic(text string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		if !strings.Contains(line, "\tall\t") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// A runid line at the top of a file is detected as trec_eval output, and
// names its run (issue 17, item 8).
func TestTrecEvalRunidAtTopDetected(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.txt")
	if err := os.WriteFile(path, []byte("runid\tall\tbm25\nmap\t301\t0.5\nmap\t302\t0.25\nmap\tall\t0.375\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := Load([]string{path}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := cells(tab); !slices.Equal(got, []string{"bm25/301=0.5", "bm25/302=0.25"}) || tab.Measure != "map" {
		t.Errorf("cells %q measure %q", got, tab.Measure)
	}
}
