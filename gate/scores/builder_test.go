package scores

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
)

func TestBuilder(t *testing.T) {
	b := NewBuilder("map")
	// System a grows one topic at a time; b and c arrive when the topics are known.
	adds := []struct {
		system, topic string
		v             float64
	}{
		{"a", "1", .1}, {"a", "2", .2}, {"a", "3", .3}, {"a", "4", .4}, {"a", "5", .5},
		{"b", "5", .55}, {"b", "1", .15},
		{"c", "6", .66},
	}
	for i, c := range adds {
		if err := b.Add(c.system, c.topic, c.v, "f.csv", i+2); err != nil {
			t.Fatal(err)
		}
	}
	if b.Len() != 8 || b.Systems() != 3 {
		t.Errorf("Len %d Systems %d, want 8 and 3", b.Len(), b.Systems())
	}
	tab := b.Table()
	want := [][]float64{
		{.1, .2, .3, .4, .5, nan},
		{.15, nan, nan, nan, .55, nan},
		{nan, nan, nan, nan, nan, .66},
	}
	if tab.Measure != "map" || !slices.Equal(tab.Systems, []string{"a", "b", "c"}) ||
		!slices.Equal(tab.Topics, []string{"1", "2", "3", "4", "5", "6"}) || !sameScores(tab.Scores, want) {
		t.Errorf("got %+v", tab)
	}
	for s, row := range tab.Scores {
		if len(row) != 6 || cap(row) != 6 {
			t.Errorf("row %d: len %d cap %d, want 6 and 6", s, len(row), cap(row))
		}
	}
	if err := b.Add("a", "7", 1, "f.csv", 20); err == nil {
		t.Error("Add after Table succeeded")
	}
}

func TestBuilderErrors(t *testing.T) {
	b := NewBuilder("")
	if err := b.Add("sys", "301", 0.5, "a.csv", 7); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		system, topic string
		v             float64
		want          string
	}{
		{"sys", "301", 0.5, `b.jsonl:3: duplicate score for system "sys" on topic "301"; expected one per (system, topic) (first given at a.csv:7)`},
		{"sys", "302", math.NaN(), `b.jsonl:3: score of system "sys" on topic "302" is NaN; expected a finite number`},
		{"sys", "302", math.Inf(1), `b.jsonl:3: score of system "sys" on topic "302" is +Inf; expected a finite number`},
		{"sys", "302", math.Inf(-1), `b.jsonl:3: score of system "sys" on topic "302" is -Inf; expected a finite number`},
		{"", "302", 1, `b.jsonl:3: empty system name; expected a name`},
		{"  ", "302", 1, `b.jsonl:3: empty system name; expected a name`},
		{"sys", "", 1, `b.jsonl:3: empty topic for system "sys"; expected a topic id`},
	}
	for _, c := range cases {
		err := b.Add(c.system, c.topic, c.v, "b.jsonl", 3)
		var ie *inputerr.Error
		if !errors.As(err, &ie) || err.Error() != c.want {
			t.Errorf("Add(%q, %q, %v): got %v, want %s", c.system, c.topic, c.v, err, c.want)
		}
	}
	// Refused cells leave nothing behind.
	if b.Len() != 1 || b.Systems() != 1 {
		t.Errorf("Len %d Systems %d after refusals, want 1 and 1", b.Len(), b.Systems())
	}
}

// The first occurrence is named precisely across many files and large line numbers.
func TestBuilderOrigin(t *testing.T) {
	b := NewBuilder("")
	files := []string{"a", "b", "c"}
	for i, f := range files {
		if err := b.Add("s", f, 1, f, 1<<35+i); err != nil {
			t.Fatal(err)
		}
	}
	err := b.Add("s", "b", 1, "d", 1)
	if want := `d:1: duplicate score for system "s" on topic "b"; expected one per (system, topic) (first given at b:34359738369)`; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	if f, l := b.unpack(pack(2, 1<<41)); f != "c" || l != 1<<lineBits-1 {
		t.Errorf("a line past the packing range unpacks as %s:%d", f, l)
	}
}

// Names are copied: a caller may reuse its buffer.
func TestBuilderCopiesNames(t *testing.T) {
	buf := []byte("sysA")
	b := NewBuilder("")
	name := string(buf)
	if err := b.Add(name, "1", 1, "f", 1); err != nil {
		t.Fatal(err)
	}
	if tab := b.Table(); tab.Systems[0] != "sysA" {
		t.Errorf("got %q", tab.Systems[0])
	}
}

func BenchmarkBuilderAdd(b *testing.B) {
	const systems, topics = 100, 1000
	sys := make([]string, systems)
	top := make([]string, topics)
	for i := range sys {
		sys[i] = "system" + string(rune('A'+i%26)) + string(rune('a'+i/26))
	}
	for i := range top {
		top[i] = "t" + string(rune('0'+i%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i/100))
	}
	b.ReportAllocs()
	for b.Loop() {
		bl := NewBuilder("map")
		for s := range sys {
			for t := range top {
				if err := bl.Add(sys[s], top[t], 0.5, "f.csv", s*topics+t+2); err != nil {
					b.Fatal(err)
				}
			}
		}
		_ = bl.Table()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*systems*topics), "ns/cell")
}

// A declared system without scores is kept, so that Align reports it.
func TestBuilderAddSystem(t *testing.T) {
	b := NewBuilder("")
	if err := b.AddSystem("empty"); err != nil {
		t.Fatal(err)
	}
	if err := b.AddSystem(" "); err == nil {
		t.Error("AddSystem accepted a blank name")
	}
	if err := b.Add("full", "1", 1, "f", 2); err != nil {
		t.Fatal(err)
	}
	if err := b.AddSystem("full"); err != nil || b.Systems() != 2 {
		t.Errorf("re-declaring: %v, %d systems", err, b.Systems())
	}
	tab := b.Table()
	if !slices.Equal(tab.Systems, []string{"empty", "full"}) || len(tab.Scores[0]) != 1 || !math.IsNaN(tab.Scores[0][0]) {
		t.Errorf("got %+v", tab)
	}
	_, a, err := tab.Align(Intersect)
	if err != nil || !slices.Equal(a.DroppedSystems, []string{"empty"}) {
		t.Errorf("align: %v %+v", err, a)
	}
	if err := b.AddSystem("late"); err == nil {
		t.Error("AddSystem after Table succeeded")
	}
}
