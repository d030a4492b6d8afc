package risk

import (
	"math"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// TestSignTestMatchesR checks SignTest against R 4.2's binom.test(k, n)
// ("== binom.test(k, n) ==" of testdata/reference.R) to 1e-12 relative, and
// against the sign tests of ../shared/reference/r_freq/rb04_pairs.csv
// (sign_pos, sign_neg, p_sign) to 1e-8 relative.
func TestSignTestMatchesR(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		k, n int
		want float64
	}{
		{7, 20, 0.26317596435546875}, {3, 5, 1}, {0, 10, 0.0019531250000000004},
		{60, 100, 0.056887933640980867}, {513, 1000, 0.42920977720914366}, {12, 40, 0.016589003374974733},
	} {
		if got := SignTest(c.k, c.n-c.k).P; math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("binom.test(%d, %d): %.17g, want %.17g", c.k, c.n, got, c.want)
		}
	}
	for _, row := range csvRecords(t, "reference/r_freq/rb04_pairs.csv") {
		pos, neg := int(shared.ParseFloat(t, row["sign_pos"])), int(shared.ParseFloat(t, row["sign_neg"]))
		want := shared.ParseFloat(t, row["p_sign"])
		if got := SignTest(pos, neg).P; math.Abs(got-want) > 1e-8*want {
			t.Errorf("%s: sign test %d/%d p = %v, R %v", row["system"], pos, neg, got, want)
		}
	}
	if s := SignTest(0, 0); s.P != 1 {
		t.Errorf("no untied pair: p = %v, want 1", s.P)
	}
}

// TestProportionTest: with pa = 0.8, pb = 0.7, n = 200: p = 0.75,
// Z = 0.1/√(0.001875) and p-value 2Φ(−|Z|); R ("== proportions test ==" of
// testdata/reference.R) gives Z = 2.3094010767585051, p = 0.020921335337793921.
// Tolerance 1e-12.
func TestProportionTest(t *testing.T) {
	t.Parallel()
	p, err := ProportionTest(160, 140, 200)
	if err != nil {
		t.Fatal(err)
	}
	if p.AccuracyA != 0.8 || p.AccuracyB != 0.7 {
		t.Fatalf("accuracies %v %v", p.AccuracyA, p.AccuracyB)
	}
	if math.Abs(p.Z-2.3094010767585051) > 1e-12 || math.Abs(p.P-0.020921335337793921) > 1e-12 {
		t.Errorf("Z = %.17g, p = %.17g", p.Z, p.P)
	}
	if same, _ := ProportionTest(150, 150, 200); same.Z != 0 || same.P != 1 {
		t.Errorf("equal accuracies: Z = %v, p = %v", same.Z, same.P)
	}
	if all, _ := ProportionTest(200, 200, 200); !math.IsNaN(all.Z) || !math.IsNaN(all.P) || len(all.Warnings) != 1 {
		t.Errorf("both always right: %+v", all)
	}
	for _, bad := range [][3]int{{1, 1, 0}, {3, 1, 2}, {-1, 1, 2}} {
		if _, err := ProportionTest(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("ProportionTest%v: no error", bad)
		}
	}
}

// TestMacroTests: Yang & Liu's macro S-test and T-test are the sign test and
// the paired t test of the categories' measures. R's
// t.test(c(.6,.5,.7,.4), c(.5,.45,.72,.3), paired = TRUE) gives t =
// 2.0250370845489343, df = 3, p = 0.13599335601467524 ("== paired t over
// categories ==" of testdata/reference.R); tolerance 1e-12.
func TestMacroTests(t *testing.T) {
	t.Parallel()
	p := Pair{X: []float64{0.6, 0.5, 0.7, 0.4}, Base: []float64{0.5, 0.45, 0.72, 0.3}}
	sign, err := p.Sign()
	if err != nil {
		t.Fatal(err)
	}
	if sign.Pos != 3 || sign.Neg != 1 {
		t.Errorf("S-test %+v", sign)
	}
	tt, err := p.PairedT(0.95)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(tt.T-2.0250370845489343) > 1e-12 || tt.DF != 3 || math.Abs(tt.P-0.13599335601467524) > 1e-12 {
		t.Errorf("T-test t=%v df=%v p=%v", tt.T, tt.DF, tt.P)
	}
}
