package scores

import "errors"

// loadRuns scores TREC run files against the qrels file with the named
// trec_eval measure and adds one system per run to b (the system name is the
// run_id of the run's last line, else the file name).
func loadRuns(b *Builder, paths []string, qrels, measure string) error {
	return errors.New("scoring TREC runs is not implemented yet")
}
