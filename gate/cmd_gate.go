package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/github"
	"github.com/riskgate/riskgate/gate/report"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/atomicfile"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/progress"
	"github.com/riskgate/riskgate/internal/reportfmt"
	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// gateOptions are the options of riskgate gate: its flags, and the
// dependencies it is given.
type gateOptions struct {
	Input      *inputOptions
	PolicyPath string // "" for the built-in default policy
	// Topics is the topics file (--topics-file, else the policy's
	// inputs.topics_file): the segments of the by: rules.
	Topics topicsFileOptions
	// Overrides of the policy; each applies only when its flag is given.
	Overrides policyOverrides
	Seed      optional[uint64]

	// RiskSweep lists extra loss weights at which BRisk is fitted, when a rule
	// needs BRisk, for the report's risk-against-loss-weight plot (Figure 7 of
	// Benham et al.); "" fits only the rules' weights. Not given, it applies
	// to the Gaussian family only.
	RiskSweep optional[string]
	// Worst is how many regressions per challenger the reports list.
	Worst int
	// MaxJudgments caps the judging worklist (judgments-needed.tsv).
	MaxJudgments int

	// MaxMemory is the memory budget (--max-memory): a gate estimated to
	// need more is refused before any heavy work.
	MaxMemory string

	Out      string // report folder; "" writes none
	Format   string // standard output: table, md, json, junit
	DryRun   bool
	Example  bool
	Progress bool
	Publish  *publishOptions
	// Pool is the run history: --pool, --record (gate_pool.go).
	Pool gatePoolOptions

	// Dependencies: the process's (newGateCommand), or a test's.
	deps
	// verifyInputs checks, before anything naming them is written, that
	// the inputs are still the files judged (scores.VerifySources).
	verifyInputs func([]scores.Source) error
	// writeReport writes one report file's bytes into the report set
	// (writeReportFile).
	writeReport func(w io.Writer, name string, data []byte) error
}

// gateFewer is what a gate over the memory limit could do instead of
// raising it.
const gateFewer = "gate fewer topics or systems"

// defaultRiskSweep are the loss weights of Benham et al.'s Figure 7.
const defaultRiskSweep = "1,2,5,10"

// gateFormats are the output formats of riskgate gate on standard output.
var gateFormats = []string{"table", "md", "json", "junit"}

const gateDescription = `Applies a policy to a champion, its challengers and a pool of earlier runs (artifacts): loads
the policy (--policy FILE, or the built-in default policy) and the score inputs (INPUT
arguments, else the policy's inputs.paths; the input flags override the policy's inputs),
assigns the roles (--champion and --challenger override the policy's), checks the policy's
data requirements, computes what the rules need — and nothing else: no MCMC unless a rule
is Bayesian; the cheap closed-form measures (means, wins and losses, URisk, TRisk, ZRisk,
GeoRisk) are always computed for the report's risk table — evaluates every rule for every
challenger, and writes the reports.

A rule whose value comes from a Bayesian fit that did not converge, or whose data
requirements are unmet, is inconclusive, never passing.

Reports: the chosen --format on standard output (table: a compact verdict table; md: the
pull-request report; json: the full result; junit: one test case per rule per
challenger), and with --out DIR all of result.json, report.md, junit.xml and report.html,
written as one set: into a temporary folder beside DIR, then swapped in whole.
DIR belongs to riskgate: a folder holding other files is refused, a second gate writing
the same DIR at once exits 2, and a run ending in an error writes DIR/error.json beside
the previous run's reports. --github publishes to GitHub
(see riskgate publish --help).

--pool DIR (or the policy's inputs.pool) adds the systems stored in a run history (riskgate
pool) as artifacts: those scored against the champion's qrels and on its topic set; the
others are left out with a warning naming each (or refused: inputs.pool_mismatch: refuse).
--record then stores the champion and the challengers in it, whatever the verdict, and
--promote-on-pass makes the one challenger a pass selected the champion (docs/pool.md).

--example gates a built-in simulated pool (champion "production", challengers
"candidate-better", "candidate-risky", "candidate-equivalent", 40 artifacts, 50 topics)
with the default policy, or with --policy.

Exit status:
  0  pass (warnings allowed); also every --dry-run
  1  fail
  2  usage, input or policy error
  3  inconclusive (after the policy's on_inconclusive)
  130  interrupted (SIGINT or SIGTERM): nothing was decided, no report written`

