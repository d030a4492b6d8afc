package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// threeMeasures is a pool of 4 systems × 40 topics on three measures: ap,
// ndcg (ap plus noise: correlated) and latency_ms (lower is better).
func threeMeasures(seed uint64) Tables {
	r := rand.New(rand.NewPCG(seed, 7))
	systems := []string{"champ", "chal", "a1", "a2"}
	topics := NumberedNames("t", 40)
	ap := scores.NewTable("ap", systems, topics)
	ndcg := scores.NewTable("ndcg", systems, topics)
	lat := scores.NewTable("latency_ms", systems, topics)
	for j := range topics {
		base := 0.2 + 0.5*r.Float64()
		for i := range systems {
			ap.Scores[i][j] = base + 0.05*r.NormFloat64() + 0.02*float64(i%2)
			ndcg.Scores[i][j] = ap.Scores[i][j] + 0.03*r.NormFloat64()
			lat.Scores[i][j] = 100 + 10*r.NormFloat64() + 3*float64(i%2)
		}
	}
	return Tables{ap, ndcg, lat}
}

const threeMeasurePolicy = `version: 1
name: three
champion: champ
challengers: [chal]
inputs:
  lower_is_better: [latency_ms]
rules:
  - {id: ap-t, quantity: tests.paired_t.p, alternative: greater, at_most: 0.5}
  - {id: ndcg-bca, quantity: bca.lo, measure: ndcg, loss_weight: 1, margin: 0.02, at_least: 0}
  - {id: lat-mean, quantity: mean_diff, measure: latency_ms, at_least: -5}
  - {id: lat-urisk, quantity: urisk, measure: latency_ms, loss_weight: 1, margin: 5%, at_least: 0}
`

// Each rule reads its own measure's table: the values are those of the
// closed-form computations on that measure alone, a lower-is-better measure
// is judged on champion − challenger, and a relative margin is that share
// of the champion's mean.
func TestRulesReadTheirMeasure(t *testing.T) {
	t.Parallel()
	ts := threeMeasures(1)
	p, err := policies.Parse("p.yaml", []byte(threeMeasurePolicy))
	if err != nil {
		t.Fatal(err)
	}
	// Without early stopping: BCa ends from all of the gate's replicates.
	d, err := DecideWith(context.Background(), p, ts, DecideOptions{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, rr := range d.Challengers[0].Rules {
		v, _ := rr.Observed.Number()
		got[rr.Rule] = v
	}
	pair := func(t *scores.Table) risk.Pair { return risk.Pair{X: t.Scores[1], Base: t.Scores[0]} }

	// ap: the paired t-test on ap's scores alone.
	wantP, _, err := testPValue(pair(ts[0]), "paired_t", policies.Greater, 0, gateBootstrapSamples, p.Seed)
	if err != nil || got["ap-t"] != wantP {
		t.Errorf("ap-t = %v, want %v (%v)", got["ap-t"], wantP, err)
	}
	// ndcg: the BCa lower end of ndcg's mean difference, plus the margin.
	b, err := pair(ts[1]).BCa(1, risk.BootstrapOptions{B: gateBootstrapSamples, Level: 0.95, Seed: p.Seed})
	if err != nil || got["ndcg-bca"] != b.BCa.Lo+0.02 {
		t.Errorf("ndcg-bca = %v, want %v (%v)", got["ndcg-bca"], b.BCa.Lo+0.02, err)
	}
	// latency: lower is better, so the difference is champion − challenger.
	lat := ts[2]
	wantDiff := stats.Mean(lat.Scores[0]) - stats.Mean(lat.Scores[1])
	if math.Abs(got["lat-mean"]-wantDiff) > 1e-12 {
		t.Errorf("lat-mean = %v, want champion − challenger %v", got["lat-mean"], wantDiff)
	}
	// URisk at w = 1 is the same mean improvement; the margin is 5% of the
	// champion's mean latency.
	if want := wantDiff + 0.05*stats.Mean(lat.Scores[0]); math.Abs(got["lat-urisk"]-want) > 1e-9 {
		t.Errorf("lat-urisk = %v, want %v", got["lat-urisk"], want)
	}
}

// A one-measure gate decides the same with or without other measures'
// tables beside it.
func TestOtherMeasuresDoNotChangeARule(t *testing.T) {
	t.Parallel()
	ts := threeMeasures(2)
	p, err := policies.Parse("p.yaml", []byte(`version: 1
name: one
champion: champ
challengers: [chal]
rules:
  - {id: ap-t, quantity: tests.paired_t.p, alternative: greater, at_most: 0.5}
`))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	one, err := Decide(context.Background(), p, ts[:1], now)
	if err != nil {
		t.Fatal(err)
	}
	all, err := Decide(context.Background(), p, ts, now)
	if err != nil {
		t.Fatal(err)
	}
	if one.Challengers[0].Rules[0].Observed != all.Challengers[0].Rules[0].Observed {
		t.Errorf("with other measures %v, alone %v", all.Challengers[0].Rules[0].Observed, one.Challengers[0].Rules[0].Observed)
	}
}

func TestRuleOnAbsentMeasureIsAnError(t *testing.T) {
	t.Parallel()
	p, err := policies.Parse("p.yaml", []byte(threeMeasurePolicy))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Decide(context.Background(), p, threeMeasures(3)[:2], time.Now())
	if err == nil || !strings.Contains(err.Error(), `p.yaml:10:50: rules[2].measure: no input holds measure "latency_ms"`) {
		t.Errorf("got %v", err)
	}
}

// Each measure a Bayesian rule uses is fitted once, and the memory
// estimate counts its fits.
func TestMemoryCountsFitsPerMeasure(t *testing.T) {
	t.Parallel()
	ts := threeMeasures(4)
	p, err := policies.Parse("p.yaml", []byte(`version: 1
name: bayes
champion: champ
challengers: [chal]
loss_weight: 2
rules:
  - {id: a, quantity: bayes.p_better, at_least: 0.9}
  - {id: n, quantity: bayes.p_better, measure: ndcg, at_least: 0.9}
  - {id: r, quantity: brisk.p_riskier, measure: ndcg, at_most: 0.1}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, parts := EstimateMemory(p, ts, nil, nil, nil)
	found := false
	for _, part := range parts {
		if strings.HasPrefix(part.What, "what 3 fits keep") {
			found = true
		}
	}
	if !found {
		t.Errorf("no 3 fits in %v", parts)
	}
}
