package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// topics_to_decide against a simulation. A challenger a little better than
// the champion (per-topic differences with mean 0.012 and SD 0.08 on 50
// topics) fails a one-sided paired t-test at 5% and a non-inferiority rule
// on the risk-adjusted mean (TRisk at w = 2 with margin 0.02 at least 1.645:
// URisk + 0.02 credibly above 0); the evidence names n* topics for each.
// Drawing 4,000 data sets of n* topics from the model the evidence assumes
// (the per-topic differences resampled from the observed ones, shifted to
// their observed mean — so that the observed difference is the truth) and
// applying each rule, it passes in 80% ± 3% of them.
func TestTopicsToDecideBySimulation(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(42, 1))
	const n = 50
	topics := NumberedNames("t", n)
	tab := scores.NewTable("ap", []string{"champ", "chal"}, topics)
	z := make([]float64, n)
	for j := range z {
		z[j] = r.NormFloat64()
	}
	zm, zs := stats.Mean(z), math.Sqrt(stats.Variance(z))
	for j := range n {
		base := 0.3 + 0.4*r.Float64()
		tab.Scores[0][j] = base
		tab.Scores[1][j] = base + 0.012 + 0.08*(z[j]-zm)/zs
	}
	p, err := policies.Parse("p.yaml", []byte(`version: 1
name: ttd
champion: champ
challengers: [chal]
loss_weight: 2
rules:
  - {id: t, quantity: tests.paired_t.p, alternative: greater, at_most: 0.05}
  - {id: u, quantity: trisk, margin: 0.02, at_least: 1.645}
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), p, Tables{tab}, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	evidence := map[string]result.Evidence{}
	for _, e := range res.Evidence {
		evidence[e.Rule] = e
	}
	pair := risk.Pair{X: tab.Scores[1], Base: tab.Scores[0]}
	for _, c := range []struct {
		rule   string
		passes func(x, base []float64) bool
		diffs  []float64 // the per-topic quantity the rule averages
	}{
		{"t", func(x, base []float64) bool {
			tt, _ := risk.Pair{X: x, Base: base}.PairedT(0.95)
			return tt.PGreater <= 0.05
		}, pair.Deltas()},
		{"u", func(x, base []float64) bool {
			tr, _ := risk.Pair{X: x, Base: base}.TRisk(2)
			return (tr.URisk+0.02)/tr.SE >= 1.645
		}, pair.Deltas()},
	} {
		e, ok := evidence[c.rule]
		if !ok || e.TopicsToDecide == nil {
			t.Fatalf("rule %s: no topics_to_decide in %+v (decision %+v)", c.rule, res.Evidence, res.Decision.Challengers)
		}
		m := *e.TopicsToDecide
		// Resample the observed differences: the evidence's model keeps their
		// spread and takes their mean as the truth.
		const sims = 4000
		passed := 0
		x, base := make([]float64, m), make([]float64, m)
		rs := rand.New(rand.NewPCG(7, uint64(len(c.rule))))
		for range sims {
			for j := range m {
				x[j], base[j] = c.diffs[rs.IntN(n)], 0
			}
			if c.passes(x, base) {
				passed++
			}
		}
		rate := float64(passed) / sims
		t.Logf("rule %s: %d topics resolve %.4f; %d topics would decide it; the rule passes in %.3f of %d simulated collections", c.rule, e.Topics, float64(*e.ResolvableDifference), m, rate, sims)
		if math.Abs(rate-0.8) > 0.03 {
			t.Errorf("rule %s: passes in %.3f of the simulated collections of %d topics, want 0.80 ± 0.03", c.rule, rate, m)
		}
	}
}

// topics_to_decide for a Bayesian rule, against a simulation: on the example
// pool, a challenger a little better than the production system fails
// bayes.p_better ≥ 0.95; pools of the evidence's n* topics are drawn from
// the generating model estimated from the pool (bayes.PoolModel, the one
// calibrate draws from) with the challenger's true effect set to the
// observed difference, and the rule, refitted on each, passes in about 80%
// of them. The posterior-width approximation (SD ∝ 1/√topics, variances as
// estimated) and 120 pools allow ±0.12 (about 3 Monte Carlo SEs).
func TestTopicsToDecideBayesBySimulation(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipped in short mode: 120 hierarchical fits (go test without -short runs it)")
	}
	ex := ExamplePool()
	// The challenger: production plus a small, noisy gain.
	r := rand.New(rand.NewPCG(3, 3))
	prod := ex.SystemIndex("production")
	tab := scores.NewTable(ex.Measure, append([]string{"production", "candidate"}, ex.Systems[4:]...), ex.Topics)
	copy(tab.Scores[0], ex.Scores[prod])
	for j := range ex.Topics {
		tab.Scores[1][j] = min(1, max(0, ex.Scores[prod][j]+0.004+0.03*r.NormFloat64()))
	}
	for s := 2; s < len(tab.Systems); s++ {
		copy(tab.Scores[s], ex.Scores[ex.SystemIndex(tab.Systems[s])])
	}
	p, err := policies.Parse("p.yaml", []byte("version: 1\nname: ttdb\nchampion: production\nchallengers: [candidate]\nmodel: {target_ess: 1000}\nrules:\n  - {id: b, quantity: bayes.p_better, at_least: 0.95}\n"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), p, Tables{tab}, Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Evidence) != 1 || res.Evidence[0].TopicsToDecide == nil {
		t.Fatalf("evidence %+v (decision %+v)", res.Evidence, res.Decision.Challengers)
	}
	e := res.Evidence[0]
	m := *e.TopicsToDecide
	model, err := bayes.EstimatePoolModel(&bayes.Table{Systems: tab.Systems, Topics: tab.Topics, Scores: tab.Scores}, 0, []int{1})
	if err != nil {
		t.Fatal(err)
	}
	const pools = 120
	topics := NumberedNames("t", m)
	passed := 0
	for i := range pools {
		pool, _, err := model.Simulate(rand.New(rand.NewPCG(11, uint64(i))), float64(e.Estimate), tab.Systems, topics)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Decide(context.Background(), p, Tables{&scores.Table{Systems: pool.Systems, Topics: pool.Topics, Scores: pool.Scores}}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		if d.Challengers[0].Verdict == policies.Pass {
			passed++
		}
	}
	rate := float64(passed) / pools
	t.Logf("P(better) estimate %.4f ± %.4f on %d topics; %d topics would decide it; the rule passes in %.3f of %d simulated pools", float64(e.Estimate), float64(e.SE), e.Topics, m, rate, pools)
	if math.Abs(rate-0.8) > 0.12 {
		t.Errorf("passes in %.3f of the simulated pools of %d topics, want 0.80 ± 0.12", rate, m)
	}
}
