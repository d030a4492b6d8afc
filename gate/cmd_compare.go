package gate

import (
	"context"
	"fmt"
	"io"

	"github.com/riskgate/riskgate/gate/compare"
	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/policies"

	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/risk"
	"github.com/urfave/cli/v3"
)

// compareOptions are the options of riskgate compare.
type compareOptions struct {
	Input        *inputOptions
	Champion     string
	Challengers  []string // names or globs over system names (* and ?, as in policies)
	Loss         lossWeightFlags
	Level        float64
	Correction   string
	Pool         string // compared or all
	Format       string // table, md, json, csv
	RiskView     bool
	Seed         uint64
	Samples      int
	TukeySamples int
	Output       string  // file to write atomically; "" or "-" for standard output
	BRisk        bool    // fit the Bayesian risk model (BRisk)
	Family       string  // BRisk's likelihood: gaussian or skew_normal
	TargetESS    float64 // BRisk's ESS target; 0 = the family's default
}

const compareDescription = `Compares a champion with one or more challengers on per-topic scores: URisk, TRisk
(with its p-value), the BCa bootstrap interval of URisk (and the percentile interval),
ZRisk and GeoRisk (Dinçer et al. 2016), the paired and Welch t tests, the Wilcoxon
signed-rank test, the sign test, Fisher's randomisation test, Sakai's studentised
bootstrap test, Glass's Δ and Cohen's d, two- and one-way ANOVA, Tukey's HSD and the
randomised Tukey HSD, and BRisk (Benham et al. 2020): the hierarchical system/topic model fitted to
the risk-adjusted pool of every input system — the champion's scores kept, every other
system's replaced by champion + d with losses counted --loss-weight times — with each
system's effect, each challenger's difference to the champion and P(riskier), P(S_i > S_j)
and P(best), and the topics at risk (a challenger's risk-adjusted difference below its
posterior predictive interval). Every system that is neither the champion nor a
challenger is an artifact: it is reported, joins BRisk's pool, and joins ZRisk, GeoRisk,
ANOVA and Tukey only with --pool all.

Every measure is reward-positive (higher is better); --risk-view prints the table and md
views with Benham et al.'s risk-oriented "⁻" signs. Losses count --loss-weight times
(w = 1 + α; --alpha A means w = 1 + A). Intervals are simultaneous over the challengers
at 1 − (1 − level)/m unless --correction none; p-values are adjusted by the correction.`

func newCompareCommand(s *streams) *cli.Command {
	o := &compareOptions{Input: newInputOptions(s)}
	return &cli.Command{
		Name:        "compare",
		Usage:       "compare a champion with challengers: risk measures (Table 3 of Benham et al.) and classical tests",
		UsageText:   "riskgate compare --champion NAME --challenger NAME... [--loss-weight 2] [--level 0.95] [--correction bonferroni] [--format table|md|json|csv] INPUT...",
		Description: compareDescription,
		Flags:       o.flags(),
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			return runCompare(ctx, o, s)
		},
	}
}

func (o *compareOptions) flags() []cli.Flag {
	// Without flags, compare computes what the gate computes with the
	// default policy: the defaults table's loss weight, level, correction,
	// seed and B.
	def := policies.DefaultSettings()
	flags := []cli.Flag{
		&cli.StringFlag{Name: "champion", Destination: &o.Champion, Required: true, Usage: "the production system's `NAME`"},
		&cli.StringSliceFlag{Name: "challenger", Destination: &o.Challengers, Required: true,
			Usage: "a challenger's `NAME`, or a glob over system names (* any run of characters, ? one character); repeat for several"},
	}
	flags = append(flags, o.Loss.flags(def.LossWeight,
		"losses count `W` times in URisk, TRisk, the bootstrap and ZRisk/GeoRisk (W = 1 + α; Benham et al.'s r)",
		"the loss weight as TREC and Wang et al. write it: W = 1 + `A` (not with --loss-weight)")...)
	flags = append(flags,
		&cli.FloatFlag{Name: "level", Value: def.Level, Destination: &o.Level, Usage: "confidence `LEVEL` before correction"},
		&cli.StringFlag{Name: "correction", Value: string(def.Correction), Destination: &o.Correction,
			Usage: "multiple-comparison `CORRECTION` over the challengers: bonferroni, holm, bh, none"},
		&cli.StringFlag{Name: "pool", Value: "compared", Destination: &o.Pool,
			Usage: "`SYSTEMS` for ZRisk, GeoRisk, ANOVA and Tukey HSD: compared (champion and challengers) or all"},
		formatFlag(&o.Format, reportfmt.Formats),
		&cli.BoolFlag{Name: "risk-view", Destination: &o.RiskView, Usage: "print table/md with risk-oriented signs (URisk⁻ = −URisk …), as Benham et al.'s Table 3"},
		&cli.Uint64Flag{Name: "seed", Value: def.Seed, Destination: &o.Seed, Usage: "`SEED` of every randomised procedure"},
		&cli.IntFlag{Name: "samples", Value: def.BootstrapSamples, Destination: &o.Samples,
			Usage: "`B` bootstrap replicates (BCa, percentile, Sakai's test) and randomisation-test sign flips"},
		&cli.IntFlag{Name: "tukey-samples", Value: 10_000, Destination: &o.TukeySamples,
			Usage: "`B` of the randomised Tukey HSD (0 skips it)"},
		outputFlag(&o.Output),
		&cli.BoolFlag{Name: "brisk", Value: true, Destination: &o.BRisk,
			Usage: "fit BRisk, the Bayesian hierarchical model on the risk-adjusted pool (--brisk=false skips the MCMC)"},
		&cli.StringFlag{Name: "family", Value: "gaussian", Destination: &o.Family, Usage: familyFlagUsage},
		&cli.FloatFlag{Name: "target-ess", Destination: &o.TargetESS, HideDefault: true,
			Usage: "BRisk samples until every bulk- and tail-ESS reaches `N` (default 10000 gaussian, 2000 skew_normal)"},
	)
	return append(flags, o.Input.flags()...)
}

