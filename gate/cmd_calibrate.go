package gate

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/calibrate"

	"github.com/riskgate/riskgate/gate/engine"

	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/progress"
	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// calibrateOptions are the options of riskgate calibrate.
type calibrateOptions struct {
	Input      *inputOptions
	PolicyPath string // "" for the built-in default policy
	// Overrides of the policy's roles and loss weight, as riskgate gate's
	// (not --seed, which here seeds the simulation, not the policy's analyses).
	Overrides policyOverrides

	Example   bool
	Reps      int
	Artifacts optional[int]     // artifacts per simulated pool; the pool's own number when not given
	SDSystem  optional[float64] // the simulated pools' system spread; estimated when not given
	// GuardrailEffect is the true effect of every measure but the primary
	// in the effects axis's cells of a policy of several measures [0].
	GuardrailEffect optional[float64]
	Effects         string // comma-separated true effects
	EffectsSet      bool   // --effects was given (a policy with by: rules has its own default)
	Risks           string // comma-separated risk scales
	// Topics is the topics file of a policy with by: rules (--topics-file,
	// else the policy's inputs.topics_file); SegmentDeltas and SegmentSizes
	// the regressions its scenarios put in one segment, and its size.
	Topics        topicsFileOptions
	SegmentDeltas string
	SegmentSizes  string
	MinEffect     float64
	Seed          uint64 // of the simulation; the analyses keep the policy's seed
	// MaxMemory is the memory budget (--max-memory), as riskgate gate's.
	MaxMemory string
	Format    string
	Output    string
	Progress  bool

	deps // the clock (waiver expiry in every simulated run), the memory limit
	// estimate is the memory the calibration is estimated to need and
	// maxMemory the budget, in bytes (resolve).
	estimate, maxMemory float64
}

// calibrateFewer is what a calibration over the memory limit could do
// instead of raising it.
const calibrateFewer = "ask for fewer --reps, --effects or --risks"

// calibrateFormats are calibrate's output formats.
var calibrateFormats = []string{"table", "md", "json", "csv", "html"}

const calibrateDescription = `How often would this policy ship a challenger that is truly harmful — worse than the
champion, or riskier than the policy allows — and how often would it ship one that is truly
better? calibrate answers for your policy on pools like yours:

 1. It estimates how your pool was generated (by moments, no MCMC): from the champion and
    the artifacts the intercept, the residual σ and the topic and system spreads (the
    two-way ANOVA's variance components); from the challengers' per-topic differences to
    the champion their spread and skewness (the shape of the losses the risk measures
    weigh).
 2. For each cell of the grid --effects × --risks it simulates --reps pools of your size:
    topic and system effects drawn from those spreads, the champion and the artifacts from
    the hierarchical model, one challenger paired with the champion topic by topic (its
    differences skew-normal with your skewness and your spread times the cell's risk scale),
    every score clamped to [0, 1]. The effect is on the score scale: the challenger's
    expected score minus the champion's over the population of topics; its shift is solved
    so that clamping does not bias it.
 3. It computes each cell's truth — the challenger's true mean difference and its true
    risk-adjusted difference at the loss weight of the policy's risk rule — and the class
    the policy's own definition gives it: harmful (mean effect ≤ 0, or risk-adjusted
    difference below minus the rule's margin), beneficial (at least --min-effect better and
    not harmful), or neutral.
 4. It runs the gate's own decision on each pool — the same analyses, seed and rules as
    riskgate gate — and reports, per cell, the pass, warn, fail and inconclusive rates with
    Monte Carlo standard errors, and the ship rate (pass or warn: the gate exits 0) with
    Wilson's 95% interval; and the headlines: the worst false-ship rate over the harmful
    cells and the worst power over the beneficial ones.

The shape of the simulated challenger's differences comes from every challenger the
policy finds in your pool; name one with --challenger to simulate challengers like it.
--artifacts N simulates pools with N artifacts instead of yours: how the policy would do
on day one (0) or with a larger pool of earlier runs. With fewer artifacts than the
policy's requirements.min_artifacts the system spread is not estimated by moments but is
the posterior median under the day-one prior the gate's Bayesian rules then use
(ir_pools; docs/fit.md), and the report says so; --sd-system sets it yourself.

A policy whose rules use several measures (a primary that must improve, guardrails that
must not regress) is calibrated on pools resampled from your data instead: your topics
drawn with replacement, each with every system's scores on every measure (so the pools
keep how your measures move together), the challenger the champion shifted per measure
plus one of your challengers' centred improvements on the topic. Its cells are --effects
on the primary measure (every other measure at --guardrail-effect, 0 by default) and one
cell at the null edge of each fail rule, the other measures clearly passing; each cell
also gives the ship rate of the primary rules alone and which rule blocked how many pools.

Pools are simulated and judged in parallel on every core, each from its own random
stream PCG(--seed, cell index·2³² + replicate): the output is the same whatever the
number of cores. --format html writes a page with the operating-characteristic curves
and a heat map of the grid. --example calibrates on the built-in example pool (riskgate
gate --example's).`