// newGateCommand binds riskgate gate's flags to its options, with the
// dependencies d; runF runs it (runGate when nil; a test sets dependencies).
func newGateCommand(s *streams, d deps, runF func(context.Context, *gateOptions) error) *cli.Command {
	o := &gateOptions{Input: newInputOptions(s), Publish: &publishOptions{getenv: d.getenv}, deps: d, verifyInputs: scores.VerifySources, writeReport: writeReportFile}
	if runF == nil {
		runF = func(ctx context.Context, o *gateOptions) error { return runGate(ctx, o, s) }
	}
	flags := append([]cli.Flag{&cli.StringFlag{Name: "policy", Destination: &o.PolicyPath, Usage: "the policy `FILE` (YAML); the built-in default policy when not given"}}, o.Overrides.flags("a challenger's `NAME` or glob (* any characters, ? one), repeatable; replaces the policy's challengers",
		"losses count `W` times (W = 1 + α), overriding the policy's loss_weight (rules with their own keep theirs)")...)
	flags = append(flags,
		&cli.Uint64Flag{Name: "seed", Destination: &o.Seed.Value, Action: o.Seed.given, HideDefault: true, Usage: "`SEED` of every random procedure, overriding the policy's"},
		&cli.StringFlag{Name: "out", Destination: &o.Out,
			Usage: "write result.json, report.md, junit.xml and report.html into `DIR`, replaced as one set (riskgate's own folder: one holding other files is refused)"},
		formatFlag(&o.Format, gateFormats),
		&cli.StringFlag{Name: "risk-sweep", Destination: &o.RiskSweep.Value, Action: o.RiskSweep.given, Value: defaultRiskSweep,
			Usage: "when a rule needs BRisk, also fit it at these loss weights `LIST` for the report's risk-against-loss-weight plot (\"\" for none; with the skew-normal family each fit takes seconds)"},
		&cli.IntFlag{Name: "worst", Destination: &o.Worst, Value: result.DefaultWorst,
			Usage: "list each challenger's `N` worst regressions (topics it loses most on) in every report"},
		&cli.IntFlag{Name: "max-judgments", Destination: &o.MaxJudgments, Value: 1000,
			Usage: "with --out and runs + qrels, list at most `N` documents in judgments-needed.tsv, the worklist of the rules that need judgments (0: every one)"},
		&cli.StringFlag{Name: "max-memory", Destination: &o.MaxMemory, Value: defaultMaxMemory,
			Usage: "refuse, before any heavy work, a gate estimated to need more than `SIZE` of memory (e.g. 8GB, 512MB)"},
		&cli.BoolFlag{Name: "dry-run", Destination: &o.DryRun, Usage: "do everything, say what the verdict would be, and exit 0"},
		&cli.BoolFlag{Name: "example", Destination: &o.Example, Usage: "gate the built-in simulated example pool instead of INPUT files"},
		&cli.BoolFlag{Name: "progress", Destination: &o.Progress,
			Usage: "show progress on standard error even in CI or when it is not a terminal (by default only on a terminal outside CI)"},
		&cli.BoolFlag{Name: "verbose", Destination: &o.Publish.Verbose, Usage: "with --github, log each GitHub API request (never the token)"},
	)
	flags = append(flags, o.Input.flags()...)
	flags = append(flags, o.Topics.flags()...)
	flags = append(flags, o.Pool.flags()...)
	flags = append(flags, o.Publish.flags()...)
	return &cli.Command{
		Name:        "gate",
		Usage:       "apply a policy: decide pass, warn, fail or inconclusive for each challenger, write the reports, exit with the verdict",
		UsageText:   "riskgate gate [--policy FILE] [--champion NAME] [--challenger NAME...] [--out DIR] [--format table|md|json|junit] [--dry-run] [--github] [INPUT...]\nriskgate gate --example [--out DIR]",
		Description: gateDescription,
		Flags:       flags,
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			return runF(ctx, o)
		},
	}
}

