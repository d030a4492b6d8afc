package policies

import "testing"

// A rule with a margin says how its observed value is made. The figures are
// the built-in example's candidate-risky (gate/testdata/gate/example.result.json.golden):
// BCa lower bound −0.029524654533615146, margin 0.02, observed −0.009524654533615146.
func TestMarginLabels(t *testing.T) {
	t.Parallel()
	bca := Query{Quantity: "bca.lo", LossWeight: 2, Level: 0.95, Correction: CorrectBonferroni, Margin: 0.02}
	rr := RuleResult{Query: bca, Bound: Bound{Op: AtLeast, Value: 0}, Observed: Number(-0.009524654533615146)}
	for _, c := range []struct{ got, want string }{
		{bca.Label(), "bca.lo + margin 0.02"},
		{rr.ObservedText(), "-0.02952 + 0.02 = -0.009525"},
		{observedWords(bca, rr.Observed, rr.Bound), "bca.lo -0.02952 + margin 0.02 = -0.009525"},
		{Query{Quantity: "brisk.p_riskier", LossWeight: 5, Margin: 0.02}.Label(), "brisk.p_riskier = P(δ < −0.02)"},
		{Query{Quantity: "trisk", LossWeight: 2, Margin: 0.01}.Label(), "trisk of URisk + 0.01"},
		{Query{Quantity: "bca.lo", LossWeight: 2, Level: 0.95}.Label(), "bca.lo"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	rr.decide(&Rule{Bound: rr.Bound, Severity: SeverityFail})
	if rr.BeforeMargin == nil {
		t.Fatal("no before_margin")
	}
	if v, _ := rr.BeforeMargin.Number(); v != -0.009524654533615146-0.02 {
		t.Errorf("before_margin %v", v)
	}
	if want := "observed bca.lo -0.02952 + margin 0.02 = -0.009525; needs at least 0"; rr.Reason != want {
		t.Errorf("reason %q, want %q", rr.Reason, want)
	}
	// A margin taken inside the quantity has no before_margin.
	p := RuleResult{Query: Query{Quantity: "brisk.p_riskier", LossWeight: 5, Margin: 0.02}, Bound: Bound{Op: AtMost, Value: 0.05}, Observed: Number(0.01)}
	p.decide(&Rule{Bound: p.Bound, Severity: SeverityFail})
	if p.BeforeMargin != nil || p.ObservedText() != "0.01" {
		t.Errorf("p_riskier: before_margin %v, observed %q", p.BeforeMargin, p.ObservedText())
	}
}
