package pool

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// benchEntry is an entry of realistic scores (uniform in [0, 1), as an IR
// measure's; testEntry's hard cases take strconv's slow paths).
func benchEntry(rng *rand.Rand, system string, measures []string, nTopics int) *Entry {
	e := testEntry(rng, system, measures, nTopics)
	for _, row := range e.Scores {
		for t := range row {
			row[t] = rng.Float64()
		}
	}
	return e
}

// benchPool writes a pool the size of rb04's (45 systems × 250 topics), with
// three measures per system.
func benchPool(b *testing.B) (*Store, []*Entry) {
	b.Helper()
	s, err := Create(ctx, filepath.Join(b.TempDir(), "pool"))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(12, 29))
	var entries []*Entry
	for i := range 45 {
		entries = append(entries, benchEntry(rng, fmt.Sprintf("system-%02d", i), []string{"map", "ndcg_cut_10", "P_10"}, 250))
	}
	if _, err := s.Record(ctx, entries...); err != nil {
		b.Fatal(err)
	}
	return s, entries
}

// Reading a 45 × 250 × 3 pool whole: what a gate with --pool pays.
func BenchmarkEntries(b *testing.B) {
	s, _ := benchPool(b)
	for b.Loop() {
		if _, err := s.Entries(ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// Reading it, partitioning by fingerprints and making the artifacts' table.
func BenchmarkArtifactsTable(b *testing.B) {
	s, entries := benchPool(b)
	ref := entries[0].Fingerprints()
	for b.Loop() {
		arts, _, err := s.Artifacts(Filter{Measures: []string{"map"}, Match: &ref, Exclude: []string{entries[0].System}}, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Table(arts, "map"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeEntry(b *testing.B) {
	e := benchEntry(rand.New(rand.NewPCG(13, 29)), "bm25", []string{"map", "ndcg_cut_10", "P_10"}, 250)
	for b.Loop() {
		if _, err := e.encode(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeEntry(b *testing.B) {
	e := benchEntry(rand.New(rand.NewPCG(13, 29)), "bm25", []string{"map", "ndcg_cut_10", "P_10"}, 250)
	data, _ := e.encode()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodeEntry("x", data); err != nil {
			b.Fatal(err)
		}
	}
}

// Recording two systems (a gate's champion, merged, and a challenger, new)
// into the 45-system pool: the lock, two reads, two atomic writes.
func BenchmarkRecord(b *testing.B) {
	s, entries := benchPool(b)
	rng := rand.New(rand.NewPCG(14, 29))
	n := 0
	for b.Loop() {
		champ := *entries[0]
		champ.History = []Event{{At: t0.Add(time.Duration(n) * time.Second), Action: Recorded, Role: Champion, Label: fmt.Sprint(n)}}
		chal := benchEntry(rng, fmt.Sprintf("challenger-%d", n), []string{"map"}, 250)
		if _, err := s.Record(ctx, &champ, chal); err != nil {
			b.Fatal(err)
		}
		n++
	}
}