// resolvedGate is a gate resolved from its flags and policy (resolve): every
// setting checked, the inputs loaded.
type resolvedGate struct {
	policy *policies.Policy
	// tables are the score tables, one per measure the rules use, the
	// default measure's first.
	tables    engine.Tables
	rankings  *scores.Rankings // the runs', for the needs-judgments step; nil for score files
	alignment scores.Alignment
	sources   []scores.Source // what was read, to verify before the reports are written
	worklist  []byte          // judgments-needed.tsv, when a rule needs judgments
	sweep     []float64       // the risk sweep's loss weights
	maxMemory float64         // the memory budget, in bytes
	estimate  float64         // the memory the gate is estimated to need, in bytes
	pool      *gatePool       // the run history (--pool); nil when none
	// attributes are the topics file's, covering the tables' topics; nil
	// without one. topicWarnings are what covering them found.
	attributes    *scores.TopicAttributes
	topicWarnings []string
}

// runGate is riskgate gate: resolve (flags and policy → the inputs and
// settings, refused before any heavy work when over the memory budget),
// run (the engine's decision and Result), emit (the reports, --out,
// standard output, GitHub, the exit status). --out is riskgate's: locked
// for the whole run, marked with error.json until its set is written, and
// with the error if the run ends in one.
func runGate(ctx context.Context, o *gateOptions, s *streams) (err error) {
	start := o.now()
	var set *atomicfile.Set
	written := false
	if o.Out != "" {
		if set, err = openReportSet(o.Out); err != nil {
			return err
		}
		defer set.Close()
		if err = markReportSetStarted(set, start, s.Err); err != nil {
			return err
		}
		defer func() {
			if err != nil && !written {
				markReportSetError(ctx, set, err, start, s.Err)
			}
		}()
	}
	maxMemory, err := memoryBudget(o.MaxMemory)
	if err != nil {
		return err
	}
	// The budget is the garbage collector's memory limit while the inputs
	// load (they are charged to it before they are read:
	// scores.LoadOptions.MaxMemory), and the estimate once resolve has
	// accepted it, so that garbage never takes the process over it.
	defer o.setMemoryLimit(o.setMemoryLimit(int64(min(maxMemory, math.MaxInt64/2))))
	g, err := o.resolve(ctx, s, maxMemory)
	if err != nil {
		return err
	}
	r, err := o.run(ctx, g, start, s)
	if err != nil {
		return err
	}
	written, err = o.emit(ctx, r, g, set, s)
	if g.pool != nil && o.Pool.Record {
		err = o.recordAfter(ctx, g.pool, r, set != nil && !written, err, s)
	}
	return err
}

