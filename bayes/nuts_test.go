package bayes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// gaussModel is independent N(Mu_i, Sd_i²) coordinates, a target whose
// moments are known exactly.
type gaussModel struct{ mu, sd []float64 }

func (g gaussModel) Dim() int { return len(g.mu) }
func (g gaussModel) LogDensity(q, grad []float64) float64 {
	lp := 0.0
	for i := range q {
		z := (q[i] - g.mu[i]) / g.sd[i]
		lp -= 0.5 * z * z
		grad[i] = -z / g.sd[i]
	}
	return lp
}
func (g gaussModel) Names() []string {
	n := make([]string, len(g.mu))
	for i := range n {
		n[i] = string(rune('a' + i))
	}
	return n
}
func (g gaussModel) Generate(q []float64, _ *rand.Rand, out []float64) { copy(out, q) }

// TestNUTSGaussianMoments checks the sampler's means and variances on
// independent normals of very different scales (which the diagonal metric
// must adapt to) against the exact values, within 5 Monte Carlo SEs
// computed from the exact variance and a conservative ESS of draws/4.
func TestNUTSGaussianMoments(t *testing.T) {
	m := gaussModel{mu: []float64{0, 1, -3, 100}, sd: []float64{1, 0.01, 5, 30}}
	s := NewNUTS(m, NUTSOptions{Chains: 4, Warmup: 500, Draws: 1000, Seed: 7})
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	if d := s.Divergences(); d != 0 {
		t.Errorf("%d divergences on a Gaussian", d)
	}
	n := float64(4 * 1000)
	for v := range m.mu {
		var all []float64
		for _, c := range s.Draws[v] {
			all = append(all, c...)
		}
		mean, sd := Mean(all), SD(all)
		ess := n / 4
		if d := math.Abs(mean - m.mu[v]); d > 5*m.sd[v]/math.Sqrt(ess) {
			t.Errorf("%s: mean %g, want %g (off by %.2g sd)", s.Names[v], mean, m.mu[v], d/m.sd[v])
		}
		// sd of the sample variance ≈ σ²·sqrt(2/ess)
		if d := math.Abs(sd*sd - m.sd[v]*m.sd[v]); d > 5*m.sd[v]*m.sd[v]*math.Sqrt(2/ess) {
			t.Errorf("%s: variance %g, want %g", s.Names[v], sd*sd, m.sd[v]*m.sd[v])
		}
		// the adapted inverse metric should approximate the variance
		for k := range 4 {
			if r := s.InvMetric[k][v] / (m.sd[v] * m.sd[v]); r < 0.5 || r > 2 {
				t.Errorf("%s: chain %d inverse metric %g vs variance %g", s.Names[v], k, s.InvMetric[k][v], m.sd[v]*m.sd[v])
			}
		}
	}
	acc := 0.0
	for _, st := range s.Stats {
		for _, tr := range st {
			acc += tr.AcceptStat
		}
	}
	// Stan's final ε = exp(x̄) is smaller than the running iterates, so the
	// realised acceptance sits above δ; it must not fall below it.
	if acc /= n; acc < 0.75 || acc > 0.99 {
		t.Errorf("mean accept_stat %.3f, want at least about adapt_delta 0.8", acc)
	}
}
