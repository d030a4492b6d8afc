package gate

import (
	"context"
	"fmt"
	"io"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/bayes/twosample"
	"github.com/riskgate/riskgate/gate/classify"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/urfave/cli/v3"
)

// classifyOptions are the settings of riskgate classify.
type classifyOptions struct {
	Truth, A, B string
	Positive    string
	Measure     string
	Paired      bool
	Unpaired    bool
	ROPE        string
	Draws       int
	Seed        uint64
	Level       float64
	Prior       float64
	Format      string
	Output      string
}

const classifyDescription = `Zhang et al.'s (SIGIR 2016) Bayesian comparison of two classifiers' predictions on the
same test documents. Each file lists one document per line, as a bare label or as
id<TAB>label; bare labels pair up by line, ids by id.

With --positive LABEL, one binary problem: LABEL against the rest. Without it, one binary
problem per label of the truth, then the macro average (mean over categories) and the
micro average (the measure of the pooled tables). The paired model (the default) counts
the eight joint outcomes of (truth, a, b); the unpaired model treats the classifiers
independently. Both posteriors are conjugate (Beta/Dirichlet, uniform priors) and drawn
exactly. For each problem: the posterior of the measure of a and of b and of their
difference δ, its HDI, the HDI+ROPE decision (much_better, better, equivalent, worse,
much_worse, undecided), the Savage–Dickey Bayes factor for δ = 0, and the sign test and
proportions test of accuracies that Zhang et al. tabulate beside them.`

func newClassifyCommand(s *streams) *cli.Command {
	o := &classifyOptions{}
	def := twosample.DefaultClassifierOptions()
	return &cli.Command{
		Name:        "classify",
		Usage:       "Bayesian comparison of two classifiers (Zhang et al. 2016): F1 posteriors, HDI+ROPE decisions, Bayes factors",
		UsageText:   "riskgate classify --truth FILE --a FILE --b FILE [--positive LABEL] [--measure f1|precision|recall|accuracy|fbeta:2] [--paired|--unpaired] [--rope -0.05,0.05] [--format table|md|json|csv]",
		Description: classifyDescription,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "truth", Destination: &o.Truth, Required: true, Usage: "`FILE` of true labels"},
			&cli.StringFlag{Name: "a", Destination: &o.A, Required: true, Usage: "`FILE` of classifier a's predictions"},
			&cli.StringFlag{Name: "b", Destination: &o.B, Required: true, Usage: "`FILE` of classifier b's predictions"},
			&cli.StringFlag{Name: "positive", Destination: &o.Positive, Usage: "compare on one binary problem: `LABEL` against the rest"},
			&cli.StringFlag{Name: "measure", Value: "f1", Destination: &o.Measure, Usage: "`MEASURE`: f1, precision, recall, accuracy or fbeta:B"},
			&cli.BoolFlag{Name: "paired", Destination: &o.Paired, Usage: "the paired model over joint outcomes (the default)"},
			&cli.BoolFlag{Name: "unpaired", Destination: &o.Unpaired, Usage: "the unpaired model (each classifier on its own)"},
			&cli.StringFlag{Name: "rope", Value: "-0.05,0.05", Destination: &o.ROPE, Usage: "bounds `LO,HI` of the region of practical equivalence of the difference"},
			&cli.IntFlag{Name: "draws", Value: def.Draws, Destination: &o.Draws, Usage: "`N` exact posterior draws (and as many prior draws)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Destination: &o.Seed, Usage: "`SEED` of the random draws"},
			&cli.FloatFlag{Name: "level", Value: def.CredMass, Destination: &o.Level, Usage: "`MASS` of the HDIs"},
			&cli.FloatFlag{Name: "prior", Value: def.Prior, Destination: &o.Prior, Usage: "every Beta/Dirichlet hyper-parameter `ALPHA` (1: uniform, as Zhang et al.)"},
			formatFlag(&o.Format, reportfmt.Formats),
			outputFlag(&o.Output),
		},
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Args().Len() > 0 {
				return fmt.Errorf("classify takes no positional arguments (got %q); name the files with --truth, --a and --b", c.Args().First())
			}
			return runClassify(o, s)
		},
	}
}

func (o *classifyOptions) settings() (twosample.ClassifierOptions, error) {
	opt := twosample.DefaultClassifierOptions()
	paired, err := checkPosteriorFlags(o.Paired, o.Unpaired, o.Draws, o.Level)
	if err != nil {
		return opt, err
	}
	opt.Paired, opt.Draws, opt.Seed, opt.CredMass = paired, o.Draws, o.Seed, o.Level
	m, err := twosample.ParseClassifierMeasure(o.Measure)
	if err != nil {
		return opt, fmt.Errorf("--measure: %w", err)
	}
	opt.Measure = m
	lo, hi, err := parseLoHi("--rope", o.ROPE)
	if err != nil {
		return opt, err
	}
	opt.ROPE = posterior.ROPE{Lo: lo, Hi: hi}
	if !(o.Prior > 0) || o.Prior > 1e6 {
		return opt, fmt.Errorf("--prior %v: expected a positive hyper-parameter", o.Prior)
	}
	opt.Prior = o.Prior
	return opt, reportfmt.CheckFormat(o.Format, reportfmt.Formats)
}

func runClassify(o *classifyOptions, s *streams) error {
	opt, err := o.settings()
	if err != nil {
		return err
	}
	var files [3]*classify.LabelFile
	for i, path := range []string{o.Truth, o.A, o.B} {
		if files[i], err = classify.ReadLabelFile(path); err != nil {
			return err
		}
	}
	truth := files[0]
	pa, pb, err := classify.AlignLabels(truth, files[1], files[2])
	if err != nil {
		return err
	}
	cats, err := classify.Categories(truth, pa, pb, [2]*classify.LabelFile{files[1], files[2]}, o.Positive)
	if err != nil {
		return err
	}
	if n := len(cats) * opt.Draws; n > 20*maxDraws {
		return fmt.Errorf("--draws %d × %d categories = %d draws per classifier; expected at most %d (lower --draws)", opt.Draws, len(cats), n, 20*maxDraws)
	}
	res, err := twosample.CompareClassifiers(cats, opt)
	if err != nil {
		return err
	}
	rep, err := classify.Build(res, cats, o.Truth, o.A, o.B, o.Positive, len(truth.Labels))
	if err != nil {
		return err
	}
	return writeOutput(s.Out, o.Output, func(w io.Writer) error { return classify.Write(w, rep, o.Format) })
}
