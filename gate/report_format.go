package gate

import (
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/riskgate/riskgate/policies"
)

// Spelling shared by the gate's reports.

// observedText prints an observation for a report: a category as is; a
// number with four significant digits, or more when four would seem to
// contradict the outcome (0.94996 against "at least 0.95" prints 0.94996,
// not 0.95), as policies' own reasons do; "–" when there is no value.
func observedText(o policies.Observation, b policies.Bound) string {
	if c, ok := o.Category(); ok {
		return c
	}
	v, ok := o.Number()
	if !ok {
		return "–"
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	holds := b.Holds(policies.Number(v))
	for prec := 4; prec < 17; prec++ {
		s := strconv.FormatFloat(v, 'g', prec, 64)
		r, err := strconv.ParseFloat(s, 64)
		if err == nil && b.Holds(policies.Number(r)) == holds && (r == v || !boundEnd(r, b)) {
			return s
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// boundEnd reports whether r is an end of the bound, where a rounded value
// would read as exactly the bound.
func boundEnd(r float64, b policies.Bound) bool {
	switch b.Op {
	case policies.AtLeast, policies.AtMost:
		return r == b.Value
	case policies.In:
		return b.Outcomes == nil && (r == b.Lo || r == b.Hi)
	}
	return false
}

// num prints x with d decimals, "–" when it is not finite.
func num(x JSONFloat, d int) string { return dashStyle.fixed(float64(x), d) }

// numPtr is num for an optional number.
func numPtr(x *JSONFloat, d int) string {
	if x == nil {
		return "–"
	}
	return num(*x, d)
}

// maxNameRunes bounds how much of a run or topic name a report prints.
const maxNameRunes = 60

// plainName prepares a name for a terminal: control characters (which could
// move the cursor or change colours) become U+FFFD, and a long name is cut.
func plainName(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == maxNameRunes {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) || r == utf8.RuneError {
			r = '\uFFFD'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// clipRunes cuts s to at most n runes, ending in "…" when cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// useColor reports whether to colour output on w: a terminal, NO_COLOR unset
// (https://no-color.org), and a TERM that is not "dumb".
func useColor(w io.Writer) bool {
	return isTerminal(w) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
}

// verdictColor is the ANSI colour of a verdict or an outcome.
func verdictColor(v string) string {
	switch v {
	case "pass":
		return "32" // green
	case "warn", "waived":
		return "33" // yellow
	case "fail":
		return "31" // red
	case "inconclusive":
		return "35" // magenta
	}
	return ""
}

// verdictEmoji marks a verdict or outcome in markdown.
func verdictEmoji(v string) string {
	switch v {
	case "pass":
		return "✅"
	case "warn":
		return "⚠️"
	case "fail":
		return "❌"
	case "inconclusive":
		return "❔"
	case "waived":
		return "🛡️"
	}
	return ""
}
