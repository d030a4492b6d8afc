package engine

import (
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/scores"
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

// A by: rule's Bayesian quantity is a segment fit, not a fit of the whole
// table: its draws count with its dimension's segments among the table's
// topics — systems + topics + 5 + systems × segments quantities, and each
// challenger's δ_g draws in every segment.
func TestEstimateMemoryCountsSegmentFits(t *testing.T) {
	t.Parallel()
	p, err := policies.Parse("p.yaml", []byte(`version: 1
name: seg
champion: production
challengers: ["candidate-*"]
rules:
  - {id: worse, by: band, segments: no_harm, quantity: bayes.p_worse, margin: 0.02, at_most: 0.9}
`))
	if err != nil {
		t.Fatal(err)
	}
	pool := ExamplePool() // 44 systems × 50 topics, 3 challengers
	bands := func(n int) *scores.TopicAttributes {
		a := &scores.TopicAttributes{Topics: pool.Topics, Dimensions: []string{"band"}, Segment: map[string]map[string]string{"band": {}}}
		for j, topic := range pool.Topics {
			a.Segment["band"][topic] = strconv.Itoa(j % n)
		}
		return a
	}
	draws := 4 * 1400 * 8.0 // chains × draws (target ESS 4,000) × 8 bytes
	for _, n := range []int{1, 5} {
		_, parts := EstimateMemory(p, Tables{pool}, nil, nil, bands(n))
		var seg float64
		for _, part := range parts {
			if strings.HasPrefix(part.What, "the draws of 1 segment fit") {
				seg = part.Bytes
			}
			if strings.Contains(part.What, "hierarchical fit") {
				t.Errorf("%d segments: a fit of the whole table counted for a by: rule: %v", n, part)
			}
		}
		want := float64(44+50+5+44*n)*draws*drawHeadroom + float64(3*n)*draws
		if seg != want {
			t.Errorf("%d segments: segment fit %.0f bytes, want %.0f (parts %v)", n, seg, want, parts)
		}
	}
}
