package pool

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/scores"
)

// writeRuns writes a qrels file and n TREC runs over 10 topics into dir,
// and returns their paths.
func writeRuns(t *testing.T, dir string, n int) (qrels string, runs []string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(10, 29))
	var q strings.Builder
	for topic := 1; topic <= 10; topic++ {
		for d := range 20 {
			fmt.Fprintf(&q, "%d 0 d%02d %d\n", topic, d, rng.IntN(2))
		}
	}
	qrels = filepath.Join(dir, "qrels.txt")
	os.WriteFile(qrels, []byte(q.String()), 0o644)
	for s := range n {
		var r strings.Builder
		for topic := 1; topic <= 10; topic++ {
			for rank, d := range rng.Perm(20)[:10] {
				fmt.Fprintf(&r, "%d Q0 d%02d %d %d sys%d\n", topic, d, rank+1, 100-rank, s)
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("sys%d.run", s))
		os.WriteFile(p, []byte(r.String()), 0o644)
		runs = append(runs, p)
	}
	return qrels, runs
}

// entriesFromRuns scores runs against qrels as riskgate pool add does and
// returns an entry per system, with the qrels fingerprint the loader read.
func entriesFromRuns(t *testing.T, qrels string, runs []string) []*Entry {
	t.Helper()
	set, _, sources, err := scores.LoadSources(runs, scores.LoadOptions{Qrels: qrels, Measures: []string{"map"}})
	if err != nil {
		t.Fatal(err)
	}
	tab := set.Tables[0]
	var q Qrels
	for _, src := range sources {
		if src.Role == scores.RoleQrels {
			q = Qrels{SHA256: src.SHA256, Path: src.Path}
		}
	}
	var out []*Entry
	for _, src := range sources {
		if src.Run == "" {
			continue
		}
		e, err := NewEntry(tab, src.Run, Recording{At: t0, Role: Artifact, Qrels: q, Run: &Run{Path: src.Path, SHA256: src.SHA256}})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// An artifact scored against a qrels file with one judgment changed has
// another qrels fingerprint, and is partitioned out with its name and why.
func TestOneJudgmentChangedIsExcluded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	qrels, runs := writeRuns(t, dir, 3)
	data, _ := os.ReadFile(qrels)
	lines := strings.SplitAfter(string(data), "\n")
	last := lines[5][len(lines[5])-2 : len(lines[5])-1] // the 6th judgment's grade, flipped
	flipped := map[string]string{"0": "1", "1": "0"}[last]
	lines[5] = lines[5][:len(lines[5])-2] + flipped + "\n"
	changed := filepath.Join(dir, "qrels-changed.txt")
	os.WriteFile(changed, []byte(strings.Join(lines, "")), 0o644)

	now := entriesFromRuns(t, qrels, runs[:2])   // the champion and a current artifact
	old := entriesFromRuns(t, changed, runs[2:]) // an artifact scored against the changed qrels
	if now[0].Qrels.SHA256 == old[0].Qrels.SHA256 {
		t.Fatal("one judgment changed, the same qrels fingerprint")
	}
	if now[0].Fingerprints().Topics != old[0].Fingerprints().Topics {
		t.Fatal("the topic sets should agree: only a judgment changed")
	}
	ref := now[0].Fingerprints()
	kept, out := Partition(append(now[1:], old...), Filter{Measures: []string{"map"}, Match: &ref})
	if len(kept) != 1 || kept[0].System != "sys1" {
		t.Fatalf("kept %v", kept)
	}
	if len(out) != 1 || out[0].System != "sys2" || out[0].Reason != OtherQrels || !strings.Contains(out[0].String(), `"sys2" (scored against other qrels: sha256:`) {
		t.Errorf("excluded %v", out)
	}
	// The run's own fingerprint is kept for rescoring.
	if old[0].Run == nil || old[0].Run.Path != runs[2] {
		t.Errorf("run %+v", old[0].Run)
	}
}
