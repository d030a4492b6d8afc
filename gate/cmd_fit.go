package gate

import (
	"context"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/urfave/cli/v3"
)

// FitOptions are the options of riskgate fit.
type FitOptions struct {
	Input       *InputOptions
	Champion    string
	Challengers []string // names or globs (path.Match)
	Chains      int
	Draws       int // per chain; 0 = enough for TargetESS on the collapsed path
	Warmup      int
	Seed        uint64
	TargetESS   float64
	MaxDraws    int
	Method      string
	Format      string // output format: table, md, json, csv
	Output      string // report file; "" = standard output
	DrawsOut    string

	PriorIntercept, PriorSigma, PriorTau, PriorSD string
}

// Output formats shared by the reporting commands.
const (
	fitOutTable = "table"
	fitOutMD    = "md"
	fitOutJSON  = "json"
	fitOutCSV   = "csv"
)

func newFitCommand(s *Streams) *cli.Command {
	o := &FitOptions{Input: NewInputOptions(s)}
	flags := []cli.Flag{
		&cli.StringFlag{Name: "champion", Required: true, Destination: &o.Champion, Usage: "the production system's `NAME`"},
		&cli.StringSliceFlag{Name: "challenger", Usage: "a challenger's `NAME` or glob (repeatable); every other system is an artifact"},
		&cli.IntFlag{Name: "chains", Value: 4, Usage: "number of MCMC chains (run in parallel)"},
		&cli.IntFlag{Name: "draws", HideDefault: true, Usage: "kept draws per chain (default: 1.4 × target-ess / chains on the collapsed path, 1000 on the general path)"},
		&cli.IntFlag{Name: "warmup", Value: 1000, Usage: "warmup (adaptation) iterations per chain"},
		&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed; the same seed, input and settings give the same output"},
		&cli.FloatFlag{Name: "target-ess", Value: 10000, Usage: "keep sampling until every bulk- and tail-ESS reaches this (up to --max-draws)"},
		&cli.IntFlag{Name: "max-draws", HideDefault: true, Usage: "cap on draws per chain when sampling on for --target-ess (default 10 × the initial draws)"},
		&cli.StringFlag{Name: "method", Value: string(bayes.MethodAuto), Destination: &o.Method,
			Usage: "`METHOD`: auto, collapsed (effects integrated out and drawn exactly; needs a normal intercept prior), general (NUTS on rstanarm's full density)"},
		&cli.StringFlag{Name: "prior-intercept", Destination: &o.PriorIntercept, Usage: "intercept prior `DIST`, e.g. normal(0.3, 0.5) (default rstanarm's normal(mean y, 2.5 sd y))"},
		&cli.StringFlag{Name: "prior-sigma", Destination: &o.PriorSigma, Usage: "residual SD prior `DIST`, e.g. exponential(5) (default rstanarm's exponential(1/sd y))"},
		&cli.StringFlag{Name: "prior-tau", Destination: &o.PriorTau, Usage: "prior `DIST` of τ in group SD = τ·σ, rstanarm's decov (default gamma(1, 1))"},
		&cli.StringFlag{Name: "prior-sd", Destination: &o.PriorSD, Usage: "prior `DIST` on each group SD itself, brms style, e.g. half_student_t(3, 2.5); excludes --prior-tau"},
		&cli.StringFlag{Name: "format", Value: fitOutTable, Destination: &o.Format, Usage: "output `FORMAT`: table, md, json, csv"},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: &o.Output,
			Usage: "write the report to `FILE` (atomically: a temporary file renamed into place) instead of standard output"},
		&cli.StringFlag{Name: "draws-out", Destination: &o.DrawsOut, Usage: "write every draw to `FILE` (CSV: chain, iteration, then one column per quantity; what riskgate diagnose reads)"},
	}
	return &cli.Command{
		Name:      "fit",
		Usage:     "fit the Bayesian hierarchical system/topic model over champion, challengers and artifact pool",
		ArgsUsage: "INPUT...",
		Description: "Fits y = β0 + topic effect + system effect + error (Benham et al., SIGIR 2020, eq. 3) with rstanarm's\n" +
			"default priors and prints the system effects with 95% credible intervals, the topic effects, the variance\n" +
			"components and the convergence diagnostics. A fit with any R-hat > 1.01, any bulk- or tail-ESS below\n" +
			"--target-ess after sampling on, or any divergent transition is reported as NOT CONVERGED.",
		Flags: append(flags, o.Input.Flags()...),
		Action: func(_ context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			o.Challengers = c.StringSlice("challenger")
			o.Chains, o.Draws, o.Warmup, o.MaxDraws = int(c.Int("chains")), int(c.Int("draws")), int(c.Int("warmup")), int(c.Int("max-draws"))
			o.Seed, o.TargetESS = c.Uint64("seed"), c.Float("target-ess")
			return runFit(s, o)
		},
	}
}

// roles names each system's role: champion, challenger or artifact.
func fitRoles(t *scores.Table, champion string, challengers []string) ([]string, error) {
	ci := t.SystemIndex(champion)
	if ci < 0 {
		return nil, t.UnknownSystemError("--champion", champion)
	}
	r := make([]string, len(t.Systems))
	for i := range r {
		r[i] = "artifact"
	}
	r[ci] = "champion"
	for _, pat := range challengers {
		if _, err := path.Match(pat, ""); err != nil {
			return nil, fmt.Errorf("--challenger %q: bad glob: %v", pat, err)
		}
		n := 0
		for i, name := range t.Systems {
			if ok, _ := path.Match(pat, name); ok && i != ci {
				r[i] = "challenger"
				n++
			}
		}
		if n == 0 {
			return nil, t.UnknownSystemError("--challenger", pat)
		}
	}
	return r, nil
}

