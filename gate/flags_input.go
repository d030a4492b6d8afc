package gate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/judgments"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// inputOptions are the flags every command that reads a score table shares.
// The input format is --input-format because --format names the output format
// in every command.
type inputOptions struct {
	Paths []string // positional INPUT arguments; "-" reads Stdin
	// The input flags; a policy's inputs fill in those not given (fromPolicy).
	Format optional[string]
	Qrels  optional[string]
	// Measures are the measures wanted (--measure, repeatable); a command
	// of one measure takes at most one.
	Measures optional[[]string]
	// OptionalMeasures are read besides Measures where the inputs hold them
	// (scores.LoadOptions.OptionalMeasures).
	OptionalMeasures []string
	// UnnamedMeasure names the measure of inputs that name none.
	UnnamedMeasure optional[string]
	// LowerIsBetter names the measures whose lower values are better.
	LowerIsBetter []string
	// SystemPerFile names the system of a file that names none after the file.
	SystemPerFile bool
	Topics        optional[string]
	// Trec are trec_eval's scoring switches for TREC run inputs.
	Trec trecOptions
	// QrelsFrom says where Qrels was given when not by --qrels (a policy's
	// "policy.yaml:7:3 inputs.qrels"), for the loader's messages.
	QrelsFrom string
	// Stdin is read for the path "-". Commands set it from their streams
	// (newInputOptions does); nil falls back to the process's standard input.
	Stdin io.Reader
	// KeepRankings keeps the runs' rankings in the Set loaded
	// (scores.LoadOptions.KeepRankings): the gate's needs-judgments step.
	KeepRankings bool
	// MaxMemory, when positive, is the memory loading may take (--max-memory
	// of gate and calibrate; scores.LoadOptions.MaxMemory).
	MaxMemory float64
}

// newInputOptions returns input options that read "-" from the command's streams.
func newInputOptions(s *streams) *inputOptions {
	o := &inputOptions{}
	if s != nil {
		o.Stdin = s.In
	}
	return o
}

// Flags returns the shared input flags bound to o.
func (o *inputOptions) flags() []cli.Flag {
	formats := make([]string, len(scores.Formats))
	for i, f := range scores.Formats {
		formats[i] = string(f)
	}
	modes := make([]string, len(scores.TopicModes))
	for i, m := range scores.TopicModes {
		modes[i] = string(m)
	}
	return append([]cli.Flag{
		&cli.StringFlag{Name: "input-format", Value: string(scores.Auto), Destination: &o.Format.Value, Action: o.Format.given,
			Usage: "input `FORMAT`: " + strings.Join(formats, ", ") + " (auto detects each file's format from its content)"},
		&cli.StringFlag{Name: "qrels", Destination: &o.Qrels.Value, Action: o.Qrels.given, Usage: "qrels `FILE` to score TREC run inputs against"},
		&cli.StringSliceFlag{Name: "measure", Aliases: []string{"m"}, Destination: &o.Measures.Value, Action: o.Measures.given,
			Usage: "`MEASURE` to use, as trec_eval names it (map, P.10, ndcg_cut.10, ndcg_cut_10), as ir_measures does (nDCG@10, AP) or NTCIREVAL (Q, P+, nERR@10; riskgate help measures); needed when an input holds several; runs default to map"},
		&cli.StringFlag{Name: "unnamed-measure", Destination: &o.UnnamedMeasure.Value, Action: o.UnnamedMeasure.given,
			Usage: "the `MEASURE` of inputs that name none (a system,topic,score CSV, a CSV of one column per system), so that --measure can select it"},
		&cli.StringSliceFlag{Name: "lower-is-better", Destination: &o.LowerIsBetter,
			Usage: "`MEASURE` whose lower values are better (latency, cost, an error rate); repeatable"},
		&cli.BoolFlag{Name: "system-per-file", Destination: &o.SystemPerFile,
			Usage: "name the system of each input that names none (a CSV without a system column, ir_measures -q output) after its file"},
		&cli.StringFlag{Name: "topics", Value: string(scores.Intersect), Destination: &o.Topics.Value, Action: o.Topics.given,
			Usage: "`MODE` for topics not scored for every system: intersect (drop them), zero (score 0, like trec_eval -c), error, keep (leave missing)"},
	}, o.Trec.flags()...)
}

