package policies

import (
	"math"
	"testing"
)

// The fifteen p-values of Benjamini & Hochberg (1995, J. R. Stat. Soc. B 57(1):289–300, §4.2),
// a study of myocardial infarction treatments.
var bh1995 = []float64{0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459,
	0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000}

func rejected(p []float64, alpha float64) int {
	n := 0
	for _, v := range p {
		if v <= alpha {
			n++
		}
	}
	return n
}

// TestAdjustBH1995 checks the paper's conclusions at level 0.05: the FDR
// procedure rejects the four smallest hypotheses, the Bonferroni-type
// procedures (Holm's sequential one included) only the three smallest.
func TestAdjustBH1995(t *testing.T) {
	for _, c := range []struct {
		method Correction
		want   int
	}{{CorrectBH, 4}, {CorrectHolm, 3}, {CorrectBonferroni, 3}, {CorrectNone, 9}} {
		if got := rejected(AdjustPValues(bh1995, c.method, len(bh1995)), 0.05); got != c.want {
			t.Errorf("%s rejects %d, want %d", c.method, got, c.want)
		}
	}
}

// TestAdjustValues checks adjusted values worked by hand from R's p.adjust
// (stats/R/p.adjust.R): Holm pmin(1, cummax((n − i + 1)·p_(i))), BH
// pmin(1, cummin(n/i·p_(i))) from the largest down, Bonferroni pmin(1, n·p).
func TestAdjustValues(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name   string
		p      []float64
		method Correction
		n      int
		want   []float64
	}{
		// BH on the 1995 example: 15·p_(i)/i, then running minimum from the top:
		// i=15: 1; 14: 0.759·15/14; 13: 0.6528·15/13; 12: 0.5719·15/12; 11: 0.4262·15/11; 10: 0.324·1.5;
		// 9: 0.0459·15/9; 8: 0.0344·15/8; 7: 0.0298·15/7; 6: min(0.0278·15/6, that); 5: 0.0201·3; …
		{"bh 1995", bh1995, CorrectBH, 15, []float64{0.0015, 0.003, 0.0095, 0.035625, 0.0603,
			0.0298 * 15 / 7, 0.0298 * 15 / 7, 0.0344 * 15 / 8, 0.0459 * 15 / 9, 0.486,
			0.4262 * 15 / 11, 0.5719 * 15 / 12, 0.6528 * 15 / 13, 0.759 * 15 / 14, 1}},
		// Holm, unsorted input, ties: sorted 0.01, 0.02, 0.02, 0.04 → 4·0.01, 3·0.02, 2·0.02, 1·0.04
		// = 0.04, 0.06, 0.04, 0.04 → running max 0.04, 0.06, 0.06, 0.06.
		{"holm ties", []float64{0.02, 0.04, 0.01, 0.02}, CorrectHolm, 4, []float64{0.06, 0.06, 0.04, 0.06}},
		// NaN stays NaN and still counts as a comparison (n = 3): 3·0.01, 2·0.03.
		{"holm NA", []float64{0.03, nan, 0.01}, CorrectHolm, 3, []float64{0.06, nan, 0.03}},
		// BH with a missing comparison (n = 3, lp = 2): i = 2, 1 from the top: 3/2·0.04, 3/1·0.01.
		{"bh NA", []float64{0.04, 0.01, nan}, CorrectBH, 3, []float64{0.06, 0.03, nan}},
		{"bonferroni caps at 1", []float64{0.3, 0.01}, CorrectBonferroni, 4, []float64{1, 0.04}},
		{"one comparison", []float64{0.03}, CorrectHolm, 1, []float64{0.03}},
		{"none", []float64{0.3, 0.01}, CorrectNone, 2, []float64{0.3, 0.01}},
	} {
		got := AdjustPValues(c.p, c.method, c.n)
		for i := range c.want {
			if math.IsNaN(c.want[i]) != math.IsNaN(got[i]) || (!math.IsNaN(got[i]) && math.Abs(got[i]-c.want[i]) > 1e-15) {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

// TestBCaBonferroniLevel checks the interval level of the research policy's
// Bonferroni-corrected BCa rule on the paper's four challengers: the
// reference intervals in ../shared/reference/r_freq were computed with
// boot.ci(conf = 1 − 0.05/4) (reference/HOW.md), i.e. 0.9875.
func TestBCaBonferroniLevel(t *testing.T) {
	p, err := Load("examples/research.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.Rules {
		if r.ID != "bca" {
			continue
		}
		q := p.Query(r)
		if got := q.IntervalLevel(4); math.Abs(got-(1-0.05/4)) > 1e-15 || q.LossWeight != 5 {
			t.Errorf("level %v, loss weight %v", got, q.LossWeight)
		}
		if got := q.IntervalLevel(1); got != 0.95 {
			t.Errorf("one challenger: level %v", got)
		}
		return
	}
	t.Fatal("no bca rule")
}