func newCalibrateCommand(s *streams, d deps) *cli.Command {
	o := &calibrateOptions{Input: newInputOptions(s), deps: d}
	flags := []cli.Flag{
		&cli.StringFlag{Name: "policy", Destination: &o.PolicyPath, Usage: "the policy `FILE` (YAML); the built-in default policy when not given"},
	}
	flags = append(flags, o.Overrides.flags("a challenger's `NAME` or glob, repeatable; replaces the policy's (the first one names the simulated challenger)",
		"losses count `W` times, overriding the policy's loss_weight")...)
	flags = append(flags,
		&cli.BoolFlag{Name: "example", Destination: &o.Example, Usage: "calibrate on the built-in simulated example pool instead of INPUT files"},
		&cli.IntFlag{Name: "reps", Value: 500, Destination: &o.Reps, Usage: "`N` simulated pools per effect"},
		&cli.IntFlag{Name: "artifacts", Destination: &o.Artifacts.Value, Action: o.Artifacts.given, HideDefault: true,
			Usage: "`N` artifacts in every simulated pool (default: as many as your pool has): how the policy would do with a pool of earlier runs of that size"},
		&cli.FloatFlag{Name: "sd-system", Destination: &o.SDSystem.Value, Action: o.SDSystem.given, HideDefault: true,
			Usage: "the system spread `SD` of the simulated pools, instead of your pool's estimate (for a pool too small to estimate it)"},
		&cli.FloatFlag{Name: "guardrail-effect", Destination: &o.GuardrailEffect.Value, Action: o.GuardrailEffect.given, HideDefault: true,
			Usage: "for a policy of several measures, the true `EFFECT` on every measure but the primary in the cells of --effects, each in its own units, in its improving direction (default 0: unchanged)"},
		&cli.StringFlag{Name: "effects", Value: calibrate.DefaultEffects, Destination: &o.Effects, Usage: "the challenger's true mean `EFFECTS`, comma-separated, on the score scale (with by: rules: its overall effects, 0.03 unless given)",
			Action: func(context.Context, *cli.Command, string) error { o.EffectsSet = true; return nil }},
		&cli.StringFlag{Name: "segment-deltas", Value: calibrate.DefaultSegmentDeltas, Destination: &o.SegmentDeltas,
			Usage: "with by: rules, the true `DIFFERENCES` of the challenger in its regressing segment, comma-separated (each a scenario beside the uniformly better one)"},
		&cli.StringFlag{Name: "segment-sizes", Destination: &o.SegmentSizes,
			Usage: "with by: rules, the `SIZES` (topics) of the regressing segment, comma-separated (default: your dimension's mean segment size)"},
		&cli.StringFlag{Name: "risks", Value: calibrate.DefaultRisks, Destination: &o.Risks,
			Usage: "`SCALES` of the challenger's per-topic differences relative to your pool's, comma-separated: 1 is your challengers' spread, 2 twice it (more and larger losses at the same mean)"},
		&cli.FloatFlag{Name: "min-effect", Value: 0.05, Destination: &o.MinEffect,
			Usage: "the smallest `EFFECT` that matters: the ship rate of a challenger this much better, or more, that is not riskier is the power"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Destination: &o.Seed, Usage: "`SEED` of the simulation (the analyses use the policy's seed, as the gate does)"},
		&cli.StringFlag{Name: "max-memory", Destination: &o.MaxMemory, Value: defaultMaxMemory,
			Usage: "refuse, before any heavy work, a calibration estimated to need more than `SIZE` of memory (e.g. 8GB, 512MB)"},
		formatFlag(&o.Format, calibrateFormats),
		outputFlag(&o.Output),
		&cli.BoolFlag{Name: "progress", Destination: &o.Progress,
			Usage: "show progress on standard error even when it is not a terminal (by default only on a terminal outside CI)"},
	)
	flags = append(flags, o.Topics.flags()...)
	return &cli.Command{
		Name:        "calibrate",
		Usage:       "measure a policy's false-ship rate and power on simulated pools like yours",
		UsageText:   "riskgate calibrate [--policy FILE] [--champion NAME] [--challenger NAME...] [--reps 500] [--artifacts N] [--sd-system SD] [--effects " + calibrate.DefaultEffects + "] [--risks 0.5,1,2] [--min-effect 0.05] [--seed S] [--format table|md|json|csv|html] [-o FILE] INPUT...\nriskgate calibrate --policy FILE [--guardrail-effect E] [...] INPUT... (a policy of several measures)\nriskgate calibrate --example [...]",
		Description: calibrateDescription,
		Flags:       append(flags, o.Input.flags()...),
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			return runCalibrate(ctx, o, s)
		},
	}
}