// maxResamples bounds --samples and --tukey-samples: 8 bytes a replicate
// per challenger and statistic, 10 million of them already minutes of work.
const maxResamples = 10_000_000

// settings validates the options that do not need the data.
func (o *compareOptions) settings() (compare.Settings, error) {
	cfg := compare.Settings{Level: o.Level, PoolAll: o.Pool == "all", Seed: o.Seed, Samples: o.Samples, TukeySamples: o.TukeySamples}
	w, _, _, err := o.Loss.resolve()
	if err != nil {
		return cfg, err
	}
	cfg.LossWeight = w
	if !(o.Level > 0 && o.Level < 1) {
		return cfg, fmt.Errorf("--level %v: expected a confidence level strictly between 0 and 1", o.Level)
	}
	c, err := risk.ParseCorrection(o.Correction)
	if err != nil {
		return cfg, fmt.Errorf("--correction: %w", err)
	}
	cfg.Correction = c
	if o.Pool != "compared" && o.Pool != "all" {
		return cfg, fmt.Errorf("--pool %q: expected compared or all", o.Pool)
	}
	if err := reportfmt.CheckFormat(o.Format, reportfmt.Formats); err != nil {
		return cfg, fmt.Errorf("%w (input formats go in --input-format)", err)
	}
	if o.Samples < 100 || o.Samples > maxResamples {
		return cfg, fmt.Errorf("--samples %d: expected 100 to %s replicates", o.Samples, numfmt.Thousands(maxResamples))
	}
	if o.TukeySamples < 0 || o.TukeySamples > maxResamples {
		return cfg, fmt.Errorf("--tukey-samples %d: expected 0 (skip) to %s", o.TukeySamples, numfmt.Thousands(maxResamples))
	}
	cfg.Brisk = o.BRisk
	if cfg.Family, err = parseFamily(o.Family); err != nil {
		return cfg, err
	}
	cfg.TargetESS = o.TargetESS
	if cfg.TargetESS == 0 {
		cfg.TargetESS = defaultTargetESS(cfg.Family)
	}
	if err := checkTargetESS(cfg.TargetESS, 1, 4, 0); err != nil { // BRisk: 4 chains, drawn to the target
		return cfg, err
	}
	return cfg, nil
}

func runCompare(ctx context.Context, o *compareOptions, s *streams) error {
	cfg, err := o.settings()
	if err != nil {
		return err
	}
	cfg.Context = ctx
	t, align, err := o.Input.load(s.Err)
	if err != nil {
		return err
	}
	champ, err := engine.LookupSystem(t, "champion", o.Champion)
	if err != nil {
		return err
	}
	challengers, err := engine.MatchChallengers(t, o.Challengers, champ)
	if err != nil {
		return err
	}
	rep, err := compare.Build(t, champ, challengers, cfg)
	if err != nil {
		return err
	}
	if align.Summary() != "" {
		rep.Alignment = &align
	}
	return writeOutput(s.Out, o.Output, func(w io.Writer) error { return compare.Write(w, rep, o.Format, o.RiskView) })
}