// resolve checks the flags, loads the policy with the overrides given and
// the inputs (the policy's where the flags leave them unset) within the
// memory budget, and refuses a gate estimated to need more memory than the
// budget; an accepted estimate becomes the garbage collector's limit.
func (o *gateOptions) resolve(ctx context.Context, s *streams, maxMemory float64) (*resolvedGate, error) {
	if err := o.Publish.check(); err != nil {
		return nil, err
	}
	if err := reportfmt.CheckFormat(o.Format, gateFormats); err != nil {
		return nil, err
	}
	if o.Example && len(o.Input.Paths) > 0 {
		return nil, fmt.Errorf("--example gates the built-in pool; give INPUT files or --example, not both")
	}
	o.Overrides.Runs = o.Input.Qrels.Value != "" && !o.Example
	p, err := o.Overrides.loadPolicy(o.PolicyPath)
	if err != nil {
		return nil, err
	}
	if o.Seed.Set {
		p.Seed = o.Seed.Value
	}
	if o.MaxJudgments < 0 {
		return nil, fmt.Errorf("--max-judgments %d: expected a number of documents, at least 0 (0 lists every one)", o.MaxJudgments)
	}
	if o.Worst < 1 {
		return nil, fmt.Errorf("--worst %d: expected a number of topics, at least 1", o.Worst)
	}
	g := &resolvedGate{policy: p, maxMemory: maxMemory}
	if g.sweep, err = parseLossWeights("--risk-sweep", o.RiskSweep.Value); err != nil {
		return nil, err
	}
	if p.Model.Family != policies.Gaussian && !o.RiskSweep.Set {
		g.sweep = nil // a skew-normal fit takes seconds: sweep only when asked
	}
	switch {
	case o.Example && o.Pool.given():
		return nil, fmt.Errorf("--example gates the built-in pool; --pool, --record, --label and --promote-on-pass take INPUT files")
	case o.Example:
		g.tables = engine.Tables{engine.ExamplePool()}
	default:
		o.Input.fromPolicy(p)
		o.Input.MaxMemory = maxMemory
		if g.tables, g.rankings, g.alignment, g.sources, err = loadRuleMeasures(p, *o.Input, s.Err); err != nil {
			return nil, loadRefusal(err, gateFewer)
		}
		if g.tables, g.pool, err = o.Pool.joinPool(ctx, p, g.tables, g.sources, o.Input, o.now()); err != nil {
			return nil, err
		}
	}
	var topicsFile *scores.Source
	if g.attributes, topicsFile, g.topicWarnings, err = o.Topics.forPolicy(p, g.tables[0].Topics); err != nil {
		return nil, err
	}
	if topicsFile != nil {
		g.sources = append(g.sources, *topicsFile)
	}
	total, parts := engine.EstimateMemory(p, g.tables, g.sweep, g.rankings, g.attributes)
	if err := checkMemory("this gate", total, parts, maxMemory, gateFewer); err != nil {
		return nil, err
	}
	g.estimate = total
	o.setMemoryLimit(gcLimit(total))
	return g, nil
}

// run gates g with the engine and gives the Result its provenance: the
// inputs read, the replay command, the start and the elapsed time.
func (o *gateOptions) run(ctx context.Context, g *resolvedGate, start time.Time, s *streams) (*result.Result, error) {
	prog := progress.New(s.Err, o.Progress)
	prog.Phase(fmt.Sprintf("memory estimate %s (limit %s)", formatMemory(g.estimate), formatMemory(g.maxMemory)))
	eo := engine.Options{Now: start, Sweep: g.sweep, Worst: o.Worst, Alignment: g.alignment, Example: o.Example, Progress: prog, Rankings: g.rankings,
		Attributes: g.attributes}
	if g.pool != nil {
		eo.InputWarnings = g.pool.warnings
	}
	eo.InputWarnings = append(eo.InputWarnings, g.topicWarnings...)
	r, err := engine.Run(ctx, g.policy, g.tables, eo)
	prog.Done()
	if err != nil {
		return nil, err
	}
	if g.pool != nil {
		r.Data.Pool = g.pool.use
	}
	r.DryRun = o.DryRun
	need, worklist, err := judgingWorklist(r, g.rankings, o.MaxJudgments)
	if err != nil {
		return nil, err
	}
	if need != nil && o.Out != "" {
		need.File, g.worklist = worklistName, worklist
	}
	r.Judgments = need
	if r.Coverage, err = coverage(r, g.rankings); err != nil {
		return nil, err
	}
	r.Provenance.Inputs = result.NewInputFiles(g.sources)
	r.Provenance.Command = o.replayCommand(g.policy)
	r.Provenance.StartedAt = start.UTC().Format(time.RFC3339)
	r.Provenance.ElapsedMS = o.now().Sub(start).Milliseconds()
	return r, nil
}

