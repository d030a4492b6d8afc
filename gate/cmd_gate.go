package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/github"
	"github.com/riskgate/riskgate/gate/report"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/atomicfile"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/progress"
	"github.com/riskgate/riskgate/internal/reportfmt"
	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// gateOptions are the options of riskgate gate.
type gateOptions struct {
	Input      *inputOptions
	PolicyPath string // "" for the built-in default policy

	// Overrides of the policy; each applies only when its flag is set.
	Champion    string
	Challengers []string // names or globs (* and ?), replacing the policy's
	LossWeight  float64
	Alpha       float64
	Seed        uint64

	// RiskSweep lists extra loss weights at which BRisk is fitted, when a rule
	// needs BRisk, for the report's risk-against-loss-weight plot (Figure 7 of
	// Benham et al.); "" fits only the rules' weights.
	RiskSweep string
	// Worst is how many regressions per challenger the reports list.
	Worst int

	// MaxMemory is the memory budget (--max-memory): a gate estimated to
	// need more is refused before any heavy work.
	MaxMemory string

	Out      string // report folder; "" writes none
	Format   string // standard output: table, md, json, junit
	DryRun   bool
	Example  bool
	Progress bool
	Publish  *publishOptions

	// set records which flags were given, for the policy's inputs and the
	// overrides above.
	set map[string]bool
	// now is the clock (waiver expiry, provenance); time.Now when nil.
	now func() time.Time
}

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

--example gates a built-in simulated pool (champion "production", challengers
"candidate-better", "candidate-risky", "candidate-equivalent", 40 artifacts, 50 topics)
with the default policy, or with --policy.

