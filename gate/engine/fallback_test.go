package engine

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// With fewer artifacts than requirements.min_artifacts the Bayesian rules
// are judged on the model over every system with the day-one prior on the
// system spread (bayes.IRPools): a plainly worse challenger fails (not
// inconclusive), a plainly better one passes only as far as
// on_insufficient_pool allows (warn), and the result says which prior
// decided — in the fit's priors, its fallback and one warning.
func TestFewArtifactsFallback(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 1))
	topics := NumberedNames("t", 50)
	tab := scores.NewTable("ap", []string{"prod", "better", "worse", "artifact"}, topics)
	for j := range topics {
		base := 0.2 + 0.6*r.Float64()
		tab.Scores[0][j] = base
		tab.Scores[1][j] = min(1, base+0.10+0.03*r.NormFloat64())
		tab.Scores[2][j] = max(0, base-0.10+0.03*r.NormFloat64())
		tab.Scores[3][j] = max(0, min(1, base+0.1*r.NormFloat64()))
	}
	p, err := policies.Parse("p.yaml", []byte(`version: 1
name: fewruns
champion: prod
challengers: [better, worse]
select: all
requirements: {min_artifacts: 10}
rules:
  - {id: better-on-average, quantity: bayes.p_better, at_least: 0.95}
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), p, Tables{tab}, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]policies.Verdict{}
	for _, c := range res.Decision.Challengers {
		got[c.Name] = c.Verdict
	}
	if got["better"] != policies.Warn || got["worse"] != policies.Fail || res.Verdict() != policies.Fail {
		t.Errorf("verdicts %v, run %s; want better warn, worse fail, run fail", got, res.Verdict())
	}
	if res.Bayes == nil || !strings.HasPrefix(res.Bayes.Fallback, "the system spread has the day-one prior τ_system ~ ir_pools = gamma(2, 4)") ||
		!strings.HasSuffix(res.Bayes.Fallback, ": 1 artifact system; the Bayesian rules require at least 10 (requirements.min_artifacts)") ||
		len(res.Bayes.Systems) != 4 {
		t.Errorf("fit: fallback %q over %d systems", res.Bayes.Fallback, len(res.Bayes.Systems))
	}
	if got := res.Bayes.Priors["sd_system"]; got != "τ·sigma, τ ~ ir_pools = gamma(2, 4)" {
		t.Errorf("sd_system's prior reads %q", got)
	}
	n := 0
	for _, w := range res.Warnings {
		if strings.HasPrefix(w, "the Bayesian models took the system spread from the day-one prior τ_system ~ ir_pools = gamma(2, 4)") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d fallback warnings, want 1: %q", n, res.Warnings)
	}
}