// emit renders every report of r, writes the set into --out (set, when
// not nil: written says it was) once the inputs are verified unchanged,
// writes the chosen format on standard output, publishes to GitHub, and
// returns the verdict's exit status.
func (o *gateOptions) emit(ctx context.Context, r *result.Result, g *resolvedGate, set *atomicfile.Set, s *streams) (written bool, err error) {
	reports, err := report.Files(r)
	if err != nil {
		return false, err
	}
	// The reports name the inputs by digest: refuse to write them when an
	// input is no longer what was judged.
	if err := o.verifyInputs(g.sources); err != nil {
		return false, err
	}
	var jsonPath, mdPath string
	if g.worklist != nil {
		reports[worklistName] = g.worklist
	}
	if set != nil {
		if err := writeReportSet(ctx, set, reports, o.writeReport); err != nil {
			return false, err
		}
		written = true
		jsonPath, mdPath = filepath.Join(o.Out, "result.json"), filepath.Join(o.Out, "report.md")
	}
	var out []byte
	switch o.Format {
	case "md":
		out = reports["report.md"]
	case "json":
		out = reports["result.json"]
	case "junit":
		out = reports["junit.xml"]
	default:
		var b bytes.Buffer
		report.Text(&b, r, progress.UseColor(s.Out))
		out = b.Bytes()
	}
	if _, err := s.Out.Write(out); err != nil {
		return written, err
	}
	rep := report.GitHub(r, string(reports["report.md"]))
	rep.JSONPath, rep.MarkdownPath = jsonPath, mdPath
	rep.Source = github.SourceThisJob // computed here, from this job's inputs
	if err := o.Publish.publish(ctx, rep, s); err != nil {
		return written, err
	}
	if o.DryRun {
		fmt.Fprintf(s.Err, "riskgate: dry run: the verdict would be %s (exit status %d); exiting 0\n", r.Verdict(), r.ExitStatus())
		return written, nil
	}
	if r.ExitStatus() != exitPass {
		return written, &statusError{Code: r.ExitStatus()}
	}
	return written, nil
}

// replayCommand is the one-line command that replays the run: the policy,
// the overrides and inputs as given, and the seed.
func (o *gateOptions) replayCommand(p *policies.Policy) string {
	args := []string{"riskgate", "gate"}
	if o.PolicyPath != "" {
		args = append(args, "--policy", o.PolicyPath)
	}
	if o.Example {
		args = append(args, "--example")
	}
	ov := o.Overrides
	if ov.Champion.Set {
		args = append(args, "--champion", ov.Champion.Value)
	}
	if ov.Challengers.Set {
		for _, c := range ov.Challengers.Value {
			args = append(args, "--challenger", c)
		}
	}
	if ov.Loss.Weight.Set || ov.Loss.Alpha.Set {
		args = append(args, "--loss-weight", numfmt.G(p.LossWeight))
	}
	args = append(args, "--seed", fmt.Sprint(p.Seed))
	if o.RiskSweep.Value != defaultRiskSweep {
		args = append(args, "--risk-sweep", o.RiskSweep.Value)
	}
	if o.Worst != result.DefaultWorst {
		args = append(args, "--worst", fmt.Sprint(o.Worst))
	}
	if o.Topics.File != "" {
		args = append(args, "--topics-file", o.Topics.File)
	}
	if o.Topics.Unsegmented {
		args = append(args, "--unsegmented")
	}
	if !o.Example {
		in := o.Input
		type flag struct{ name, value, def string }
		flags := []flag{{"--input-format", in.Format.Value, string(scores.Auto)}, {"--qrels", in.Qrels.Value, ""}}
		for _, m := range in.Measures.Value {
			flags = append(flags, flag{"--measure", m, ""})
		}
		flags = append(flags, flag{"--unnamed-measure", in.UnnamedMeasure.Value, ""})
		for _, m := range in.LowerIsBetter {
			flags = append(flags, flag{"--lower-is-better", m, ""})
		}
		for _, f := range append(flags, flag{"--topics", in.Topics.Value, string(scores.Intersect)}) {
			if f.value != f.def {
				args = append(args, f.name, f.value)
			}
		}
		if in.SystemPerFile {
			args = append(args, "--system-per-file")
		}
		if o.Pool.Dir.Set {
			args = append(args, "--pool", o.Pool.Dir.Value)
		}
		args = append(args, in.Trec.args()...)
		args = append(args, in.Paths...)
	}
	for i, a := range args {
		args[i] = escape.Shell(a)
	}
	return strings.Join(args, " ")
}

