package bayes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
)

func TestProbOverJointDraws(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 3))
	f, err := FitHier(smallTable(r, 5, 6, 0), HierOptions{Sampler: mcmc.NUTSOptions{Seed: 1, Draws: 500}, TargetESS: 1})
	if err != nil {
		t.Fatal(err)
	}
	a, b := f.SystemIndex(0), f.SystemIndex(1)
	n, hits := 0, 0
	for m := range f.Chains {
		for i := range f.Draws {
			if f.Sampler.Draws[a][m][i] > f.Sampler.Draws[b][m][i] {
				hits++
			}
			n++
		}
	}
	got := f.Prob(func(x []float64) bool { return x[a] > x[b] })
	if got != float64(hits)/float64(n) {
		t.Errorf("P(S_0 > S_1) = %v, counted %v", got, float64(hits)/float64(n))
	}
	if p := f.Prob(func(x []float64) bool { return x[IdxSigma] > 0 }); p != 1 {
		t.Errorf("P(σ > 0) = %v", p)
	}
}

// TestPredictive checks the shapes of prior and posterior predictive tables
// and that a posterior replicate's grand mean matches the data's within its
// predictive spread.
func TestPredictive(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(4, 4))
	tab := smallTable(r, 6, 8, 0.2)
	f, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 2, Draws: 500}, TargetESS: 1})
	if err != nil {
		t.Fatal(err)
	}
	reps, err := f.PosteriorPredictive(rand.New(rand.NewPCG(5, 5)), 400, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mean := func(t *Table) float64 { m, _ := t.meanSD(); return m }
	var means []float64
	for _, rep := range reps {
		if len(rep.Scores) != 6 || len(rep.Scores[0]) != 8 || !rep.Complete() {
			t.Fatal("a replicate is not a complete 6 × 8 table")
		}
		means = append(means, mean(rep))
	}
	if z := math.Abs(mean(tab)-posterior.Mean(means)) / posterior.SD(means); z > 3 {
		t.Errorf("observed grand mean %v is %.1f predictive SDs from the replicates' %v", mean(tab), z, posterior.Mean(means))
	}
	bounded, _ := f.PosteriorPredictive(rand.New(rand.NewPCG(5, 5)), 10, ScoreOptions{Bound: true})
	for _, rep := range bounded {
		for _, row := range rep.Scores {
			for _, v := range row {
				if v < 0 || v > 1 {
					t.Fatalf("bounded replicate has %v", v)
				}
			}
		}
	}
	if _, err := f.PosteriorPredictive(r, 0, ScoreOptions{}); err == nil {
		t.Error("0 replicates accepted")
	}

	p := HierPriors{Normal{0.3, 0.1}, Exponential{10}, Gamma{1, 1}, Gamma{1, 1}, true}
	tabs, params, err := p.PriorPredictive(rand.New(rand.NewPCG(6, 6)), 2000, tab.Systems, tab.Topics, ScoreOptions{Missing: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	var b0 []float64
	for k, pt := range tabs {
		if err := pt.Validate(); err != nil {
			t.Fatalf("prior replicate %d: %v", k, err)
		}
		b0 = append(b0, params[k].Intercept)
	}
	// β0 ~ N(0.3, 0.1²)
	if m, s := posterior.Mean(b0), posterior.SD(b0); math.Abs(m-0.3) > 4*0.1/math.Sqrt(2000) || math.Abs(s-0.1) > 0.01 {
		t.Errorf("prior draws of the intercept: mean %v sd %v, want 0.3 and 0.1", m, s)
	}
	if _, _, err := (HierPriors{}).PriorPredictive(r, 1, tab.Systems, tab.Topics, ScoreOptions{}); err == nil {
		t.Error("empty priors accepted")
	}
}
