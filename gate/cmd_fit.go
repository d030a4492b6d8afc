package gate

import (
	"context"
	"fmt"
	"io"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/fit"
	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/internal/atomicfile"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/urfave/cli/v3"
)

// fitOptions are the options of riskgate fit.
type fitOptions struct {
	Input       *inputOptions
	Champion    string
	Challengers []string // names or globs (* and ?, as in policies)
	Chains      int
	Draws       int // per chain; 0 = enough for TargetESS on the collapsed path
	Warmup      int
	Seed        uint64
	// TargetESS is the ESS sampled to; not given, the family's default.
	TargetESS optional[float64]
	MaxDraws  int
	Method    string
	Format    string // output format: table, md, json, csv
	Output    string // report file; "" = standard output
	DrawsOut  string

	PriorIntercept, PriorSigma, PriorTau, PriorSD string

	LossWeight       float64 // 1: the scores; otherwise the BRisk pool
	Family           string  // gaussian or skew_normal
	Forecast         bool    // every cell's posterior predictive interval in the JSON report
	PoolSweep        string  // artifact counts, e.g. "1,5,10,20,40"
	PriorSensitivity bool
}

func newFitCommand(s *streams) *cli.Command {
	o := &fitOptions{Input: newInputOptions(s)}
	flags := []cli.Flag{
		&cli.StringFlag{Name: "champion", Required: true, Destination: &o.Champion, Usage: "the production system's `NAME`"},
		&cli.StringSliceFlag{Name: "challenger", Destination: &o.Challengers, Usage: "a challenger's `NAME` or glob (repeatable); every other system is an artifact"},
		&cli.IntFlag{Name: "chains", Value: 4, Destination: &o.Chains, Usage: "number of MCMC chains (run in parallel)"},
		&cli.IntFlag{Name: "draws", Destination: &o.Draws, HideDefault: true, Usage: "kept draws per chain (default: 1.4 × target-ess / chains on the collapsed path, 1000 on the general path)"},
		&cli.IntFlag{Name: "warmup", Value: 1000, Destination: &o.Warmup, Usage: "warmup (adaptation) iterations per chain"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Destination: &o.Seed, Usage: "random seed; the same seed, input and settings give the same output"},
		&cli.FloatFlag{Name: "target-ess", Value: 10000, Destination: &o.TargetESS.Value, Action: o.TargetESS.given, HideDefault: true,
			Usage: "keep sampling until every bulk- and tail-ESS reaches `ESS` (up to --max-draws; default 10000, 2000 with --family skew_normal)"},
		&cli.IntFlag{Name: "max-draws", Destination: &o.MaxDraws, HideDefault: true, Usage: "cap on draws per chain when sampling on for --target-ess (default 10 × the initial draws)"},
		&cli.StringFlag{Name: "method", Value: string(bayes.MethodAuto), Destination: &o.Method,
			Usage: "`METHOD`: auto, collapsed (effects integrated out and drawn exactly; needs a normal intercept prior), general (NUTS on rstanarm's full density)"},
		&cli.StringFlag{Name: "prior-intercept", Destination: &o.PriorIntercept, Usage: "intercept prior `DIST`, e.g. normal(0.3, 0.5) (default rstanarm's normal(mean y, 2.5 sd y))"},
		&cli.StringFlag{Name: "prior-sigma", Destination: &o.PriorSigma, Usage: "residual SD prior `DIST`, e.g. exponential(5) (default rstanarm's exponential(1/sd y))"},
		&cli.StringFlag{Name: "prior-tau", Destination: &o.PriorTau, Usage: "prior `DIST` of τ in group SD = τ·σ, rstanarm's decov (default gamma(1, 1))"},
		&cli.StringFlag{Name: "prior-sd", Destination: &o.PriorSD, Usage: "prior `DIST` on each group SD itself, brms style, e.g. half_student_t(3, 2.5); excludes --prior-tau"},
		formatFlag(&o.Format, reportfmt.Formats),
		outputFlag(&o.Output),
		&cli.FloatFlag{Name: "loss-weight", Value: 1, Destination: &o.LossWeight,
			Usage: "fit the BRisk pool: the champion's scores kept, every other system's replaced by champion + d with losses counted `W` times (1: the scores themselves)"},
		&cli.StringFlag{Name: "family", Value: "gaussian", Destination: &o.Family, Usage: familyFlagUsage},
		&cli.BoolFlag{Name: "forecast", Destination: &o.Forecast, Usage: "add every (system, topic) cell's 95% posterior predictive interval to the JSON report"},
		&cli.StringFlag{Name: "pool-sweep", Destination: &o.PoolSweep,
			Usage: "refit with the top-m artifacts by mean score for each m in `LIST` (e.g. 1,5,10,20,40) and report each challenger's separation from the champion (Benham et al.'s Figure 5)"},
		&cli.BoolFlag{Name: "prior-sensitivity", Destination: &o.PriorSensitivity,
			Usage: "refit under two alternative prior sets and report whether any challenger's interval sign or P(riskier) ≥ 0.95 changes"},
		&cli.StringFlag{Name: "draws-out", Destination: &o.DrawsOut, Usage: "write every draw to `FILE` (CSV: chain, iteration, then one column per quantity; what riskgate diagnose reads)"},
	}
	return &cli.Command{
		Name:      "fit",
		Usage:     "fit the Bayesian hierarchical system/topic model over champion, challengers and artifact pool",
		ArgsUsage: "INPUT...",
		Description: "Fits y = β0 + topic effect + system effect + error (Benham et al., SIGIR 2020, eq. 3) with rstanarm's\n" +
			"default priors and prints the system effects with 95% credible intervals, the topic effects, the variance\n" +
			"components and the convergence diagnostics. A fit with any R-hat > 1.01, any bulk- or tail-ESS below\n" +
			"--target-ess after sampling on, or any divergent transition is reported as NOT CONVERGED.\n\n" +
			"--loss-weight W fits BRisk's risk-adjusted pool instead (the champion's scores kept, every other system's\n" +
			"replaced by champion + d, losses × W); --family skew_normal uses brms's skew normal and default priors.\n" +
			"For each challenger it reports P(riskier) = P(S_challenger < S_champion), P(best), P(S_i > S_j), and\n" +
			"the topics at risk: those whose difference to the champion (d in the BRisk pool) falls below its 95%\n" +
			"posterior predictive interval.",
		Flags: append(flags, o.Input.flags()...),
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			return runFit(ctx, s, o)
		},
	}
}