// loadRuleMeasures reads the inputs once (scores.LoadSources of a Set) for
// the default measure (the flags' and inputs.measure, else the inputs'
// only one) and every other measure a rule names, and returns one table
// per measure, the default's first, all aligned together, and the runs'
// rankings when the inputs are runs + qrels (for the needs-judgments step). A rule measure
// the inputs do not hold is an error at the rule's measure: key.
func loadRuleMeasures(p *policies.Policy, in inputOptions, w io.Writer) (engine.Tables, *scores.Rankings, scores.Alignment, []scores.Source, error) {
	rules := p.RuleMeasures()
	if len(in.Measures.Value) > 1 {
		return nil, nil, scores.Alignment{}, nil, fmt.Errorf("--measure is given %d times (%s); the gate takes one default measure, and each rule names its own with measure:", len(in.Measures.Value), strings.Join(in.Measures.Value, ", "))
	}
	var def, runDefault string
	if len(in.Measures.Value) == 1 {
		def = in.Measures.Value[0]
		in.Measures.Value = append([]string{def}, rules...)
	} else if in.Qrels.Value != "" && len(rules) > 0 {
		// Runs can be scored on any measure: without a named default they
		// are scored on their default, map, and on every rule's measure.
		// Score files given with --qrels hold what they hold: map is
		// read where they hold it, and is not required.
		runDefault = scores.DefaultRunMeasure
		in.Measures.Value = rules
		in.OptionalMeasures = []string{runDefault}
	}
	in.KeepRankings = true
	set, a, sources, err := in.loadSet(w)
	if err != nil {
		var missing *scores.MeasureError
		if errors.As(err, &missing) && len(in.Measures.Value) > 0 && (def == "" || trec.MeasureName(missing.Measure) != trec.MeasureName(def)) {
			for _, r := range p.Rules {
				if r.Measure != "" && trec.MeasureName(r.Measure) == missing.Measure {
					return nil, nil, a, nil, inputerr.AtCol(p.File, r.MeasurePos.Line, r.MeasurePos.Column, "%s.measure: measure %q is %s", r.ID, r.Measure, missing.Missing())
				}
			}
		}
		return nil, nil, a, nil, err
	}
	if def == "" && runDefault != "" && slices.Contains(set.Measures(), runDefault) {
		def = runDefault
	}
	if def == "" && len(rules) > 0 {
		// No default named: the inputs' one measure that no rule names.
		var others []string
		for _, m := range set.Measures() {
			if !slices.Contains(rules, policies.CanonicalMeasure(m)) {
				others = append(others, m)
			}
		}
		if len(others) == 1 {
			def = others[0]
		}
	}
	t, err := set.Table(def)
	if err != nil {
		return nil, nil, a, nil, err
	}
	ts := engine.Tables{t}
	for _, m := range rules {
		if m == t.Measure || policies.CanonicalMeasure(t.Measure) == m {
			continue
		}
		mt, err := set.Table(m)
		if err != nil {
			r := ruleNaming(p, m)
			return nil, nil, a, nil, inputerr.AtCol(p.File, r.MeasurePos.Line, r.MeasurePos.Column, "%s.measure: %v", r.ID, err)
		}
		mt.Measure = m
		ts = append(ts, mt)
	}
	return ts, set.Rankings, a, sources, nil
}

// ruleNaming is the first rule of p that names measure m.
func ruleNaming(p *policies.Policy, m string) *policies.Rule {
	for _, r := range p.Rules {
		if r.Measure == m {
			return r
		}
	}
	return nil
}
