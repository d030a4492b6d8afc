package report

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/riskgate/riskgate/internal/stats"

	"github.com/riskgate/riskgate/internal/escape"

	"github.com/riskgate/riskgate/internal/jsonfloat"
)

// A text-drawn interval chart, one row per estimate:
//
//	                 -0.05              0               0.05
//	production       │      ───━━━●━━━───·                 │  -0.022 [-0.046, 0.000]
//	candidate-better │              ·   ───━━━●━━━───      │   0.034 [ 0.010, 0.060]
//
// ─ spans the 95% interval, ━ the 50% interval, ● marks the mean and ·
// zero. Labels are given plain; esc escapes them for the medium (the
// markdown report draws the chart inside <pre>).

// chartRow is one estimate of the chart.
type chartRow struct {
	Label      string
	Mean       float64
	Lo, Hi     float64 // 95% interval
	Lo50, Hi50 float64 // 50% interval
	order      int     // for sorting rows by group
}

// chartWidth is the number of columns of the plotting area.
const chartWidth = 41

// maxChartLabel bounds the width of the label column.
const maxChartLabel = 28

// drawChart draws rows; esc escapes a label for the medium.
func drawChart(rows []chartRow, esc func(string) string) string {
	lo, hi := 0.0, 0.0
	for _, r := range rows {
		for _, x := range []float64{r.Lo, r.Hi, r.Mean} {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	pos := func(x float64) int {
		p := int(math.Round((x - lo) / (hi - lo) * (chartWidth - 1)))
		return min(max(p, 0), chartWidth-1)
	}
	labelW := 0
	for _, r := range rows {
		labelW = max(labelW, utf8.RuneCountInString(escape.Clip(r.Label, maxChartLabel)))
	}

	var b strings.Builder
	// The scale: lo at the left end, 0 where it falls, hi at the right end.
	scale := []rune(strings.Repeat(" ", chartWidth+2))
	put := func(at int, s string) bool {
		rs := []rune(s)
		if at < 0 || at+len(rs) > len(scale) {
			return false
		}
		for i := at - 1; i <= at+len(rs); i++ {
			if i >= 0 && i < len(scale) && scale[i] != ' ' {
				return false
			}
		}
		copy(scale[at:], rs)
		return true
	}
	loS, hiS := fmtAxis(lo), fmtAxis(hi)
	put(1, loS)
	put(chartWidth+1-utf8.RuneCountInString(hiS), hiS)
	if lo < 0 && hi > 0 {
		put(1+pos(0), "0")
	}
	b.WriteString(strings.Repeat(" ", labelW+1) + strings.TrimRight(string(scale), " ") + "\n")

	for _, r := range rows {
		label := escape.Clip(r.Label, maxChartLabel)
		b.WriteString(esc(label) + strings.Repeat(" ", labelW-utf8.RuneCountInString(label)+1))
		line := []rune(strings.Repeat(" ", chartWidth))
		if lo < 0 && hi > 0 {
			line[pos(0)] = '·'
		}
		if stats.Finite(r.Lo) && stats.Finite(r.Hi) {
			for i := pos(r.Lo); i <= pos(r.Hi); i++ {
				line[i] = '─'
			}
		}
		if stats.Finite(r.Lo50) && stats.Finite(r.Hi50) {
			for i := pos(r.Lo50); i <= pos(r.Hi50); i++ {
				line[i] = '━'
			}
		}
		if stats.Finite(r.Mean) {
			line[pos(r.Mean)] = '●'
		}
		fmt.Fprintf(&b, "│%s│  %s [%s, %s]\n", string(line), fmtSigned(r.Mean), fmtSigned(r.Lo), fmtSigned(r.Hi))
	}
	return b.String()
}

// fmtAxis prints an axis end with two significant digits.
func fmtAxis(x float64) string {
	if x == 0 {
		return "0"
	}
	return fmt.Sprintf("%.2g", x)
}

// fmtSigned prints x with three decimals and a sign column, so that columns align.
func fmtSigned(x float64) string {
	if !stats.Finite(x) {
		return "     –"
	}
	s := num(jsonfloat.Float(x), 3)
	if !strings.HasPrefix(s, "-") {
		s = " " + s
	}
	return s
}
