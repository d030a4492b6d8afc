package engine

import (
	"slices"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/policies"
)

// warning is a warning raised while computing, with what it is about, so
// that the result ties it to the rules whose values it concerns
// (result.Warning) and ranks it.
type warning struct {
	text string
	// kind is result.Warning's About: an analysis, AboutPolicy or AboutInputs.
	kind string
	// about are the values it concerns; none for the policy's warnings,
	// and every rule for the inputs'.
	about []about
}

// about names the values a warning concerns: those of an analysis, at a
// loss weight (0: any), of some quantities (none: every one the analysis
// computes).
type about struct {
	analysis   policies.Analysis
	w          float64
	quantities []string
}

func (a about) concerns(q policies.Query) bool {
	return q.Analysis() == a.analysis && (a.w == 0 || q.LossWeight == a.w) &&
		(len(a.quantities) == 0 || slices.Contains(a.quantities, q.Quantity))
}

// analysisWarning is a warning about the values of one analysis.
func analysisWarning(text string, a about) warning {
	return warning{text: text, kind: string(a.analysis), about: []about{a}}
}

// tie gives each warning the rules of the policy whose queries it concerns.
func (c *core) tie(ws []warning) []result.Warning {
	out := make([]result.Warning, 0, len(ws))
	for _, w := range ws {
		rw := result.Warning{Text: w.text, About: w.kind, Rules: []string{}}
		for _, r := range c.p.Rules {
			q := c.p.Query(r)
			if w.kind == result.AboutInputs || slices.ContainsFunc(w.about, func(a about) bool { return a.concerns(q) }) {
				rw.Rules = append(rw.Rules, r.ID)
			}
		}
		out = append(out, rw)
	}
	return out
}
