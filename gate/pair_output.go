package gate

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Output helpers shared by the pair and classify commands.

// pairFixed formats x with d decimals, "–" for NaN and ±Inf; negative zero prints as 0.
func pairFixed(x float64, d int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// pairP formats a probability or p-value with 4 decimals, "<0.0001" below.
func pairP(p float64) string {
	if !math.IsNaN(p) && p > 0 && p < 0.00005 {
		return "<0.0001"
	}
	return pairFixed(p, 4)
}

// pairCSVNum formats a number for CSV: shortest round-trip decimal, empty for NaN.
func pairCSVNum(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// pairInterval formats [lo, hi] with d decimals.
func pairInterval(lo, hi float64, d int) string {
	return "[" + pairFixed(lo, d) + ", " + pairFixed(hi, d) + "]"
}

// pairMDEscape makes s safe inside a markdown table cell: it escapes the
// characters that end a cell or start markup, so that a system or category
// name cannot inject a table, a link or an @-mention.
func pairMDEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '|', '\\', '`', '*', '_', '[', ']', '<', '>', '#', '@', '!', '~', '&':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n', '\r', '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pairTable writes rows as a plain-text table with columns padded to their
// widths (counted in runes), or, in markdown, as a pipe table whose first row
// is the header. align[i] is 'l' or 'r'.
func pairTable(w io.Writer, md bool, align string, rows [][]string) error {
	if md {
		for i, row := range rows {
			cells := make([]string, len(row))
			for j, c := range row {
				cells[j] = pairMDEscape(c)
			}
			if _, err := fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")); err != nil {
				return err
			}
			if i == 0 {
				seps := make([]string, len(row))
				for j := range row {
					seps[j] = "---"
					if j < len(align) && align[j] == 'r' {
						seps[j] = "--:"
					}
				}
				if _, err := fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|")); err != nil {
					return err
				}
			}
		}
		_, err := fmt.Fprintln(w)
		return err
	}
	width := map[int]int{}
	for _, row := range rows {
		for j, c := range row {
			width[j] = max(width[j], utf8.RuneCountInString(c))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for j, c := range row {
			pad := strings.Repeat(" ", width[j]-utf8.RuneCountInString(c))
			if j > 0 {
				b.WriteString("  ")
			}
			if j < len(align) && align[j] == 'r' {
				b.WriteString(pad + c)
			} else if j < len(row)-1 {
				b.WriteString(c + pad)
			} else {
				b.WriteString(c)
			}
		}
		if _, err := fmt.Fprintln(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// parseROPEFlag parses "LO,HI" into a ROPE-like pair; name is the flag for messages.
func parseLoHi(name, s string) (lo, hi float64, err error) {
	parts := strings.Split(s, ",")
	if len(parts) == 2 {
		lo, err1 := strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
		hi, err2 := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		if err1 == nil && err2 == nil && !math.IsNaN(lo) && !math.IsNaN(hi) && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) && lo <= hi {
			return lo, hi, nil
		}
	}
	return 0, 0, fmt.Errorf("%s %q: expected LO,HI with finite numbers and LO ≤ HI, e.g. -0.01,0.01", name, s)
}
