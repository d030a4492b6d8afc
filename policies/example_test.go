package policies_test

import (
	"fmt"
	"time"

	"github.com/riskgate/riskgate/policies"
)

// The gate's use of a policy: parse, assign roles, compute what Queries
// lists for each challenger, evaluate.
func ExamplePolicy_Evaluate() {
	p, err := policies.Parse("gate.yaml", []byte(`version: 1
name: example
champion: prod
challengers: ["cand-*"]
loss_weight: 5
rules:
  - {id: better, quantity: bayes.p_better, at_least: 0.95}
  - {id: not-riskier, quantity: brisk.p_riskier, at_most: 0.05}
rank_by: bayes.diff.mean
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	roles, err := p.Roles([]string{"prod", "cand-1", "cand-2", "old-run"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("challengers:", roles.Challengers, "artifacts:", roles.Artifacts)
	fmt.Println("analyses:", p.Needs())

	// What the analyses would have computed, in the order of p.Queries().
	observed := map[string][]float64{"cand-1": {0.99, 0.01, 0.031}, "cand-2": {0.97, 0.2, 0.04}}
	values := policies.NewValues()
	for _, c := range roles.Challengers {
		for i, q := range p.Queries() {
			values.Set(c, q, policies.Number(observed[c][i]))
		}
	}
	d := p.Evaluate(policies.Evidence{
		Challengers: roles.Challengers,
		Values:      values,
		Facts:       policies.Facts{Topics: 50, Artifacts: len(roles.Artifacts), TopicCoverage: 1},
		Now:         time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	})
	for _, c := range d.Challengers {
		for _, r := range c.Rules {
			fmt.Printf("%s %s: %s (%s)\n", c.Name, r.Rule, r.Outcome, r.Reason)
		}
	}
	fmt.Println(d.Verdict, d.Selected, "—", d.Reason)
	// Output:
	// challengers: [cand-1 cand-2] artifacts: [old-run]
	// analyses: [bayes brisk]
	// cand-1 better: pass (observed 0.99; needs at least 0.95)
	// cand-1 not-riskier: pass (observed 0.01; needs at most 0.05)
	// cand-2 better: pass (observed 0.97; needs at least 0.95)
	// cand-2 not-riskier: fail (observed 0.2; needs at most 0.05)
	// pass [cand-1] — cand-1 passes every rule and is the only challenger that passes
}
