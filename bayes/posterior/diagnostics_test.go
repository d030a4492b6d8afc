package posterior

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// The three ways of computing autocovariances — lags on demand, FFT, and the
// sparse indicator form — must give the same ESS up to rounding (1e-12) on
// draws from antithetic to very sticky, with ties and odd lengths.
func TestESSPathsAgree(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	for trial := range 40 {
		m, n := 1+r.IntN(4), 6+r.IntN(700)
		phi := -0.7 + 1.69*r.Float64()
		chains := make([][]float64, m)
		for j := range chains {
			x := r.NormFloat64()
			for range n {
				x = phi*x + math.Sqrt(1-phi*phi)*r.NormFloat64()
				v := x
				if trial%3 == 0 {
					v = math.Round(2 * x) // ties
				}
				chains[j] = append(chains[j], v)
			}
		}
		lazy := Summarize(chains)
		lazyQ := ESSQuantile(chains, 0.5)
		fftOnly := newWorkspace()
		fftOnly.fftFromLag = 0
		fft := fftOnly.summarize(chains, m, n)
		fftOnly.load(chains, m, n)
		fftOnly.sortPooled()
		fftQ := fftOnly.essQuantile(0.5)

		// The indicator form against the dense one on the same 0/1 matrix.
		w := newWorkspace()
		w.load(chains, m, n)
		w.sortPooled()
		q := QuantileSorted(w.sortedX, 0.3)
		sparse := w.essIndicator(q)
		dense := w.ess(w.ind01(), w.nc, w.rows)

		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"ess_bulk", lazy.ESSBulk, fft.ESSBulk}, {"ess_tail", lazy.ESSTail, fft.ESSTail},
			{"ess_basic", lazy.ESSBasic, fft.ESSBasic}, {"mcse_sd", lazy.MCSESd, fft.MCSESd},
			{"mcse_q2.5", lazy.MCSEQ2_5, fft.MCSEQ2_5}, {"ess_median", lazyQ, fftQ},
			{"indicator", sparse, dense},
		} {
			if e := relErr(c.got, c.want); e > 1e-12 {
				t.Errorf("trial %d (m=%d n=%d phi=%.2f): %s %v vs %v (relative %.2g)", trial, m, n, phi, c.what, c.got, c.want, e)
			}
		}
	}
}

// ind01 returns the split indicator matrix of essIndicator as float64s.
func (w *workspace) ind01() []float64 {
	v := make([]float64, w.nc*w.rows)
	for i, b := range w.ind[:len(v)] {
		v[i] = float64(b)
	}
	return v
}

// SummarizeAll must be bit-for-bit the same whatever the number of workers
// and GOMAXPROCS, and equal to Summarize of each variable.
func TestSummarizeAllDeterministic(t *testing.T) {
	vars := benchDraws(26, 3, 301)
	want := make([]VarSummary, len(vars))
	for v := range vars {
		want[v] = Summarize(vars[v])
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 7} {
		runtime.GOMAXPROCS(procs)
		for _, workers := range []int{0, 1, 3, 64} {
			got := SummarizeAll(vars, workers)
			for v := range got {
				a, _ := json.Marshal(got[v])
				b, _ := json.Marshal(want[v])
				if string(a) != string(b) {
					t.Fatalf("GOMAXPROCS %d, %d workers, variable %d:\n%s\nwant\n%s", procs, workers, v, a, b)
				}
			}
		}
	}
}

// SummarizeConvergence gives SummarizeAll's R̂, bulk- and tail-ESS bit for
// bit (a fit's convergence verdict must not depend on which one ran), NaN
// included.
func TestSummarizeConvergence(t *testing.T) {
	t.Parallel()
	vars := benchDraws(26, 3, 301)
	vars = append(vars, [][]float64{{1, 2, 3}, {4, math.NaN(), 6}})
	full, conv := SummarizeAll(vars, 2), SummarizeConvergence(vars, 3)
	for v := range vars {
		f, c := full[v], conv[v]
		for _, q := range []struct {
			name      string
			all, conv float64
		}{{"Rhat", f.Rhat, c.Rhat}, {"ESSBulk", f.ESSBulk, c.ESSBulk}, {"ESSTail", f.ESSTail, c.ESSTail}} {
			if math.Float64bits(q.all) != math.Float64bits(q.conv) {
				t.Errorf("variable %d: %s %v, SummarizeAll's %v", v, q.name, q.conv, q.all)
			}
		}
	}
	if c := conv[len(vars)-1]; !math.IsNaN(c.Rhat) || !math.IsNaN(c.ESSBulk) || !math.IsNaN(c.ESSTail) {
		t.Errorf("draws with NaN: %+v, want NaN everywhere", c)
	}
}

