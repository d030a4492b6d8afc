package scores

import (
	"slices"
	"testing"
)

// OptionalMeasures are read where the inputs hold them and required of
// none: the gate's runs default (map) beside score files given with --qrels.
// Runs are scored on them (TestGateRunsScoredOnTheRulesMeasures, gate).
func TestLoadOptionalMeasures(t *testing.T) {
	inDir(t, map[string]string{
		"two.csv":   "query_id,system,nDCG@10,R@100\n301,bm25,0.5,0.75\n301,dense,0.625,0.5\n",
		"three.csv": "query_id,system,nDCG@10,R@100,map\n301,bm25,0.5,0.75,0.25\n301,dense,0.625,0.5,0.125\n",
	})
	for _, c := range []struct {
		file string
		want []string
	}{
		{"two.csv", []string{"ndcg_cut_10"}},
		{"three.csv", []string{"ndcg_cut_10", "map"}},
	} {
		set, _, _, err := LoadSources([]string{c.file}, LoadOptions{Measures: []string{"ndcg_cut.10"}, OptionalMeasures: []string{"map"}})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if got := set.Measures(); !slices.Equal(got, c.want) {
			t.Errorf("%s: measures %q, want %q", c.file, got, c.want)
		}
	}
	// Without Measures every measure is read; the optional ones add nothing.
	set, _, _, err := LoadSources([]string{"three.csv"}, LoadOptions{OptionalMeasures: []string{"map"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := set.Measures(), []string{"ndcg_cut_10", "recall_100", "map"}; !slices.Equal(got, want) {
		t.Errorf("every measure: %q, want %q", got, want)
	}
}
