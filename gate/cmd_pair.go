package gate

import (
	"context"
	"fmt"
	"io"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/bayes/twosample"
	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/pair"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/urfave/cli/v3"
)

// pairOptions are the settings of riskgate pair.
type pairOptions struct {
	Input      *inputOptions
	A, B       string
	Paired     bool
	Unpaired   bool
	Thresholds string
	ROPE       string
	ROPEGlass  string
	ROPERho    string
	Draws      int
	Seed       uint64
	Level      float64
	Format     string
	Output     string
}

const pairDescription = `Sakai's (SIGIR 2017) Bayesian tests of two systems' per-topic scores. The paired model
is a bivariate normal over the topics both systems scored; the unpaired model, two
independent normals. Both have flat priors, and both posteriors are drawn exactly
(no MCMC): --draws independent draws, so Monte Carlo error is sd/√draws.

For diff = μ_a − μ_b, Glass's Δ with either baseline (glass1 = diff/σ_a,
glass2 = diff/σ_b) and, paired, the correlation rho: the posterior mean (EAP), sd,
credible interval, highest-density interval, P(quantity > threshold), and the HDI+ROPE
decision of Zhang et al. (SIGIR 2016): much_better (HDI above the ROPE), better (HDI
leaves the ROPE upwards only), equivalent (HDI inside), worse, much_worse, undecided
(HDI wider than the ROPE on both sides). Beside them, the classical paired t-test (or
Welch's t-test) with the one-sided p-value of H1: μ_a > μ_b and its confidence interval.`

func newPairCommand(s *streams) *cli.Command {
	o := &pairOptions{Input: newInputOptions(s)}
	return &cli.Command{
		Name:        "pair",
		Usage:       "Bayesian comparison of two systems (Sakai 2017): P(H|D), credible intervals, Glass's Δ, ROPE decisions",
		UsageText:   "riskgate pair --challenger NAME --champion NAME [--paired|--unpaired] [--threshold diff=0,glass=0.2,rho=0.9] [--rope -0.01,0.01] [--format table|md|json|csv] INPUT...",
		Description: pairDescription,
		Flags:       o.flags(),
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			return runPair(o, s)
		},
	}
}

func (o *pairOptions) flags() []cli.Flag {
	def := twosample.DefaultOptions()
	flags := []cli.Flag{
		&cli.StringFlag{Name: "challenger", Aliases: []string{"a"}, Destination: &o.A, Required: true, Usage: "system `NAME` of the challenger (system a, 1)"},
		&cli.StringFlag{Name: "champion", Aliases: []string{"b"}, Destination: &o.B, Required: true, Usage: "system `NAME` of the baseline, e.g. the champion (system b, 2)"},
		&cli.BoolFlag{Name: "paired", Destination: &o.Paired, Usage: "Sakai's paired model over the topics both systems scored (the default)"},
		&cli.BoolFlag{Name: "unpaired", Destination: &o.Unpaired, Usage: "Sakai's unpaired model (two independent normals; Welch's t-test beside it)"},
		&cli.StringFlag{Name: "threshold", Value: "diff=0,glass=0.2,rho=0.9", Destination: &o.Thresholds,
			Usage: "thresholds of P(quantity > threshold) as `KEY=VALUE,...`; keys diff, glass (both), glass1, glass2, rho"},
		&cli.StringFlag{Name: "rope", Value: "-0.01,0.01", Destination: &o.ROPE,
			Usage: "bounds `LO,HI` of the region of practical equivalence of diff, on the measure's scale"},
		&cli.StringFlag{Name: "rope-glass", Value: "-0.1,0.1", Destination: &o.ROPEGlass,
			Usage: "bounds `LO,HI` of the region of practical equivalence of Glass's Δ (Kruschke: half a small effect)"},
		&cli.StringFlag{Name: "rope-rho", Value: "-0.1,0.1", Destination: &o.ROPERho,
			Usage: "bounds `LO,HI` of the region of practical equivalence of rho"},
		&cli.IntFlag{Name: "draws", Value: def.Draws, Destination: &o.Draws, Usage: "`N` exact posterior draws"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Destination: &o.Seed, Usage: "`SEED` of the random draws"},
		&cli.FloatFlag{Name: "level", Value: def.CredMass, Destination: &o.Level,
			Usage: "`MASS` of the credible intervals, HDIs and the classical confidence interval"},
		formatFlag(&o.Format, reportfmt.Formats),
		outputFlag(&o.Output),
	}
	return append(flags, o.Input.flags()...)
}

// settings validates the options that do not need the data.
func (o *pairOptions) settings() (twosample.Options, error) {
	opt := twosample.DefaultOptions()
	paired, err := checkPosteriorFlags(o.Paired, o.Unpaired, o.Draws, o.Level)
	if err != nil {
		return opt, err
	}
	opt.Paired, opt.Draws, opt.Seed, opt.CredMass = paired, o.Draws, o.Seed, o.Level
	th, err := pair.ParseThresholds(o.Thresholds, opt.Thresholds)
	if err != nil {
		return opt, err
	}
	opt.Thresholds = th
	for _, r := range []struct {
		flag, value string
		dst         *posterior.ROPE
	}{{"--rope", o.ROPE, &opt.ROPEs.Diff}, {"--rope-glass", o.ROPEGlass, &opt.ROPEs.Glass}, {"--rope-rho", o.ROPERho, &opt.ROPEs.Rho}} {
		lo, hi, err := parseLoHi(r.flag, r.value)
		if err != nil {
			return opt, err
		}
		*r.dst = posterior.ROPE{Lo: lo, Hi: hi}
	}
	if err := reportfmt.CheckFormat(o.Format, reportfmt.Formats); err != nil {
		return opt, fmt.Errorf("%w (input formats go in --input-format)", err)
	}
	return opt, nil
}

func runPair(o *pairOptions, s *streams) error {
	opt, err := o.settings()
	if err != nil {
		return err
	}
	if o.A == o.B {
		return fmt.Errorf("--a and --b name the same system %q", o.A)
	}
	t, align, err := o.Input.load(s.Err)
	if err != nil {
		return err
	}
	ia, err := engine.LookupSystem(t, "--a", o.A)
	if err != nil {
		return err
	}
	ib, err := engine.LookupSystem(t, "--b", o.B)
	if err != nil {
		return err
	}
	rep, err := pair.Build(t.Measure, o.A, o.B, t.Topics, t.Scores[ia], t.Scores[ib], opt)
	if err != nil {
		return err
	}
	rep.Alignment = align
	return writeOutput(s.Out, o.Output, func(w io.Writer) error { return pair.Write(w, rep, o.Format) })
}
