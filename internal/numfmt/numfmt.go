// Package numfmt is how riskgate spells numbers in text, markdown and CSV
// reports: R's style (compare) and the dash style (pair, classify, the gate).
package numfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// G4 formats with four significant digits.
func G4(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return R.Fixed(x, 0)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// G is the shortest decimal that reads back as x.
func G(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// OrDash is s, or "–" when s is empty.
func OrDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// CSV spells a number in a CSV report: the shortest decimal that reads
// back as the same number, or an empty cell for NaN and ±Inf.
func CSV[F ~float64](x F) string {
	v := float64(x)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Style is how a text or markdown report spells numbers. Two are in use:
//   - R (compare) prints as R does: NA for an undefined number, Inf and
//     -Inf, and "<0.0001" for every p-value below 0.0001, zero included;
//   - Dash (pair, classify, the gate) prints "–" for any number that is not
//     finite, rounds p-values and probabilities to 4 decimals, and prints
//     "<0.0001" only for a positive value that would round to 0.0000 (a share
//     of posterior draws that is exactly 0 prints as 0.0000).
type Style struct {
	nan, posInf, negInf string
	roundP              bool
}

var (
	R    = Style{nan: "NA", posInf: "Inf", negInf: "-Inf"}
	Dash = Style{nan: "–", posInf: "–", negInf: "–", roundP: true}
)

// Fixed formats x with d decimals; negative zero prints as 0.
func (st Style) Fixed(x float64, d int) string {
	switch {
	case math.IsNaN(x):
		return st.nan
	case math.IsInf(x, 1):
		return st.posInf
	case math.IsInf(x, -1):
		return st.negInf
	}
	s := strconv.FormatFloat(x, 'f', d, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-") // no "-0.000"
	}
	return s
}

// P formats a p-value or a probability with 4 decimals, "<0.0001" below.
func (st Style) P(p float64) string {
	switch {
	case math.IsNaN(p) || math.IsInf(p, 0):
		return st.Fixed(p, 4)
	case st.roundP && p > 0 && p < 0.00005, !st.roundP && p < 0.0001:
		return "<0.0001"
	}
	return st.Fixed(p, 4)
}

// Interval formats [lo, hi] with d decimals.
func (st Style) Interval(lo, hi float64, d int) string {
	return "[" + st.Fixed(lo, d) + ", " + st.Fixed(hi, d) + "]"
}

// Percent formats a level as a percentage with at most four decimals: 0.9875 → "98.75%".
func Percent(level float64) string {
	s := strconv.FormatFloat(100*level, 'f', 4, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s + "%"
}

// Thousands prints n with commas: 10000 → "10,000".
func Thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Thousands(n) + " " + noun + "s"
}

// Signed formats x with 3 decimals and an explicit sign, as Zhang et al. print δ.
func Signed(x float64) string {
	s := Dash.Fixed(x, 3)
	if s != "–" && s[0] != '-' {
		s = "+" + s
	}
	return s
}
