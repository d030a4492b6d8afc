// Package reportfmt is how the analysis commands (compare, fit, pair,
// classify, diagnose, calibrate, bench) write a report: JSON, CSV, or a text or
// markdown view of titled tables and warnings. The gate's own reports are in
// gate/report.
package reportfmt

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/suggest"
)

// Formats are the output formats of the report commands (compare, pair,
// classify); the first is the default.
var Formats = []string{"table", "md", "json", "csv"}

// CheckFormat checks a --format value against the formats a command offers.
func CheckFormat(format string, formats []string) error {
	if slices.Contains(formats, format) {
		return nil
	}
	return fmt.Errorf("--format %q: expected one of %s%s", format, strings.Join(formats, ", "), suggest.DidYouMean(format, formats))
}

// Write renders a report in format, one of Formats: JSON of v
// (indented by two spaces), CSV by writeCSV, and the table and md views by
// writeText.
func Write(w io.Writer, format string, v any, writeCSV func(io.Writer) error, writeText func(w io.Writer, md bool) error) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case "csv":
		return writeCSV(w)
	case "table", "md":
		return writeText(w, format == "md")
	}
	return CheckFormat(format, Formats)
}

// Title starts a text or markdown report: the title and the sentence
// under it (a level-3 heading and a paragraph in markdown), then a blank line.
// Names in them must already be escaped for markdown (EscapeIf).
func Title(w io.Writer, md bool, title, sub string) error {
	var err error
	if md {
		_, err = fmt.Fprintf(w, "### %s\n\n%s.\n\n", title, sub)
	} else {
		_, err = fmt.Fprintf(w, "%s\n%s\n\n", title, sub)
	}
	return err
}

// Warnings ends a text or markdown report with one "warning: …" line
// per warning.
func Warnings(w io.Writer, md bool, warnings []string) error {
	for _, msg := range warnings {
		if _, err := fmt.Fprintf(w, "warning: %s\n", EscapeIf(md, msg)); err != nil {
			return err
		}
	}
	return nil
}

// Prefixed returns the warnings of a result, each prefixed with what
// produced it ("TRisk: …"), for a report's list of warnings.
func Prefixed(what string, warnings []string) []string {
	out := make([]string, len(warnings))
	for i, w := range warnings {
		out[i] = what + ": " + w
	}
	return out
}

// Table writes rows, the first of them the header, as a text table
// (columns padded to their widths in runes, two spaces apart, no trailing
// blanks) or, with md, as a markdown pipe table of escaped cells followed by
// a blank line. align[j] is 'r' to right-align column j; other columns are
// left-aligned.
func Table(w io.Writer, md bool, align string, rows [][]string) error {
	right := func(j int) bool { return j < len(align) && align[j] == 'r' }
	if md {
		escaped := make([][]string, len(rows))
		for i, row := range rows {
			escaped[i] = make([]string, len(row))
			for j, c := range row {
				escaped[i][j] = Cell(c)
			}
		}
		var seps []string
		if len(rows) > 0 {
			seps = make([]string, len(rows[0]))
			for j := range seps {
				seps[j] = "---"
				if right(j) {
					seps[j] = "--:"
				}
			}
		}
		return PipeTable(w, seps, escaped)
	}
	var b strings.Builder
	var width []int
	for _, row := range rows {
		for j, c := range row {
			if j == len(width) {
				width = append(width, 0)
			}
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	for _, row := range rows {
		var line strings.Builder
		for j, c := range row {
			if j > 0 {
				line.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			if right(j) {
				line.WriteString(pad + c)
			} else {
				line.WriteString(c + pad)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// PipeTable writes rows, the first of them the header, as a markdown pipe
// table of cells as given (already escaped for markdown), seps[j] under the
// header of column j ("---", ":---", "--:", "---:": its colons align the
// column), followed by a blank line.
func PipeTable(w io.Writer, seps []string, rows [][]string) error {
	var b strings.Builder
	for i, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		if i == 0 {
			b.WriteString("|" + strings.Join(seps, "|") + "|\n")
		}
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Cell is a markdown table cell: numbers and intervals as they are (so
// "-0.068 [-0.289, 0.113]" stays readable in the source), anything else
// escaped by escape.Markdown. A cell made only of digits, signs, separators,
// brackets, "<" and exponent letters cannot form markup: without ">" there is
// no tag or autolink, without "(" after "]" no link, and no letter but e/E.
func Cell(s string) string {
	if IsNumeric(s) {
		return s
	}
	return escape.Markdown(s)
}

// IsNumeric reports whether a table cell is a number, an interval of
// numbers, or a placeholder for one (NA, Inf, –).
func IsNumeric(s string) bool {
	switch s {
	case "NA", "NaN", "Inf", "-Inf", "–", "-":
		return true
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789.,%+-–−[] <eE", r) {
			return false
		}
	}
	return true
}

// EscapeIf is escape.Markdown in a markdown report and s unchanged in a text one.
func EscapeIf(md bool, s string) string {
	if md {
		return escape.Markdown(s)
	}
	return s
}
