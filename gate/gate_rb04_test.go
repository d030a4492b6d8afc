package gate

import (
	"encoding/json"
	"math"
	"testing"

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

// The verdicts of docs/rb04-walkthrough.md on Robust04. P(better) is
// checked against values from fits at target ESS 100,000 with seeds 1–3
// (Chal. 1 0.9522–0.9528, Chal. 2 0.9477–0.9484, Chal. 3 0.3659–0.3669,
// Chal. 4 0.9994–0.9996), within three Monte Carlo standard errors at the
// policy's ESS of 4000, 3·√(p(1 − p)/4000) (0.010 at p = 0.95), plus 0.001.
func TestGateRB04Walkthrough(t *testing.T) {
	rb04 := shared.Path(t, "data/bayesian-risk/rb04.csv")
	policy := writeTemp(t, "rb04.yaml", rb04Policy)
	code, out, stderr := runMain(t, "gate", "--policy", policy, "--format", "json", rb04)
	if code != ExitFail {
		t.Fatalf("exit %d, want 1 (Chal. 2 and Chal. 3 fail better)\n%s", code, stderr)
	}
	var r Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		pBetter float64
		verdict policies.Verdict
	}{
		"Chal. 1": {0.9525, policies.Inconclusive}, // passes better; not-riskier waits for BRisk
		"Chal. 2": {0.948, policies.Fail},
		"Chal. 3": {0.3664, policies.Fail},
		"Chal. 4": {0.9995, policies.Inconclusive},
	}
	for _, c := range r.Bayes.Comparisons {
		p := want[c.Challenger].pBetter
		tol := 3*math.Sqrt(p*(1-p)/4000) + 0.001
		if got := float64(c.PBetter); math.Abs(got-p) > tol {
			t.Errorf("%s: P(better) %.4f, want %.4f ± %.4f", c.Challenger, got, p, tol)
		}
	}
	for _, c := range r.Decision.Challengers {
		if c.Verdict != want[c.Name].verdict {
			t.Errorf("%s: verdict %s, want %s (%s)", c.Name, c.Verdict, want[c.Name].verdict, c.Reason)
		}
		if o := c.Rules[1].Outcome; o != policies.OutcomeInconclusive {
			t.Errorf("%s: not-riskier %s, want inconclusive until BRisk lands", c.Name, o)
		}
	}
	if !r.Bayes.Converged || r.Verdict != policies.Fail {
		t.Errorf("converged %v, verdict %s", r.Bayes.Converged, r.Verdict)
	}
}
