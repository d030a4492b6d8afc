package bayes

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
)

// reportESS adds the worst bulk-ESS, the worst tail-ESS and worst bulk-ESS
// per second of wall time to a benchmark.
func reportESS(b *testing.B, f *HierFit, el time.Duration) {
	b.ReportMetric(f.minBulk(), "min_ess_bulk")
	b.ReportMetric(f.minTail(), "min_ess_tail")
	b.ReportMetric(f.minBulk()/el.Seconds(), "min_ess_bulk/s")
	b.ReportMetric(float64(f.Draws), "draws/chain")
}

// benchFitHier fits tab with opt once per iteration and reports the ESS.
func benchFitHier(b *testing.B, tab *Table, opt HierOptions) {
	for b.Loop() {
		t0 := time.Now()
		f, err := FitHier(tab, opt)
		if err != nil {
			b.Fatal(err)
		}
		reportESS(b, f, time.Since(t0))
	}
}

func (f *HierFit) minBulk() float64 {
	m := f.Convergence[0].ESSBulk
	for _, s := range f.Convergence {
		m = min(m, s.ESSBulk)
	}
	return m
}

func (f *HierFit) minTail() float64 {
	m := f.Convergence[0].ESSTail
	for _, s := range f.Convergence {
		m = min(m, s.ESSTail)
	}
	return m
}

// BenchmarkFitRB04 is the speed target: rb04.csv (45 systems × 50
// topics) with every bulk- and tail-ESS ≥ 10,000, diagnostics included.
func BenchmarkFitRB04(b *testing.B) {
	tab := rb04(b)
	benchFitHier(b, tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 10000})
}

// BenchmarkFitRB04Unbalanced is rb04.csv without 10% of the artifact cells
// (the Schur path) at the same target.
func BenchmarkFitRB04Unbalanced(b *testing.B) {
	full := rb04(b)
	tab := withoutCells(full, removedArtifactCells(full, unbalancedFrac, unbalancedSeed))
	benchFitHier(b, tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 10000})
}

// BenchmarkFitRB04General is the general path (NUTS on rstanarm's full
// density) on rb04.csv for 4 × 1,000 draws, for its ESS per second.
func BenchmarkFitRB04General(b *testing.B) {
	tab := rb04(b)
	benchFitHier(b, tab, HierOptions{Method: MethodGeneral, Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 1})
}

// simulatedPool is a complete nS × nT table from the model.
func simulatedPool(nS, nT int) *Table {
	names := func(p string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", p, i+1)
		}
		return out
	}
	h := NewHierParams(rand.New(rand.NewPCG(1, 1)), 0.3, 0.1, 0.2, 0.02, nS, nT)
	t, _ := h.Scores(rand.New(rand.NewPCG(1, 2)), names("s", nS), names("t", nT), ScoreOptions{})
	return t
}

// BenchmarkFitPool1000x10000 is the large target: 1,000 systems ×
// 10,000 topics, every bulk- and tail-ESS ≥ 10,000 (11,004 quantities).
func BenchmarkFitPool1000x10000(b *testing.B) {
	tab := simulatedPool(1000, 10000)
	b.ResetTimer()
	benchFitHier(b, tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 10000})
}

func BenchmarkLogDensityGeneralRB04(b *testing.B) {
	tab := rb04(b)
	sys, top, y := tab.observed()
	p := RstanarmPriors(y)
	m, _ := NewMixedModel(y, []Factor{{"topic", tab.Topics, top}, {"system", tab.Systems, sys}}, Gaussian{}, p.Intercept,
		ScalePriors{Sigma: p.Sigma, SD: []Prior{p.SDTopic, p.SDSystem}, Relative: true, Scale: posterior.SD(y)})
	th, g := make([]float64, m.Dim()), make([]float64, m.Dim())
	for b.Loop() {
		m.LogDensity(th, g)
	}
}

func BenchmarkLogDensitySchurRB04Unbalanced(b *testing.B) {
	full := rb04(b)
	tab := withoutCells(full, removedArtifactCells(full, unbalancedFrac, unbalancedSeed))
	p := TableRstanarmPriors(tab)
	_, s := tab.meanSD()
	n := p.Intercept.(Normal)
	m := newSchurModel(tab, n.Mu, n.Sigma*n.Sigma, ScalePriors{Sigma: p.Sigma, SD: []Prior{p.SDTopic, p.SDSystem}, Relative: true, Scale: s})
	th, g := []float64{0, -2, 0}, make([]float64, 3)
	for b.Loop() {
		m.LogDensity(th, g)
	}
}

func BenchmarkLogDensityBalancedRB04(b *testing.B) {
	tab := rb04(b)
	p := TableRstanarmPriors(tab)
	_, s := tab.meanSD()
	n := p.Intercept.(Normal)
	m := newBalancedModel(tab, n.Mu, n.Sigma*n.Sigma, ScalePriors{Sigma: p.Sigma, SD: []Prior{p.SDTopic, p.SDSystem}, Relative: true, Scale: s})
	th, g := []float64{0, -2, 0}, make([]float64, 3)
	for b.Loop() {
		m.LogDensity(th, g)
	}
}
