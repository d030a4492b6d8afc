package calibrate

import (
	"fmt"
	"runtime"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// outcomeBytes is one simulated pool's verdicts as Run keeps them (outcome:
// two strings).
const outcomeBytes = 32

// MaxReps bounds Settings.Reps: a million pools per cell already take days,
// and their verdicts alone are 32 MB a cell.
const MaxReps = 1_000_000

// EstimateMemory estimates the peak memory, in bytes, of Run(p, t, c): the
// runtime; the pool's table and its loading; every pool's verdicts (cells ×
// reps); and the pools decided at once, one per worker (and the pilot's,
// before them), each as engine.EstimateDecideMemory: a simulated pool of t's
// champion, one challenger and artifacts (t's, or c.Artifacts of them) over
// t's topics, and its fits whole; with several measures (ts), a table of
// each per pool.
func EstimateMemory(p *policies.Policy, ts engine.Tables, c Settings) (float64, []engine.MemoryPart) {
	t := ts[0]
	cells := float64(len(c.Effects) * max(len(c.Risks), 1))
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	systems, topics := len(t.Systems), len(t.Topics)
	if roles, err := p.Roles(t.Systems); err == nil {
		systems = len(roles.Artifacts) + 2
	}
	if c.Artifacts != nil { // --artifacts sets the simulated pools' size
		systems = *c.Artifacts + 2
	}
	pool, _ := engine.EstimateDecideMemory(p, systems, topics, 1)
	// Several measures: one table of each per pool, and the data's kept
	// once more, per measure, as the population the pools are drawn from.
	measures := float64(len(ts))
	pool *= measures
	tableCells := measures * float64(len(t.Systems)) * float64(len(t.Topics))
	parts := []engine.MemoryPart{
		{What: "the runtime", Bytes: engine.RuntimeMemory},
		{What: "your pool and its loading", Bytes: tableCells * (8*2 + scores.LoadCellBytes)},
		{What: fmt.Sprintf("the verdicts of %s pools", numfmt.Thousands(int(cells)*c.Reps)), Bytes: cells * float64(c.Reps) * outcomeBytes},
		{What: fmt.Sprintf("%d simulated pools decided at once (%s systems × %s topics each, with their fits)", workers, numfmt.Thousands(systems), numfmt.Thousands(topics)),
			Bytes: float64(workers) * pool},
	}
	total := 0.0
	for _, part := range parts {
		total += part.Bytes
	}
	return total, parts
}