func fitParsePriors(o *FitOptions) (*bayes.HierPriors, error) {
	if o.PriorIntercept == "" && o.PriorSigma == "" && o.PriorTau == "" && o.PriorSD == "" {
		return nil, nil
	}
	if o.PriorTau != "" && o.PriorSD != "" {
		return nil, fmt.Errorf("--prior-tau and --prior-sd exclude each other: the group SD is either τ·σ or has its own prior")
	}
	return &bayes.HierPriors{}, nil // filled from the data in runFit
}

func fitParsePrior(flag, s string) (bayes.Prior, error) {
	p, err := bayes.ParsePrior(s)
	if err != nil {
		return nil, fmt.Errorf("--%s: %v", flag, err)
	}
	return p, nil
}

// hierPriors returns the priors for the fit: rstanarm's defaults for y,
// overridden by the --prior-* flags.
func fitHierPriors(o *FitOptions, t *bayes.Table) (*bayes.HierPriors, error) {
	if p, err := fitParsePriors(o); err != nil || p == nil {
		return nil, err
	}
	p := bayes.TableRstanarmPriors(t)
	var err error
	if o.PriorIntercept != "" {
		if p.Intercept, err = fitParsePrior("prior-intercept", o.PriorIntercept); err != nil {
			return nil, err
		}
	}
	if o.PriorSigma != "" {
		if p.Sigma, err = fitParsePrior("prior-sigma", o.PriorSigma); err != nil {
			return nil, err
		}
	}
	if o.PriorTau != "" {
		if p.SDTopic, err = fitParsePrior("prior-tau", o.PriorTau); err != nil {
			return nil, err
		}
		p.SDSystem = p.SDTopic
	}
	if o.PriorSD != "" {
		if p.SDTopic, err = fitParsePrior("prior-sd", o.PriorSD); err != nil {
			return nil, err
		}
		p.SDSystem, p.Relative = p.SDTopic, false
	}
	return &p, nil
}

func runFit(s *Streams, o *FitOptions) error {
	switch o.Format {
	case fitOutTable, fitOutMD, fitOutJSON, fitOutCSV:
	default:
		return fmt.Errorf("--format %q: expected one of table, md, json, csv (input formats go in --input-format)", o.Format)
	}
	if o.Chains < 1 || o.Warmup < 0 || o.Draws < 0 || o.MaxDraws < 0 {
		return fmt.Errorf("--chains must be at least 1 and --warmup, --draws, --max-draws not negative")
	}
	if !(o.TargetESS >= 0) || math.IsInf(o.TargetESS, 0) {
		return fmt.Errorf("--target-ess %v: expected a number ≥ 0", o.TargetESS)
	}
	if _, err := fitParsePriors(o); err != nil {
		return err
	}
	tab, align, err := o.Input.Load(s.Err)
	if err != nil {
		return err
	}
	role, err := fitRoles(tab, o.Champion, o.Challengers)
	if err != nil {
		return err
	}
	bt := &bayes.Table{Systems: tab.Systems, Topics: tab.Topics, Scores: tab.Scores}
	if err := bt.Validate(); err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	priors, err := fitHierPriors(o, bt)
	if err != nil {
		return err
	}
	opt := bayes.HierOptions{
		Sampler:   bayes.NUTSOptions{Chains: o.Chains, Warmup: o.Warmup, Draws: o.Draws, Seed: o.Seed},
		Priors:    priors,
		Method:    bayes.HierMethod(o.Method),
		TargetESS: o.TargetESS,
		MaxDraws:  o.MaxDraws,
	}
	if o.Warmup == 0 {
		opt.Sampler.Warmup = -1 // explicit zero: bayes treats 0 as "default"
	}
	start := time.Now()
	fit, err := bayes.FitHier(bt, opt)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	elapsed := time.Since(start)
	rep := newFitReport(fit, tab.Measure, role, o, elapsed, align)
	if o.DrawsOut != "" {
		if err := fitWriteAtomic(o.DrawsOut, func(w io.Writer) error { return fitWriteDraws(w, fit) }); err != nil {
			return err
		}
	}
	for _, w := range fit.Warnings {
		fmt.Fprintf(s.Err, "riskgate: warning: %s\n", w)
	}
	if !fit.Converged {
		fmt.Fprintf(s.Err, "riskgate: warning: the fit did NOT CONVERGE; do not treat it as evidence\n")
	}
	write := func(w io.Writer) error {
		switch o.Format {
		case fitOutJSON:
			return rep.writeJSON(w)
		case fitOutCSV:
			return rep.writeCSV(w)
		case fitOutMD:
			return rep.writeText(w, true)
		default:
			return rep.writeText(w, false)
		}
	}
	if o.Output == "" || o.Output == "-" {
		return write(s.Out)
	}
	return fitWriteAtomic(o.Output, write)
}

// systemOrder lists system indexes for the table view: champion, the
// challengers in table order, then the artifacts by decreasing mean effect.
func fitSystemOrder(fit *bayes.HierFit, role []string) []int {
	var champ, chal, art []int
	for i, r := range role {
		switch r {
		case "champion":
			champ = append(champ, i)
		case "challenger":
			chal = append(chal, i)
		default:
			art = append(art, i)
		}
	}
	slices.SortStableFunc(art, func(a, b int) int {
		ma, mb := fit.Summary[fit.SystemIndex(a)].Mean, fit.Summary[fit.SystemIndex(b)].Mean
		switch {
		case ma > mb:
			return -1
		case ma < mb:
			return 1
		}
		return 0
	})
	return slices.Concat(champ, chal, art)
}