// trecOptions are trec_eval's switches for scoring TREC runs against qrels,
// with riskgate eval's letters and long names and its meaning (trec.Options);
// unlike eval, which reads numbers with C's atol as trec_eval does, a value
// that is not an integer is refused.
type trecOptions struct {
	RelLevel   optional[int64] // -l, --level_for_rel
	JudgedOnly optional[bool]  // -J, --Judged_docs_only
	MaxDocs    optional[int64] // -M, --Max_retrieved_per_topic
	// Judgments are filled-in worklists (judgments-needed.tsv) whose labels
	// are merged into the qrels, in order, a later one's label overriding.
	Judgments []string
}

func (o *trecOptions) flags() []cli.Flag {
	return []cli.Flag{
		&cli.Int64Flag{Name: "level_for_rel", Aliases: []string{"l"}, Value: 1, Destination: &o.RelLevel.Value, Action: o.RelLevel.given,
			Usage: "TREC runs: the lowest relevance `LEVEL` of the qrels that counts as relevant (trec_eval -l; NTCIREVAL's measures count every level ≥ 1)"},
		&cli.BoolFlag{Name: "Judged_docs_only", Aliases: []string{"J"}, Destination: &o.JudgedOnly.Value, Action: o.JudgedOnly.given,
			Usage: "TREC runs: drop the documents the qrels do not judge from each ranking (after -M) before scoring: condensed lists (trec_eval -J)"},
		&cli.Int64Flag{Name: "Max_retrieved_per_topic", Aliases: []string{"M"}, HideDefault: true, Destination: &o.MaxDocs.Value, Action: o.MaxDocs.given,
			Usage: "TREC runs: score only the top `N` documents of each topic, after sorting (trec_eval -M; default every one)"},
		&cli.StringSliceFlag{Name: "judgments", Destination: &o.Judgments,
			Usage: "TREC runs: a filled-in worklist `FILE` (the gate's judgments-needed.tsv) whose labels are added to the qrels, replacing theirs; repeatable, a later file's label winning; a blank label stays unjudged"},
	}
}

// applyJudgments merges one filled-in worklist, read from r, into q
// (scores.LoadOptions.ApplyJudgments); it notes on w how many documents of
// the worklist are still unjudged.
func applyJudgments(w io.Writer) func(q *trec.Qrels, r io.Reader, path string) (*trec.Qrels, error) {
	return func(q *trec.Qrels, r io.Reader, path string) (*trec.Qrels, error) {
		filled, err := judgments.ReadTSV(r, path)
		if err != nil {
			return nil, err
		}
		if q, err = filled.Apply(q); err != nil {
			return nil, err
		}
		if filled.Blank > 0 && w != nil {
			fmt.Fprintf(w, "riskgate: note: %s: %d judgments read; %d documents of the worklist are still unjudged (blank label)\n", escape.Printable(path), len(filled.Judgments), filled.Blank)
		}
		return q, nil
	}
}

// args returns the switches given, as a command line repeats them.
func (o *trecOptions) args() []string {
	var args []string
	if o.RelLevel.Set {
		args = append(args, "-l", strconv.FormatInt(o.RelLevel.Value, 10))
	}
	if o.JudgedOnly.Set && o.JudgedOnly.Value {
		args = append(args, "-J")
	}
	if o.MaxDocs.Set {
		args = append(args, "-M", strconv.FormatInt(o.MaxDocs.Value, 10))
	}
	for _, path := range o.Judgments {
		args = append(args, "--judgments", path)
	}
	return args
}

// options returns the switches given as trec.Options, nil when none is
// (trec_eval's defaults, and score-file inputs allowed).
func (o *trecOptions) options() (*trec.Options, error) {
	if !o.RelLevel.Set && !o.JudgedOnly.Set && !o.MaxDocs.Set {
		return nil, nil
	}
	opt := trec.DefaultOptions()
	if o.RelLevel.Set {
		opt.RelLevel = o.RelLevel.Value
	}
	opt.JudgedOnly = o.JudgedOnly.Value
	if o.MaxDocs.Set {
		if o.MaxDocs.Value < 0 {
			return nil, fmt.Errorf("-M (--Max_retrieved_per_topic) %d is below 0; expected a number of documents", o.MaxDocs.Value)
		}
		opt.MaxDocs = o.MaxDocs.Value
	}
	return &opt, nil
}

