package scores

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var nan = math.NaN()

// gappy is a table with every kind of gap:
//
//	     t1  t2  t3  t4
//	A   .1  .2  .3  .4   complete
//	B   .5   -  .6  .7   misses t2
//	C   .8  .9   -   -   misses t3, t4
//	D    -   -   -   -   no score at all
func gappy() *Table {
	t := NewTable("map", []string{"A", "B", "C", "D"}, []string{"t1", "t2", "t3", "t4"})
	copy(t.Scores[0], []float64{.1, .2, .3, .4})
	copy(t.Scores[1], []float64{.5, nan, .6, .7})
	copy(t.Scores[2], []float64{.8, .9, nan, nan})
	return t
}

// sameScores compares with NaN equal to NaN.
func sameScores(a, b [][]float64) bool {
	return slices.EqualFunc(a, b, func(x, y []float64) bool {
		return slices.EqualFunc(x, y, func(u, v float64) bool { return u == v || math.IsNaN(u) && math.IsNaN(v) })
	})
}

func TestNewTable(t *testing.T) {
	tab := NewTable("P_10", []string{"a", "b"}, []string{"1", "2", "3"})
	if tab.Measure != "P_10" || len(tab.Scores) != 2 || tab.Missing() != 6 || tab.Complete() {
		t.Fatalf("got %+v, want 2×3 all missing", tab)
	}
	// Rows share a backing array but cannot spill into each other.
	tab.Scores[0] = append(tab.Scores[0], 1)
	if !math.IsNaN(tab.Scores[1][0]) {
		t.Error("appending to row 0 overwrote row 1")
	}
	if tab.SystemIndex("b") != 1 || tab.SystemIndex("z") != -1 || tab.TopicIndex("3") != 2 || tab.TopicIndex("4") != -1 {
		t.Error("SystemIndex/TopicIndex")
	}
	// The table owns its name slices.
	names := []string{"x"}
	tab = NewTable("", names, names)
	names[0] = "y"
	if tab.Systems[0] != "x" || tab.Topics[0] != "x" {
		t.Error("NewTable aliases its arguments")
	}
}

func TestAlignModes(t *testing.T) {
	cases := []struct {
		mode    TopicMode
		systems []string
		topics  []string
		scores  [][]float64
		align   Alignment
		summary string
	}{
		{
			mode: Intersect, systems: []string{"A", "B", "C"}, topics: []string{"t1"},
			scores: [][]float64{{.1}, {.5}, {.8}},
			align:  Alignment{Mode: Intersect, DroppedSystems: []string{"D"}, DroppedTopics: []string{"t2", "t3", "t4"}},
			summary: `dropped 1 system(s) with no scores: "D"; ` +
				`dropped 3 topic(s) not scored for every system (--topics intersect): "t2", "t3", "t4"`,
		},
		{
			mode: Zero, systems: []string{"A", "B", "C"}, topics: []string{"t1", "t2", "t3", "t4"},
			scores: [][]float64{{.1, .2, .3, .4}, {.5, 0, .6, .7}, {.8, .9, 0, 0}},
			align: Alignment{Mode: Zero, DroppedSystems: []string{"D"},
				FilledCells: []Cell{{System: "B", Topic: "t2"}, {System: "C", Topic: "t3"}, {System: "C", Topic: "t4"}}},
			summary: `dropped 1 system(s) with no scores: "D"; ` +
				`scored 3 missing cell(s) as 0 (--topics zero): "B" on "t2"; "C" on "t3", "t4"`,
		},
		{
			mode: Keep, systems: []string{"A", "B", "C"}, topics: []string{"t1", "t2", "t3", "t4"},
			scores:  [][]float64{{.1, .2, .3, .4}, {.5, nan, .6, .7}, {.8, .9, nan, nan}},
			align:   Alignment{Mode: Keep, DroppedSystems: []string{"D"}, MissingCells: 3},
			summary: `dropped 1 system(s) with no scores: "D"; kept 3 missing cell(s) (--topics keep)`,
		},
	}
	for _, c := range cases {
		t.Run(string(c.mode), func(t *testing.T) {
			in := gappy()
			before := gappy()
			out, a, err := in.Align(c.mode)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(out.Systems, c.systems) || !slices.Equal(out.Topics, c.topics) || !sameScores(out.Scores, c.scores) {
				t.Errorf("got %q × %q %v, want %q × %q %v", out.Systems, out.Topics, out.Scores, c.systems, c.topics, c.scores)
			}
			if out.Measure != "map" {
				t.Errorf("measure %q, want map", out.Measure)
			}
			if !reflect.DeepEqual(a, c.align) {
				t.Errorf("alignment %+v, want %+v", a, c.align)
			}
			if got := a.Summary(); got != c.summary {
				t.Errorf("summary\n%s\nwant\n%s", got, c.summary)
			}
			if !sameScores(in.Scores, before.Scores) {
				t.Error("Align changed its input")
			}
			out.Scores[0][0] = 42
			if in.Scores[0][0] == 42 {
				t.Error("the aligned table shares storage with its input")
			}
		})
	}
}

