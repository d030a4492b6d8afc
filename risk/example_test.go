package risk_test

import (
	"fmt"

	"github.com/riskgate/riskgate/risk"
)

// A challenger against the champion over six topics, with losses counted
// five times (the risk-sensitive setting of Benham et al.). The output was
// checked in R: a <- ifelse(d >= 0, d, 5*d); mean(a); mean(a)/(sd(a)/sqrt(6)).
func Example() {
	champion := []float64{0.30, 0.25, 0.40, 0.10, 0.55, 0.20}
	challenger := []float64{0.35, 0.20, 0.45, 0.15, 0.60, 0.30}
	p := risk.Pair{X: challenger, Base: champion}

	u, _ := p.URisk(5)
	tr, _ := p.TRisk(5)
	fmt.Printf("URisk = %.4f (reward %.4f, risk %.4f)\n", u.Value, u.Reward, u.Risk)
	fmt.Printf("TRisk = %.3f, p = %.3f\n", tr.T, tr.P)
	// Output:
	// URisk = 0.0083 (reward 0.0500, risk 0.0083)
	// TRisk = 0.159, p = 0.880
}

// ZRisk and GeoRisk judge every system against all the others (output
// checked against the formula written out in R, as in testdata/reference.R).
func ExampleSystems_GeoRisk() {
	s := risk.Systems{
		{0.30, 0.25, 0.40, 0.10}, // champion
		{0.35, 0.20, 0.45, 0.15}, // challenger
		{0.20, 0.30, 0.35, 0.05}, // an earlier run
	}
	g, _ := s.GeoRisk(2)
	for i, v := range g.Values {
		fmt.Printf("system %d: ZRisk %+.4f, GeoRisk %.4f\n", i, g.ZRisk.Values[i], v)
	}
	// Output:
	// system 0: ZRisk -0.0238, GeoRisk 0.3614
	// system 1: ZRisk -0.1116, GeoRisk 0.3749
	// system 2: ZRisk -0.2607, GeoRisk 0.3266
}

// Bonferroni over four challengers: each interval at 1 − 0.05/4.
func ExampleCorrection_Level() {
	fmt.Println(risk.Bonferroni.Level(0.95, 4))
	fmt.Println(risk.Holm.Adjust([]float64{0.01, 0.04, 0.03}))
	// Output:
	// 0.9875
	// [0.03 0.06 0.06]
}
