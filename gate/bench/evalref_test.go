package bench

import (
	"context"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// TestEvalRefRobust03 runs the eval-robust03 figure once: riskgate eval
// (in this process, as in the Go benchmarks) paired with trec_eval built
// from ../shared/tools/trec_eval. Reference: trec_eval's output, which must
// be riskgate's byte for byte before anything is timed.
func TestEvalRefRobust03(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trec_eval; skipped with -short")
	}
	shared.Path(t, "data/trec_eval/robust03/runs/pircRBa1.run")
	shared.Path(t, "tools/trec_eval")
	rep, err := Run(context.Background(), Config{Count: 2, Only: regexp.MustCompile("^eval-robust03$")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 1 {
		t.Fatalf("%d rows; want eval-robust03 alone", len(rep.Rows))
	}
	r := rep.Rows[0]
	q := r.Reference
	if q == nil {
		t.Fatalf("%+v: no trec_eval timing (%s)", r, r.Note)
	}
	if !q.Identical || !(q.Seconds > 0) || !(q.CPUSeconds > 0) || !(q.Speedup > 0) || !(r.Seconds > 0) || r.Runs != 2 {
		t.Errorf("%+v, reference %+v: want identical output, positive times and a speedup over 2 pairs", r, *q)
	}
	if r.Rate == nil || math.Abs(float64(*r.Rate)-100_000/float64(r.Seconds)) > 1e-6*float64(*r.Rate) {
		t.Errorf("rate %v: want 100,000 lines / %v s", r.Rate, r.Seconds)
	}
	if !strings.Contains(benchRowNote(r), "the same output, byte for byte") {
		t.Errorf("note %q does not say the outputs are identical", benchRowNote(r))
	}
}

// TestEvalRefWithoutShared: without ../shared the robust03 figure is not
// run and says why, and the simulated one is timed without a ratio.
func TestEvalRefWithoutShared(t *testing.T) {
	t.Setenv("RISKGATE_SHARED", t.TempDir()+"/absent")
	cases := Cases(Config{Count: 1})
	var robust *Case
	for i := range cases {
		if cases[i].ID == "eval-robust03" {
			robust = &cases[i]
		}
	}
	if robust == nil {
		t.Fatal("no eval-robust03 figure")
	}
	row, err := runBenchCase(*robust, 1)
	if err != nil || !strings.HasPrefix(row.Note, "not run: ../shared is absent") || row.Seconds == row.Seconds {
		t.Errorf("row %+v, %v: want a figure not run, saying ../shared is absent", row, err)
	}
	tools := &refTools{}
	if p, why := tools.trecEval(); p != "" || !strings.Contains(why, "--trec-eval") {
		t.Errorf("trec_eval %q (%q): want none, and how to give one", p, why)
	}
}
