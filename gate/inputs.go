package gate

import (
	"fmt"
	"io"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/urfave/cli/v3"
)

// InputOptions are the flags every command that reads a score table shares.
type InputOptions struct {
	Paths   []string // positional INPUT arguments
	Format  string
	Qrels   string
	Measure string
	Topics  string
}

// Flags returns the shared input flags bound to o.
func (o *InputOptions) Flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: string(scores.Auto), Destination: &o.Format,
			Usage: "input format: auto, run, trec_eval, csv-long, csv-wide, jsonl"},
		&cli.StringFlag{Name: "qrels", Destination: &o.Qrels, Usage: "qrels `FILE` for TREC run inputs"},
		&cli.StringFlag{Name: "measure", Destination: &o.Measure,
			Usage: "measure to use (trec_eval name, e.g. map, ndcg_cut_10); needed when inputs hold several"},
		&cli.StringFlag{Name: "topics", Value: string(scores.Intersect), Destination: &o.Topics,
			Usage: "topics not scored for every system: intersect (drop them), zero (score 0, like trec_eval -c), error, keep (leave missing)"},
	}
}

// Load reads the inputs into an aligned table and notes on w what alignment
// changed (dropped or filled topics and systems).
func (o *InputOptions) Load(w io.Writer) (*scores.Table, scores.Alignment, error) {
	if len(o.Paths) == 0 {
		return nil, scores.Alignment{}, fmt.Errorf("no INPUT given: name score files (CSV, JSON Lines, trec_eval -q output) or TREC runs with --qrels")
	}
	mode, err := scores.ParseTopicMode(o.Topics)
	if err != nil {
		return nil, scores.Alignment{}, err
	}
	raw, err := scores.Load(o.Paths, scores.LoadOptions{Format: scores.Format(o.Format), Measure: o.Measure, Qrels: o.Qrels})
	if err != nil {
		return nil, scores.Alignment{}, err
	}
	t, a, err := raw.Align(mode)
	if err != nil {
		return nil, a, err
	}
	if msg := a.Summary(); msg != "" && w != nil {
		fmt.Fprintf(w, "riskgate: note: %s\n", msg)
	}
	return t, a, nil
}
