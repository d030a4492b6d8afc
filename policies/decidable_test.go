package policies

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// paramDomain is every value a rule could give each parameter, declared or
// not: the space TestValidateRejectsUndecidable walks.
var paramDomain = map[Param][]string{
	ParamLevel:       {"0.9"},
	ParamCorrection:  enumStrings([]Correction{CorrectNone, CorrectBonferroni, CorrectHolm, CorrectBH}),
	ParamRope:        {"[-0.02, 0.02]"},
	ParamLossWeight:  {"2"},
	ParamAlpha:       {"1"},
	ParamAlternative: enumStrings(alternatives),
	ParamMargin:      {"0.02"},
}

// declared reports whether the registry declares value of p for q: the
// combinations the engine decides (gate/engine's TestEveryQuantityIsComputed
// walks exactly these through a gate run).
func declared(q *Quantity, p Param, value string) bool {
	if !q.Accepts(p) {
		return false
	}
	switch p {
	case ParamCorrection:
		return slices.Contains(enumStrings(q.Corrections), value)
	case ParamAlternative:
		return slices.Contains(enumStrings(q.Alternatives), value)
	}
	return true
}

// TestValidateRejectsUndecidable walks the registry's whole parameter space:
// every quantity with every parameter at every value. A policy validates if
// and only if the registry declares the combination, so that a rule the
// engine cannot decide (a one-sided permutation test, a BCa interval with
// Holm's correction) is refused by policy validate with file:line:column,
// never left to be inconclusive at run time.
func TestValidateRejectsUndecidable(t *testing.T) {
	positioned := regexp.MustCompile(`^walk\.yaml:(\d+):(\d+): rules\[0\]\.`)
	accepted, refused := 0, 0
	for _, q := range Quantities() {
		for _, p := range params {
			for _, v := range paramDomain[p] {
				var b strings.Builder
				b.WriteString("version: 1\nname: walk\nloss_weight: 5\nrules:\n  - id: r\n    quantity: " + q.Name + "\n")
				if q.Kind == KindCategory {
					b.WriteString("    in: [" + q.Outcomes[0] + "]\n")
				} else {
					b.WriteString("    at_least: 0\n")
				}
				for _, req := range q.Required {
					if req != p {
						fmt.Fprintf(&b, "    %s: %s\n", req, paramDomain[req][0])
					}
				}
				fmt.Fprintf(&b, "    %s: %s\n", p, v) // the line the error must name
				line := strings.Count(b.String(), "\n")
				_, err := Parse("walk.yaml", []byte(b.String()))
				want := declared(q, p, v)
				switch {
				case want && err != nil:
					t.Errorf("%s with %s: %s is declared but refused: %v", q.Name, p, v, err)
				case !want && err == nil:
					t.Errorf("%s with %s: %s is not declared (the engine cannot decide it) but validates", q.Name, p, v)
				case !want:
					m := positioned.FindStringSubmatch(err.Error())
					if m == nil || m[1] != fmt.Sprint(line) || strings.Contains(err.Error(), "\n") {
						t.Errorf("%s with %s: %s: error %q, want one line naming walk.yaml:%d:column", q.Name, p, v, err, line)
					}
					refused++
				default:
					accepted++
				}
			}
		}
	}
	t.Logf("%d combinations validate, %d are refused", accepted, refused)
	if accepted == 0 || refused == 0 {
		t.Fatal("the walk found nothing on one side")
	}
}
