package gate

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/shared"
	"github.com/riskgate/riskgate/policies"
)

// rb04Policy is the policy of docs/rb04-walkthrough.md.
const rb04Policy = `version: 1
name: rb04-walkthrough
champion: Champion
challengers: ["Chal. *"]
loss_weight: 5
rules:
  - id: better
    quantity: bayes.p_better
    at_least: 0.95
  - id: not-riskier
    quantity: brisk.p_riskier
    at_most: 0.05
select: all
`

// The verdicts of docs/rb04-walkthrough.md on Robust04: every challenger
// fails. P(better) and P(riskier) are checked against fits at target ESS
// 100,000 with seeds 1–3 (P(better): Chal. 1 0.9522–0.9528, Chal. 2
// 0.9477–0.9484, Chal. 3 0.3659–0.3669, Chal. 4 0.9994–0.9996; P(riskier) in
// the BRisk pool at w = 5: see want), within three Monte Carlo standard
// errors at the policy's ESS of 4000, 3·√(p(1 − p)/4000) (0.010 at
// p = 0.95), plus 0.001.
func TestGateRB04Walkthrough(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("a reference test: the walkthrough's fit of the paper's 45 systems × 249 topics against fits at ESS 100,000 (2.5 CPU-s); -short decides the example on bayes.p_better and brisk.p_riskier (TestGateExampleGitHubNoErrorOnPass)")
	}
	rb04 := shared.Path(t, "data/bayesian-risk/rb04.csv")
	policy := writeTemp(t, "rb04.yaml", rb04Policy)
	code, out, stderr := runMain(t, "gate", "--policy", policy, "--format", "json", rb04)
	if code != exitFail {
		t.Fatalf("exit %d, want 1 (every challenger fails)\n%s", code, stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		pBetter, pRiskier float64
		better, riskier   policies.Outcome
	}{
		"Chal. 1": {0.9525, 0.385, policies.OutcomePass, policies.OutcomeFail},
		"Chal. 2": {0.948, 0.375, policies.OutcomeFail, policies.OutcomeFail},
		"Chal. 3": {0.3664, 0.890, policies.OutcomeFail, policies.OutcomeFail},
		"Chal. 4": {0.9995, 0.200, policies.OutcomePass, policies.OutcomeFail},
	}
	check := func(what, name string, got, p float64) {
		tol := 3*math.Sqrt(p*(1-p)/4000) + 0.001
		if math.Abs(got-p) > tol {
			t.Errorf("%s: %s %.4f, want %.4f ± %.4f", name, what, got, p, tol)
		}
	}
	for _, c := range r.Bayes.Comparisons {
		check("P(better)", c.Challenger, float64(c.PBetter), want[c.Challenger].pBetter)
	}
	// The BRisk fit at the rules' w = 5 (the others are the --risk-sweep's).
	var brisk5 *result.FitResult
	for _, f := range r.BRisk {
		if f.LossWeight == 5 {
			brisk5 = f
		}
	}
	if brisk5 == nil {
		t.Fatalf("no BRisk fit at w = 5 among %d", len(r.BRisk))
	}
	for _, c := range brisk5.Comparisons {
		check("P(riskier)", c.Challenger, float64(c.PWorse), want[c.Challenger].pRiskier)
	}
	for _, c := range r.Decision.Challengers {
		w := want[c.Name]
		if c.Verdict != policies.Fail || c.Rules[0].Outcome != w.better || c.Rules[1].Outcome != w.riskier {
			t.Errorf("%s: %s (better %s, not-riskier %s); want fail (%s, %s)", c.Name, c.Verdict, c.Rules[0].Outcome, c.Rules[1].Outcome, w.better, w.riskier)
		}
	}
	if !r.Bayes.Converged || !brisk5.Converged || r.Verdict() != policies.Fail {
		t.Errorf("converged %v and %v, verdict %s", r.Bayes.Converged, brisk5.Converged, r.Verdict())
	}
}
