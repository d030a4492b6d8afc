package scores

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/parallel"
)

// loadRuns scores TREC run files against the qrels file with the named
// trec_eval measure (its printed name: map, P_10, ndcg_cut_10, …; "" is map)
// and adds one system per run to b. Scoring is trec_eval's with its default
// relevance level 1 and without -c: each qrels topic the run retrieved
// documents for gets a cell (file:line of the topic's first run line); run
// topics not in the qrels are ignored, and qrels topics the run lacks are
// left missing for the table's alignment (--topics zero reproduces -c).
// The system name is the run_id of the run's last line (trec_eval's runid),
// else the file name; two runs with the same name are an error.
func loadRuns(b *Builder, paths []string, qrels, measure string) error {
	if qrels == "" {
		return fmt.Errorf("TREC run inputs need a qrels file (--qrels)")
	}
	ms, err := trec.MeasureForName(measure)
	if err != nil {
		return err
	}
	if measure == "" {
		measure = "map"
	}
	q, err := trec.ReadQrelsFile(qrels)
	if err != nil {
		return err
	}
	opt := trec.DefaultOptions()
	opt.Missing = trec.MissingSkip
	// Runs are read and scored in parallel (as riskgate eval does) and added
	// to the table in argument order, so the table does not depend on it.
	type scored struct {
		system string
		cells  []runCell
		err    error
	}
	score := func(i int) scored {
		path := paths[i]
		run, err := trec.ReadRunFile(path, os.Stdin)
		if err != nil {
			return scored{err: err}
		}
		r := scored{system: run.RunID}
		if r.system == "" {
			r.system = filepath.Base(path)
		}
		_, r.err = trec.NewEvaluator(q, ms, opt).Evaluate(run, func(tr *trec.TopicResult) error {
			v, _ := tr.Value(ms, measure)
			r.cells = append(r.cells, runCell{tr.Topic, v, tr.Line})
			return nil
		})
		return r
	}
	seen := map[string]string{} // system name → file
	return parallel.InOrder(len(paths), runWorkers(), score, func(i int, r scored) error {
		path := paths[i]
		if other, dup := seen[r.system]; dup && r.system != "" {
			return inputerr.At(path, 0, "run name %q is also the name of %s; expected distinct run_id fields", r.system, other)
		}
		seen[r.system] = path
		// Cells scored before an error are added first, as when runs were
		// scored one after another.
		for _, c := range r.cells {
			if err := b.Add(r.system, c.topic, c.value, path, c.line); err != nil {
				return err
			}
		}
		return r.err
	})
}

// runCell is one topic's score of a run, with the line it starts at.
type runCell struct {
	topic string
	value float64
	line  int
}

// runWorkers is how many runs are read and scored at once: one per core, at
// most 4, which bounds memory to four parsed runs (riskgate eval's bound).
func runWorkers() int { return min(runtime.GOMAXPROCS(0), 4) }