// fitRoles names each system's role: champion, challenger or artifact.
func fitRoles(t *scores.Table, champion string, challengers []string) ([]string, error) {
	ci, err := engine.LookupSystem(t, "--champion", champion)
	if err != nil {
		return nil, err
	}
	chal, err := engine.MatchChallengers(t, challengers, ci)
	if err != nil {
		return nil, err
	}
	r := make([]string, len(t.Systems))
	for i := range r {
		r[i] = result.RoleArtifact
	}
	r[ci] = result.RoleChampion
	for _, i := range chal {
		r[i] = result.RoleChallenger
	}
	return r, nil
}

// priorFlags are o's --prior-* settings.
func (o *fitOptions) priorFlags() fit.PriorFlags {
	return fit.PriorFlags{Intercept: o.PriorIntercept, Sigma: o.PriorSigma, Tau: o.PriorTau, SD: o.PriorSD}
}

func runFit(ctx context.Context, s *streams, o *fitOptions) error {
	if err := reportfmt.CheckFormat(o.Format, reportfmt.Formats); err != nil {
		return err
	}
	if err := checkSamplerFlags(o.Chains, o.Warmup, o.Draws, o.MaxDraws, o.TargetESS.Value); err != nil {
		return err
	}
	if err := o.priorFlags().Check(); err != nil {
		return err
	}
	if err := checkLossWeightFlag("--loss-weight", o.LossWeight); err != nil {
		return err
	}
	fam, err := parseFamily(o.Family)
	if err != nil {
		return err
	}
	var sweep []int
	if o.PoolSweep != "" {
		if sweep, err = fit.ParsePoolSweep(o.PoolSweep); err != nil {
			return err
		}
	}
	tab, align, err := o.Input.load(s.Err)
	if err != nil {
		return err
	}
	role, err := fitRoles(tab, o.Champion, o.Challengers)
	if err != nil {
		return err
	}
	if !o.TargetESS.Set {
		o.TargetESS.Value = defaultTargetESS(fam)
	}
	set := fit.Settings{Priors: o.priorFlags(), LossWeight: o.LossWeight, Forecast: o.Forecast, PoolSweep: sweep, PriorSensitivity: o.PriorSensitivity,
		Hier: bayes.HierOptions{
			Sampler:   mcmc.NUTSOptions{Chains: o.Chains, Warmup: o.Warmup, Draws: o.Draws, Seed: o.Seed, Context: ctx},
			Method:    bayes.HierMethod(o.Method),
			TargetESS: o.TargetESS.Value,
			MaxDraws:  o.MaxDraws,
			Family:    fam,
		}}
	if o.Warmup == 0 {
		set.Hier.Sampler.Warmup = -1 // explicit zero: bayes treats 0 as "default"
	}
	rep, err := fit.Build(tab, role, align, set)
	if err != nil {
		return err
	}
	hf := rep.Fit()
	if o.DrawsOut != "" {
		if err := atomicfile.Write(o.DrawsOut, rep.WriteDraws); err != nil {
			return err
		}
	}
	for _, w := range hf.Warnings {
		fmt.Fprintf(s.Err, "riskgate: warning: %s\n", w)
	}
	if !hf.Converged {
		fmt.Fprintf(s.Err, "riskgate: warning: the fit did NOT CONVERGE; do not treat it as evidence\n")
	}
	write := func(w io.Writer) error {
		if o.Format == "json" {
			return rep.WriteJSON(w) // its own encoder: NaN as null, the fit's field order
		}
		return reportfmt.Write(w, o.Format, nil, rep.WriteCSV, rep.WriteText)
	}
	return writeOutput(s.Out, o.Output, write)
}
