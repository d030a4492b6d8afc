package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// TestDecideBCaAgreesWithTheGate: calibrate's decision (Decide, whose BCa
// bounds are settled sequentially) gives the verdict of the gate's full
// bootstrap on pools like rb04's — the default policy's guardrail alone, on
// truths around its boundary so that many decisions are close. Every
// disagreement must be a pool whose full-length end lies within 4 Monte Carlo
// SEs of the threshold (the SE from the end's spread over 8 more seeds).
// RISKGATE_BCA_AGREE=n sets the number of pools (200 by default; the note of
// issue 20 gives the figures for 1,000).
func TestDecideBCaAgreesWithTheGate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("bootstraps 200 simulated pools twice (about 10 s); skipped in -short")
	}
	n := 200
	if v, err := strconv.Atoi(os.Getenv("RISKGATE_BCA_AGREE")); err == nil && v > 0 {
		n = v
	}
	p, err := policies.Parse("guardrail.yaml", []byte(`version: 1
name: guardrail
champion: champ
challengers: [chal]
loss_weight: 2
rules:
  - {id: not-riskier, quantity: bca.lo, level: 0.95, margin: 0.02, at_least: 0}
`))
	if err != nil {
		t.Fatal(err)
	}
	// rb04's moments (calibrate's estimate): SD 0.090 and skewness 0.66 of
	// the challengers' differences.
	model := bayes.PoolModel{Intercept: 0.314, Sigma: 0.1068, SDTopic: 0.1932, SDSystem: 0.0104, DiffSD: 0.0901, DiffSkew: 0.66}
	systems := []string{"champ", "chal", "a1", "a2"}
	topics := NumberedNames("t", 50)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var disagree, early, total int
	var seqTime, fullTime time.Duration
	for i := range n {
		r := rand.New(rand.NewPCG(77, uint64(i)))
		effect := 0.01 + 0.05*r.Float64() // around the guardrail's boundary at w = 2
		m := model.WithRisk(0.75 + r.Float64())
		pool, _, err := m.Simulate(r, effect, systems, topics)
		if err != nil {
			t.Fatal(err)
		}
		tab := &scores.Table{Systems: pool.Systems, Topics: pool.Topics, Scores: pool.Scores}
		start := time.Now()
		d, err := Decide(context.Background(), p, Tables{tab}, now)
		if err != nil {
			t.Fatal(err)
		}
		seqTime += time.Since(start)
		start = time.Now()
		// The gate's decision: every BCa end from all of its replicates.
		g, err := newCore(context.Background(), p, Tables{tab}, scores.Alignment{}, Options{Now: now}.settings(p))
		if err != nil {
			t.Fatal(err)
		}
		full, err := g.decide()
		if err != nil {
			t.Fatal(err)
		}
		fullTime += time.Since(start)
		total++
		pair := g.whole.pair(1)
		s, _ := risk.BCaMeanBoundSequential(pair.Adjusted(2), risk.BootstrapOptions{B: gateBootstrapSamples, Level: 0.95, Seed: p.Seed}, false, -0.02)
		if s.Early {
			early++
		}
		if d.Verdict == full.Verdict {
			continue
		}
		disagree++
		end := g.whole.bca(2, 0.95)[1].r.BCa.Lo
		var ends []float64
		for seed := uint64(2); seed <= 9; seed++ {
			b, _ := risk.BCaMean(pair.Adjusted(2), risk.BootstrapOptions{B: gateBootstrapSamples, Level: 0.95, Seed: seed})
			ends = append(ends, b.BCa.Lo)
		}
		mcse := sd(ends)
		t.Logf("pool %d: calibrate %s, gate %s; full end %.5f, threshold −0.02, MCSE %.2g (%.1f MCSE away)", i, d.Verdict, full.Verdict, end, mcse, math.Abs(end+0.02)/mcse)
		if math.Abs(end+0.02) > 4*mcse {
			t.Errorf("pool %d: verdicts differ with the full end %.1f MCSE from the threshold", i, math.Abs(end+0.02)/mcse)
		}
	}
	t.Logf("%d pools: %d settled early, %d verdicts differ; bootstrap time %v sequential against %v in full", total, early, disagree, seqTime.Round(time.Millisecond), fullTime.Round(time.Millisecond))
}