// runCalibrate is riskgate calibrate: resolve (flags and policy → the
// pool and the grid), run (calibrate.Run, with progress), emit (the report).
func runCalibrate(ctx context.Context, o *calibrateOptions, s *streams) error {
	maxMemory, err := memoryBudget(o.MaxMemory)
	if err != nil {
		return err
	}
	// The budget, as the gate's: the garbage collector's limit while the
	// pool loads (charged to it before it is read), then the estimate's.
	defer o.setMemoryLimit(o.setMemoryLimit(int64(min(maxMemory, math.MaxInt64/2))))
	p, ts, c, err := o.resolve(s, maxMemory)
	if err != nil {
		return err
	}
	rep, err := o.run(ctx, p, ts, c, s)
	if err != nil {
		return err
	}
	return writeOutput(s.Out, o.Output, func(w io.Writer) error { return rep.Write(w, o.Format) })
}

// resolve checks the flags and loads the policy with the overrides given —
// exactly as riskgate gate reads them — and the pool: the policy's inputs
// where the flags leave them unset, or the built-in example — within the
// memory budget; and it refuses a calibration estimated to need more
// (calibrate.EstimateMemory), making an accepted estimate the garbage
// collector's limit.
func (o *calibrateOptions) resolve(s *streams, maxMemory float64) (*policies.Policy, engine.Tables, calibrate.Settings, error) {
	var c calibrate.Settings
	if err := reportfmt.CheckFormat(o.Format, calibrateFormats); err != nil {
		return nil, nil, c, err
	}
	if o.Reps < 1 {
		return nil, nil, c, fmt.Errorf("--reps %d: expected 1 or more pools per effect", o.Reps)
	}
	if o.Reps > calibrate.MaxReps {
		return nil, nil, c, fmt.Errorf("--reps %d: expected at most %s pools per effect", o.Reps, numfmt.Thousands(calibrate.MaxReps))
	}
	if o.Artifacts.Set && (o.Artifacts.Value < 0 || o.Artifacts.Value > maxCalibrateArtifacts) {
		return nil, nil, c, fmt.Errorf("--artifacts %d: expected 0 to %d artifacts per simulated pool", o.Artifacts.Value, maxCalibrateArtifacts)
	}
	if o.SDSystem.Set && !(o.SDSystem.Value >= 0 && o.SDSystem.Value < 1) {
		return nil, nil, c, fmt.Errorf("--sd-system %v: expected a standard deviation on the score scale, at least 0 and below 1", o.SDSystem.Value)
	}
	effects, err := calibrate.ParseEffects(o.Effects)
	if err != nil {
		return nil, nil, c, err
	}
	risks, err := calibrate.ParseRisks(o.Risks)
	if err != nil {
		return nil, nil, c, err
	}
	if !(o.MinEffect > 0 && o.MinEffect < 1) {
		return nil, nil, c, fmt.Errorf("--min-effect %v: expected a number between 0 and 1 (exclusive)", o.MinEffect)
	}
	if o.Example && len(o.Input.Paths) > 0 {
		return nil, nil, c, fmt.Errorf("--example calibrates on the built-in pool; give INPUT files or --example, not both")
	}
	p, err := o.Overrides.loadPolicy(o.PolicyPath)
	if err != nil {
		return nil, nil, c, err
	}
	var ts engine.Tables
	switch {
	case o.Example && len(p.RuleMeasures()) > 0:
		return nil, nil, c, fmt.Errorf("--example is a pool of one measure, and the policy's rules name measures (%s): calibrate it on inputs that hold them", strings.Join(p.RuleMeasures(), ", "))
	case o.Example:
		ts = engine.Tables{engine.ExamplePool()}
	case len(p.RuleMeasures()) > 0:
		// Every measure the rules use, read once, as the gate reads them.
		o.Input.fromPolicy(p)
		o.Input.MaxMemory = maxMemory
		if ts, _, _, _, err = loadRuleMeasures(p, *o.Input, s.Err); err != nil {
			return nil, nil, c, loadRefusal(err, calibrateFewer)
		}
	default:
		o.Input.fromPolicy(p)
		o.Input.MaxMemory = maxMemory
		t, _, err := o.Input.load(s.Err)
		if err != nil {
			return nil, nil, c, loadRefusal(err, calibrateFewer)
		}
		ts = engine.Tables{t}
	}
	c = calibrate.Settings{Reps: o.Reps, Effects: effects, Risks: risks, MinEffect: o.MinEffect, Seed: o.Seed, Now: o.now()}
	if len(p.Dimensions()) > 0 {
		if err := o.resolveSegments(p, ts, &c, s); err != nil {
			return nil, nil, c, err
		}
	}
	if o.Artifacts.Set {
		c.Artifacts = &o.Artifacts.Value
	}
	if o.SDSystem.Set {
		c.SDSystem = &o.SDSystem.Value
	}
	if o.GuardrailEffect.Set {
		if len(ts) == 1 {
			return nil, nil, c, fmt.Errorf("--guardrail-effect %v: the policy's rules use one measure (%s); it sets the effect on the other measures of a policy of several", o.GuardrailEffect.Value, ts[0].Measure)
		}
		if v := o.GuardrailEffect.Value; math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, c, fmt.Errorf("--guardrail-effect %v: expected a finite number", v)
		}
		c.GuardrailEffect = o.GuardrailEffect.Value
	}
	total, parts := calibrate.EstimateMemory(p, ts, c)
	if err := checkMemory("this calibration", total, parts, maxMemory, calibrateFewer); err != nil {
		return nil, nil, c, err
	}
	o.setMemoryLimit(gcLimit(total))
	o.estimate, o.maxMemory = total, maxMemory
	return p, ts, c, nil
}

