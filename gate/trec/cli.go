package trec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/internal/parallel"
)

// Usage is the one-line synopsis of riskgate eval.
const Usage = "riskgate eval [-q] [-c] [-n] [-J] [-l LEVEL] [-M MAXDOCS] [-N NUMDOCS] [-g GAINS] [-m MEASURE[.PARAMS]]... QRELS RUN..."

// Help is riskgate eval's help text.
const Help = `usage: ` + Usage + `

Evaluate TREC runs against qrels exactly as NIST trec_eval v10 does: the same
measures, names, line order and "all" lines, byte for byte. Each RUN gives one
block of output, in argument order. RUN "-" reads standard input.

  -q        also print each topic's values, before the summary
  -c        average over every qrels topic; a topic missing from the run
            scores 0 (without -c such a topic is an error, as in trec_eval v10)
  -n        no summary ("all") lines
  -J        judged documents only: drop unjudged documents from each
            ranking (after -M) before scoring
  -l LEVEL  lowest relevance level that counts as relevant (default 1)
  -M N      keep only the top N documents of each topic, after sorting
  -N N      number of documents in the collection (used by utility)
  -R qrels, -T trec_results
            the input formats, the only ones read (trec_eval's defaults)
  -m NAME   measure or group to print; repeatable; parameters after '.':
            P.5,10  ndcg_cut.10  iprec_at_recall..1,.5  ndcg.1=3,2=9
            groups: official (default), all_trec, set, ntcir
            ir_measures' names of trec_eval measures: nDCG@10  AP  P@5  R@100
            NTCIREVAL's measures: Q  P+  nERR@10  Q(beta=10)  RBP(p=0.8)
            coverage: judged@10 (1 − unj_10: the share of the top 10 judged)
            (riskgate help measures lists every name)
  -g GAINS  gains of relevance levels 1, 2, … for NTCIREVAL's measures, as
            ntcir_eval's -g: 1:2:3 (default: each level's number)

Options take attached values too (-l2, -M100, -mP.10) and may follow the
files, as with trec_eval's getopt; -l, -M and -N are read with C's atol
("1.5" is 1, "abc" is 0). Measures: ` + "all of -m all_trec plus dcg, ideal_dcg and yaap" + `,
and NTCIREVAL's (-m ntcir: every one at cutoff 1000), printed after trec_eval's
in the same layout. A run is ranked by score, descending, ties by document id
descending, for every measure; -M and -J apply to NTCIREVAL's measures too
(-J gives their condensed-list values), -l does not (every level ≥ 1 is
relevant to them, with its gain).
Not supported: -D, -Z, other -R and -T formats, the prefs/qrels_jg measures.
`

// CommandLine is a parsed riskgate eval (trec_eval) command line.
type CommandLine struct {
	Query      bool      // -q
	Complete   bool      // -c
	NoSummary  bool      // -n
	JudgedOnly bool      // -J
	Help       bool      // -h, --help
	Version    bool      // -v, --version
	RelLevel   int64     // -l
	MaxDocs    int64     // -M
	NumDocs    int64     // -N
	Gains      []float64 // -g
	Measures   []string  // -m, in order
	Qrels      string
	Runs       []string
}

// UsageError is a bad command line.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg + "; usage: " + Usage }

type optSpec struct {
	short   byte
	long    string
	hasArg  bool
	support string // non-empty: why it is not supported
}

// opts mirrors trec_eval's getopt_long table (trec_eval.c).
var opts = []optSpec{
	{'h', "help", false, ""},
	{'v', "version", false, ""},
	{'q', "query_eval_wanted", false, ""},
	{'m', "measure", true, ""},
	{'c', "complete_rel_info_wanted", false, ""},
	{'l', "level_for_rel", true, ""},
	{'n', "nosummary", false, ""},
	{'D', "Debug_level", true, "debug output"},
	{'J', "Judged_docs_only", false, ""},
	{'N', "Number_docs_in_coll", true, ""},
	{'M', "Max_retrieved_per_topic", true, ""},
	{'R', "Rel_info_format", true, ""},
	{'T', "Results_format", true, ""},
	{'o', "Output_old_results_format", false, "the obsolete old output format"},
	{'g', "gains", true, ""}, // NTCIREVAL's -g, not trec_eval's
	{'Z', "Zscore", true, "Z scores"},
}

