package scores

import "errors"

// Format names an input layout.
type Format string

// Input formats; Auto detects the format from each file's content.
const (
	Auto     Format = "auto"
	Run      Format = "run"       // TREC run files, scored against LoadOptions.Qrels
	TrecEval Format = "trec_eval" // trec_eval -q output (v9 or v10)
	CSVLong  Format = "csv-long"  // system,topic,score[,measure] with a header
	CSVWide  Format = "csv-wide"  // topic column, then one column per system
	JSONL    Format = "jsonl"     // {"system","topic","measure","score"} per line
)

// LoadOptions control Load.
type LoadOptions struct {
	Format  Format // Auto when empty
	Measure string // measure to select (or, for runs, to compute); "" = the only one present (map for runs)
	Qrels   string // qrels file; required for run files
}

// Load reads every path into one table. A "-" path reads standard input.
func Load(paths []string, opt LoadOptions) (*Table, error) {
	return nil, errors.New("loading score tables is not implemented yet")
}
