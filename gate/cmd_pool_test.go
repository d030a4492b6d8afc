package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/pool"
	"github.com/riskgate/riskgate/gate/scores"

	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// poolFixture writes, into a new folder, a qrels file of 12 topics, the
// same qrels with one judgment changed, four TREC runs and a CSV of scores,
// and returns the folder.
func poolFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(29, 1))
	var q strings.Builder
	for topic := 401; topic <= 412; topic++ {
		for d := range 30 {
			fmt.Fprintf(&q, "%d 0 doc%02d %d\n", topic, d, rng.IntN(3)/2)
		}
	}
	qrels := q.String()
	os.WriteFile(filepath.Join(dir, "qrels.txt"), []byte(qrels), 0o644)
	// One judgment changed: the first line's grade.
	changed := strings.Replace(qrels, "401 0 doc00 0\n", "401 0 doc00 1\n", 1)
	if changed == qrels {
		changed = strings.Replace(qrels, "401 0 doc00 1\n", "401 0 doc00 0\n", 1)
	}
	os.WriteFile(filepath.Join(dir, "qrels-v2.txt"), []byte(changed), 0o644)
	os.MkdirAll(filepath.Join(dir, "runs"), 0o755)
	for _, name := range []string{"bm25", "new-ranker", "art-1", "art-2"} {
		var r strings.Builder
		for topic := 401; topic <= 412; topic++ {
			for rank, d := range rng.Perm(30)[:15] {
				fmt.Fprintf(&r, "%d Q0 doc%02d %d %.3f %s\n", topic, d, rank+1, 20-float64(rank)+rng.Float64()/2, name)
			}
		}
		os.WriteFile(filepath.Join(dir, "runs", name+".run"), []byte(r.String()), 0o644)
	}
	var csv strings.Builder
	csv.WriteString("system,topic,score\n")
	for _, name := range []string{"csv-a", "csv-b"} {
		for topic := 401; topic <= 412; topic++ {
			fmt.Fprintf(&csv, "%s,%d,%s\n", name, topic, numfmt.G(rng.Float64()))
		}
	}
	os.WriteFile(filepath.Join(dir, "scores.csv"), []byte(csv.String()), 0o644)
	return dir
}

