package scores

import (
	"strings"
	"testing"
)

// One spelling of measures (gate/trec's registry): a file's measure labels
// and --measure name a measure in trec_eval's, ir_measures' or NTCIREVAL's
// spelling, and the table is named in the one printed form.
func TestMeasureSpellings(t *testing.T) {
	inDir(t, map[string]string{
		// ir_measures' per-query output names trec_eval's ndcg_cut_10 nDCG@10.
		"irm.csv": "system,topic,measure,score\nbm25,t1,nDCG@10,0.5\nbm25,t2,nDCG@10,0.25\nbm25,t1,AP,0.1\nbm25,t2,AP,0.2\n",
		"te.csv":  "system,topic,measure,score\nnew,t1,ndcg_cut_10,0.75\nnew,t2,ndcg_cut_10,0.5\nnew,t1,map,0.3\nnew,t2,map,0.4\n",
		"q.csv":   "system,topic,measure,score\nnew,t1,Q-measure,0.75\nnew,t2,Q-measure,0.5\n",
	})
	for _, c := range []struct {
		measure, want string
		cells         string
	}{
		{"ndcg_cut.10", "ndcg_cut_10", "bm25/t1=0.5 bm25/t2=0.25 new/t1=0.75 new/t2=0.5"},
		{"nDCG@10", "ndcg_cut_10", "bm25/t1=0.5 bm25/t2=0.25 new/t1=0.75 new/t2=0.5"},
		{"AP", "map", "bm25/t1=0.1 bm25/t2=0.2 new/t1=0.3 new/t2=0.4"},
	} {
		tab, err := Load([]string{"irm.csv", "te.csv"}, LoadOptions{Measures: []string{c.measure}})
		if err != nil {
			t.Errorf("--measure %s: %v", c.measure, err)
			continue
		}
		if tab.Measure != c.want || strings.Join(cells(tab), " ") != c.cells {
			t.Errorf("--measure %s: table of %q, %v; want %q, %s", c.measure, tab.Measure, cells(tab), c.want, c.cells)
		}
	}
	tab, err := Load([]string{"q.csv"}, LoadOptions{})
	if err != nil || tab.Measure != "Q" {
		t.Errorf("a file of Q-measure: %v, %v; want a table of Q", tab, err)
	}
	// Did-you-mean lists the measures present, as the registry spells them.
	_, err = Load([]string{"irm.csv"}, LoadOptions{Measures: []string{"ndcg_cut.20"}})
	if err == nil || !strings.Contains(err.Error(), `did you mean "ndcg_cut_10"?`) || !strings.Contains(err.Error(), `"map", "ndcg_cut_10"`) {
		t.Errorf("--measure ndcg_cut.20 on a file of nDCG@10 and AP: %v", err)
	}
}