// Reordering chains must not change the diagnostics beyond rounding.
func TestChainOrderInvariance(t *testing.T) {
	t.Parallel()
	x := benchDraws(13, 4, 400)[12]
	a := Summarize(x)
	b := Summarize([][]float64{x[2], x[0], x[3], x[1]})
	for _, c := range [][2]float64{{a.Rhat, b.Rhat}, {a.ESSBulk, b.ESSBulk}, {a.ESSTail, b.ESSTail}, {a.MCSESd, b.MCSESd}, {a.Mean, b.Mean}} {
		if relErr(c[0], c[1]) > 1e-13 {
			t.Errorf("chain order changed %v to %v", c[0], c[1])
		}
	}
}

// NaN where posterior gives NA: a non-finite draw makes every field NaN
// (posterior: should_return_NA for the diagnostics; riskgate also refuses the
// summaries), and JSON carries NaN as null and reads it back.
func TestNonFiniteAndJSON(t *testing.T) {
	t.Parallel()
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		x := [][]float64{{1, 2, 3, 4, 5, 6, 7, 8}, {2, 3, 4, 5, bad, 6, 7, 1}}
		s := Summarize(x)
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(string(b), "null") != 20 {
			t.Errorf("draw %v: %s, want every field null", bad, b)
		}
		for _, f := range []float64{Rhat(x), RhatBasic(x), ESSBulk(x), ESSTail(x), ESSBasic(x), ESSSd(x),
			ESSQuantile(x, 0.5), MCSEMean(x), MCSESd(x), MCSEQuantile(x, 0.5)} {
			if !math.IsNaN(f) {
				t.Errorf("draw %v: got %v, want NaN", bad, f)
			}
		}
	}
	s := Summarize(benchDraws(13, 4, 100)[3])
	b, _ := json.Marshal(s)
	var back VarSummary
	if err := json.Unmarshal(b, &back); err != nil || back != s {
		t.Fatalf("round trip: %v, %+v != %+v", err, back, s)
	}
	if !strings.Contains(string(b), `"mcse_q97_5":`) || !strings.Contains(string(b), `"hdi_lo":`) {
		t.Errorf("keys not snake_case: %s", b)
	}
	var nanBack VarSummary
	if err := json.Unmarshal([]byte(`{"mean":null,"sd":2}`), &nanBack); err != nil || !math.IsNaN(nanBack.Mean) || nanBack.SD != 2 || !math.IsNaN(nanBack.Rhat) {
		t.Fatalf("null/absent keys: %v %+v", err, nanBack)
	}
	if got := SummarizeAll(nil, 0); len(got) != 0 {
		t.Fatalf("SummarizeAll(nil) = %v", got)
	}
	if got := Summarize(nil); !math.IsNaN(got.Mean) {
		t.Fatalf("Summarize(nil).Mean = %v", got.Mean)
	}
}

// E-BFMI in Betancourt's convention on energies written out here; R 4.2.2:
// e <- c(10.2, 11.5, 9.8, 12.1, 10.7, 11.9, 10.1, 12.4, 11.0, 10.5)
// sum(diff(e)^2) / sum((e - mean(e))^2)   # 3.22022532188841
// (sum(diff(e)^2) / length(e)) / var(e)   # rstan::get_bfmi's form: 2.89820278969957
func TestEBFMI(t *testing.T) {
	t.Parallel()
	e := []float64{10.2, 11.5, 9.8, 12.1, 10.7, 11.9, 10.1, 12.4, 11.0, 10.5}
	if got := EBFMI(e); relErr(got, 3.22022532188841) > 1e-12 {
		t.Errorf("EBFMI = %.15g, want 3.22022532188841", got)
	}
	if got := EBFMI(e) * 9 / 10; relErr(got, 2.89820278969957) > 1e-12 {
		t.Errorf("EBFMI·(N−1)/N = %.15g, want rstan's 2.89820278969957", got)
	}
	// A random walk has E-BFMI → 0; independent energies → 2.
	r := rand.New(rand.NewPCG(5, 6))
	walk, iid := make([]float64, 20000), make([]float64, 20000)
	for i := range walk {
		iid[i] = r.NormFloat64()
		if i > 0 {
			walk[i] = walk[i-1] + iid[i]
		}
	}
	if got := EBFMI(walk); got > 0.01 {
		t.Errorf("EBFMI(random walk) = %v, want ≈ 0", got)
	}
	if got := EBFMI(iid); math.Abs(got-2) > 0.05 {
		t.Errorf("EBFMI(iid) = %v, want ≈ 2", got)
	}
	for _, bad := range [][]float64{nil, {1}, {2, 2, 2}, {1, math.NaN(), 3}} {
		if got := EBFMI(bad); !math.IsNaN(got) {
			t.Errorf("EBFMI(%v) = %v, want NaN", bad, got)
		}
	}
}
