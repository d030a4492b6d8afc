package pool

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/inputerr"
)

var ctx = context.Background()

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Create(ctx, filepath.Join(t.TempDir(), "pool"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCreateAndOpen(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "pool")
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "no pool at") {
		t.Errorf("Open of a missing folder: %v", err)
	}
	if _, err := Create(ctx, dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"format", ".gitignore", ".gitattributes", "systems"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("a new pool has no %s: %v", f, err)
		}
	}
	if _, err := Create(ctx, dir); err != nil {
		t.Errorf("Create of an existing pool: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "format"), []byte("riskgate-pool 2\n"), 0o644)
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "format:1: pool format version 2") {
		t.Errorf("Open of a version-2 pool: %v", err)
	}
	if _, err := Create(ctx, dir); err == nil {
		t.Error("Create must not rewrite a pool of another version")
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "go.mod"), nil, 0o644)
	if _, err := Create(ctx, other); err == nil || !strings.Contains(err.Error(), "holds files and is not a riskgate pool") {
		t.Errorf("Create in a folder of other files: %v", err)
	}
}

// tableFrom loads a CSV written with full precision through the loader,
// as riskgate pool add does.
func tableFrom(t *testing.T, csv string) *scores.Table {
	t.Helper()
	p := filepath.Join(t.TempDir(), "scores.csv")
	if err := os.WriteFile(p, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := scores.Load([]string{p}, scores.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// Scores loaded from a file, recorded and read back, are the loaded
// float64s bit for bit, and Table rebuilds the table the loader gave.
func TestRecordReadBackBitForBit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 29))
	var csv strings.Builder
	csv.WriteString("system,topic,score\n")
	systems := []string{"bm25", "Chal. 1", "art \"2\""}
	for _, s := range systems {
		for i := range 50 {
			v := rng.Float64()
			if i < len(hardScores) && s == "bm25" {
				v = hardScores[i]
			}
			fmt.Fprintf(&csv, "\"%s\",t%02d,%s\n", strings.ReplaceAll(s, `"`, `""`), i, formatScore(v))
		}
	}
	in := tableFrom(t, csv.String())
	s := newStore(t)
	for _, name := range systems {
		e, err := NewEntry(in, name, Recording{At: t0, Role: Artifact, Label: "x"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := s.Entries(ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	back, err := Table(entries, in.Measure)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range in.Systems {
		j := back.SystemIndex(name)
		if j < 0 {
			t.Fatalf("%q not read back", name)
		}
		if !slices.Equal(back.Topics, in.Topics) {
			t.Fatalf("topics %v, want %v", back.Topics, in.Topics)
		}
		for k := range in.Topics {
			if math.Float64bits(back.Scores[j][k]) != math.Float64bits(in.Scores[i][k]) {
				t.Errorf("%s on %s: %v, want %v", name, in.Topics[k], back.Scores[j][k], in.Scores[i][k])
			}
		}
	}
}

func TestRecordMerges(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	rng := rand.New(rand.NewPCG(4, 29))
	e := testEntry(rng, "bm25", []string{"map"}, 10)
	if _, err := s.Record(ctx, e); err != nil {
		t.Fatal(err)
	}
	path := s.EntryPath("bm25")
	before, _ := os.ReadFile(path)
	// The same again: nothing changes (the same event is not repeated).
	if _, err := s.Record(ctx, e); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("recording the same entry again changed its file")
	}
	// Another measure on the same topics (in another order), as a challenger.
	more := testEntry(rng, "bm25", []string{"ndcg_cut_10"}, 10)
	slices.Reverse(more.Topics)
	slices.Reverse(more.Scores[0])
	more.History[0] = Event{At: t0.Add(time.Hour), Action: Recorded, Role: Challenger, Label: "pr-1"}
	if _, err := s.Record(ctx, more); err != nil {
		t.Fatal(err)
	}
	got, err := s.Entry("bm25")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Measures, []string{"map", "ndcg_cut_10"}) || len(got.History) != 2 || !got.Stored.Equal(t0) || got.Label != e.Label {
		t.Errorf("merged entry: measures %v, %d events, stored %v, label %q", got.Measures, len(got.History), got.Stored, got.Label)
	}
	if v := got.Measure("ndcg_cut_10"); math.Float64bits(v[0]) != math.Float64bits(more.Scores[0][9]) {
		t.Errorf("merged scores not aligned by topic")
	}

	// Conflicts are refused and nothing is written, not even the other entries.
	before, _ = os.ReadFile(path)
	other := testEntry(rng, "other", []string{"map"}, 10)
	changed := testEntry(rng, "bm25", []string{"map"}, 10)
	otherQrels := testEntry(rng, "bm25", []string{"P_5"}, 10)
	otherQrels.Qrels.SHA256 = strings.Repeat("cd", 32)
	otherTopics := testEntry(rng, "bm25", []string{"P_5"}, 9)
	for _, c := range []struct {
		e    *Entry
		want string
	}{
		{changed, `stored with other "map" scores (topic "301"`},
		{otherQrels, "stored scored against qrels sha256:abababababab…; these scores are against sha256:cdcdcdcdcdcd…"},
		{otherTopics, "stored on a topic set of 10 topics"},
	} {
		_, err := s.Record(ctx, other, c.e)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("conflict: %v, want %q", err, c.want)
		}
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused record changed the stored entry")
	}
	if _, err := s.Entry("other"); !errors.Is(err, ErrNotStored) {
		t.Errorf("a refused record stored another entry: %v", err)
	}
}

func TestLineagePromoteRemove(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	rng := rand.New(rand.NewPCG(5, 29))
	champ := testEntry(rng, "bm25", []string{"map"}, 5)
	champ.History[0].Role = Champion
	chal := testEntry(rng, "new", []string{"map"}, 5)
	chal.History[0].Role = Challenger
	if _, err := s.Record(ctx, champ, chal); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Champion(); c != "bm25" || err != nil {
		t.Fatalf("the first champion recorded starts the lineage: %q %v", c, err)
	}
	if _, err := s.Promote(ctx, "bm25", t0, ""); err == nil || !strings.Contains(err.Error(), "the champion already") {
		t.Errorf("promote the champion: %v", err)
	}
	if _, err := s.Promote(ctx, "bm52", t0, ""); !errors.Is(err, ErrNotStored) || !strings.Contains(err.Error(), `did you mean "bm25"?`) {
		t.Errorf("promote a system not stored: %v", err)
	}
	prev, err := s.Promote(ctx, "new", t0.Add(time.Hour+time.Millisecond), "v2")
	if err != nil || prev != "bm25" {
		t.Fatalf("promote: %q %v", prev, err)
	}
	reigns, _ := s.Lineage()
	want := []Reign{{"bm25", t0, "v1.0"}, {"new", t0.Add(time.Hour), "v2"}}
	if fmt.Sprint(reigns) != fmt.Sprint(want) {
		t.Errorf("lineage %v, want %v", reigns, want)
	}
	// A champion recorded later does not change a lineage that has one.
	again := testEntry(rng, "third", []string{"map"}, 5)
	again.History[0].Role = Champion
	if _, err := s.Record(ctx, again); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Champion(); c != "new" {
		t.Errorf("champion %q after recording another as champion; want new", c)
	}
	if err := s.Remove(ctx, "third", "new"); err == nil || !strings.Contains(err.Error(), "current champion") {
		t.Errorf("remove the champion: %v", err)
	}
	if _, err := s.Entry("third"); err != nil {
		t.Error("a refused removal removed another system")
	}
	if err := s.Remove(ctx, "bm25", "third"); err != nil {
		t.Fatal(err)
	}
	entries, _ := s.Entries(ReadOptions{})
	if len(entries) != 1 || entries[0].System != "new" {
		t.Errorf("after removal: %d entries", len(entries))
	}
	if reigns, _ := s.Lineage(); len(reigns) != 2 {
		t.Error("removing a past champion changed the lineage")
	}
}

// A damaged entry is refused by default, skipped with its error when asked.
func TestEntriesRefuseOrSkipDamaged(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	rng := rand.New(rand.NewPCG(6, 29))
	for _, name := range []string{"a", "b", "c"} {
		if _, err := s.Record(ctx, testEntry(rng, name, []string{"map"}, 5)); err != nil {
			t.Fatal(err)
		}
	}
	b := s.EntryPath("b")
	data, _ := os.ReadFile(b)
	os.WriteFile(b, data[:len(data)-20], 0o644) // truncated
	// A copy under another name: refused too.
	cdata, _ := os.ReadFile(s.EntryPath("c"))
	copyPath := filepath.Join(s.Dir(), "systems", "c-copy.entry")
	os.WriteFile(copyPath, cdata, 0o644)
	// Not the pool's: ignored.
	os.WriteFile(filepath.Join(s.Dir(), "systems", ".c.entry.123.tmp"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(s.Dir(), "systems", "notes.txt"), []byte("x"), 0o644)

	_, err := s.Entries(ReadOptions{})
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.File != b || !strings.Contains(ie.Msg, "truncated") {
		t.Errorf("damaged entry: %v, want it named and refused", err)
	}
	var skipped []string
	entries, err := s.Entries(ReadOptions{Skip: func(err error) { skipped = append(skipped, err.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].System != "a" || entries[1].System != "c" {
		t.Errorf("%d entries read", len(entries))
	}
	if len(skipped) != 2 || !strings.HasPrefix(skipped[0], b+":") || !strings.Contains(skipped[1], "c-copy.entry:2: holds system \"c\"") {
		t.Errorf("skipped %q", skipped)
	}
	// Not a regular file under an entry's name: refused, never opened.
	os.Mkdir(filepath.Join(s.Dir(), "systems", "d.entry"), 0o755)
	os.Symlink(s.EntryPath("a"), filepath.Join(s.Dir(), "systems", "link.entry"))
	skipped = nil
	if entries, err = s.Entries(ReadOptions{Skip: func(err error) { skipped = append(skipped, err.Error()) }}); err != nil || len(entries) != 2 {
		t.Fatalf("%d entries, %v", len(entries), err)
	}
	if len(skipped) != 4 || !strings.Contains(skipped[2], "d.entry: not a regular file") || !strings.Contains(skipped[3], "link.entry: not a regular file") {
		t.Errorf("skipped %q", skipped)
	}
	os.Remove(filepath.Join(s.Dir(), "systems", "d.entry"))
	os.Remove(filepath.Join(s.Dir(), "systems", "link.entry"))

	// A damaged entry is not merged into, but can be removed.
	if _, err := s.Record(ctx, testEntry(rng, "b", []string{"map"}, 5)); err == nil || !strings.Contains(err.Error(), "remove it first") {
		t.Errorf("record into a damaged entry: %v", err)
	}
	if err := s.Remove(ctx, "b"); err != nil {
		t.Errorf("remove a damaged entry: %v", err)
	}
}

func TestRescore(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	rng := rand.New(rand.NewPCG(7, 29))
	e := testEntry(rng, "bm25", []string{"map", "P_5"}, 5)
	e.Run = &Run{Path: "runs/bm25.run", SHA256: strings.Repeat("12", 32)}
	if _, err := s.Record(ctx, e); err != nil {
		t.Fatal(err)
	}
	re := testEntry(rng, "bm25", []string{"P_5", "map"}, 4)
	re.Qrels = Qrels{SHA256: strings.Repeat("34", 32), Path: "qrels-v2.txt"}
	re.Run = e.Run
	n, err := s.Rescore(ctx, t0.Add(time.Hour), "qrels v2", re)
	if err != nil || n != 1 {
		t.Fatalf("rescore: %d %v", n, err)
	}
	got, _ := s.Entry("bm25")
	if got.Qrels != re.Qrels || len(got.Topics) != 4 || !slices.Equal(got.Measures, []string{"map", "P_5"}) ||
		math.Float64bits(got.Measure("map")[1]) != math.Float64bits(re.Measure("map")[1]) {
		t.Errorf("rescored entry %+v", got)
	}
	last := got.History[len(got.History)-1]
	if last.Action != Rescored || last.Qrels != e.Qrels.SHA256 || last.Label != "qrels v2" {
		t.Errorf("rescore event %+v", last)
	}
	if n, err := s.Rescore(ctx, t0.Add(2*time.Hour), "again", re); n != 0 || err != nil {
		t.Errorf("rescoring to the same scores: %d changed, %v", n, err)
	}
	other := *re
	other.Run = &Run{Path: "x", SHA256: strings.Repeat("56", 32)}
	if _, err := s.Rescore(ctx, t0, "", &other); err == nil {
		t.Error("rescore from another run accepted")
	}
	partial := testEntry(rng, "bm25", []string{"map"}, 4)
	partial.Run = e.Run
	if _, err := s.Rescore(ctx, t0, "", partial); err == nil || !strings.Contains(err.Error(), `"P_5" was not rescored`) {
		t.Errorf("rescore of some measures: %v", err)
	}
}

func TestPrune(t *testing.T) {
	t.Parallel()
	var entries []*Entry
	for i := range 6 {
		e := &Entry{System: fmt.Sprintf("s%d", i), Stored: t0.Add(time.Duration(i) * 24 * time.Hour), Label: fmt.Sprintf("exp-%d", i%2)}
		entries = append(entries, e)
	}
	now := t0.Add(6 * 24 * time.Hour)
	names := func(es []*Entry) string {
		var n []string
		for _, e := range es {
			n = append(n, e.System)
		}
		return strings.Join(n, " ")
	}
	for _, c := range []struct {
		rule PruneRule
		want string
	}{
		{PruneRule{Keep: 2}, "s0 s1 s3"}, // s2 is the champion: kept, not counted
		{PruneRule{OlderThan: 3*24*time.Hour + time.Second}, "s0 s1"},
		{PruneRule{Label: "exp-1"}, "s1 s3 s5"},
		{PruneRule{Keep: 2, Label: "exp-1"}, "s1 s3"},
		{PruneRule{Keep: 10}, ""},
	} {
		got, err := Prune(entries, "s2", c.rule, now)
		if err != nil || names(got) != c.want {
			t.Errorf("%+v: %q %v, want %q", c.rule, names(got), err, c.want)
		}
	}
	if _, err := Prune(entries, "", PruneRule{}, now); err == nil {
		t.Error("prune without a criterion")
	}
	if _, err := Prune(entries, "", PruneRule{Label: "["}, now); err == nil {
		t.Error("a bad pattern accepted")
	}
}

func TestPartition(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(8, 29))
	champ := testEntry(rng, "champ", []string{"map"}, 5)
	same := testEntry(rng, "same", []string{"map", "P_5"}, 5)
	qrels := testEntry(rng, "qrels", []string{"map"}, 5)
	qrels.Qrels.SHA256 = strings.Repeat("ef", 32)
	unknown := testEntry(rng, "unknown", []string{"map"}, 5)
	unknown.Qrels = Qrels{}
	topics := testEntry(rng, "topics", []string{"map"}, 6)
	measure := testEntry(rng, "measure", []string{"P_5"}, 5)
	ref := champ.Fingerprints()
	kept, out := Partition([]*Entry{champ, same, qrels, unknown, topics, measure}, Filter{Measures: []string{"map"}, Match: &ref, Exclude: []string{"champ"}})
	if len(kept) != 1 || kept[0].System != "same" {
		t.Errorf("kept %d", len(kept))
	}
	want := map[string]Reason{"champ": InInputs, "qrels": OtherQrels, "unknown": UnknownQrels, "topics": OtherTopics, "measure": NoMeasure}
	for _, x := range out {
		if want[x.System] != x.Reason {
			t.Errorf("%s: %s, want %s (%s)", x.System, x.Reason, want[x.System], x)
		}
		delete(want, x.System)
	}
	if len(want) > 0 {
		t.Errorf("not excluded: %v", want)
	}
	// Score files on both sides: the topic sets are compared, not the qrels.
	noQrels := Fingerprints{Topics: ref.Topics, NTopics: ref.NTopics}
	if kept, _ := Partition([]*Entry{unknown}, Filter{Match: &noQrels}); len(kept) != 1 {
		t.Error("qrels unknown on both sides: excluded")
	}
}
