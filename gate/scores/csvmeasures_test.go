package scores

import (
	"slices"
	"strings"
	"testing"
)

// The metric-column layout: one row per (query, system), one column per
// measure, headers resolved through the registry. Hand-written in the shape
// a pandas DataFrame of per-query results takes with to_csv (index column
// with an empty header) and, as TSV, with to_csv(sep="\t", index=False):
// https://pandas.pydata.org/docs/reference/api/pandas.DataFrame.to_csv.html
func TestLoadCSVMeasures(t *testing.T) {
	inDir(t, map[string]string{
		"per_query.csv": ",query_id,system,nDCG@10,R@100,RR,latency_ms\n" +
			"0,301,bm25,0.5,0.75,1,12\n" +
			"1,301,dense,0.625,0.5,0.5,30\n" +
			"2,302,bm25,0.25,NA,0.25,11\n" +
			"3,302,dense,0.375,1,,29\n",
		"per_query.tsv": "qid\trun\tndcg_cut.10\trecall_100\n301\tbm25\t0.5\t0.75\n302\tbm25\t0.25\t0.5\n",
	})
	set, _, _, err := LoadSources([]string{"per_query.csv"}, LoadOptions{LowerIsBetter: []string{"latency_ms"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Measures(); !slices.Equal(got, []string{"ndcg_cut_10", "recall_100", "recip_rank", "latency_ms"}) {
		t.Fatalf("measures %q", got)
	}
	want := map[string][]string{
		"ndcg_cut_10": {"bm25/301=0.5", "bm25/302=0.25", "dense/301=0.625", "dense/302=0.375"},
		"recall_100":  {"bm25/301=0.75", "dense/301=0.5", "dense/302=1"},
		"recip_rank":  {"bm25/301=1", "bm25/302=0.25", "dense/301=0.5"},
		"latency_ms":  {"bm25/301=12", "bm25/302=11", "dense/301=30", "dense/302=29"},
	}
	for _, tab := range set.Tables {
		if got := cells(tab); !slices.Equal(got, want[tab.Measure]) {
			t.Errorf("%s: %q, want %q", tab.Measure, got, want[tab.Measure])
		}
	}
	if set.Direction("latency_ms") != LowerIsBetter {
		t.Error("latency_ms is lower-is-better")
	}
	// Selecting reads only the columns wanted, in the order wanted.
	set, _, _, err = LoadSources([]string{"per_query.csv"}, LoadOptions{Measures: []string{"RR", "ndcg_cut.10"}})
	if err != nil || !slices.Equal(set.Measures(), []string{"recip_rank", "ndcg_cut_10"}) {
		t.Fatalf("%v %v", err, set)
	}
	// TSV, detected from the header's tabs.
	tab, err := Load([]string{"per_query.tsv"}, LoadOptions{Measures: []string{"nDCG@10"}})
	if err != nil || !slices.Equal(cells(tab), []string{"bm25/301=0.5", "bm25/302=0.25"}) {
		t.Errorf("tsv: %v %v", err, tab)
	}
}

// One file per system, named after the file, only with --system-per-file.
func TestLoadSystemPerFile(t *testing.T) {
	inDir(t, map[string]string{
		"bm25.csv":  "query_id,nDCG@10,RR\n301,0.5,1\n302,0.25,0.5\n",
		"dense.csv": "query_id,nDCG@10,RR\n301,0.625,0.5\n302,0.375,1\n",
		"long.csv":  "topic,measure,score\n301,map,0.5\n",
		"named.csv": "query_id,system,nDCG@10\n301,x,0.5\n",
	})
	set, _, _, err := LoadSources([]string{"bm25.csv", "dense.csv"}, LoadOptions{SystemPerFile: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(set.Tables[0].Systems, []string{"bm25", "dense"}) || !slices.Equal(set.Measures(), []string{"ndcg_cut_10", "recip_rank"}) {
		t.Errorf("systems %q measures %q", set.Tables[0].Systems, set.Measures())
	}
	tab, err := Load([]string{"long.csv"}, LoadOptions{SystemPerFile: true})
	if err != nil || !slices.Equal(cells(tab), []string{"long/301=0.5"}) || tab.Measure != "map" {
		t.Errorf("long: %v %v", err, tab)
	}
	for _, c := range []struct {
		file string
		opt  LoadOptions
		want string
	}{
		{"bm25.csv", LoadOptions{}, `bm25.csv:1: the columns after the topic name measures ("nDCG@10", "RR"), not systems; expected a system column, or --system-per-file to name the system after the file`},
		{"long.csv", LoadOptions{}, `long.csv:1: no system column in the header`},
		{"named.csv", LoadOptions{SystemPerFile: true}, `named.csv:1: the file names its systems in a column; expected none with --system-per-file`},
		{"bm25.csv", LoadOptions{Format: CSVMeasures}, `bm25.csv:1: no system column; expected one (system, run or name), or --system-per-file`},
	} {
		_, err := Load([]string{c.file}, c.opt)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %s…", c.file, err, c.want)
		}
	}
}

// Bad metric-column files: file:line one-liners.
func TestLoadCSVMeasuresErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"qid,system,ndcg_cut.10,nDCG@10\n1,a,0.5,0.5\n", `m.csv:1: columns 3 ("ndcg_cut.10") and 4 ("nDCG@10") both give measure "ndcg_cut_10"; expected one column per measure`},
		{"qid,system,ndcg@10\n1,a,x\n", `m.csv:2: column "ndcg@10": score "x" is not a number; expected a finite number`},
		{"qid,system,ndcg@10\n1,a,0.5\n1,a,0.5\n", `m.csv:3: duplicate score for system "a" on topic "1"; expected one per (system, topic) (first given at m.csv:2)`},
		{"qid,topic,system,ndcg@10\n1,1,a,0.5\n", `m.csv:1: columns 1 ("qid") and 2 ("topic") both give the topic; expected one`},
		{"qid,system,ndcg@10\n1,a\n", `m.csv:2: the row has a different number of fields from the header's 3 (qid,system,ndcg@10); expected one per column`},
	} {
		inDir(t, map[string]string{"m.csv": c.text})
		_, _, _, err := LoadSources([]string{"m.csv"}, LoadOptions{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v\nwant %s", c.text, err, c.want)
		}
	}
}
