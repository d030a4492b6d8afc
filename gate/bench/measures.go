package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/discriminate"
)

// The figures of issue 27: riskgate discriminate at rb04's size with
// Sakai's bootstrap, and eval of every NTCIREVAL measure beside eval of
// every trec_eval one on robust03's pircRBa1.

const (
	benchDiscriminateMeasures = 6
	benchDiscriminateB        = 1000 // Sakai's B (SIGIR 2006)
)

// benchMeasureCases are the discriminate and NTCIREVAL figures.
func benchMeasureCases(cfg Config) []Case {
	return []Case{
		{ID: "discriminate-45x50x6",
			What: fmt.Sprintf("riskgate discriminate: Sakai's paired bootstrap test, B = %s, every pair of 45 systems (990) on each of %d measures, with the differences required and Kendall's τ",
				"1,000", benchDiscriminateMeasures),
			Data: fmt.Sprintf("%d simulated 45 systems × 50 topics pools (rb04's size), one per measure", benchDiscriminateMeasures),
			prepare: func() (*Work, error) {
				inputs := benchDiscriminateInputs()
				return &Work{run: func() (Outcome, error) {
					_, err := discriminate.Build(inputs, discriminate.Options{Test: discriminate.TestBootstrap, Alpha: 0.05, B: benchDiscriminateB, Seed: 1})
					return Outcome{}, err
				}}, nil
			}},
		{ID: "eval-ntcir-robust03",
			What: "riskgate eval -q -c -m ntcir (every NTCIREVAL measure, cutoff 1000) as a process, paired with riskgate eval " + joinArgs(evalRefArgs),
			Data: "TREC 2003 Robust: pircRBa1.run (100,000 lines), qrels 128,796 lines, from ../shared/data/trec_eval/robust03",
			prepare: func() (*Work, error) {
				root := sharedRoot()
				if root == "" {
					return nil, skipf("../shared is absent (set RISKGATE_SHARED)")
				}
				dir := filepath.Join(root, "data", "trec_eval", "robust03")
				qrels, run := filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "runs", "pircRBa1.run")
				if _, err := os.Stat(run); err != nil {
					return nil, skipf("%s is absent", run)
				}
				return cfg.evalNTCIRWork(qrels, run, 100_000), nil
			}},
	}
}

// benchDiscriminateInputs are the measures of the discriminate figure: one
// pool each, drawn as the fit figures' (benchPool's model) from its own
// streams, over the same systems and topics.
func benchDiscriminateInputs() []discriminate.Input {
	var out []discriminate.Input
	for k := range benchDiscriminateMeasures {
		h := bayes.NewHierParams(rand1(uint64(100+2*k)), 0.3, 0.1, 0.2, 0.02, 45, 50)
		t, err := h.Scores(rand1(uint64(101+2*k)), plainNames("s", 45), plainNames("t", 50), bayes.ScoreOptions{})
		if err != nil {
			panic("gate: bench pool: " + err.Error()) // names match the sizes: cannot happen
		}
		out = append(out, discriminate.Input{Measure: fmt.Sprintf("m%d", k+1), Systems: t.Systems, Topics: t.Topics, Scores: t.Scores})
	}
	return out
}

// evalNTCIRWork times riskgate eval of NTCIREVAL's measures, each run paired
// with riskgate eval of trec_eval's all_trec on the same files.
func (cfg Config) evalNTCIRWork(qrels, run string, lines float64) *Work {
	ours := cfg.riskgateEval([]string{"-q", "-c", "-m", "ntcir", qrels, run})
	allTrec := cfg.riskgateEval(append(append([]string{}, evalRefArgs...), qrels, run))
	pair := 0
	return &Work{run: func() (Outcome, error) {
		var o, ref Outcome
		var err1, err2 error
		if pair%2 == 0 {
			o, err1 = ours(io.Discard)
			ref, err2 = allTrec(io.Discard)
		} else {
			ref, err2 = allTrec(io.Discard)
			o, err1 = ours(io.Discard)
		}
		pair++
		if err := errors.Join(err1, err2); err != nil {
			return Outcome{}, err
		}
		o.Lines = lines
		o.Reference = &RefTiming{Program: "riskgate eval " + joinArgs(evalRefArgs), Seconds: ref.Seconds, CPUSeconds: ref.CPUSeconds}
		return o, nil
	}}
}
