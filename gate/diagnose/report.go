package diagnose

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/reportfmt"
)

func ReadFile(path string, stdin io.Reader) (*Draws, error) {
	if path == "-" {
		return Read(stdin, "<stdin>")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// A Column is one column of the report, named as posterior names it.
type Column struct {
	name  string
	kind  columnKind
	value func(posterior.VarSummary) float64
}

type columnKind int

const (
	plainColumn columnKind = iota // 3 significant digits in the table
	rhatColumn                    // 3 decimals, to read against 1.01
	essColumn                     // whole numbers
)

var (
	colMean     = Column{"mean", plainColumn, func(s posterior.VarSummary) float64 { return s.Mean }}
	colMedian   = Column{"median", plainColumn, func(s posterior.VarSummary) float64 { return s.Median }}
	colSD       = Column{"sd", plainColumn, func(s posterior.VarSummary) float64 { return s.SD }}
	colMAD      = Column{"mad", plainColumn, func(s posterior.VarSummary) float64 { return s.MAD }}
	colQ2_5     = Column{"q2.5", plainColumn, func(s posterior.VarSummary) float64 { return s.Q2_5 }}
	colQ5       = Column{"q5", plainColumn, func(s posterior.VarSummary) float64 { return s.Q5 }}
	colQ50      = Column{"q50", plainColumn, func(s posterior.VarSummary) float64 { return s.Q50 }}
	colQ95      = Column{"q95", plainColumn, func(s posterior.VarSummary) float64 { return s.Q95 }}
	colQ97_5    = Column{"q97.5", plainColumn, func(s posterior.VarSummary) float64 { return s.Q97_5 }}
	colRhat     = Column{"rhat", rhatColumn, func(s posterior.VarSummary) float64 { return s.Rhat }}
	colRhatB    = Column{"rhat_basic", rhatColumn, func(s posterior.VarSummary) float64 { return s.RhatBasic }}
	colESSBulk  = Column{"ess_bulk", essColumn, func(s posterior.VarSummary) float64 { return s.ESSBulk }}
	colESSTail  = Column{"ess_tail", essColumn, func(s posterior.VarSummary) float64 { return s.ESSTail }}
	colESSBasic = Column{"ess_basic", essColumn, func(s posterior.VarSummary) float64 { return s.ESSBasic }}
	colMCSEMean = Column{"mcse_mean", plainColumn, func(s posterior.VarSummary) float64 { return s.MCSEMean }}
	colMCSESd   = Column{"mcse_sd", plainColumn, func(s posterior.VarSummary) float64 { return s.MCSESd }}
	colMCSEQ2_5 = Column{"mcse_q2.5", plainColumn, func(s posterior.VarSummary) float64 { return s.MCSEQ2_5 }}
	colMCSEQ975 = Column{"mcse_q97.5", plainColumn, func(s posterior.VarSummary) float64 { return s.MCSEQ97_5 }}

	// summarise_draws' default measures.
	DefaultColumns = []Column{colMean, colMedian, colSD, colMAD, colQ5, colQ95, colRhat, colESSBulk, colESSTail}
	// The measures of reference/diagnostics/summary.csv, in its order.
	ExtraColumns = []Column{colMean, colMedian, colSD, colMAD, colQ2_5, colQ5, colQ50, colQ95, colQ97_5,
		colRhat, colRhatB, colESSBulk, colESSTail, colESSBasic, colMCSEMean, colMCSESd, colMCSEQ2_5, colMCSEQ975}
)

// Convergence thresholds of Vehtari et al. (2021), §4: R̂ below 1.01, bulk- and
// tail-ESS above 100 per chain.
const (
	maxRhat        = 1.01
	minESSPerChain = 100
)

// Warnings lists, one line per problem, the variables whose draws
// fail the thresholds or whose diagnostics could not be computed.
func Warnings(d *Draws, sums []posterior.VarSummary) []string {
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

func WriteTable(w io.Writer, d *Draws, sums []posterior.VarSummary, cols []Column) error {
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

func WriteCSV(w io.Writer, d *Draws, sums []posterior.VarSummary, cols []Column) {
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

// WriteJSON writes {"chains", "iterations", "variables": [{"variable",
// every VarSummary field}], "warnings"}; NaN is null.
func WriteJSON(w io.Writer, d *Draws, sums []posterior.VarSummary, warnings []string) error {
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

func columnNames(cols []Column) []string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	return names
}
