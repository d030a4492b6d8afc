package scores

import (
	"slices"
	"strings"
	"testing"
)

// ir_measures -q output, hand-written in the layout of its documentation
// (https://ir-measur.es/en/stable/getting-started.html, "Command Line
// Interface": query id, measure, value; aggregates under "all" last; the
// order of lines is not predictable), one file per run.
func TestLoadIRMeasures(t *testing.T) {
	inDir(t, map[string]string{
		"bm25.txt": "1\tP@5\t0.6000\n1\tnDCG@10\t0.5134\n2\tP@5\t1.0000\n2\tnDCG@10\t0.8522\n" +
			"3\tnDCG@10\t0.2500\n3\tP@5\t0.2000\n3\tP(rel=2)@5\t0.2000\nall\tnDCG@10\t0.5385\nall\tP@5\t0.6000\n",
		"dense.txt": "2\tnDCG@10\t0.9000\n1\tnDCG@10\t0.6000\n3\tnDCG@10\t0.3000\n1\tP@5\t0.8000\n2\tP@5\t1.0000\n3\tP@5\t0.4000\n",
	})
	if got := classify("1\tP@5\t0.6000"); got != IRMeasures {
		t.Errorf("classify = %q", got)
	}
	set, _, _, err := LoadSources([]string{"bm25.txt", "dense.txt"}, LoadOptions{SystemPerFile: true, Measures: []string{"nDCG@10", "P.5"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(set.Measures(), []string{"ndcg_cut_10", "P_5"}) {
		t.Fatalf("measures %q", set.Measures())
	}
	want := map[string][]string{
		"ndcg_cut_10": {"bm25/1=0.5134", "bm25/2=0.8522", "bm25/3=0.25", "dense/1=0.6", "dense/2=0.9", "dense/3=0.3"},
		"P_5":         {"bm25/1=0.6", "bm25/2=1", "bm25/3=0.2", "dense/1=0.8", "dense/2=1", "dense/3=0.4"},
	}
	for _, tab := range set.Tables {
		if got := cells(tab); !slices.Equal(got, want[tab.Measure]) {
			t.Errorf("%s: %q, want %q", tab.Measure, got, want[tab.Measure])
		}
	}
	// Every measure: P(rel=2)@5 is held by bm25 only, which aligning refuses.
	if _, _, _, err := LoadSources([]string{"bm25.txt", "dense.txt"}, LoadOptions{SystemPerFile: true, Topics: Intersect}); err == nil ||
		!strings.Contains(err.Error(), `system "dense" has no score of measure "P(rel=2)@5"`) {
		t.Errorf("every measure: %v", err)
	}
	// The output names no run: the flag is required.
	if _, err := Load([]string{"bm25.txt"}, LoadOptions{Measures: []string{"P@5"}}); err == nil ||
		err.Error() != "bm25.txt:1: no system column; expected one (system, run or name), or --system-per-file to name the system after the file" {
		t.Errorf("no flag: %v", err)
	}
	inDir(t, map[string]string{"bad.txt": "1\tP@5\t0.6\n2\tP@5\n"})
	if _, err := Load([]string{"bad.txt"}, LoadOptions{SystemPerFile: true}); err == nil ||
		err.Error() != "bad.txt:2: 2 fields; expected 3 (query_id, measure, value) as ir_measures -q prints" {
		t.Errorf("bad: %v", err)
	}
}

// PyTerrier's pt.Experiment(..., perquery=True) returns a DataFrame of
// columns name, qid, measure, value
// (https://pyterrier.readthedocs.io/en/latest/experiments.html); written
// with to_csv it gains pandas' index column, whose header is empty. It is
// the long layout: name is the system, value the score.
func TestLoadPyTerrierPerQuery(t *testing.T) {
	inDir(t, map[string]string{
		"perquery.csv": ",name,qid,measure,value\n" +
			"0,BM25,1,map,0.5\n1,BM25,1,ndcg_cut_10,0.625\n2,BM25,2,map,0.25\n3,BM25,2,ndcg_cut_10,0.375\n" +
			"4,BM25 >> MonoT5,1,map,0.75\n5,BM25 >> MonoT5,1,ndcg_cut_10,0.875\n6,BM25 >> MonoT5,2,map,0.125\n7,BM25 >> MonoT5,2,ndcg_cut_10,0.5\n",
	})
	set, _, _, err := LoadSources([]string{"perquery.csv"}, LoadOptions{Topics: Intersect})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(set.Measures(), []string{"map", "ndcg_cut_10"}) || !slices.Equal(set.Tables[0].Systems, []string{"BM25", "BM25 >> MonoT5"}) {
		t.Fatalf("measures %q systems %q", set.Measures(), set.Tables[0].Systems)
	}
	ndcg, _ := set.Table("nDCG@10")
	if got := cells(ndcg); !slices.Equal(got, []string{"BM25/1=0.625", "BM25/2=0.375", "BM25 >> MonoT5/1=0.875", "BM25 >> MonoT5/2=0.5"}) {
		t.Errorf("ndcg %q", got)
	}
}
