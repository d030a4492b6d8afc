package gate

import (
	"context"
	"time"

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
each written atomically (other files in DIR are left alone). --github publishes to GitHub
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
			Usage: "write result.json, report.md, junit.xml and report.html into `DIR` (created if needed; other files are left alone)"},
		formatFlag(&o.Format, gateFormats),
		&cli.StringFlag{Name: "risk-sweep", Destination: &o.RiskSweep, Value: defaultRiskSweep,
			Usage: "when a rule needs BRisk, also fit it at these loss weights `LIST` for the report's risk-against-loss-weight plot (\"\" for none; with the skew-normal family each fit takes seconds)"},
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
