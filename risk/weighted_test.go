package risk

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// TestWeightedTAgainstR: the weighted mean difference of every rb04 system
// against Champion, with Zipf traffic shares over the 50 topics, its
// linearisation standard error, t, the p-values and the 95% interval, against
// testdata/weighted/weighted_ref.R (R 4.2: weighted.mean, and the standard
// error as sandwich::vcovHC(lm(d ~ 1, weights = w), type = "HC1") — an
// implementation independent of ours; the script checks it equals the
// formula of WeightedMean). 1e-12 relative: the same estimator, rounding
// apart.
func TestWeightedTAgainstR(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	weights := map[string]float64{}
	for _, row := range shared.Records(t, "testdata/weighted/weights.csv") {
		weights[row["topic"]] = shared.ParseFloat(t, row["weight"])
	}
	w := make([]float64, len(d.Topics))
	for i, topic := range d.Topics {
		v, ok := weights[topic]
		if !ok {
			t.Fatalf("weights.csv has no weight for %s", topic)
		}
		w[i] = v
	}
	rows := shared.Records(t, "testdata/weighted/weighted.csv")
	if len(rows) != 44 {
		t.Fatalf("weighted.csv has %d rows, want 44 systems", len(rows))
	}
	var dev worst
	for _, row := range rows {
		tt, wm, err := d.pair(row["system"]).WeightedT(w, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := strconv.Atoi(row["topics"]); wm.N != n {
			t.Errorf("%s: %d topics, R %d", row["system"], wm.N, n)
		}
		for _, c := range []struct {
			col string
			got float64
		}{
			{"estimate", wm.Estimate}, {"se", wm.SE}, {"effective_n", wm.EffectiveN}, {"t", tt.T}, {"df", tt.DF},
			{"p", tt.P}, {"p_less", tt.PLess}, {"p_greater", tt.PGreater}, {"lo", tt.CI.Lo}, {"hi", tt.CI.Hi},
		} {
			what := row["system"] + " " + c.col
			want := shared.ParseFloat(t, row[c.col])
			if e := dev.rel(what, c.got, want); e > 1e-12 {
				t.Errorf("%s = %.17g, R %.17g (rel. %.2g)", what, c.got, want, e)
			}
		}
	}
	t.Logf("worst relative deviation from R: %.2g (%s)", dev.dev, dev.what)
}

// With equal weights (of any scale) the weighted test is Student's paired t
// test (SE² = s²/n); topics of weight 0 are left out of it, n included.
func TestWeightedTEqualWeightsIsPairedT(t *testing.T) {
	t.Parallel()
	p := Pair{X: []float64{0.31, 0.45, 0.12, 0.60, 0.28, 0.9}, Base: []float64{0.25, 0.41, 0.15, 0.49, 0.20, 0.1}}
	want, err := (Pair{X: p.X[:5], Base: p.Base[:5]}).PairedT(0.9)
	if err != nil {
		t.Fatal(err)
	}
	for _, scale := range []float64{1, 0.2, 37} {
		w := []float64{scale, scale, scale, scale, scale, 0}
		got, wm, err := p.WeightedT(w, 0.9)
		if err != nil {
			t.Fatal(err)
		}
		if wm.N != 5 || math.Abs(wm.EffectiveN-5) > 1e-14 {
			t.Errorf("scale %v: N %d, effective N %v; want 5 and 5", scale, wm.N, wm.EffectiveN)
		}
		for _, c := range [][3]any{{"t", got.T, want.T}, {"df", got.DF, want.DF}, {"p", got.P, want.P}, {"lo", got.CI.Lo, want.CI.Lo}, {"hi", got.CI.Hi, want.CI.Hi}} {
			if g, w := c[1].(float64), c[2].(float64); !relClose(g, w, 1e-13) {
				t.Errorf("scale %v: %s = %.17g, paired t %.17g", scale, c[0], g, w)
			}
		}
	}
}

func TestWeightedMeanErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x, w []float64
		want string
	}{
		{[]float64{1, 2}, []float64{1}, "risk: 2 values and 1 weights; expected one weight per value"},
		{[]float64{1, 2}, []float64{1, -1}, "risk: weight 2 is -1; expected a finite number ≥ 0"},
		{[]float64{1, 2}, []float64{math.NaN(), 1}, "risk: weight 1 is NaN; expected a finite number ≥ 0"},
		{[]float64{math.Inf(1), 2}, []float64{1, 1}, "risk: value 1 is +Inf; expected a finite number"},
		{[]float64{1, 2, 3}, []float64{0, 1, 0}, "risk: a weighted mean's standard error needs at least 2 topics of positive weight"},
	} {
		if _, err := WeightedMeanOf(c.x, c.w); err == nil || err.Error() != c.want {
			t.Errorf("%v %v: %v, want %s", c.x, c.w, err, c.want)
		}
	}
}

func ExampleWeightedMeanOf() {
	// Three topics: a head query with half the traffic, two tail queries.
	m, _ := WeightedMeanOf([]float64{0.04, -0.02, 0.01}, []float64{0.5, 0.25, 0.25})
	fmt.Printf("%.4f ± %.4f over %d topics (effective %.2f)\n", m.Estimate, m.SE, m.N, m.EffectiveN)
	// Output: 0.0175 ± 0.0181 over 3 topics (effective 2.67)
}