// maxCalibrateArtifacts bounds --artifacts: a simulated pool holds
// (artifacts + 2) × topics scores per replicate, in parallel on every core.
const maxCalibrateArtifacts = 10_000

// run calibrates policy p on pools like t, with a progress line every 5%
// of the pools decided (one line each with --progress in a log).
func (o *calibrateOptions) run(ctx context.Context, p *policies.Policy, ts engine.Tables, c calibrate.Settings, s *streams) (*calibrate.Report, error) {
	prog := progress.New(s.Err, o.Progress)
	prog.Phase(fmt.Sprintf("memory estimate %s (limit %s)", formatMemory(o.estimate), formatMemory(o.maxMemory)))
	started := time.Now()
	c.Progress = func(done, total int) {
		if step := max(1, total/20); done%step == 0 || done == total {
			prog.Phase(progress.Bar("deciding simulated pools", done, total, time.Since(started)))
		}
	}
	rep, err := calibrate.Run(ctx, p, ts, c)
	prog.Done()
	return rep, err
}

// resolveSegments reads the topics file of a policy with by: rules and the
// segment scenarios' flags into c: the overall effects are --effects when
// given, else calibrate.DefaultSegmentEffect.
func (o *calibrateOptions) resolveSegments(p *policies.Policy, ts engine.Tables, c *calibrate.Settings, s *streams) error {
	if o.Example {
		return fmt.Errorf("--example has no topics file: calibrate a policy with by: rules on INPUT files and a --topics-file")
	}
	if o.Format == "html" {
		return fmt.Errorf("--format html: a calibration of by: rules has no figure yet; use table, md, json or csv")
	}
	a, _, warnings, err := o.Topics.forPolicy(p, ts[0].Topics)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(s.Err, "riskgate: warning: "+w)
	}
	c.Attributes = a
	if !o.EffectsSet {
		c.Effects = []float64{calibrate.DefaultSegmentEffect}
	}
	if c.SegmentDeltas, err = calibrate.ParseEffects(o.SegmentDeltas); err != nil {
		return fmt.Errorf("--segment-deltas %q: expected distinct differences between -1 and 1 on the score scale, e.g. %s", o.SegmentDeltas, calibrate.DefaultSegmentDeltas)
	}
	if o.SegmentSizes == "" {
		return nil
	}
	for _, f := range strings.Split(o.SegmentSizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 {
			return fmt.Errorf("--segment-sizes %q: expected numbers of topics, 2 or more, comma-separated", o.SegmentSizes)
		}
		c.SegmentSizes = append(c.SegmentSizes, n)
	}
	return nil
}
