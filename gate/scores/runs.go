package scores

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/inputerr"
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
	ev := trec.NewEvaluator(q, ms, opt)
	seen := map[string]string{} // system name → file
	for _, path := range paths {
		run, err := trec.ReadRunFile(path, os.Stdin)
		if err != nil {
			return err
		}
		system := run.RunID
		if system == "" {
			system = filepath.Base(path)
		}
		if other, dup := seen[system]; dup {
			return inputerr.At(path, 0, "run name %q is also the name of %s; expected distinct run_id fields", system, other)
		}
		seen[system] = path
		_, err = ev.Evaluate(run, func(tr *trec.TopicResult) error {
			v, _ := tr.Value(ms, measure)
			return b.Add(system, tr.Topic, v, path, tr.Line)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
