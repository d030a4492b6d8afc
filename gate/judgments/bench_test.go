package judgments

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/shared"
)

// benchPool is robust03's pircRBa1 (1,000 documents per topic) and
// NLPR03vb10 ranked against the qrels without pircRBa1's top-100 pool, as
// in the experiment: 493 of pircRBa1's top-10 documents unjudged.
func benchPool(b *testing.B) (*trec.Qrels, []System) {
	b.Helper()
	dir := shared.Path(b, "data/trec_eval/robust03")
	q, err := trec.ReadQrelsFile(filepath.Join(dir, "qrels.txt"))
	if err != nil {
		b.Fatal(err)
	}
	var runs []*trec.Run
	for _, name := range []string{"pircRBa1", "NLPR03vb10", "rutcor03100"} {
		run, err := trec.ReadRunFile(filepath.Join(dir, "runs", name+".run"), nil)
		if err != nil {
			b.Fatal(err)
		}
		runs = append(runs, run)
	}
	full, err := RankRuns(runs, q, trec.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	pool := map[[2]string]bool{}
	for _, s := range full[1:] {
		for _, tl := range s.Topics {
			for _, d := range tl.Docs[:min(100, len(tl.Docs))] {
				pool[[2]string{tl.Topic, d}] = true
			}
		}
	}
	var text strings.Builder
	for _, j := range q.Judgments() {
		if pool[[2]string{j.Topic, j.Doc}] {
			fmt.Fprintf(&text, "%s 0 %s %d\n", j.Topic, j.Doc, j.Level)
		}
	}
	restricted, err := trec.ReadQrels(strings.NewReader(text.String()), "restricted")
	if err != nil {
		b.Fatal(err)
	}
	systems, err := RankRuns(runs[:2], restricted, trec.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	return restricted, systems
}

// BenchmarkScoreVariants: two systems × 100 topics under the three
// variants; ndcg_cut.10 (depth 10) and map (the whole ranking: every
// unjudged document of both runs becomes relevant in the optimistic qrels).
func BenchmarkScoreVariants(b *testing.B) {
	q, systems := benchPool(b)
	for _, measure := range []string{"ndcg_cut.10", "map"} {
		b.Run(measure, func(b *testing.B) {
			for b.Loop() {
				if _, err := ScoreVariants(systems, q, measure, trec.DefaultOptions()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildWorklist: the weight of every unjudged document within the
// depth, two scorings each; ndcg_cut.10 (509 documents) and map (every
// unjudged document of the two rankings).
func BenchmarkBuildWorklist(b *testing.B) {
	q, systems := benchPool(b)
	for _, measure := range []string{"ndcg_cut.10", "map"} {
		b.Run(measure, func(b *testing.B) {
			for b.Loop() {
				if _, err := BuildWorklist(systems, q, measure, trec.DefaultOptions(), 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReadTSV: a filled-in worklist of 100,000 lines.
func BenchmarkReadTSV(b *testing.B) {
	var text bytes.Buffer
	text.WriteString(Header + "\n")
	for i := range 100_000 {
		fmt.Fprintf(&text, "%d\tDOC-%07d\t%d\t0.1234\tA,B\t1,7\n", 300+i%100, i, i%3)
	}
	b.SetBytes(int64(text.Len()))
	for b.Loop() {
		if _, err := ReadTSV(bytes.NewReader(text.Bytes()), "w.tsv"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewCoverage: judged@10 of 100 topics of 1,000 documents.
func BenchmarkNewCoverage(b *testing.B) {
	_, systems := benchPool(b)
	for b.Loop() {
		NewCoverage(systems[0], 10)
	}
}
