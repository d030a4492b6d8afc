package report

import (
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
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
	case "inconclusive", "needs judgments":
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
	case "needs judgments":
		return "🔍"
	case "waived":
		return "🛡️"
	}
	return ""
}

// evidenceOf is the evidence of a challenger's rule, nil when there is none.
func evidenceOf(r *result.Result, challenger, rule string) *result.Evidence {
	for i := range r.Evidence {
		if e := &r.Evidence[i]; e.Challenger == challenger && e.Rule == rule {
			return e
		}
	}
	return nil
}

// decideText says what would decide a rule that did not pass, in one
// clause: "50 topics resolve differences of about 0.117 (risk-adjusted, w =
// 5); about 445 topics would likely decide it; it passes at w = 2".
func decideText(e *result.Evidence) string {
	var parts []string
	if e.ResolvableDifference != nil {
		scale := ""
		if e.LossWeight > 0 {
			scale = " (risk-adjusted, w = " + numfmt.G(e.LossWeight) + ")"
		}
		parts = append(parts, fmt.Sprintf("%d topics resolve differences of about %s%s", e.Topics, numfmt.Dash.Fixed(float64(*e.ResolvableDifference), 3), scale))
	}
	switch {
	case e.TopicsToDecide != nil:
		parts = append(parts, "about "+numfmt.Thousands(*e.TopicsToDecide)+" topics would likely decide it")
	case e.TopicsNote != "":
		parts = append(parts, e.TopicsNote)
	}
	if len(e.PassesAtLossWeight) > 0 {
		ws := make([]string, len(e.PassesAtLossWeight))
		for i, w := range e.PassesAtLossWeight {
			ws[i] = numfmt.G(w)
		}
		parts = append(parts, "it passes at w = "+strings.Join(ws, ", "))
	}
	return strings.Join(parts, "; ")
}
