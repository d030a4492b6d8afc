package bayes

import (
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
)

// rb04Challengers returns the champion and the four challengers of rb04.csv.
func rb04Challengers(tb testing.TB, t *Table) (int, []int) {
	var chals []int
	for i, name := range t.Systems {
		if strings.HasPrefix(name, "Chal.") {
			chals = append(chals, i)
		}
	}
	return systemIndex(tb, t, "Champion"), chals
}

// BenchmarkBRiskRB04 is the Gaussian speed target: BRisk at w = 5 on
// rb04.csv (45 systems × 50 topics) with every bulk- and tail-ESS ≥ 10,000,
// diagnostics, differences and topics at risk of the four challengers included.
func BenchmarkBRiskRB04(b *testing.B) {
	tab := rb04(b)
	ch, chals := rb04Challengers(b, tab)
	for b.Loop() {
		t0 := time.Now()
		r, err := BRisk(tab, ch, 5, BRiskOptions{Challengers: chals, Hier: HierOptions{Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 10000}})
		if err != nil {
			b.Fatal(err)
		}
		reportESS(b, r.Fit, time.Since(t0))
	}
}

// BenchmarkBRiskSkewRB04 is the skew-normal speed target: the
// hierarchical skew-normal BRisk fit at w = 5 on rb04.csv (brms's priors,
// NUTS on the general path with MomentParam's coordinates) with every bulk-
// and tail-ESS ≥ 2,000, everything BRisk reports included. brms needs 282 s
// for 4 × 2,000 iterations here and still warns of a low bulk-ESS
// (reference/brms/rb04_hier_skew_time.txt and HOW.md).
func BenchmarkBRiskSkewRB04(b *testing.B) {
	tab := rb04(b)
	ch, chals := rb04Challengers(b, tab)
	for b.Loop() {
		t0 := time.Now()
		r, err := BRisk(tab, ch, 5, BRiskOptions{Challengers: chals,
			Hier: HierOptions{Family: SkewNormal{}, Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 2000}})
		if err != nil {
			b.Fatal(err)
		}
		reportESS(b, r.Fit, time.Since(t0))
	}
}

// BenchmarkSkewNormalLogDensityRB04 is one log density and gradient of the
// skew-normal BRisk model (2,250 observations) at a point of its posterior.
func BenchmarkSkewNormalLogDensityRB04(b *testing.B) {
	tab := rb04(b)
	ch, _ := rb04Challengers(b, tab)
	pool, _ := BRiskPool(tab, ch, 5)
	pr := TableBrmsPriors(pool)
	sys, top, y := pool.observed()
	m, err := NewMixedModel(y, []Factor{{"topic", pool.Topics, top}, {"system", pool.Systems, sys}}, SkewNormal{}, pr.Intercept,
		ScalePriors{Sigma: pr.Sigma, SD: []Prior{pr.SDTopic, pr.SDSystem}, Scale: posterior.SD(y)})
	if err != nil {
		b.Fatal(err)
	}
	if m, err = m.WithParam(m.MomentParam()); err != nil {
		b.Fatal(err)
	}
	th, g := make([]float64, m.Dim()), make([]float64, m.Dim()) // θ′ = 0: the moment estimates
	for b.Loop() {
		m.LogDensity(th, g)
	}
}
