package engine

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/policies"
)

// Every quantity of the policies registry, with every parameter it declares
// and every value of its enumerated parameters, is computed by the engine: a
// policy with one rule per (quantity, parameter variant) runs on the
// built-in example pool, and no rule comes back without a value, NaN or
// infinite — the example pool (3 challengers, 40 artifacts, 50 topics)
// allows a value of each. A quantity declared in policies and never
// computed here fails this test.
func TestEveryQuantityIsComputed(t *testing.T) {
	t.Parallel()
	var rules []string
	for _, q := range policies.Quantities() {
		for _, params := range parameterVariants(q) {
			rules = append(rules, fmt.Sprintf("  - {id: r%d, quantity: %s, %s%s, severity: warn}", len(rules)+1, q.Name, bound(q), params))
		}
	}
	policy := "version: 1\nname: registry\nchampion: production\nchallengers: [\"candidate-*\"]\nloss_weight: 5\nrules:\n" + strings.Join(rules, "\n") + "\n"
	p, err := policies.Parse("registry.yaml", []byte(policy))
	if err != nil {
		t.Fatalf("%v\n%s", err, policy)
	}
	r, err := Run(context.Background(), p, Tables{ExamplePool()}, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	computed := map[string]bool{}
	for _, c := range r.Decision.Challengers {
		for _, rr := range c.Rules {
			obs := rr.Observed
			if v, ok := obs.Number(); ok && !math.IsNaN(v) && !math.IsInf(v, 0) {
				computed[rr.Quantity] = true
				continue
			}
			if _, ok := obs.Category(); ok {
				computed[rr.Quantity] = true
				continue
			}
			t.Errorf("%s, %s: no value (%s)", c.Name, rr.Query, obs)
		}
	}
	for _, q := range policies.Quantities() {
		if !computed[q.Name] {
			t.Errorf("quantity %s is registered but the engine never computed it", q.Name)
		}
	}
	t.Logf("%d rules over %d quantities, each computed for %d challengers", len(rules), len(computed), len(r.Decision.Challengers))
}

// bound is a bound that any value of q's kind satisfies.
func bound(q *policies.Quantity) string {
	switch q.Kind {
	case policies.KindCategory:
		return "in: [" + strings.Join(q.Outcomes, ", ") + "]"
	case policies.KindNumber:
		return "at_least: -1000000"
	}
	return "at_least: 0"
}

// parameterVariants are the rule parameters to try q with: its required
// parameters alone, then each parameter it accepts in turn, enumerated ones
// with each value they may take.
func parameterVariants(q *policies.Quantity) []string {
	required := ""
	for _, p := range q.Required {
		if p == policies.ParamRope {
			required += ", rope: [-0.01, 0.01]"
		}
	}
	out := []string{required}
	for _, p := range q.Params {
		switch p {
		case policies.ParamLevel:
			out = append(out, required+", level: 0.9")
		case policies.ParamCorrection:
			for _, c := range q.Corrections {
				out = append(out, required+", correction: "+string(c))
			}
		case policies.ParamRope:
			out = append(out, ", rope: [-0.02, 0.02]")
		case policies.ParamLossWeight:
			out = append(out, required+", loss_weight: 2")
		case policies.ParamAlpha:
			out = append(out, required+", alpha: 1")
		case policies.ParamAlternative:
			for _, a := range q.Alternatives {
				out = append(out, required+", alternative: "+string(a))
			}
		case policies.ParamMargin:
			out = append(out, required+", margin: 0.02")
		}
	}
	return out
}
