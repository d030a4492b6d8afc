package scores

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// A long CSV of several measures loads into a Set whose tables line up:
// same systems and topics, in first-seen order, missing cells NaN.
func TestSetFromLongCSV(t *testing.T) {
	inDir(t, map[string]string{
		"a.csv": "system,topic,measure,score\n" +
			"A,1,nDCG@10,0.5\nA,1,map,0.25\n" +
			"B,2,ndcg_cut.10,0.75\nB,1,AP,0.125\nA,2,map,0.375\n",
	})
	set, a, _, err := LoadSources([]string{"a.csv"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Measures(); !slices.Equal(got, []string{"ndcg_cut_10", "map"}) {
		t.Fatalf("measures %q", got)
	}
	if a.Mode != "" {
		t.Errorf("aligned without Topics: %+v", a)
	}
	for _, tab := range set.Tables {
		if !slices.Equal(tab.Systems, []string{"A", "B"}) || !slices.Equal(tab.Topics, []string{"1", "2"}) {
			t.Errorf("%s: systems %q topics %q", tab.Measure, tab.Systems, tab.Topics)
		}
	}
	ndcg, err := set.Table("nDCG@10")
	if err != nil {
		t.Fatal(err)
	}
	if ndcg.Scores[0][0] != 0.5 || !math.IsNaN(ndcg.Scores[0][1]) || !math.IsNaN(ndcg.Scores[1][0]) || ndcg.Scores[1][1] != 0.75 {
		t.Errorf("ndcg %v", ndcg.Scores)
	}
	m, _ := set.Table("AP")
	if want := [][]float64{{0.25, 0.375}, {0.125, math.NaN()}}; m.Scores[0][0] != want[0][0] || m.Scores[0][1] != want[0][1] || m.Scores[1][0] != want[1][0] || !math.IsNaN(m.Scores[1][1]) {
		t.Errorf("map %v", m.Scores)
	}
	// Intersect drops a topic any measure lacks for any system: both here.
	if _, _, err := set.Align(Intersect); err == nil || !strings.Contains(err.Error(), "no topic is scored for every system") {
		t.Errorf("intersect: %v", err)
	}
	z, za, err := set.Align(Zero)
	if err != nil || len(za.FilledCells) != 3 || za.FilledCells[0] != (Cell{System: "A", Topic: "2", Measure: "ndcg_cut_10"}) || z.Tables[1].Scores[1][1] != 0 {
		t.Errorf("zero: %v %+v", err, za)
	}
	_, _, err = set.Align(Fail)
	if want := `system "A" has no score of measure "ndcg_cut_10" for topic "2", and 3 cell(s) are missing in all (--topics error; use intersect, zero or keep)`; err == nil || err.Error() != want {
		t.Errorf("error: %v\nwant %s", err, want)
	}
	if _, err := set.Table(""); err == nil || err.Error() != `the inputs hold 2 measures ("ndcg_cut_10", "map"); name one with --measure` {
		t.Errorf("unnamed: %v", err)
	}
}

// Measures selects and orders; a measure no input holds is an error listing
// what they hold, with did-you-mean; Table resolves every spelling.
func TestSetMeasures(t *testing.T) {
	inDir(t, map[string]string{
		"t.txt":   "map\t1\t0.5\nndcg_cut_10\t1\t0.25\nrunid\tall\tA\n",
		"j.jsonl": `{"system":"B","topic":1,"measure":"map","score":1}` + "\n" + `{"system":"B","topic":1,"measure":"P_10","score":1}` + "\n",
	})
	set, _, _, err := LoadSources([]string{"t.txt", "j.jsonl"}, LoadOptions{Measures: []string{"AP"}})
	if err != nil || !slices.Equal(set.Measures(), []string{"map"}) || !slices.Equal(set.Tables[0].Systems, []string{"A", "B"}) {
		t.Fatalf("%v %v", err, set)
	}
	_, _, _, err = LoadSources([]string{"t.txt", "j.jsonl"}, LoadOptions{Measures: []string{"map", "ndcg_cut.20"}})
	if want := `measure "ndcg_cut_20" (--measure) is in none of the inputs (t.txt, j.jsonl); did you mean "ndcg_cut_10"?; they hold "map", "ndcg_cut_10", "P_10"`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	// Every measure: a system lacking one is an error when aligned.
	_, _, _, err = LoadSources([]string{"t.txt", "j.jsonl"}, LoadOptions{Topics: Keep})
	if want := `system "A" has no score of measure "P_10" but has scores of "map", "ndcg_cut_10"; expected every system scored on every measure (select measures with --measure)`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	set, _, _, err = LoadSources([]string{"t.txt", "j.jsonl"}, LoadOptions{Measures: []string{"P@10", "map"}, Topics: Zero})
	if err == nil {
		t.Errorf("A has no P_10: %v", set.Measures())
	}
	set, _, _, err = LoadSources([]string{"t.txt"}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := set.Table("ndcg_cut.11"); err == nil || err.Error() != `measure "ndcg_cut.11" is not in the inputs; did you mean "ndcg_cut_10"?; they hold "map", "ndcg_cut_10"` {
		t.Errorf("absent: %v", err)
	}
	if tab, err := set.Table("nDCG@10"); err != nil || tab.Measure != "ndcg_cut_10" {
		t.Errorf("nDCG@10: %v", err)
	}
}

// LowerIsBetter sets a measure's direction; a name no input holds is an
// error when every measure was loaded.
func TestSetDirections(t *testing.T) {
	inDir(t, map[string]string{"a.csv": "system,topic,measure,score\nA,1,latency_ms,12\nA,1,map,0.5\n"})
	set, _, _, err := LoadSources([]string{"a.csv"}, LoadOptions{LowerIsBetter: []string{"latency_ms"}})
	if err != nil {
		t.Fatal(err)
	}
	if set.Direction("latency_ms") != LowerIsBetter || set.Direction("map") != HigherIsBetter || set.Direction("AP") != HigherIsBetter {
		t.Errorf("directions %v", set.Directions)
	}
	aligned, _, err := set.Align(Keep)
	if err != nil || aligned.Direction("latency_ms") != LowerIsBetter {
		t.Errorf("aligned lost the direction: %v", err)
	}
	_, _, _, err = LoadSources([]string{"a.csv"}, LoadOptions{LowerIsBetter: []string{"latncy_ms"}})
	if want := `--lower-is-better "latncy_ms": no input holds that measure; did you mean "latency_ms"?; they hold "latency_ms", "map"`; err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	// Selected measures: a lower-is-better measure not selected is not checked.
	if _, _, _, err := LoadSources([]string{"a.csv"}, LoadOptions{Measures: []string{"map"}, LowerIsBetter: []string{"cost"}}); err != nil {
		t.Error(err)
	}
}

// An unnamed input's measure is "" unless named; --measure on it is an error.
func TestSetUnnamed(t *testing.T) {
	inDir(t, map[string]string{"w.csv": "topic,A,B\n1,0.5,0.25\n"})
	set, _, _, err := LoadSources([]string{"w.csv"}, LoadOptions{})
	if err != nil || !slices.Equal(set.Measures(), []string{""}) {
		t.Fatalf("%v %v", err, set)
	}
	if _, err := set.Table("ndcg"); err == nil || !strings.Contains(err.Error(), "--unnamed-measure ndcg") {
		t.Errorf("table of an unnamed set: %v", err)
	}
	set, _, _, err = LoadSources([]string{"w.csv"}, LoadOptions{UnnamedMeasure: "ndcg_cut.10", Measures: []string{"nDCG@10"}})
	if err != nil || !slices.Equal(set.Measures(), []string{"ndcg_cut_10"}) {
		t.Fatalf("%v %v", err, set)
	}
}
