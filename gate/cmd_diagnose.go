package gate

import (
	"context"
	"fmt"
	"io"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/gate/diagnose"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/urfave/cli/v3"
)

// diagnoseOptions are the options of riskgate diagnose.
type diagnoseOptions struct {
	Path   string // draws CSV; "-" reads standard input
	Extra  bool   // add rhat_basic, ess_basic, the MCSEs and the 2.5%/50%/97.5% quantiles
	Format string // table, csv or json
}

func newDiagnoseCommand(s *streams) *cli.Command {
	o := &diagnoseOptions{}
	return &cli.Command{
		Name:      "diagnose",
		Usage:     "summarise MCMC draws and check their convergence, as R's posterior::summarise_draws",
		ArgsUsage: "DRAWS.csv",
		Description: "DRAWS.csv has a header with columns chain and iteration, then one column per variable, and one\n" +
			"row per draw (rows in any order; every chain complete and as long as the others; NA for missing).\n" +
			"Prints, per variable, what posterior::summarise_draws prints: mean, median, sd, mad, q5, q95, rhat\n" +
			"(rank-normalised split-R-hat), ess_bulk, ess_tail; --extra adds q2.5, q50, q97.5, rhat_basic,\n" +
			"ess_basic, mcse_mean, mcse_sd, mcse_q2.5, mcse_q97.5. JSON always holds every measure and the 95% HDI.\n" +
			"Warns (stderr, or \"warnings\" in JSON) of rhat > 1.01, bulk- or tail-ESS below 100 per chain, and\n" +
			"diagnostics that are NA. Exit status 0, or 2 for bad input.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "extra", Destination: &o.Extra,
				Usage: "add the 2.5%, 50% and 97.5% quantiles, rhat_basic, ess_basic and the Monte Carlo standard errors"},
			formatFlag(&o.Format, diagnoseFormats),
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			args := cmd.Args().Slice()
			if len(args) != 1 {
				return fmt.Errorf("diagnose takes one DRAWS.csv argument (\"-\" for standard input), got %d", len(args))
			}
			o.Path = args[0]
			return runDiagnose(o, s)
		},
	}
}

// diagnoseFormats are the output formats of diagnose.
var diagnoseFormats = []string{"table", "csv", "json"}

func runDiagnose(o *diagnoseOptions, s *streams) error {
	if err := reportfmt.CheckFormat(o.Format, diagnoseFormats); err != nil {
		return err
	}
	d, err := diagnose.ReadFile(o.Path, s.In)
	if err != nil {
		return err
	}
	sums := posterior.SummarizeAll(d.Values, 0)
	warnings := diagnose.Warnings(d, sums)
	cols := diagnose.DefaultColumns
	if o.Extra {
		cols = diagnose.ExtraColumns
	}
	err = writeOutput(s.Out, "", func(w io.Writer) error {
		switch o.Format {
		case "table":
			return diagnose.WriteTable(w, d, sums, cols)
		case "csv":
			diagnose.WriteCSV(w, d, sums, cols)
		case "json":
			return diagnose.WriteJSON(w, d, sums, warnings)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if o.Format != "json" {
		for _, w := range warnings {
			fmt.Fprintf(s.Err, "riskgate: warning: %s\n", w)
		}
	}
	return nil
}
