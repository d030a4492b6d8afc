package trec

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// BenchmarkEvalAllTrec times the whole of "riskgate eval -q -c -m all_trec"
// on robust03/pircRBa1 (100,000 run lines, 128,796 qrels lines): reading
// both files, scoring and formatting. It reports run lines per second.
func BenchmarkEvalAllTrec(b *testing.B) {
	dir := shared.Path(b, "data/trec_eval/robust03")
	c, err := ParseCommandLine([]string{"-q", "-c", "-m", "all_trec",
		filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "runs", "pircRBa1.run")})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Execute(nil, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(100000*float64(b.N)/b.Elapsed().Seconds(), "runlines/s")
}

// BenchmarkReadRun times parsing alone (lines per second).
func BenchmarkReadRun(b *testing.B) {
	path := shared.Path(b, "data/trec_eval/robust03/runs/pircRBa1.run")
	b.ReportAllocs()
	var lines int
	for b.Loop() {
		r, err := ReadRunFile(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		lines = r.Lines
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkReadQrels times qrels parsing alone (lines per second).
func BenchmarkReadQrels(b *testing.B) {
	path := shared.Path(b, "data/trec_eval/robust03/qrels.txt")
	b.ReportAllocs()
	var lines int
	for b.Loop() {
		q, err := ReadQrelsFile(path)
		if err != nil {
			b.Fatal(err)
		}
		lines = q.NumJudgments()
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkEvaluate times scoring alone: every all_trec measure on
// pircRBa1's 100 topics, files already parsed.
func BenchmarkEvaluate(b *testing.B) {
	dir := shared.Path(b, "data/trec_eval/robust03")
	q, err := ReadQrelsFile(filepath.Join(dir, "qrels.txt"))
	if err != nil {
		b.Fatal(err)
	}
	run, err := ReadRunFile(filepath.Join(dir, "runs", "pircRBa1.run"), nil)
	if err != nil {
		b.Fatal(err)
	}
	ms, _ := ParseMeasures([]string{"all_trec"})
	opt := DefaultOptions()
	opt.Missing = MissingZero
	ev := NewEvaluator(q, ms, opt)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ev.Evaluate(run, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(run.Lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkMeasureNameOfAScoreFile spells a score file's own measure name,
// which is no trec_eval, ir_measures or NTCIREVAL measure: what the gate
// does for every rule it evaluates on such a file (policies.CanonicalMeasure).
func BenchmarkMeasureNameOfAScoreFile(b *testing.B) {
	for b.Loop() {
		if got := MeasureName("clicks_at_3"); got != "clicks_at_3" {
			b.Fatalf("MeasureName = %q", got)
		}
	}
}