// The commands end to end: add from runs + qrels and from score files,
// list, show, promote, rescore, prune, rm; statuses and one-line errors.
func TestPoolCommands(t *testing.T) {
	dir := poolFixture(t)
	t.Chdir(dir)
	run := func(want int, args ...string) (string, string) {
		t.Helper()
		code, out, errw := runMain(t, args...)
		if code != want {
			t.Fatalf("riskgate %s: exit %d, want %d; stderr %q", strings.Join(args, " "), code, want, errw)
		}
		return out, errw
	}
	out, _ := run(0, "pool", "add", "--pool", "p", "--label", "v1", "--qrels", "qrels.txt", "runs/bm25.run", "runs/new-ranker.run", "runs/art-1.run")
	if !strings.HasPrefix(out, `p: added "bm25", "new-ranker", "art-1" ("map" on 12 topics; qrels sha256:`) {
		t.Errorf("add: %q", out)
	}
	out, _ = run(0, "pool", "add", "--pool", "p", "-m", "P.5", "--qrels", "qrels.txt", "runs/bm25.run", "runs/new-ranker.run", "runs/art-1.run")
	if !strings.HasPrefix(out, `p: extended "bm25", "new-ranker", "art-1" ("P_5" on 12 topics`) {
		t.Errorf("add a measure: %q", out)
	}
	out, _ = run(0, "pool", "add", "--pool", "p", "--keep-runs", "--qrels", "qrels-v2.txt", "runs/art-2.run")
	if !strings.Contains(out, `added "art-2"`) {
		t.Errorf("add, keeping the run: %q", out)
	}
	out, _ = run(0, "pool", "add", "--pool", "p", "--qrels", "qrels.txt", "scores.csv")
	if !strings.Contains(out, `added "csv-a", "csv-b" (scores of an unnamed measure on 12 topics; qrels sha256:`) {
		t.Errorf("add score files: %q", out)
	}
	run(0, "pool", "promote", "--pool", "p", "--label", "release 1", "bm25")
	out, _ = run(0, "pool", "promote", "--pool", "p", "new-ranker")
	if !strings.Contains(out, `"new-ranker" is the champion from`) || !strings.Contains(out, `"bm25" is an artifact from now on`) {
		t.Errorf("promote: %q", out)
	}

	// list as JSON: what was stored, and the fingerprints.
	out, _ = run(0, "pool", "list", "--pool", "p", "--format", "json")
	var list pool.ListView
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if list.Champion != "new-ranker" || len(list.Lineage) != 2 || list.Lineage[0].System != "bm25" || list.Lineage[0].To == "" {
		t.Errorf("lineage %+v", list.Lineage)
	}
	byName := map[string]pool.SystemView{}
	for _, s := range list.Systems {
		byName[s.System] = s
	}
	sum := func(path string) string {
		s, err := fileSHA256(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if s := byName["bm25"]; s.QrelsSHA256 != sum("qrels.txt") || !slices.Equal(s.Measures, []string{"map", "P_5"}) || s.Run == nil || s.Run.Path != "runs/bm25.run" || s.Run.SHA256 != sum("runs/bm25.run") {
		t.Errorf("bm25: %+v", s)
	}
	if s := byName["art-2"]; s.QrelsSHA256 != sum("qrels-v2.txt") || s.Run == nil || !s.Run.Kept || s.QrelsSHA256 == byName["bm25"].QrelsSHA256 {
		t.Errorf("art-2 (other qrels, kept run): %+v", s)
	}
	if s := byName["csv-a"]; s.Run != nil || s.QrelsSHA256 != sum("qrels.txt") || s.TopicsSHA256 != byName["bm25"].TopicsSHA256 {
		t.Errorf("csv-a: %+v", s)
	}

	// The stored scores are the loaded ones, bit for bit.
	for _, m := range []string{"map", "P.5"} {
		tab, err := scores.Load([]string{"runs/bm25.run", "runs/new-ranker.run", "runs/art-1.run"}, scores.LoadOptions{Qrels: "qrels.txt", Measures: []string{m}})
		if err != nil {
			t.Fatal(err)
		}
		store, _ := pool.Open("p")
		for s, name := range tab.Systems {
			e, err := store.Entry(name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := pool.Table([]*pool.Entry{e}, tab.Measure)
			if err != nil {
				t.Fatal(err)
			}
			for i, topic := range tab.Topics {
				if v := got.Scores[0][got.TopicIndex(topic)]; math.Float64bits(v) != math.Float64bits(tab.Scores[s][i]) {
					t.Errorf("%s %s on %s: stored %v, scored %v", name, m, topic, v, tab.Scores[s][i])
				}
			}
		}
	}

	// Conflicts and mistakes: one line each, status 2, nothing on stdout.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"pool", "add", "--pool", "p", "--qrels", "qrels-v2.txt", "runs/bm25.run"}, `system "bm25" is stored scored against qrels sha256:`},
		{[]string{"pool", "add", "--pool", "p", "--keep-runs", "scores.csv"}, "--keep-runs keeps TREC run inputs, and no input is a run"},
		{[]string{"pool", "add", "--pool", "p", "--qrels", "nope.txt", "scores.csv"}, "nope.txt: cannot open the qrels file named by --qrels"},
		{[]string{"pool", "add", "--pool", ".", "scores.csv"}, "holds files and is not a riskgate pool"},
		{[]string{"pool", "list", "--pool", "nope"}, "no pool at nope"},
		{[]string{"pool", "list", "--pool", "p", "--format", "csv"}, `--format "csv": expected table or json`},
		{[]string{"pool", "show", "--pool", "p", "bm52"}, `system "bm52" is not stored in the pool p; did you mean "bm25"?`},
		{[]string{"pool", "promote", "--pool", "p", "new-ranker"}, `"new-ranker" is the champion already`},
		{[]string{"pool", "rm", "--pool", "p", "new-ranker"}, "is the current champion"},
		{[]string{"pool", "prune", "--pool", "p"}, "prune needs a criterion"},
		{[]string{"pool", "prune", "--pool", "p", "--older-than", "soon"}, `--older-than "soon": expected a positive age`},
		{[]string{"pool", "rescore", "--pool", "p", "--qrels", "qrels.txt", "csv-a"}, `system "csv-a" was not stored from a run file`},
	} {
		code, out, errw := runMain(t, c.args...)
		checkOneLineError(t, code, out, errw, c.want)
	}
	code, _, errw := runMain(t, "pool", "list")
	if code != exitError || !strings.Contains(errw, "--pool") {
		t.Errorf("no --pool: exit %d, %q", code, errw)
	}

	// Rescore every run against the changed qrels: every stored measure
	// moves to the new fingerprint, equal to scoring the runs afresh.
	out, _ = run(0, "pool", "rescore", "--pool", "p", "--qrels", "qrels-v2.txt", "--label", "v2")
	if !strings.HasPrefix(out, "p: rescored 3 of 4 systems against qrels-v2.txt") {
		t.Errorf("rescore: %q", out)
	}
	store, _ := pool.Open("p")
	fresh, err := scores.Load([]string{"runs/bm25.run"}, scores.LoadOptions{Qrels: "qrels-v2.txt", Measures: []string{"P.5"}})
	if err != nil {
		t.Fatal(err)
	}
	bm25, _ := store.Entry("bm25")
	if bm25.Qrels.SHA256 != sum("qrels-v2.txt") || bm25.History[len(bm25.History)-1].Action != pool.Rescored {
		t.Errorf("bm25 after rescore: %+v", bm25)
	}
	for i, topic := range fresh.Topics {
		if v := bm25.Measure("P_5")[slices.Index(bm25.Topics, topic)]; math.Float64bits(v) != math.Float64bits(fresh.Scores[0][i]) {
			t.Errorf("rescored P_5 on %s: %v, want %v", topic, v, fresh.Scores[0][i])
		}
	}
	// A run changed since it was stored is refused, naming it.
	os.WriteFile("runs/art-1.run", []byte("401 Q0 doc01 1 9 art-1\n"), 0o644)
	code, out, errw = runMain(t, "pool", "rescore", "--pool", "p", "--qrels", "qrels.txt", "art-1")
	checkOneLineError(t, code, out, errw, `runs/art-1.run: the run changed since "art-1" was stored from it`)

	// Prune: a dry run, then applied; the champion is never selected.
	out, _ = run(0, "pool", "prune", "--pool", "p", "--keep", "1")
	if !strings.Contains(out, "would remove 4 of 6") || !strings.Contains(out, "--apply") {
		t.Errorf("prune dry run: %q", out)
	}
	out, _ = run(0, "pool", "prune", "--pool", "p", "--label", "v1", "--apply")
	if !strings.Contains(out, `removed 2 of 6: "art-1", "bm25"`) { // new-ranker, also v1, is the champion
		t.Errorf("prune --apply: %q", out)
	}
	run(0, "pool", "rm", "--pool", "p", "csv-a")
	out, _ = run(0, "pool", "list", "--pool", "p")
	if strings.Contains(out, "csv-a") || !strings.Contains(out, "lineage: bm25 → new-ranker") {
		t.Errorf("list after rm: %q", out)
	}

	// A damaged entry: refused, naming file:line; skipped with a warning when asked.
	entry := filepath.Join("p", "systems", pool.FileName("csv-b"))
	data, _ := os.ReadFile(entry)
	os.WriteFile(entry, bytes.Replace(data, []byte(`topic "405" `), []byte(`topic "405" 9`), 1), 0o644)
	code, out, errw = runMain(t, "pool", "list", "--pool", "p")
	checkOneLineError(t, code, out, errw, entry+":22: checksum mismatch")
	out, errw = run(0, "pool", "list", "--pool", "p", "--skip-damaged")
	if strings.Contains(out, "csv-b") || !strings.HasPrefix(errw, "riskgate: warning: "+entry+":22: checksum mismatch") {
		t.Errorf("--skip-damaged: stdout %q, stderr %q", out, errw)
	}
	run(0, "pool", "rm", "--pool", "p", "csv-b") // a damaged entry can be removed
	// A pool of another format version.
	os.WriteFile(filepath.Join("p", "format"), []byte("riskgate-pool 2\n"), 0o644)
	code, out, errw = runMain(t, "pool", "show", "--pool", "p", "art-2")
	checkOneLineError(t, code, out, errw, filepath.Join("p", "format")+":1: pool format version 2; this riskgate reads version 1")
}

// list and show print the same bytes for the same pool (goldens).
func TestPoolListShowGolden(t *testing.T) {
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	dir := poolFixture(t)
	t.Chdir(dir)
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { at = at.Add(time.Hour); return at }
	var out, errw bytes.Buffer
	s := &streams{Out: &out, Err: &errw}
	ctx := context.Background()
	in := &inputOptions{Paths: []string{"runs/bm25.run", "runs/new-ranker.run"}, Qrels: optional[string]{Value: "qrels.txt"}, Topics: optional[string]{Value: "intersect"}}
	if err := runPoolAdd(ctx, s, &poolAddOptions{Pool: "p", Input: in, Label: "v1", Now: clock}); err != nil {
		t.Fatal(err)
	}
	in = &inputOptions{Paths: []string{"runs/art-1.run"}, Qrels: optional[string]{Value: "qrels-v2.txt"}, Topics: optional[string]{Value: "intersect"}}
	if err := runPoolAdd(ctx, s, &poolAddOptions{Pool: "p", Input: in, Label: "exp \"7\"", KeepRuns: true, Now: clock}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"bm25", "new-ranker"} {
		if err := runPoolPromote(ctx, s, &poolPromoteOptions{Pool: "p", System: name, Label: "r-" + name, Now: clock}); err != nil {
			t.Fatal(err)
		}
	}
	out.Reset()
	for _, f := range []string{"table", "json"} {
		if err := runPoolList(s, &poolListOptions{Pool: "p", Format: f}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"bm25", "art-1"} {
		if err := runPoolShow(s, &poolShowOptions{Pool: "p", System: name, Format: "table"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := runPoolShow(s, &poolShowOptions{Pool: "p", System: "bm25", Format: "json"}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join(testdata, "pool", "list_show.golden"), out.Bytes())
	// The entry files themselves: the format as docs/pool.md shows it.
	data, err := os.ReadFile(filepath.Join("p", "systems", pool.FileName("bm25")))
	if err != nil {
		t.Fatal(err)
	}
	lineage, _ := os.ReadFile(filepath.Join("p", "lineage"))
	golden.Check(t, filepath.Join(testdata, "pool", "bm25.entry.golden"), append(append(data, '\n'), lineage...))
}

// Two riskgate pool add commands at once into one pool, 20 times: both
// systems stored, nothing damaged.
func TestPoolAddConcurrent(t *testing.T) {
	t.Parallel()
	dir := poolFixture(t)
	for rep := range 20 {
		p := filepath.Join(t.TempDir(), "pool")
		var wg sync.WaitGroup
		codes := make([]int, 2)
		errs := make([]string, 2)
		for w, name := range []string{"bm25", "new-ranker"} {
			wg.Go(func() {
				codes[w], _, errs[w] = runMain(t, "pool", "add", "--pool", p, "--qrels", filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "runs", name+".run"))
			})
		}
		wg.Wait()
		if codes[0] != 0 || codes[1] != 0 {
			t.Fatalf("repetition %d: exit %v: %q", rep, codes, errs)
		}
		store, err := pool.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		entries, err := store.Entries(pool.ReadOptions{})
		if err != nil || len(entries) != 2 {
			t.Fatalf("repetition %d: %d entries, %v", rep, len(entries), err)
		}
	}
}

// Names that start workflow commands or reorder text reach no line start of
// any pool command's output, and show as ⟨U+202E⟩ on the terminal.
func TestPoolInjection(t *testing.T) {
	t.Parallel()
	name := "::stop-commands::x\u202eevil"
	in := writeTemp(t, "inj.csv", "system,topic,score\nprod,t1,0.3\n\""+name+"\",t1,0.5\n")
	p := filepath.Join(t.TempDir(), "pool")
	var all strings.Builder
	for _, args := range [][]string{
		{"pool", "add", "--pool", p, "--label", "::warning::label", in},
		{"pool", "list", "--pool", p},
		{"pool", "list", "--pool", p, "--format", "json"},
		{"pool", "show", "--pool", p, name},
		{"pool", "show", "--pool", p, "--format", "json", name},
		{"pool", "promote", "--pool", p, name},
		{"pool", "rm", "--pool", p, name},
		{"pool", "show", "--pool", p, "::error::" + name},
	} {
		_, out, errw := runMain(t, args...)
		noCommandLines(t, strings.Join(args, " "), out+errw)
		all.WriteString(out)
	}
	if !strings.Contains(all.String(), "⟨U+202E⟩") {
		t.Error("the bidirectional override is not shown on the terminal")
	}
}
