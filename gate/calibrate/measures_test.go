package calibrate

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// A policy of several measures given a table of one is refused, not
// decided on a pool that lacks its guardrail's measure.
func TestSeveralMeasuresNeedTheirTables(t *testing.T) {
	t.Parallel()
	p, err := policies.Parse("p.yaml", []byte(`version: 1
name: two
champion: a
challengers: [b]
rules:
  - {id: t, quantity: tests.paired_t.p, at_most: 0.05}
  - {id: g, quantity: bca.lo, measure: ndcg_cut_10, loss_weight: 1, margin: 0.02, at_least: 0}
`))
	if err != nil {
		t.Fatal(err)
	}
	tab := scores.NewTable("map", []string{"a", "b"}, []string{"1", "2", "3"})
	_, err = Run(context.Background(), p, engine.Tables{tab}, Settings{Reps: 2, Effects: []float64{0}, Seed: 1, Now: time.Now()})
	if err == nil || !strings.Contains(err.Error(), "the policy's rules use measures (ndcg_cut_10) the inputs were not read for") {
		t.Errorf("got %v", err)
	}
}
