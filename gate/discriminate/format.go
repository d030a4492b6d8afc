package discriminate

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/reportfmt"
)

// Formats are discriminate's output formats; the first is the default.
var Formats = []string{"table", "md", "json", "csv", "html"}

// Write renders rep in one of Formats.
func Write(w io.Writer, rep *Report, format string) error {
	if format == "html" {
		return WriteHTML(w, rep)
	}
	if err := reportfmt.CheckFormat(format, Formats); err != nil {
		return err
	}
	return reportfmt.Write(w, format, rep, func(w io.Writer) error { return writeCSV(w, rep) },
		func(w io.Writer, md bool) error { return writeText(w, rep, md) })
}

// fixed prints a value to 4 decimals, or NA.
func fixed(x jsonfloat.Float) string {
	v := float64(x)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "NA"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// subtitle says what was compared.
func (rep *Report) subtitle() string {
	topics := ""
	if len(rep.Measures) > 0 {
		topics = ", " + numfmt.Plural(rep.Measures[0].Topics, "topic")
		for _, m := range rep.Measures[1:] {
			if m.Topics != rep.Measures[0].Topics {
				topics = ", topics per measure in the table"
				break
			}
		}
	}
	return fmt.Sprintf("%s, %s (%s)%s; %s", numfmt.Plural(len(rep.Measures), "measure"), numfmt.Plural(len(rep.Systems), "system"),
		numfmt.Plural(rep.Pairs, "pair"), topics, rep.TestDoc)
}

// summaryRows is the table of measures, most discriminative first.
func (rep *Report) summaryRows() [][]string {
	rows := [][]string{{"rank", "measure", "discriminative power", "significant pairs", "difference required", "relative", "median", "mean", "topics"}}
	for i, m := range rep.Measures {
		rows = append(rows, []string{strconv.Itoa(i + 1), m.Name, fixed(m.Power),
			fmt.Sprintf("%s of %s", numfmt.Thousands(m.Significant), numfmt.Thousands(len(m.Pairs))),
			fixed(m.Required), percent(m.RequiredRelative), fixed(m.RequiredMedian), fixed(m.Mean), strconv.Itoa(m.Topics)})
	}
	return rows
}

func percent(x jsonfloat.Float) string {
	v := float64(x)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "NA"
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
}

// matrixRows is a square table of the measures against each other.
func (rep *Report) matrixRows(corner string, m [][]jsonfloat.Float) [][]string {
	head := []string{corner}
	for _, c := range rep.Measures {
		head = append(head, c.Name)
	}
	rows := [][]string{head}
	for i, r := range rep.Measures {
		row := []string{r.Name}
		for j := range rep.Measures {
			row = append(row, fixed(m[i][j]))
		}
		rows = append(rows, row)
	}
	return rows
}

// explanation is what the summary's columns mean.
func (rep *Report) explanation() string {
	return fmt.Sprintf("Discriminative power is the share of the %s system pairs whose difference the test finds significant (ASL < %v): "+
		"the higher, the more often the measure reaches a conclusion on pools like this one. The difference required is the largest, over "+
		"pairs, of the smallest difference of means the test would call significant for that pair with these topics (Sakai, SIGIR 2006); "+
		"relative is it over the measure's mean, median its median over pairs. Discriminative power says nothing of whether a measure "+
		"measures what matters to your users: choose among the measures that do.", numfmt.Thousands(rep.Pairs), float64(rep.Alpha))
}

func writeText(w io.Writer, rep *Report, md bool) error {
	if err := reportfmt.Title(w, md, "riskgate discriminate", reportfmt.EscapeIf(md, rep.subtitle())); err != nil {
		return err
	}
	sections := []struct {
		title, sub string
		align      string
		rows       [][]string
	}{
		{"Measures by discriminative power", rep.explanation(), "rlrrrrrrr", rep.summaryRows()},
		{"Kendall's τ between the system rankings", "τ_b of the systems ordered by each measure's mean (R's cor(method = \"kendall\")); 1 is the same order.", "lr", rep.matrixRows("τ", rep.KendallTau)},
		{"τ_AP between the system rankings", "Yilmaz et al.'s AP correlation of the row's ranking against the column's as the reference: disagreements near the top count more.", "lr", rep.matrixRows("τ_AP", rep.TauAP)},
	}
	for _, s := range sections {
		align := s.align
		for len(align) < len(s.rows[0]) {
			align += "r"
		}
		var err error
		if md {
			_, err = fmt.Fprintf(w, "## %s\n\n%s\n\n", s.title, escape.Markdown(s.sub))
		} else {
			_, err = fmt.Fprintf(w, "%s\n%s\n\n", s.title, s.sub)
		}
		if err != nil {
			return err
		}
		if err := reportfmt.Table(w, md, align, s.rows); err != nil {
			return err
		}
		if !md {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
	}
	return reportfmt.Warnings(w, md, rep.Warnings)
}

// writeCSV writes one row per measure: the summary, then its Kendall's τ
// and τ_AP with every measure (columns tau_NAME and tau_ap_NAME).
func writeCSV(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	head := []string{"rank", "measure", "test", "alpha", "b", "systems", "pairs", "topics", "mean", "significant", "discriminative_power",
		"difference_required", "difference_required_median", "difference_required_relative"}
	for _, m := range rep.Measures {
		head = append(head, "tau_"+m.Name)
	}
	for _, m := range rep.Measures {
		head = append(head, "tau_ap_"+m.Name)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for i, m := range rep.Measures {
		row := []string{strconv.Itoa(i + 1), m.Name, rep.Test, numfmt.CSV(rep.Alpha), strconv.Itoa(rep.B), strconv.Itoa(len(rep.Systems)),
			strconv.Itoa(rep.Pairs), strconv.Itoa(m.Topics), numfmt.CSV(m.Mean), strconv.Itoa(m.Significant), numfmt.CSV(m.Power),
			numfmt.CSV(m.Required), numfmt.CSV(m.RequiredMedian), numfmt.CSV(m.RequiredRelative)}
		for j := range rep.Measures {
			row = append(row, numfmt.CSV(rep.KendallTau[i][j]))
		}
		for j := range rep.Measures {
			row = append(row, numfmt.CSV(rep.TauAP[i][j]))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
