package engine

import (
	"strings"
	"testing"

	"github.com/riskgate/riskgate/policies"
)

// Issue 23, defect 4: the estimate left out the --risk-sweep fits (300
// weights: estimate 129 MB, peak 3.27 GB) and the loading of the inputs.
// Every fit counts — what each keeps to the end: its summaries, every
// challenger's δ draws (chains × draws × 8 bytes each) and the predictive
// intervals — and so does loading the table.
func TestEstimateMemoryCountsEveryFit(t *testing.T) {
	t.Parallel()
	p := policies.Default()
	p.Champion, p.Challengers = "production", []policies.Pattern{{Text: "candidate-*"}}
	pool := Tables{ExamplePool()} // 44 systems × 50 topics, 3 challengers
	var sweep []float64
	for i := range 300 {
		sweep = append(sweep, 1+float64(i)/10)
	}
	none, _ := EstimateMemory(p, pool, nil, nil, nil)
	all, parts := EstimateMemory(p, pool, sweep, nil, nil)
	// The default policy fits BRisk at 2; the sweep adds 299 weights (2 is
	// among them). Each keeps at least its 3 challengers' δ draws: 4 chains ×
	// 1,400 draws (target ESS 4,000) × 8 bytes.
	minKept := 3 * 4 * 1400 * 8.0
	if all-none < 299*minKept {
		t.Errorf("300 sweep weights add %.0f bytes to the estimate; want at least 299 fits × %.0f", all-none, minKept)
	}
	var loading, kept bool
	for _, part := range parts {
		loading = loading || part.What == "loading the inputs" && part.Bytes > 0
		kept = kept || strings.HasPrefix(part.What, "what 300 fits keep")
	}
	if !loading || !kept {
		t.Errorf("parts %v: want loading the inputs and what 300 fits keep", parts)
	}
}

// A decision (riskgate calibrate's pools) keeps every fit whole: its draws.
func TestEstimateDecideMemoryKeepsFitsWhole(t *testing.T) {
	t.Parallel()
	p := policies.Default()
	total, parts := EstimateDecideMemory(p, 42, 50, 1)
	draws := (42 + 50 + 4) * 4 * 1400 * 8 * drawHeadroom // BRisk at w = 2, the default policy's one fit
	if total < draws || !strings.Contains(parts[len(parts)-1].What, "the draws of 1 hierarchical fit ") {
		t.Errorf("estimate %.0f (%v); want at least one fit's draws, %.0f", total, parts, draws)
	}
}
