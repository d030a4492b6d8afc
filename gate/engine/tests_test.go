package engine

import (
	"testing"

	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// testPValue picks risk's p-value for the rule's alternative (risk's own
// tests check each against R), and refuses a one-sided permutation test.
func TestTestPValuePicksTheAlternative(t *testing.T) {
	t.Parallel()
	p := risk.Pair{X: []float64{0.31, 0.45, 0.12, 0.66, 0.28, 0.52, 0.40, 0.19, 0.73, 0.35},
		Base: []float64{0.29, 0.41, 0.15, 0.61, 0.20, 0.46, 0.44, 0.10, 0.70, 0.36}}
	pt, _ := p.PairedT(0.95)
	sg, _ := p.Sign()
	wx, _ := p.Wilcoxon(risk.WilcoxonAuto)
	for _, c := range []struct {
		test string
		alt  policies.Alternative
		want float64
	}{
		{"paired_t", policies.TwoSided, pt.P}, {"paired_t", policies.Greater, pt.PGreater}, {"paired_t", policies.Less, pt.PLess},
		{"sign", policies.Greater, sg.PGreater}, {"sign", policies.Less, sg.PLess}, {"wilcoxon", policies.Greater, wx.PGreater},
	} {
		if got, _, err := testPValue(p, c.test, c.alt, 0, 1000, 1); err != nil || got != c.want {
			t.Errorf("%s %s: %v (%v), want %v", c.test, c.alt, got, err, c.want)
		}
	}
	if _, _, err := testPValue(p, "permutation", policies.Greater, 0, 1000, 1); err == nil {
		t.Error("a one-sided permutation test must be unavailable")
	}
}
