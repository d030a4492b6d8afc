package gate

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/bayes"
	"github.com/urfave/cli/v3"
)

// DiagnoseOptions are the options of riskgate diagnose.
type DiagnoseOptions struct {
	Path   string // draws CSV; "-" reads standard input
	Extra  bool   // add rhat_basic, ess_basic, the MCSEs and the 2.5%/50%/97.5% quantiles
	Format string // table, csv or json
}

func newDiagnoseCommand(s *Streams) *cli.Command {
	o := &DiagnoseOptions{}
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

func runDiagnose(o *DiagnoseOptions, s *Streams) error {
	if err := reportfmt.CheckFormat(o.Format, diagnoseFormats); err != nil {
		return err
	}
	d, err := readDrawsFile(o.Path, s.In)
	if err != nil {
		return err
	}
	sums := bayes.SummarizeAll(d.Values, 0)
	warnings := convergenceWarnings(d, sums)
	cols := defaultColumns
	if o.Extra {
		cols = extraColumns
	}
	err = writeOutput(s.Out, "", func(w io.Writer) error {
		switch o.Format {
		case "table":
			return writeDiagnoseTable(w, d, sums, cols)
		case "csv":
			writeDiagnoseCSV(w, d, sums, cols)
		case "json":
			return writeDiagnoseJSON(w, d, sums, warnings)
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

func readDrawsFile(path string, stdin io.Reader) (*Draws, error) {
	if path == "-" {
		return ReadDraws(stdin, "<stdin>")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadDraws(f, path)
}

// A diagnoseColumn is one column of the report, named as posterior names it.
type diagnoseColumn struct {
	name  string
	kind  columnKind
	value func(bayes.VarSummary) float64
}

type columnKind int

const (
	plainColumn columnKind = iota // 3 significant digits in the table
	rhatColumn                    // 3 decimals, to read against 1.01
	essColumn                     // whole numbers
)

var (
	colMean     = diagnoseColumn{"mean", plainColumn, func(s bayes.VarSummary) float64 { return s.Mean }}
	colMedian   = diagnoseColumn{"median", plainColumn, func(s bayes.VarSummary) float64 { return s.Median }}
	colSD       = diagnoseColumn{"sd", plainColumn, func(s bayes.VarSummary) float64 { return s.SD }}
	colMAD      = diagnoseColumn{"mad", plainColumn, func(s bayes.VarSummary) float64 { return s.MAD }}
	colQ2_5     = diagnoseColumn{"q2.5", plainColumn, func(s bayes.VarSummary) float64 { return s.Q2_5 }}
	colQ5       = diagnoseColumn{"q5", plainColumn, func(s bayes.VarSummary) float64 { return s.Q5 }}
	colQ50      = diagnoseColumn{"q50", plainColumn, func(s bayes.VarSummary) float64 { return s.Q50 }}
	colQ95      = diagnoseColumn{"q95", plainColumn, func(s bayes.VarSummary) float64 { return s.Q95 }}
	colQ97_5    = diagnoseColumn{"q97.5", plainColumn, func(s bayes.VarSummary) float64 { return s.Q97_5 }}
	colRhat     = diagnoseColumn{"rhat", rhatColumn, func(s bayes.VarSummary) float64 { return s.Rhat }}
	colRhatB    = diagnoseColumn{"rhat_basic", rhatColumn, func(s bayes.VarSummary) float64 { return s.RhatBasic }}
	colESSBulk  = diagnoseColumn{"ess_bulk", essColumn, func(s bayes.VarSummary) float64 { return s.ESSBulk }}
	colESSTail  = diagnoseColumn{"ess_tail", essColumn, func(s bayes.VarSummary) float64 { return s.ESSTail }}
	colESSBasic = diagnoseColumn{"ess_basic", essColumn, func(s bayes.VarSummary) float64 { return s.ESSBasic }}
	colMCSEMean = diagnoseColumn{"mcse_mean", plainColumn, func(s bayes.VarSummary) float64 { return s.MCSEMean }}
	colMCSESd   = diagnoseColumn{"mcse_sd", plainColumn, func(s bayes.VarSummary) float64 { return s.MCSESd }}
	colMCSEQ2_5 = diagnoseColumn{"mcse_q2.5", plainColumn, func(s bayes.VarSummary) float64 { return s.MCSEQ2_5 }}
	colMCSEQ975 = diagnoseColumn{"mcse_q97.5", plainColumn, func(s bayes.VarSummary) float64 { return s.MCSEQ97_5 }}

	// summarise_draws' default measures.
	defaultColumns = []diagnoseColumn{colMean, colMedian, colSD, colMAD, colQ5, colQ95, colRhat, colESSBulk, colESSTail}
	// The measures of reference/diagnostics/summary.csv, in its order.
	extraColumns = []diagnoseColumn{colMean, colMedian, colSD, colMAD, colQ2_5, colQ5, colQ50, colQ95, colQ97_5,
		colRhat, colRhatB, colESSBulk, colESSTail, colESSBasic, colMCSEMean, colMCSESd, colMCSEQ2_5, colMCSEQ975}
)

// Convergence thresholds of Vehtari et al. (2021), §4: R̂ below 1.01, bulk- and
// tail-ESS above 100 per chain.
const (
	maxRhat        = 1.01
	minESSPerChain = 100
)

// convergenceWarnings lists, one line per problem, the variables whose draws
// fail the thresholds or whose diagnostics could not be computed.
func convergenceWarnings(d *Draws, sums []bayes.VarSummary) []string {
	minESS := float64(minESSPerChain * len(d.Chains))
	var na, rhat, bulk, tail []string
	for v, s := range sums {
		name := d.Variables[v]
		switch {
		case math.IsNaN(s.Rhat) || math.IsNaN(s.ESSBulk) || math.IsNaN(s.ESSTail):
			na = append(na, name)
		default:
			if s.Rhat > maxRhat {
				rhat = append(rhat, name)
			}
			if s.ESSBulk < minESS {
				bulk = append(bulk, name)
			}
			if s.ESSTail < minESS {
				tail = append(tail, name)
			}
		}
	}
	var w []string
	add := func(names []string, what string) {
		if len(names) > 0 {
			w = append(w, fmt.Sprintf("%d of %d variables %s: %s", len(names), len(sums), what, nameList(names)))
		}
	}
	add(rhat, fmt.Sprintf("have rhat > %g (chains disagree: not converged)", maxRhat))
	add(bulk, fmt.Sprintf("have ess_bulk < %g (%d per chain)", minESS, minESSPerChain))
	add(tail, fmt.Sprintf("have ess_tail < %g (%d per chain)", minESS, minESSPerChain))
	add(na, "have NA diagnostics (non-finite or constant draws, or too few iterations)")
	return w
}

// nameList joins up to ten names.
func nameList(names []string) string {
	const most = 10
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + fmt.Sprintf(", … (%d more)", len(names)-most)
}

func writeDiagnoseTable(w io.Writer, d *Draws, sums []bayes.VarSummary, cols []diagnoseColumn) error {
	cells := make([][]string, len(sums)+1)
	cells[0] = append([]string{"variable"}, columnNames(cols)...)
	for v, s := range sums {
		row := []string{d.Variables[v]}
		for _, c := range cols {
			row = append(row, formatCell(c.value(s), c.kind))
		}
		cells[v+1] = row
	}
	fmt.Fprintf(w, "# %d variables, %d chains x %d iterations\n", len(sums), len(d.Chains), d.Iterations)
	return reportfmt.Table(w, false, "l"+strings.Repeat("r", len(cols)), cells)
}

// formatCell formats a number for the table: NA for NaN; ESS as a whole
// number; R̂ with 3 decimals; anything else with 3 significant digits, in
// exponent form only when very large or small.
func formatCell(x float64, kind columnKind) string {
	switch {
	case math.IsNaN(x):
		return "NA"
	case math.IsInf(x, 0):
		return strconv.FormatFloat(x, 'f', -1, 64)
	case kind == essColumn:
		return strconv.FormatFloat(math.Round(x), 'f', 0, 64)
	case kind == rhatColumn:
		return strconv.FormatFloat(x, 'f', 3, 64)
	case x == 0:
		return "0"
	}
	mag := math.Floor(math.Log10(math.Abs(x)))
	if mag >= 6 || mag < -4 {
		return strconv.FormatFloat(x, 'e', 2, 64)
	}
	// Round to 3 significant digits first, so 9.996 prints as 10.0, not 9.996.
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'e', 2, 64), 64)
	mag = math.Floor(math.Log10(math.Abs(r)))
	return strconv.FormatFloat(r, 'f', max(0, 2-int(mag)), 64)
}

func writeDiagnoseCSV(w io.Writer, d *Draws, sums []bayes.VarSummary, cols []diagnoseColumn) {
	cw := csv.NewWriter(w)
	_ = cw.Write(append([]string{"variable"}, columnNames(cols)...))
	for v, s := range sums {
		row := []string{d.Variables[v]}
		for _, c := range cols {
			x := c.value(s)
			if math.IsNaN(x) {
				row = append(row, "NA")
			} else {
				row = append(row, strconv.FormatFloat(x, 'g', -1, 64))
			}
		}
		_ = cw.Write(row)
	}
	cw.Flush() // into writeOutput's buffer, which cannot fail
}

// writeDiagnoseJSON writes {"chains", "iterations", "variables": [{"variable",
// every VarSummary field}], "warnings"}; NaN is null.
func writeDiagnoseJSON(w io.Writer, d *Draws, sums []bayes.VarSummary, warnings []string) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"chains":%d,"iterations":%d,"variables":[`, len(d.Chains), d.Iterations)
	for v, s := range sums {
		if v > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(d.Variables[v])
		fields, err := json.Marshal(s)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, `{"variable":%s,%s`, name, fields[1:])
	}
	if warnings == nil {
		warnings = []string{}
	}
	var ws bytes.Buffer
	enc := json.NewEncoder(&ws)
	enc.SetEscapeHTML(false) // keep "rhat > 1.01" readable
	if err := enc.Encode(warnings); err != nil {
		return err
	}
	fmt.Fprintf(&b, `],"warnings":%s}`, bytes.TrimSpace(ws.Bytes()))
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err := w.Write(out.Bytes())
	return err
}

func columnNames(cols []diagnoseColumn) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return names
}
