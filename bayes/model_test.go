package bayes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/stats"
)

// checkGradient compares m's gradient with central finite differences at θ.
func checkGradient(t *testing.T, m mcmc.Model, theta []float64) {
	t.Helper()
	n := m.Dim()
	grad := make([]float64, n)
	lp := m.LogDensity(theta, grad)
	if !stats.Finite(lp) {
		t.Fatalf("log density %v at %v", lp, theta)
	}
	scratch := make([]float64, n)
	th := append([]float64(nil), theta...)
	for i := range n {
		h := 1e-6 * math.Max(1, math.Abs(theta[i]))
		th[i] = theta[i] + h
		up := m.LogDensity(th, scratch)
		th[i] = theta[i] - h
		dn := m.LogDensity(th, scratch)
		th[i] = theta[i]
		fd := (up - dn) / (2 * h)
		if d := math.Abs(fd - grad[i]); d > 1e-5*math.Max(1, math.Abs(fd)) {
			t.Errorf("∂/∂θ[%d]: analytic %.10g, finite difference %.10g", i, grad[i], fd)
		}
	}
}

// smallTable is a random system × topic table with some cells missing.
func smallTable(r *rand.Rand, nS, nT int, missing float64) *Table {
	t := &Table{}
	for s := range nS {
		t.Systems = append(t.Systems, "s"+string(rune('A'+s)))
	}
	for j := range nT {
		t.Topics = append(t.Topics, "t"+string(rune('a'+j)))
	}
	sEff := make([]float64, nS)
	for s := range sEff {
		sEff[s] = 0.05 * r.NormFloat64()
	}
	for s := range nS {
		row := make([]float64, nT)
		for j := range row {
			row[j] = 0.3 + 0.02*float64(j%5) + sEff[s] + 0.1*r.NormFloat64()
			if r.Float64() < missing && j != s%nT && s != j%nS {
				row[j] = math.NaN()
			}
		}
		t.Scores = append(t.Scores, row)
	}
	return t
}

func randomPoint(r *rand.Rand, n int) []float64 {
	th := make([]float64, n)
	for i := range th {
		th[i] = 2 * (2*r.Float64() - 1)
	}
	return th
}

func TestMixedModelGradient(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	tab := smallTable(r, 5, 7, 0.2)
	for _, tc := range []struct {
		name      string
		intercept Prior
		sp        ScalePriors
	}{
		{"rstanarm", Normal{0.3, 0.5}, ScalePriors{Sigma: Exponential{5}, SD: []Prior{Gamma{1, 1}, Gamma{1, 1}}, Relative: true, Scale: 0.2}},
		{"gamma-shape-2", Normal{0.3, 0.5}, ScalePriors{Sigma: Exponential{5}, SD: []Prior{Gamma{2, 1.5}, Gamma{3, 1}}, Relative: true, Scale: 0.2}},
		{"brms-like", StudentT{3, 0.3, 2.5}, ScalePriors{Sigma: HalfStudentT{3, 2.5}, SD: []Prior{HalfStudentT{3, 2.5}, HalfNormal{1}}, Scale: 0.2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := hierGeneral(t, tab, tc.intercept, tc.sp)
			for range 3 {
				checkGradient(t, m, randomPoint(r, m.Dim()))
			}
		})
	}
}

func hierGeneral(t *testing.T, tab *Table, intercept Prior, sp ScalePriors) *MixedModel {
	t.Helper()
	sys, top, y := tab.observed()
	m, err := NewMixedModel(y, []Factor{{"topic", tab.Topics, top}, {"system", tab.Systems, sys}}, Gaussian{}, intercept, sp)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMixedModelIsRstanarmDensity evaluates statistics.md §1.3's log density
// term by term, independently of MixedModel, and checks that the two differ
// only by a constant.
func TestMixedModelIsRstanarmDensity(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	tab := smallTable(r, 4, 6, 0.15)
	sys, top, y := tab.observed()
	my, sy := posterior.Mean(y), posterior.SD(y)
	m := hierGeneral(t, tab, Normal{my, 2.5 * sy}, ScalePriors{Sigma: Exponential{1 / sy}, SD: []Prior{Gamma{1, 1}, Gamma{1, 1}}, Relative: true, Scale: sy})
	nT, nS := len(tab.Topics), len(tab.Systems)
	ref := func(th []float64) float64 {
		gamma := th[0]
		zT, zS := th[1:1+nT], th[1+nT:1+nT+nS]
		u1, u2, v := th[1+nT+nS], th[2+nT+nS], th[3+nT+nS]
		tau1, tau2, a := math.Exp(u1), math.Exp(u2), math.Exp(v)
		sigma := sy * a
		lp := 0.0
		for n := range y {
			mu := gamma + tau1*sigma*zT[top[n]] + tau2*sigma*zS[sys[n]]
			lp += -math.Log(sigma) - (y[n]-mu)*(y[n]-mu)/(2*sigma*sigma)
		}
		lp -= (gamma - my) * (gamma - my) / (2 * (2.5 * sy) * (2.5 * sy))
		for _, z := range th[1 : 1+nT+nS] {
			lp -= z * z / 2
		}
		lp += -tau1 - tau2 - a + u1 + u2 + v
		return lp
	}
	grad := make([]float64, m.Dim())
	var c0 float64
	for i := range 5 {
		th := randomPoint(r, m.Dim())
		c := m.LogDensity(th, grad) - ref(th)
		if i == 0 {
			c0 = c
		} else if math.Abs(c-c0) > 1e-9 {
			t.Fatalf("MixedModel − §1.3 density varies: %.12g vs %.12g", c, c0)
		}
	}
}

// TestMixedModelWithoutFactors is the one-to-one model d ~ 1 (an intercept
// and a family, no grouping factor): its gradient is right and NUTS recovers
// the posterior of a normal mean with a nearly flat prior, N(ȳ, σ²/n).
func TestMixedModelWithoutFactors(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(8, 9))
	y := make([]float64, 200)
	for i := range y {
		y[i] = 0.05 + 0.2*r.NormFloat64()
	}
	m, err := NewMixedModel(y, nil, Gaussian{}, Normal{0, 100}, ScalePriors{Sigma: HalfNormal{10}, Scale: posterior.SD(y)})
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != 2 {
		t.Fatalf("dimension %d, want 2 (intercept, log σ)", m.Dim())
	}
	checkGradient(t, m, []float64{0.1, -0.3})
	s := mcmc.NewNUTS(m, mcmc.NUTSOptions{Seed: 1, Draws: 2000})
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	sum := posterior.Summarize(s.Draws[0])
	want, se := posterior.Mean(y), posterior.SD(y)/math.Sqrt(float64(len(y)))
	if math.Abs(sum.Mean-want) > 4*sum.MCSEMean || math.Abs(sum.SD-se) > 0.1*se {
		t.Errorf("intercept posterior mean %v sd %v, want about %v and %v", sum.Mean, sum.SD, want, se)
	}
}
