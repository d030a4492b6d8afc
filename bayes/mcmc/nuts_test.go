package mcmc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskgate/riskgate/bayes/posterior"
	"gonum.org/v1/gonum/stat/distuv"
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
	t.Parallel()
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
		mean, sd := posterior.Mean(all), posterior.SD(all)
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

// TestWindowSchedule checks the metric windows against Stan's schedule as
// statistics.md §3.5 gives it: for 1,000 warmup iterations the windows end at
// 99, 149, 249, 449 and 949 and draws 75..949 are collected; for 100 the
// 15%/75%/10% fallback gives one window, 15..89; below 20 nothing adapts.
func TestWindowSchedule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		warmup         int
		ends           []int
		first, last    int
		noMetricUpdate bool
	}{
		{1000, []int{99, 149, 249, 449, 949}, 75, 949, false},
		{500, []int{99, 149, 249, 449}, 75, 449, false},
		{100, []int{89}, 15, 89, false},
		{19, nil, -1, -1, true},
	} {
		w := newWindowedVariance(1, tc.warmup, 75, 50, 25)
		inv := []float64{1}
		var ends []int
		first, last := -1, -1
		for c := range tc.warmup {
			if w.enabled && w.inWindow() {
				if first < 0 {
					first = c
				}
				last = c
			}
			updated, err := w.learn(inv, []float64{float64(c % 7)})
			if err != nil {
				t.Fatal(err)
			}
			if updated {
				ends = append(ends, c)
			}
		}
		if len(ends) != len(tc.ends) || first != tc.first || last != tc.last {
			t.Errorf("warmup %d: window ends %v (collecting %d..%d), want %v (%d..%d)", tc.warmup, ends, first, last, tc.ends, tc.first, tc.last)
			continue
		}
		for i := range ends {
			if ends[i] != tc.ends[i] {
				t.Errorf("warmup %d: window ends %v, want %v", tc.warmup, ends, tc.ends)
			}
		}
	}
	// The regularised variance: n/(n+5)·var + 1e-3·5/(n+5), var with n − 1.
	w := newWindowedVariance(1, 1000, 75, 50, 25)
	inv := []float64{1}
	var xs []float64
	for c := range 100 {
		x := float64((c * 37) % 11)
		if c >= 75 {
			xs = append(xs, x)
		}
		w.learn(inv, []float64{x})
	}
	n := float64(len(xs))
	sd := posterior.SD(xs)
	if want := n/(n+5)*sd*sd + 1e-3*5/(n+5); math.Abs(inv[0]-want) > 1e-12 {
		t.Errorf("inverse metric after the first window %v, want %v", inv[0], want)
	}
}

// TestDualAveraging checks one step against the formulas of statistics.md §3.4.
func TestDualAveraging(t *testing.T) {
	t.Parallel()
	d := dualAveraging{delta: 0.8, gamma: 0.05, kappa: 0.75, t0: 10, mu: math.Log(10 * 0.5)}
	eps := d.learn(0.6)
	// m = 1: η = 1/11, s̄ = η(0.8 − 0.6), x = μ − s̄·1/γ, x̄ = x (w = 1)
	sbar := (0.8 - 0.6) / 11
	x := math.Log(5) - sbar/0.05
	rel := func(a, b float64) bool { return math.Abs(a-b) <= 1e-13*math.Abs(b) }
	if !rel(eps, math.Exp(x)) || !rel(d.final(), math.Exp(x)) {
		t.Errorf("ε = %v, final %v; want %v", eps, d.final(), math.Exp(x))
	}
	eps = d.learn(1.7) // acceptance is capped at 1
	sbar2 := (1-1.0/12)*sbar + (0.8-1)/12
	x2 := math.Log(5) - sbar2*math.Sqrt(2)/0.05
	w := math.Pow(2, -0.75)
	if !rel(eps, math.Exp(x2)) || !rel(d.final(), math.Exp((1-w)*x+w*x2)) {
		t.Errorf("second step ε = %v, final %v", eps, d.final())
	}
}

// gammaModel is x ~ Gamma(α, β) sampled on u = log x: log p(u) = α u − β eᵘ
// (the density of x plus the log-Jacobian u of the Lower transform).
type gammaModel struct{ alpha, beta float64 }

func (gammaModel) Dim() int { return 1 }
func (m gammaModel) LogDensity(q, grad []float64) float64 {
	x, dxdu, lj, dlj := Lower{}.Constrain(q[0])
	lg, _ := math.Lgamma(m.alpha) // Gamma(α, rate β): α log β − log Γ(α) + (α − 1) log x − βx
	lp, dlp := m.alpha*math.Log(m.beta)-lg+(m.alpha-1)*math.Log(x)-m.beta*x, (m.alpha-1)/x-m.beta
	grad[0] = dlp*dxdu + dlj
	return lp + lj
}
func (gammaModel) Names() []string { return []string{"x"} }
func (gammaModel) Generate(q []float64, _ *rand.Rand, out []float64) {
	out[0], _, _, _ = Lower{}.Constrain(q[0])
}

// TestNUTSConstrained samples a skewed, constrained target through a
// transform and checks its mean α/β, variance α/β² and a tail probability.
func TestNUTSConstrained(t *testing.T) {
	t.Parallel()
	m := gammaModel{2.5, 4}
	s := NewNUTS(m, NUTSOptions{Chains: 4, Warmup: 500, Draws: 2500, Seed: 3})
	if err := s.Run(); err != nil {
		t.Fatal(err)
	}
	var x []float64
	for _, c := range s.Draws[0] {
		x = append(x, c...)
	}
	sum := posterior.Summarize(s.Draws[0])
	mean, v := m.alpha/m.beta, m.alpha/(m.beta*m.beta)
	if d := math.Abs(sum.Mean - mean); d > 4*sum.MCSEMean {
		t.Errorf("mean %v, want %v (MCSE %v)", sum.Mean, mean, sum.MCSEMean)
	}
	if d := math.Abs(sum.SD - math.Sqrt(v)); d > 4*sum.MCSESd {
		t.Errorf("sd %v, want %v (MCSE %v)", sum.SD, math.Sqrt(v), sum.MCSESd)
	}
	// P(x > 1) for Gamma(2.5, rate 4) = 1 − F(1)
	p := 1 - distuv.Gamma{Alpha: 2.5, Beta: 4}.CDF(1)
	if got := posterior.ProbGreater(x, 1); math.Abs(got-p) > 4*math.Sqrt(p*(1-p)/sum.ESSTail) {
		t.Errorf("P(x > 1) %v, want %v", got, p)
	}
}