Exit status:
  0  pass (warnings allowed); also every --dry-run
  1  fail
  2  usage, input or policy error
  3  inconclusive (after the policy's on_inconclusive)
  130  interrupted (SIGINT or SIGTERM): nothing was decided, no report written`

func newGateCommand(s *streams) *cli.Command {
	o := &gateOptions{Input: newInputOptions(s), Publish: &publishOptions{}}
	flags := []cli.Flag{
		&cli.StringFlag{Name: "policy", Destination: &o.PolicyPath, Usage: "the policy `FILE` (YAML); the built-in default policy when not given"},
		&cli.StringFlag{Name: "champion", Destination: &o.Champion, Usage: "the production system's `NAME`, overriding the policy's"},
		&cli.StringSliceFlag{Name: "challenger", Destination: &o.Challengers,
			Usage: "a challenger's `NAME` or glob (* any characters, ? one), repeatable; replaces the policy's challengers"},
		&cli.FloatFlag{Name: "loss-weight", Destination: &o.LossWeight, HideDefault: true,
			Usage: "losses count `W` times (W = 1 + α), overriding the policy's loss_weight (rules with their own keep theirs)"},
		&cli.FloatFlag{Name: "alpha", Destination: &o.Alpha, HideDefault: true, Usage: "the loss weight as W = 1 + `A` (not with --loss-weight)"},
		&cli.Uint64Flag{Name: "seed", Destination: &o.Seed, HideDefault: true, Usage: "`SEED` of every random procedure, overriding the policy's"},
		&cli.StringFlag{Name: "out", Destination: &o.Out,
			Usage: "write result.json, report.md, junit.xml and report.html into `DIR`, replaced as one set (riskgate's own folder: one holding other files is refused)"},
		formatFlag(&o.Format, gateFormats),
		&cli.StringFlag{Name: "risk-sweep", Destination: &o.RiskSweep, Value: defaultRiskSweep,
			Usage: "when a rule needs BRisk, also fit it at these loss weights `LIST` for the report's risk-against-loss-weight plot (\"\" for none; with the skew-normal family each fit takes seconds)"},
		&cli.IntFlag{Name: "worst", Destination: &o.Worst, Value: result.DefaultWorst,
			Usage: "list each challenger's `N` worst regressions (topics it loses most on) in every report"},
		&cli.StringFlag{Name: "max-memory", Destination: &o.MaxMemory, Value: defaultMaxMemory,
			Usage: "refuse, before any heavy work, a gate estimated to need more than `SIZE` of memory (e.g. 8GB, 512MB)"},
		&cli.BoolFlag{Name: "dry-run", Destination: &o.DryRun, Usage: "do everything, say what the verdict would be, and exit 0"},
		&cli.BoolFlag{Name: "example", Destination: &o.Example, Usage: "gate the built-in simulated example pool instead of INPUT files"},
		&cli.BoolFlag{Name: "progress", Destination: &o.Progress,
			Usage: "show progress on standard error even in CI or when it is not a terminal (by default only on a terminal outside CI)"},
		&cli.BoolFlag{Name: "verbose", Destination: &o.Publish.Verbose, Usage: "with --github, log each GitHub API request (never the token)"},
	}
	flags = append(flags, o.Input.flags()...)
	flags = append(flags, o.Publish.flags()...)
	return &cli.Command{
		Name:        "gate",
		Usage:       "apply a policy: decide pass, warn, fail or inconclusive for each challenger, write the reports, exit with the verdict",
		UsageText:   "riskgate gate [--policy FILE] [--champion NAME] [--challenger NAME...] [--out DIR] [--format table|md|json|junit] [--dry-run] [--github] [INPUT...]\nriskgate gate --example [--out DIR]",
		Description: gateDescription,
		Flags:       flags,
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			o.set = map[string]bool{}
			for _, name := range []string{"champion", "challenger", "loss-weight", "alpha", "seed", "risk-sweep", "input-format", "qrels", "measure", "topics"} {
				o.set[name] = c.IsSet(name)
			}
			return runGate(ctx, o, s)
		},
	}
}

// runGate is riskgate gate: policy → inputs → roles → requirements →
// analyses → decision → Result → reports → GitHub → exit status.
func runGate(ctx context.Context, o *gateOptions, s *streams) (err error) {
	now := time.Now
	if o.now != nil {
		now = o.now
	}
	start := now()
	// --out is riskgate's: locked for the whole run, marked with error.json
	// until its set is written, and with the error if the run ends in one.
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
	if err := o.Publish.check(); err != nil {
		return err
	}
	if err := reportfmt.CheckFormat(o.Format, gateFormats); err != nil {
		return err
	}
	if o.Example && len(o.Input.Paths) > 0 {
		return fmt.Errorf("--example gates the built-in pool; give INPUT files or --example, not both")
	}
	p, err := o.policy()
	if err != nil {
		return err
	}
	if o.Worst < 1 {
		return fmt.Errorf("--worst %d: expected a number of topics, at least 1", o.Worst)
	}
	sweep, err := parseLossWeights("--risk-sweep", o.RiskSweep)
	if err != nil {
		return err
	}
	if o.MaxMemory == "" {
		o.MaxMemory = defaultMaxMemory
	}
	maxMemory, err := parseMemory("--max-memory", o.MaxMemory)
	if err != nil {
		return err
	}
	if p.Model.Family != policies.Gaussian && !o.set["risk-sweep"] {
		sweep = nil // a skew-normal fit takes seconds: sweep only when asked
	}

	var (
		t       *scores.Table
		align   scores.Alignment
		sources []scores.Source
		inputs  []result.InputFile
	)
	if o.Example {
		t = engine.ExamplePool()
	} else {
		o.applyPolicyInputs(p)
		if t, align, sources, err = o.Input.loadSources(s.Err); err != nil {
			return err
		}
		inputs = inputFiles(sources)
	}
	if err := checkMemory(p, t, sweep, maxMemory); err != nil {
		return err
	}
	// The budget is also the garbage collector's target, so that garbage
	// never takes the heap over it.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(int64(min(maxMemory, math.MaxInt64/2))))
	prog := progress.New(s.Err, o.Progress)
	r, err := engine.Run(ctx, p, t, engine.Options{Now: start, Sweep: sweep, Worst: o.Worst, Alignment: align, Example: o.Example, Progress: prog})
	prog.Done()
	if err != nil {
		return err
	}
	r.DryRun = o.DryRun
	r.Provenance.Inputs = inputs
	r.Provenance.Command = o.replayCommand(p)
	r.Provenance.StartedAt = start.UTC().Format(time.RFC3339)
	r.Provenance.ElapsedMS = now().Sub(start).Milliseconds()

	reports, err := report.Files(r)
	if err != nil {
		return err
	}
	if testHookBeforeVerify != nil {
		testHookBeforeVerify()
	}
	// The reports name the inputs by digest: refuse to write them when an
	// input is no longer what was judged.
	if err := scores.VerifySources(sources); err != nil {
		return err
	}
	var jsonPath, mdPath string
	if set != nil {
		if err := writeReportSet(ctx, set, reports); err != nil {
			return err
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
		return err
	}

	rep := report.GitHub(r, string(reports["report.md"]))
	rep.JSONPath, rep.MarkdownPath = jsonPath, mdPath
	rep.Source = github.SourceThisJob // computed here, from this job's inputs
	if err := o.Publish.publish(ctx, rep, s); err != nil {
		return err
	}
	if o.DryRun {
		fmt.Fprintf(s.Err, "riskgate: dry run: the verdict would be %s (exit status %d); exiting 0\n", r.Verdict(), r.ExitStatus())
		return nil
	}
	if r.ExitStatus() != exitPass {
		return &statusError{Code: r.ExitStatus()}
	}
	return nil
}

// policy loads the policy (or the default) and applies the overrides.
func (o *gateOptions) policy() (*policies.Policy, error) {
	var p *policies.Policy
	if o.PolicyPath == "" {
		p = policies.Default()
	} else {
		var err error
		if p, err = policies.Load(o.PolicyPath); err != nil {
			return nil, err
		}
	}
	if o.set["champion"] {
		p.Champion, p.ChampionPos = o.Champion, policies.Pos{}
	}
	if o.set["challenger"] {
		p.Challengers = nil
		for _, c := range o.Challengers {
			p.Challengers = append(p.Challengers, policies.Pattern{Text: c})
		}
	}
	switch {
	case o.set["loss-weight"] && o.set["alpha"]:
		return nil, errors.New("give --loss-weight W or --alpha A (meaning W = 1 + A), not both")
	case o.set["loss-weight"]:
		p.LossWeight, p.FromAlpha = o.LossWeight, false
	case o.set["alpha"]:
		p.LossWeight, p.FromAlpha = 1+o.Alpha, true
	}
	if w := p.LossWeight; (o.set["loss-weight"] || o.set["alpha"]) && (!(w > 0) || math.IsInf(w, 0)) {
		return nil, fmt.Errorf("loss weight %v: expected a positive number (losses count W times; W = 1 + α)", w)
	}
	if o.set["seed"] {
		p.Seed = o.Seed
	}
	return p, nil
}

// applyPolicyInputs fills the inputs the command line leaves unset from the
// policy's inputs: paths (relative to the policy's folder) when no INPUT is
// given, and each input flag not given.
func (o *gateOptions) applyPolicyInputs(p *policies.Policy) {
	in := p.Inputs
	if len(o.Input.Paths) == 0 {
		o.Input.Paths = p.InputPaths()
	}
	if !o.set["input-format"] && in.Format != "" {
		o.Input.Format = in.Format
	}
	if !o.set["qrels"] && in.Qrels != "" {
		o.Input.Qrels = in.Qrels
		o.Input.QrelsFrom = "policy inputs.qrels"
		if at := in.QrelsPos; at.Line > 0 {
			o.Input.QrelsFrom = fmt.Sprintf("%s:%d:%d inputs.qrels", p.File, at.Line, at.Column)
		}
		if !filepath.IsAbs(in.Qrels) && p.File != "" && p.File != policies.StarterName {
			o.Input.Qrels = filepath.Join(filepath.Dir(p.File), in.Qrels)
		}
	}
	if !o.set["measure"] && in.Measure != "" {
		o.Input.Measure = in.Measure
	}
	if !o.set["topics"] && in.Topics != "" {
		o.Input.Topics = in.Topics
	}
}

// inputFiles are the inputs' provenance: the digest of each is of the bytes
// the loader parsed (scores.LoadSources reads every input once).
func inputFiles(sources []scores.Source) []result.InputFile {
	out := make([]result.InputFile, len(sources))
	for i, src := range sources {
		out[i] = result.InputFile{Role: src.Role, Path: src.Path, SHA256: src.SHA256, Bytes: src.Bytes}
	}
	return out
}

// testHookBeforeVerify, when a test sets it, runs after the analyses and
// before the inputs are verified, to change an input then.
var testHookBeforeVerify func()

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
	if o.set["champion"] {
		args = append(args, "--champion", o.Champion)
	}
	if o.set["challenger"] {
		for _, c := range o.Challengers {
			args = append(args, "--challenger", c)
		}
	}
	if o.set["loss-weight"] || o.set["alpha"] {
		args = append(args, "--loss-weight", numfmt.G(p.LossWeight))
	}
	args = append(args, "--seed", fmt.Sprint(p.Seed))
	if o.RiskSweep != defaultRiskSweep {
		args = append(args, "--risk-sweep", o.RiskSweep)
	}
	if o.Worst != result.DefaultWorst {
		args = append(args, "--worst", fmt.Sprint(o.Worst))
	}
	if !o.Example {
		for _, f := range []struct{ flag, value, def string }{
			{"--input-format", o.Input.Format, string(scores.Auto)}, {"--qrels", o.Input.Qrels, ""},
			{"--measure", o.Input.Measure, ""}, {"--topics", o.Input.Topics, string(scores.Intersect)},
		} {
			if f.value != f.def {
				args = append(args, f.flag, f.value)
			}
		}
		args = append(args, o.Input.Paths...)
	}
	for i, a := range args {
		args[i] = escape.Shell(a)
	}
	return strings.Join(args, " ")
}

// parseLossWeights parses a comma-separated list of loss weights (each > 0).
func parseLossWeights(flag, s string) ([]float64, error) {
	var ws []float64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		w, err := strconv.ParseFloat(f, 64)
		if err != nil || !(w > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("%s %q: expected loss weights > 0 separated by commas, e.g. 1,2,5,10", flag, s)
		}
		ws = append(ws, w)
	}
	return ws, nil
}