// ParseCommandLine parses trec_eval's arguments the way GNU getopt_long
// does: short options may be bundled (-qc) and take attached or separate
// values (-l2, -l 2, -mP.10), long options take "=value" or the next
// argument and may be abbreviated, options may follow the files, and "--"
// ends them.
func ParseCommandLine(args []string) (*CommandLine, error) {
	c := &CommandLine{RelLevel: 1, MaxDocs: math.MaxInt64}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			o, err := longOpt(name)
			if err != nil {
				return nil, err
			}
			if o.hasArg && !hasValue {
				if i+1 >= len(args) {
					return nil, &UsageError{fmt.Sprintf("option --%s needs a value", o.long)}
				}
				i++
				value = args[i]
			} else if !o.hasArg && hasValue {
				return nil, &UsageError{fmt.Sprintf("option --%s takes no value", o.long)}
			}
			if err := c.apply(o, "--"+o.long, value); err != nil {
				return nil, err
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				o := shortOpt(a[j])
				if o == nil {
					return nil, &UsageError{fmt.Sprintf("unknown option %q", "-"+a[j:j+1])}
				}
				value := ""
				if o.hasArg {
					if j+1 < len(a) {
						value = a[j+1:]
					} else if i+1 < len(args) {
						i++
						value = args[i]
					} else {
						return nil, &UsageError{fmt.Sprintf("option -%c needs a value", o.short)}
					}
					j = len(a)
				}
				if err := c.apply(o, "-"+string(o.short), value); err != nil {
					return nil, err
				}
			}
		default:
			pos = append(pos, a)
		}
	}
	if c.Help || c.Version {
		return c, nil
	}
	if len(pos) < 2 {
		return nil, &UsageError{fmt.Sprintf("expected a qrels file and at least one run file, got %d file argument(s)", len(pos))}
	}
	c.Qrels, c.Runs = pos[0], pos[1:]
	stdin := 0
	for _, r := range c.Runs {
		if r == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		return nil, &UsageError{"standard input (-) can be given as only one RUN"}
	}
	if c.Qrels == "-" {
		return nil, &UsageError{"the qrels must be a file, not standard input"}
	}
	return c, nil
}

func shortOpt(b byte) *optSpec {
	for i := range opts {
		if opts[i].short == b {
			return &opts[i]
		}
	}
	return nil
}

func longOpt(name string) (*optSpec, error) {
	var match *optSpec
	n := 0
	for i := range opts {
		if opts[i].long == name {
			return &opts[i], nil
		}
		if name != "" && strings.HasPrefix(opts[i].long, name) {
			match = &opts[i]
			n++
		}
	}
	switch n {
	case 0:
		return nil, &UsageError{fmt.Sprintf("unknown option %q", "--"+name)}
	case 1:
		return match, nil
	}
	return nil, &UsageError{fmt.Sprintf("option %q is ambiguous", "--"+name)}
}

func (c *CommandLine) apply(o *optSpec, spelled, value string) error {
	if o.support != "" {
		return &UsageError{fmt.Sprintf("option %s (%s) is not supported by riskgate eval", spelled, o.support)}
	}
	switch o.short {
	case 'h':
		c.Help = true
	case 'v':
		c.Version = true
	case 'q':
		c.Query = true
	case 'c':
		c.Complete = true
	case 'n':
		c.NoSummary = true
	case 'J':
		c.JudgedOnly = true
	case 'm':
		c.Measures = append(c.Measures, value)
	case 'l': // trec_eval.c reads -l, -M and -N with atol
		c.RelLevel = atol([]byte(value))
	case 'M':
		c.MaxDocs = atol([]byte(value))
		if c.MaxDocs < 0 {
			// trec_eval v10 crashes (form_res_rels.c sorts a negative count).
			return &UsageError{fmt.Sprintf("option %s: %q is below 0; expected a number of documents", spelled, value)}
		}
	case 'N':
		c.NumDocs = atol([]byte(value))
	case 'g':
		g, err := GainsOption(spelled, value)
		if err != nil {
			return err
		}
		c.Gains = g
	case 'R':
		return formatOption(spelled, value, "qrels", "prefs", "qrels_prefs", "qrels_jg")
	case 'T':
		return formatOption(spelled, value, "trec_results")
	}
	return nil
}

// formatOption checks a -R or -T value: riskgate eval reads the first
// format, trec_eval's default; trec_eval knows the others.
func formatOption(spelled, value, read string, others ...string) error {
	switch {
	case value == read:
		return nil
	case slices.Contains(others, value):
		return &UsageError{fmt.Sprintf("option %s %s: riskgate eval reads only the %s format", spelled, value, read)}
	}
	return &UsageError{fmt.Sprintf("option %s: unknown format %q (valid: %s)", spelled, value, strings.Join(append([]string{read}, others...), ", "))}
}

