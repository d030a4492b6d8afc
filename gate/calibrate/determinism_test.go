package calibrate

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/policies"
)

// calibrate uses every core — the pools in parallel, each fit on one
// goroutine, warm-started from pilot fits — and its report is bit-identical
// whatever GOMAXPROCS is: every pool's stream and every fit's seed are fixed
// by its cell and replicate, not by the goroutine that runs it. A small
// two-axis grid on the default policy (early stopping on), under
// GOMAXPROCS 1 and 2.
func TestRunBitIdenticalAcrossGOMAXPROCS(t *testing.T) {
	m := bayes.PoolModel{Intercept: 0.3, Sigma: 0.1, SDTopic: 0.18, SDSystem: 0.01, DiffSD: 0.08, DiffSkew: 0.5}
	systems := append([]string{"production", "candidate-1"}, engine.NumberedNames("artifact-", 10)...)
	pool, _, err := m.Simulate(rand.New(rand.NewPCG(5, 0)), 0.05, systems, engine.NumberedNames("t", 30))
	if err != nil {
		t.Fatal(err)
	}
	p := policies.Default()
	if !p.Model.EarlyStop {
		t.Fatal("the default policy does not stop early")
	}
	run := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r, err := Run(context.Background(), p, engine.Tables{BayesToScores(pool)}, Settings{Reps: 2, Effects: []float64{0, 0.15}, Risks: []float64{1, 2},
			MinEffect: 0.05, Seed: 9, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one, two := run(1), run(2)
	if !bytes.Equal(one, two) {
		t.Errorf("GOMAXPROCS 1 and 2 give different reports:\n%s\n%s", one, two)
	}
}
