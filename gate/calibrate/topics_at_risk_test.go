package calibrate

import (
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/internal/shared"
	"github.com/riskgate/riskgate/policies"
)

// How often the default policy's topics-at-risk warning (at most 2 topics
// whose risk-adjusted difference, losses counted twice, falls below the
// 2.5% predictive quantile) fires for a challenger that is uniformly better
// — +0.05 on average, its per-topic differences skew-normal like rb04's
// challengers' (risk 1) or half as spread (risk 0.5), no topic singled out:
// every warning is a false one — on pools of 0, 1, 2 and 40 artifacts
// simulated like rb04.csv (calibrate's generating model and streams), judged
// by the gate's decision (engine.DecideWith, sequential fits as calibrate's).
// A pool with fewer artifacts than min_artifacts (10) counts every pass of the
// rule as a warning (on_insufficient_pool: warn), so the rule's own outcome
// is read off its observed count. It runs only when asked:
//
//	RISKGATE_TAR=200 go test ./gate/calibrate -run TestTopicsAtRiskFalseWarn -v -timeout 2h
//
// and logs one line per cell: the share of pools with more than 2 topics at
// risk, its Monte Carlo SE, and the mean count (docs/calibrate.md, "Topics at
// risk from a small pool").
func TestTopicsAtRiskFalseWarn(t *testing.T) {
	reps, _ := strconv.Atoi(os.Getenv("RISKGATE_TAR"))
	if reps <= 0 {
		t.Skip("set RISKGATE_TAR=pools per cell to measure the topics-at-risk warning's false-warn rate against the pool's size")
	}
	rb := shared.RB04(t)
	tab := &bayes.Table{Systems: rb.Systems, Topics: rb.Topics}
	for _, s := range rb.Systems {
		tab.Scores = append(tab.Scores, rb.Scores[s])
	}
	champ := slices.Index(tab.Systems, "Champion")
	var chals []int
	var artifacts []string
	for s, name := range tab.Systems {
		switch {
		case name == "Champion":
		case strings.HasPrefix(name, "Chal."):
			chals = append(chals, s)
		default:
			artifacts = append(artifacts, name)
		}
	}
	model, err := bayes.EstimatePoolModel(tab, champ, chals)
	if err != nil {
		t.Fatal(err)
	}
	p, err := policies.Parse("topics-at-risk.yaml", []byte(`version: 1
name: topics-at-risk
champion: Champion
challengers: [Chal]
loss_weight: 2
seed: 1
requirements: {min_topics: 25, min_artifacts: 10}
rules:
  - {id: few-topics-at-risk, quantity: topics_at_risk.count, at_most: 2, severity: warn}
`))
	if err != nil {
		t.Fatal(err)
	}
	const effect = 0.05
	sizes := []int{0, 1, 2, 40}
	risks := []float64{0.5, 1}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, k := range risks {
		m := model.WithRisk(k)
		for ci, n := range sizes {
			systems := append([]string{"Champion", "Chal"}, artifacts[:n]...)
			counts := make([]float64, reps)
			var failed atomic.Value
			parallel.For(reps, 0, func() func(int) {
				return func(rep int) {
					pool, _, err := m.Simulate(Stream(1, ci, rep), effect, systems, tab.Topics)
					if err == nil {
						var d *policies.Decision
						d, err = engine.DecideWith(context.Background(), p, engine.Tables{BayesToScores(pool)}, engine.DecideOptions{Now: now, EarlyStop: true, Workers: 1})
						if err == nil {
							v, ok := d.Challengers[0].Rules[0].Observed.Number()
							if !ok {
								err = fmt.Errorf("no count: %s", d.Challengers[0].Rules[0].Reason)
							}
							counts[rep] = v
						}
					}
					if err != nil {
						failed.Store(err)
					}
				}
			})
			if err, _ := failed.Load().(error); err != nil {
				t.Fatal(err)
			}
			warn, mean := 0, 0.0
			for _, c := range counts {
				if c > 2 {
					warn++
				}
				mean += c / float64(reps)
			}
			rate := float64(warn) / float64(reps)
			t.Logf("risk %g, %2d artifacts: false-warn %.3f ± %.3f (%d of %d pools), mean count %.2f",
				k, n, rate, math.Sqrt(rate*(1-rate)/float64(reps)), warn, reps, mean)
		}
	}
}