// Options returns the evaluation options the command line asks for.
func (c *CommandLine) Options() Options {
	opt := Options{RelLevel: c.RelLevel, MaxDocs: c.MaxDocs, NumDocs: c.NumDocs, JudgedOnly: c.JudgedOnly, Missing: MissingFail, Gains: c.Gains}
	if c.Complete {
		opt.Missing = MissingZero
	}
	return opt
}

// Execute evaluates every run and writes trec_eval's output to stdout, one
// block per run in argument order. A fatal error leaves the lines trec_eval
// would have printed before stopping: every earlier run's block and the
// failing run's topics scored before the error. warn receives notes that are
// not errors.
//
// Runs are read and scored in parallel, up to runWorkers at a time (each
// holds one parsed run, about 24 bytes per run line), while the qrels are
// read; each run's block is written once it and every earlier block are
// done. Output does not depend on the parallelism.
func (c *CommandLine) Execute(stdin io.Reader, stdout, warn io.Writer) error {
	ms, err := ParseMeasures(c.Measures)
	if err != nil {
		return &UsageError{err.Error()}
	}
	if warn != nil {
		switch {
		case ms.ntcir && c.RelLevel != 1:
			fmt.Fprintf(warn, "riskgate: warning: -l %d applies to trec_eval's measures only; NTCIREVAL's count every level ≥ 1 as relevant, with its gain (-g)\n", c.RelLevel)
		case !ms.ntcir && c.Gains != nil:
			fmt.Fprintf(warn, "riskgate: warning: -g sets the gains of NTCIREVAL's measures, and no -m names one\n")
		}
	}
	var (
		q          *Qrels
		qrelsErr   error
		qrelsReady = make(chan struct{})
	)
	go func() {
		defer close(qrelsReady)
		q, qrelsErr = ReadQrelsFile(c.Qrels)
	}()
	w := bufio.NewWriterSize(stdout, 1<<16)
	score := func(i int) runBlock {
		run, err := ReadRunFile(c.Runs[i], stdin)
		<-qrelsReady
		if err != nil || qrelsErr != nil {
			return runBlock{err: err}
		}
		var b runBlock
		if c.Complete && !sharesTopic(q, run) {
			b.warning = fmt.Sprintf("riskgate: warning: run %s has no topic of qrels %s; with -c every topic scores 0\n", run.Name, q.Name)
		}
		ev := NewEvaluator(q, ms, c.Options())
		ev.Workers = runtime.GOMAXPROCS(0) / len(c.Runs) // the cores the other runs leave
		s, err := ev.Evaluate(run, func(tr *TopicResult) error {
			if c.Query {
				n := len(b.out)
				b.out = AppendTopic(b.out, ms, tr)
				if n == 0 { // as much as the first topic takes for every topic
					b.out = slices.Grow(b.out, len(b.out)*len(q.topics))
				}
			}
			return nil
		})
		if err != nil {
			b.err = err
			return b
		}
		if !c.NoSummary {
			b.out = AppendSummary(b.out, ms, s)
		}
		return b
	}
	err = parallel.InOrder(len(c.Runs), runWorkers(), score, func(_ int, b runBlock) error {
		if qrelsErr != nil {
			return qrelsErr
		}
		if b.warning != "" && warn != nil {
			io.WriteString(warn, b.warning)
		}
		if _, err := w.Write(b.out); err != nil {
			return err
		}
		return b.err
	})
	<-qrelsReady
	if err == nil && qrelsErr != nil { // no run to report it
		err = qrelsErr
	}
	return errors.Join(w.Flush(), err)
}

// runBlock is one run's output: its lines, a warning, and the error that
// stopped it (after the lines scored before it).
type runBlock struct {
	out     []byte
	warning string
	err     error
}

// runWorkers is how many runs are read and scored at once: one per core, at
// most 4, which bounds memory to four parsed runs (an MS MARCO-sized run of
// 7 million lines takes about 170 MB).
func runWorkers() int { return min(runtime.GOMAXPROCS(0), 4) }

func sharesTopic(q *Qrels, run *Run) bool {
	for _, t := range q.topics {
		if run.topics.lookup([]byte(t.id)) >= 0 {
			return true
		}
	}
	return false
}
