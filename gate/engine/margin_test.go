package engine

import (
	"math"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// A non-inferiority margin δ makes a risk quantity that of d_w + δ. Checked
// against values computed by hand on ten posterior draws of δ_w and on a
// five-topic pair.
func TestMarginSemantics(t *testing.T) {
	t.Parallel()
	// Ten draws of δ_w = S_challenger − S_champion in the BRisk pool.
	draws := []float64{-0.09, -0.05, -0.03, -0.025, -0.01, 0.0, 0.01, 0.02, 0.04, 0.06}
	f := &fitted{res: &result.FitResult{Pool: result.PoolRiskAdjusted, LossWeight: 2, Converged: true}, diffs: map[string][]float64{"c": draws}}
	num := func(o policies.Observation) float64 {
		v, ok := o.Number()
		if !ok {
			t.Fatalf("no number: %s", o)
		}
		return v
	}
	for _, c := range []struct {
		name   string
		stat   policies.Statistic
		margin float64
		level  float64
		want   float64 // by hand
	}{
		// P(δ_w < 0): 5 of the 10 draws are below 0 (0.0 is not).
		{"p_riskier", policies.StatPLess, 0, 0, 0.5},
		// P(δ_w < −0.02): −0.09, −0.05, −0.03, −0.025: 4 of 10.
		{"p_riskier margin 0.02", policies.StatPLess, 0.02, 0, 0.4},
		// P(δ_w < −0.05): −0.09 only (−0.05 is not below −0.05).
		{"p_riskier margin 0.05", policies.StatPLess, 0.05, 0, 0.1},
		// mean −0.0075, plus the margin.
		{"diff.mean margin 0.02", policies.StatDiffMean, 0.02, 0, -0.0075 + 0.02},
		// Type-7 quantile at p = 0.25 of the sorted draws: h = 9·0.25 = 2.25,
		// −0.03 + 0.25·(−0.025 + 0.03) = −0.02875; plus 0.01.
		{"diff.lo level 0.5 margin 0.01", policies.StatLo, 0.01, 0.5, -0.02875 + 0.01},
	} {
		got := num(f.observe("c", policies.Query{Level: c.level, Margin: c.margin}, c.stat))
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}

	// URisk and TRisk with a margin: challenger − champion on five topics is
	// Δ = (0.1, −0.1, 0.2, 0, −0.05); at w = 2, d = (0.1, −0.2, 0.2, 0, −0.1),
	// mean −0; sd √(0.1/4) = 0.158114, SE = sd/√5 = 0.0707107.
	tab := scores.NewTable("ap", []string{"champ", "c"}, []string{"1", "2", "3", "4", "5"})
	copy(tab.Scores[0], []float64{0.3, 0.5, 0.2, 0.4, 0.35})
	copy(tab.Scores[1], []float64{0.4, 0.4, 0.4, 0.4, 0.3})
	core, err := newCore(t.Context(), &policies.Policy{Champion: "champ", Challengers: []policies.Pattern{{Text: "c"}}}, Tables{tab}, scores.Alignment{}, settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		stat policies.Statistic
		want float64
	}{
		{"urisk", policies.StatURisk, 0 + 0.03},
		{"trisk", policies.StatTRisk, 0.03 / (math.Sqrt(0.1/4) / math.Sqrt(5))},
	} {
		got, err := core.whole.riskValue(1, c.stat, 2, 0.03)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s with margin 0.03: got %v (%v), want %v", c.name, got, err, c.want)
		}
	}
}
