package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/riskgate/riskgate/internal/atomicfile"
	"github.com/riskgate/riskgate/internal/escape"

	"github.com/urfave/cli/v3"
)

// How every command writes what it reports: the output flags (--format,
// -o/--output), the atomic writing of the result, and how numbers are spelled
// in JSON, CSV, text and markdown. Commands render into a writer;
// writeOutput sends the result whole to standard output or atomically to a
// file, so that an error never leaves half a report behind.

// reportFormats are the output formats of the report commands (compare, pair,
// classify); the first is the default.
var reportFormats = []string{"table", "md", "json", "csv"}

// formatFlag is --format, the output format: one of formats, the first by default.
func formatFlag(dst *string, formats []string) *cli.StringFlag {
	return &cli.StringFlag{Name: "format", Value: formats[0], Destination: dst,
		Usage: "output `FORMAT`: " + strings.Join(formats, ", ")}
}

// outputFlag is -o/--output, the file writeOutput writes instead of standard output.
func outputFlag(dst *string) *cli.StringFlag {
	return &cli.StringFlag{Name: "output", Aliases: []string{"o"}, Destination: dst,
		Usage: "write to `FILE` (atomically: a temporary file renamed into place) instead of standard output"}
}

// checkFormat checks a --format value against the formats a command offers.
func checkFormat(format string, formats []string) error {
	if slices.Contains(formats, format) {
		return nil
	}
	return fmt.Errorf("--format %q: expected one of %s", format, strings.Join(formats, ", "))
}

// writeOutput renders a report with write and sends it to path, or to stdout
// when path is "" or "-" (the value of -o/--output). Standard output gets the
// report only once it is complete; a file is written by writeFileAtomic.
func writeOutput(stdout io.Writer, path string, write func(io.Writer) error) error {
	if path != "" && path != "-" {
		return atomicfile.Write(path, write)
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	_, err := stdout.Write(b.Bytes())
	return err
}

// writeReport renders a report in format, one of reportFormats: JSON of v
// (indented by two spaces), CSV by writeCSV, and the table and md views by
// writeText.
func writeReport(w io.Writer, format string, v any, writeCSV func(io.Writer) error, writeText func(w io.Writer, md bool) error) error {
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
	return checkFormat(format, reportFormats)
}

// writeTitle starts a text or markdown report: the title and the sentence
// under it (a level-3 heading and a paragraph in markdown), then a blank line.
// Names in them must already be escaped for markdown (mdEscapeIf).
func writeTitle(w io.Writer, md bool, title, sub string) error {
	var err error
	if md {
		_, err = fmt.Fprintf(w, "### %s\n\n%s.\n\n", title, sub)
	} else {
		_, err = fmt.Fprintf(w, "%s\n%s\n\n", title, sub)
	}
	return err
}

// writeWarnings ends a text or markdown report with one "warning: …" line
// per warning.
func writeWarnings(w io.Writer, md bool, warnings []string) error {
	for _, msg := range warnings {
		if _, err := fmt.Fprintf(w, "warning: %s\n", mdEscapeIf(md, msg)); err != nil {
			return err
		}
	}
	return nil
}

// prefixed returns the warnings of a result, each prefixed with what
// produced it ("TRisk: …"), for a report's list of warnings.
func prefixed(what string, warnings []string) []string {
	out := make([]string, len(warnings))
	for i, w := range warnings {
		out[i] = what + ": " + w
	}
	return out
}

// writeTable writes rows, the first of them the header, as a text table
// (columns padded to their widths in runes, two spaces apart, no trailing
// blanks) or, with md, as a markdown pipe table of escaped cells followed by
// a blank line. align[j] is 'r' to right-align column j; other columns are
// left-aligned.
func writeTable(w io.Writer, md bool, align string, rows [][]string) error {
	right := func(j int) bool { return j < len(align) && align[j] == 'r' }
	var b strings.Builder
	if md {
		for i, row := range rows {
			cells := make([]string, len(row))
			for j, c := range row {
				cells[j] = mdCell(c)
			}
			b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
			if i == 0 {
				seps := make([]string, len(row))
				for j := range row {
					seps[j] = "---"
					if right(j) {
						seps[j] = "--:"
					}
				}
				b.WriteString("|" + strings.Join(seps, "|") + "|\n")
			}
		}
		b.WriteString("\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
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

// mdEscape makes s safe as markdown text, in a table cell or not, so that a
// system, category or file name cannot break a table, inject markup or
// @-mention anyone in a pull-request comment. It is escape.Markdown, the
// one markdown escaper of riskgate (a backslash does not stop a GitHub
// mention; a zero-width space after @ does).
func mdEscape(s string) string { return escape.Markdown(s) }

// mdCell is a markdown table cell: numbers and intervals as they are (so
// "-0.068 [-0.289, 0.113]" stays readable in the source), anything else
// escaped by mdEscape. A cell made only of digits, signs, separators,
// brackets, "<" and exponent letters cannot form markup: without ">" there is
// no tag or autolink, without "(" after "]" no link, and no letter but e/E.
func mdCell(s string) string {
	if numericCell(s) {
		return s
	}
	return mdEscape(s)
}

// numericCell reports whether a table cell is a number, an interval of
// numbers, or a placeholder for one (NA, Inf, –).
func numericCell(s string) bool {
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

// mdEscapeIf is mdEscape in a markdown report and s unchanged in a text one.
func mdEscapeIf(md bool, s string) string {
	if md {
		return mdEscape(s)
	}
	return s
}