func TestAlignFail(t *testing.T) {
	_, _, err := gappy().Align(Fail)
	if want := `system "D" has no scores (--topics error)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	tab := gappy()
	tab.Systems, tab.Scores = tab.Systems[:3], tab.Scores[:3]
	_, _, err = tab.Align(Fail)
	if want := `system "B" has no score for topic "t2", and 3 cell(s) are missing in all (--topics error; use intersect, zero or keep)`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// A complete table comes out equal, whatever the mode, with nothing to report.
func TestAlignComplete(t *testing.T) {
	for _, mode := range TopicModes {
		tab := NewTable("m", []string{"a", "b"}, []string{"1", "2"})
		tab.Scores[0][0], tab.Scores[0][1], tab.Scores[1][0], tab.Scores[1][1] = 1, 2, 3, 4
		out, a, err := tab.Align(mode)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if !reflect.DeepEqual(out, tab) || !reflect.DeepEqual(a, Alignment{Mode: mode}) || a.Summary() != "" {
			t.Errorf("%s: got %+v %+v", mode, out, a)
		}
	}
}

func TestAlignNothingLeft(t *testing.T) {
	// Two systems with disjoint topics: intersect leaves no topic.
	tab := NewTable("m", []string{"a", "b"}, []string{"1", "2"})
	tab.Scores[0][0], tab.Scores[1][1] = 1, 2
	_, _, err := tab.Align(Intersect)
	if want := "no topic is scored for every system, so --topics intersect leaves nothing (2 systems, 2 topics); try --topics zero or keep"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	// Zero and keep keep them all.
	for _, mode := range []TopicMode{Zero, Keep} {
		if out, _, err := tab.Align(mode); err != nil || len(out.Topics) != 2 {
			t.Errorf("%s: %v", mode, err)
		}
	}
	// No score at all.
	for _, mode := range TopicModes {
		empty := NewTable("m", []string{"a"}, []string{"1"})
		if _, _, err := empty.Align(mode); err == nil {
			t.Errorf("%s: aligning a table without scores succeeded", mode)
		}
	}
	if _, _, err := NewTable("m", nil, nil).Align(Keep); err == nil || err.Error() != "the inputs hold no scores" {
		t.Errorf("empty table: %v", err)
	}
	if _, _, err := gappy().Align("some"); err == nil || err.Error() != `unknown topic mode "some": expected one of intersect, zero, error, keep` {
		t.Errorf("bad mode: %v", err)
	}
}

func TestSummaryCutsLongLists(t *testing.T) {
	var topics, systems []string
	var cells []Cell
	for i := range 12 {
		topics = append(topics, fmt.Sprint(i))
		systems = append(systems, fmt.Sprint("s", i))
		cells = append(cells, Cell{System: fmt.Sprint("s", i), Topic: "1"}, Cell{System: fmt.Sprint("s", i), Topic: "2"})
	}
	a := Alignment{DroppedTopics: topics, DroppedSystems: systems, FilledCells: cells}
	want := `dropped 12 system(s) with no scores: "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", … (12 in all); ` +
		`dropped 12 topic(s) not scored for every system (--topics intersect): "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", … (12 in all); ` +
		`scored 24 missing cell(s) as 0 (--topics zero): "s0" on "1", "2"; "s1" on "1", "2"; "s2" on "1", "2"; "s3" on "1", "2"; "s4" on "1", "2"; ` +
		`"s5" on "1", "2"; "s6" on "1", "2"; "s7" on "1", "2"; "s8" on "1", "2"; "s9" on "1", "2"; … (12 systems in all)`
	if got := a.Summary(); got != want {
		t.Errorf("summary\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(a.Summary(), "\n") {
		t.Error("summary is not one line")
	}
}

func TestParseTopicMode(t *testing.T) {
	for _, m := range TopicModes {
		if got, err := ParseTopicMode(string(m)); err != nil || got != m {
			t.Errorf("%s: %v %v", m, got, err)
		}
	}
	if _, err := ParseTopicMode("Zero"); err == nil || err.Error() != `--topics "Zero": expected one of intersect, zero, error, keep; did you mean "zero"?` {
		t.Errorf("got %v", err)
	}
}

func TestSortedTopics(t *testing.T) {
	tab := NewTable("", nil, []string{"9", "10", "01", "2"})
	if got := tab.SortedTopics(); !slices.Equal(got, []string{"01", "10", "2", "9"}) {
		t.Errorf("got %q, want strcmp order", got)
	}
	if tab.Topics[0] != "9" {
		t.Error("SortedTopics sorted the table's own slice")
	}
}

// Every command's unknown system ends with SystemHint: compare --champion
// Champio gets the gate's "did you mean" (issue 30, item 5) and the first
// ten systems, not all 45 of rb04.
func TestUnknownSystemError(t *testing.T) {
	tab := NewTable("", []string{"a", "b c"}, nil)
	if got := tab.UnknownSystemError("champion", "x").Error(); got != `champion "x" is not in the data (systems: "a", "b c")` {
		t.Errorf("got %s", got)
	}
	systems := []string{"Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}
	for i := range 40 {
		systems = append(systems, fmt.Sprintf("input.run%02d", i))
	}
	rb04 := NewTable("", systems, nil)
	for _, c := range []struct{ role, name, want string }{
		{"champion", "Champio", `champion "Champio" is not in the data; did you mean "Champion"? (systems: "Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4", "input.run00", "input.run01", "input.run02", "input.run03", "input.run04", … and 35 more)`},
		{"--challenger", "Chal 4", `--challenger "Chal 4" is not in the data; did you mean "Chal. 4"? (systems: "Champion",`},
		{"--challenger", "Champ*", `--challenger "Champ*" is not in the data (systems: "Champion",`}, // a glob is no typo
	} {
		if got := rb04.UnknownSystemError(c.role, c.name).Error(); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s %q: got %s\nwant %s…", c.role, c.name, got, c.want)
		}
	}
}
