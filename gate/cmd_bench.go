package gate

import (
	"context"
	"fmt"
	"io"
	"regexp"

	"github.com/riskgate/riskgate/gate/bench"

	"github.com/riskgate/riskgate/internal/progress"
	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/urfave/cli/v3"
)

// benchOptions are the options of riskgate bench.
type benchOptions struct {
	Input        *inputOptions // the user's data, when INPUT paths are given
	Champion     string        // the user's champion [the first system]
	Challenger   string        // the user's challenger for calibrate [the second system]
	Quick        bool
	Count        optional[int] // repetitions of each figure [3, or 1 with --quick]
	Only         string        // regular expression over the figures' ids
	WithRstanarm bool
	Rscript      string // the Rscript program
	TrecEval     string // trec_eval to compare eval with: a program or its source folder
	RstanarmIter int    // rstanarm's iterations per chain (warmup included); 0 = 4,000, or 1,000 with --quick
	Format       string
	Output       string
}

const benchDescription = `Measures riskgate's speed on built-in simulated data, and on your data when INPUT paths
are given, and prints one row per figure:

  eval        riskgate eval (trec_eval's default measures): run lines per second, on a
              simulated MS MARCO-like setting written to a temporary folder (and on your runs
              with --qrels);
  eval-1m, eval-robust03
              riskgate eval -q -c -m all_trec as a process on a simulated 1,000,000-line run
              and on robust03's pircRBa1.run (from ../shared), each run paired with one of
              trec_eval (built from ../shared/tools/trec_eval, or --trec-eval), their outputs
              compared byte for byte first; the ratio is the median of trec_eval's time over
              riskgate's across the pairs;
  fit         the hierarchical model at ESS ≥ 10,000 (every bulk- and tail-ESS): time and
              ESS per second on an rb04-sized pool (45 systems × 50 topics) and on pools of
              growing size, with how the time grows with systems × topics;
  brisk       BRisk at loss weight 5 on the rb04-sized pool (fit, differences, topics at risk);
  bca         the BCa bootstrap, B = 100,000, four challengers against the champion;
  tukey       the randomised Tukey HSD, B = 10,000, over every system;
  calibrate   riskgate calibrate --reps 500 with the default policy on an rb04-like pool
              (--quick times 10 replicates and extrapolates, and says so);
  rstanarm    with --with-rstanarm: rstanarm's stan_glmer on the rb04-sized pool when Rscript
              with rstanarm is installed, else the figures recorded with R, with their source.

Each figure is the median of --count runs (wall and CPU time; calibrate runs once). The
same cases run as Go benchmarks: go test ./gate/bench -run X -bench BenchCases. The report
names the machine, its load average before and after, and the peak memory so far.`

func newBenchCommand(s *streams) *cli.Command {
	o := &benchOptions{Input: newInputOptions(s)}
	flags := []cli.Flag{
		&cli.BoolFlag{Name: "quick", Destination: &o.Quick, Usage: "smaller settings and one run of each (about a minute)"},
		&cli.IntFlag{Name: "count", Destination: &o.Count.Value, Action: o.Count.given, HideDefault: true, Usage: "`N` runs of each figure, the median reported (default 3; 1 with --quick)"},
		&cli.StringFlag{Name: "only", Destination: &o.Only, Usage: "run only the figures whose id matches `REGEXP` (e.g. fit|bca)"},
		&cli.BoolFlag{Name: "with-rstanarm", Destination: &o.WithRstanarm,
			Usage: "time rstanarm's stan_glmer on the same pool when Rscript with rstanarm is installed; otherwise print the recorded figures"},
		&cli.StringFlag{Name: "rscript", Value: "Rscript", Destination: &o.Rscript, Usage: "the `PROGRAM` that runs R scripts"},
		&cli.IntFlag{Name: "rstanarm-iter", Destination: &o.RstanarmIter, HideDefault: true, Usage: "rstanarm's `ITER` per chain, warmup included (default 4000; 1000 with --quick)"},
		&cli.StringFlag{Name: "trec-eval", Destination: &o.TrecEval,
			Usage: "the trec_eval `PATH` to compare eval with: a program, or its source folder to build (default ../shared/tools/trec_eval)"},
		&cli.StringFlag{Name: "champion", Destination: &o.Champion, Usage: "the champion's `NAME` in your data (default: the first system)"},
		&cli.StringFlag{Name: "challenger", Destination: &o.Challenger, Usage: "the challenger's `NAME` in your data for calibrate (default: the second system)"},
		formatFlag(&o.Format, reportfmt.Formats),
		outputFlag(&o.Output),
	}
	return &cli.Command{
		Name:        "bench",
		Usage:       "measure riskgate's speed (eval, fits, bootstrap, Tukey HSD, calibrate) on simulated data and yours",
		UsageText:   "riskgate bench [--quick] [--with-rstanarm] [--only REGEXP] [--format table|md|json|csv] [INPUT...]",
		Description: benchDescription,
		Flags:       append(flags, o.Input.flags()...),
		Action: func(ctx context.Context, c *cli.Command) error {
			o.Input.Paths = c.Args().Slice()
			return runBench(ctx, o, s)
		},
	}
}

func runBench(ctx context.Context, o *benchOptions, s *streams) error {
	if err := reportfmt.CheckFormat(o.Format, reportfmt.Formats); err != nil {
		return err
	}
	count := o.Count.Value
	switch {
	case o.Count.Set && count < 1:
		return fmt.Errorf("--count %d: expected 1 or more", count)
	case o.Count.Set:
	case o.Quick:
		count = 1
	default:
		count = 3
	}
	only, err := regexp.Compile(o.Only)
	if err != nil {
		return fmt.Errorf("--only %q: %v", o.Only, err)
	}
	iter := o.RstanarmIter
	switch {
	case iter == 0 && o.Quick:
		iter = 1000
	case iter == 0:
		iter = 4000
	case iter < 20:
		return fmt.Errorf("--rstanarm-iter %d: expected at least 20", iter)
	}
	cfg := bench.Config{Quick: o.Quick, Count: count, Only: only, Rscript: o.Rscript, RstanarmIter: iter, WithRstanarm: o.WithRstanarm, TrecEval: o.TrecEval}
	if len(o.Input.Paths) > 0 {
		t, _, err := o.Input.load(s.Err)
		if err != nil {
			return err
		}
		u := &bench.UserData{Table: t, Paths: o.Input.Paths, Qrels: o.Input.Qrels.Value}
		if u.Champion, err = bench.Role(t, "--champion", o.Champion, 0); err != nil {
			return err
		}
		if u.Challenger, err = bench.Role(t, "--challenger", o.Challenger, 1); err != nil {
			return err
		}
		if u.Challenger == u.Champion {
			return fmt.Errorf("--challenger %q is the champion; name another system", t.Systems[u.Challenger])
		}
		if o.Input.Qrels.Value != "" { // the inputs are TREC runs
			u.Runs = o.Input.Paths
		}
		cfg.User = u
	}
	var status io.Writer // what bench is doing, on a terminal only
	if progress.IsTerminal(s.Err) {
		status = s.Err
	}
	rep, err := bench.Run(ctx, cfg, status)
	if err != nil {
		return err
	}
	return writeOutput(s.Out, o.Output, func(w io.Writer) error {
		return reportfmt.Write(w, o.Format, rep, rep.WriteCSV, rep.WriteText)
	})
}
