package report

import (
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// Spelling shared by the gate's reports.

// observedText prints an observation for a report (policies' spelling, so
// reports and the decision's reasons agree).
func observedText(o policies.Observation, b policies.Bound) string { return b.FormatObserved(o) }

// num prints x with d decimals, "–" when it is not finite.
func num(x jsonfloat.Float, d int) string { return numfmt.Dash.Fixed(float64(x), d) }

// numPtr is num for an optional number.
func numPtr(x *jsonfloat.Float, d int) string {
	if x == nil {
		return "–"
	}
	return num(*x, d)
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