// fromPolicy fills the inputs the command line leaves unset from policy
// p's inputs: the paths (relative to the policy's folder) when no INPUT is
// given, and each input flag not given.
func (o *inputOptions) fromPolicy(p *policies.Policy) {
	in := p.Inputs
	if len(o.Paths) == 0 {
		o.Paths = p.InputPaths()
	}
	if !o.Format.Set && in.Format != "" {
		o.Format.Value = in.Format
	}
	if !o.Qrels.Set && in.Qrels != "" {
		o.Qrels.Value = in.Qrels
		o.QrelsFrom = "policy inputs.qrels"
		if at := in.QrelsPos; at.Line > 0 {
			o.QrelsFrom = fmt.Sprintf("%s:%d:%d inputs.qrels", p.File, at.Line, at.Column)
		}
		if !filepath.IsAbs(in.Qrels) && p.File != "" && p.File != policies.StarterName {
			o.Qrels.Value = filepath.Join(filepath.Dir(p.File), in.Qrels)
		}
	}
	if !o.Measures.Set && in.Measure != "" {
		o.Measures.Value = []string{in.Measure}
	}
	if !o.Topics.Set && in.Topics != "" {
		o.Topics.Value = in.Topics
	}
}

// load reads the inputs into an aligned table of one measure (--measure,
// else the only one the inputs hold) and notes on w what alignment changed
// (dropped or filled topics and systems).
func (o *inputOptions) load(w io.Writer) (*scores.Table, scores.Alignment, error) {
	t, a, _, err := o.loadSources(w)
	return t, a, err
}

// loadSources is load, also returning what was read (scores.LoadSources):
// each input's digest is of the very bytes parsed.
func (o *inputOptions) loadSources(w io.Writer) (*scores.Table, scores.Alignment, []scores.Source, error) {
	if n := len(o.Measures.Value); n > 1 {
		return nil, scores.Alignment{}, nil, fmt.Errorf("--measure is given %d times (%s); this command compares one measure", n, strings.Join(o.Measures.Value, ", "))
	}
	set, a, sources, err := o.loadSet(w)
	if err != nil {
		return nil, a, nil, err
	}
	var name string
	if len(o.Measures.Value) == 1 {
		name = o.Measures.Value[0]
	}
	t, err := set.Table(name)
	if err != nil {
		return nil, a, nil, err
	}
	return t, a, sources, nil
}

// loadSet reads the inputs into an aligned Set of the measures wanted
// (every measure they hold when none is named), noting on w what alignment
// changed, and returns what was read.
func (o *inputOptions) loadSet(w io.Writer) (*scores.Set, scores.Alignment, []scores.Source, error) {
	if len(o.Paths) == 0 {
		return nil, scores.Alignment{}, nil, fmt.Errorf("no INPUT given: name score files (CSV, JSON Lines, trec_eval -q output), TREC runs with --qrels, or - for standard input")
	}
	format, err := scores.ParseFormat(o.Format.Value)
	if err != nil {
		return nil, scores.Alignment{}, nil, err
	}
	mode, err := scores.ParseTopicMode(o.Topics.Value)
	if err != nil {
		return nil, scores.Alignment{}, nil, err
	}
	trecOpt, err := o.Trec.options()
	if err != nil {
		return nil, scores.Alignment{}, nil, err
	}
	stdin := o.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	set, a, sources, err := scores.LoadSources(o.Paths, scores.LoadOptions{
		Format: format, Measures: o.Measures.Value, OptionalMeasures: o.OptionalMeasures, UnnamedMeasure: o.UnnamedMeasure.Value, LowerIsBetter: o.LowerIsBetter, SystemPerFile: o.SystemPerFile,
		Topics: mode, Qrels: o.Qrels.Value, QrelsFrom: o.QrelsFrom, Trec: trecOpt, Judgments: o.Trec.Judgments, ApplyJudgments: applyJudgments(w), KeepRankings: o.KeepRankings, Stdin: stdin, MaxMemory: o.MaxMemory,
	})
	if err != nil {
		return nil, a, nil, err
	}
	if msg := a.Summary(); msg != "" && w != nil {
		fmt.Fprintf(w, "riskgate: note: %s\n", msg)
	}
	return set, a, sources, nil
}
