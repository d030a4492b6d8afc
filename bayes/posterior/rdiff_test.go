package posterior

// TestDifferentialPosterior compares Summarize, what riskgate diagnose
// --extra prints (SummarizeAll summarises each variable with it), with R's
// posterior 1.4 summarise_draws on random chain sets, at full precision:
// mean, median, sd, mad, the 2.5/5/50/95/97.5% quantiles, rhat, rhat_basic,
// ess_bulk, ess_tail, ess_basic, mcse_mean, mcse_sd, mcse_q2.5, mcse_q97.5.
// One Rscript run (testdata/rdiff_diagnose.R) does every chain set.
//
//	RISKGATE_RDIFF_SEED=n   seed (default: random, printed)
//	RISKGATE_RDIFF_CASES=n  chain sets (default 200; 40 with -short)
//
// Chain sets come in styles that reach the corner cases: autocorrelated
// chains with and without differing means, ties, a spread of 1e-12 about 1,
// heavy tails, a large offset, adjacent doubles, very short chains, constant
// chains. The one deliberate difference, R̂ = +Inf for chains each constant
// at different values (posterior: Inf or ~1e15 from rounding), is counted.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/internal/rdiff"
)

type rChains struct {
	id     string
	style  string
	chains [][]float64
}

func genRChains(r *rand.Rand, id string) *rChains {
	styles := []string{"ar1", "ar1", "unmixed", "ties", "tiny", "heavy", "offset", "adjacent", "short", "constant"}
	c := &rChains{id: id, style: styles[r.IntN(len(styles))]}
	m := 1 + r.IntN(4)
	n := 4 + r.IntN(200)
	if c.style == "short" {
		n = 1 + r.IntN(6)
	}
	rho := r.Float64()*1.4 - 0.45
	c.chains = make([][]float64, m)
	for j := range c.chains {
		mu := 0.0
		if c.style == "unmixed" {
			mu = r.NormFloat64() * 2
		}
		x := r.NormFloat64()
		row := make([]float64, n)
		for i := range row {
			x = rho*x + math.Sqrt(1-rho*rho)*r.NormFloat64()
			v := mu + x
			switch c.style {
			case "ties":
				v = math.Round(v*2) / 2
			case "tiny":
				v = 1 + float64(r.IntN(211)-105)*0x1p-46
			case "heavy":
				v = math.Tan(math.Pi * (r.Float64() - 0.5))
			case "offset":
				v = 1e6 + v
			case "adjacent":
				v = math.Nextafter(0.1, 1) // one double and its neighbours
				for range r.IntN(3) {
					v = math.Nextafter(v, 1)
				}
				if r.Float64() < 0.5 {
					v = float64(r.IntN(100)) / 997
				}
			case "constant":
				v = float64(j) / 4
				if r.Float64() < 0.3 {
					v = 0.5 // all chains at one value
				}
			}
			row[i] = v
		}
		if c.style == "constant" {
			for i := range row {
				row[i] = row[0]
			}
		}
		c.chains[j] = row
	}
	return c
}

// summaryFields lists the measures in testdata/rdiff_diagnose.R's order.
func summaryFields(s VarSummary) []float64 {
	return []float64{s.Mean, s.Median, s.SD, s.MAD, s.Q2_5, s.Q5, s.Q50, s.Q95, s.Q97_5,
		s.Rhat, s.RhatBasic, s.ESSBulk, s.ESSTail, s.ESSBasic, s.MCSEMean, s.MCSESd, s.MCSEQ2_5, s.MCSEQ97_5}
}

var summaryNames = []string{"mean", "median", "sd", "mad", "q2.5", "q5", "q50", "q95", "q97.5",
	"rhat", "rhat_basic", "ess_bulk", "ess_tail", "ess_basic", "mcse_mean", "mcse_sd", "mcse_q2.5", "mcse_q97.5"}

// posteriorTolerance is the relative tolerance of each measure. The
// median, mad and quantiles are the same arithmetic on the same order
// statistics as R's: exact. The sd and the R̂s differ from R's long-double
// sums in the last bits: 1e-13. ESS and MCSE come from autocovariances that
// R computes by FFT and riskgate lag by lag (or by FFT for slow chains):
// 1e-9. The mean is checked separately (see meanTolerance).
var posteriorTolerance = map[string]float64{
	"median": 0, "mad": 0, "q2.5": 0, "q5": 0, "q50": 0, "q95": 0, "q97.5": 0,
	"sd": 1e-13, "rhat": 1e-13, "rhat_basic": 1e-13,
	"ess_bulk": 1e-9, "ess_tail": 1e-9, "ess_basic": 1e-9, "mcse_mean": 1e-9, "mcse_sd": 1e-9,
	"mcse_q2.5": 1e-9, "mcse_q97.5": 1e-9,
}

// meanTolerance: riskgate's mean is correctly rounded; R's is a long-double
// sum and a correction pass, correct to about n·2⁻⁶³·max|x| absolute, which
// is more than an ulp of the mean where the draws cancel to a mean far
// below them.
func meanTolerance(x []float64) float64 {
	big := 0.0
	for _, v := range x {
		big = math.Max(big, math.Abs(v))
	}
	return 4 * float64(len(x)) * 0x1p-63 * big
}

// TestDifferentialPosterior: see the top of this file. Reference: R 4.2,
// posterior 1.4.0, by testdata/rdiff_diagnose.R; tolerances in
// posteriorTolerance and meanTolerance.
func TestDifferentialPosterior(t *testing.T) {
	t.Parallel()
	if testing.Short() && os.Getenv("RISKGATE_RDIFF_CASES") == "" {
		t.Skip("slow: R and posterior on random chains (2.8 CPU-seconds, most of them R's start-up); the full suite runs it, RISKGATE_RDIFF_CASES=N runs N chain sets with -short; " +
			"-short compares the diagnostics with posterior's recorded outputs (TestSummarizeMatchesPosterior, TestDiagnosticsEdgeCasesMatchPosterior)")
	}
	rscript := rdiff.Require(t, "posterior")
	seed := rdiff.Seed(t, "RISKGATE_RDIFF_SEED")
	cases := rdiff.Cases(t, "RISKGATE_RDIFF_CASES", 200, 40)
	t.Logf("seed %d (RISKGATE_RDIFF_SEED=%d reproduces this run), %d chain sets", seed, seed, cases)
	start := time.Now()
	r := rand.New(rand.NewPCG(seed, 0x706f73746572696f))
	var sets []*rChains
	var in []byte
	for k := range cases {
		c := genRChains(r, fmt.Sprintf("d%d", k))
		sets = append(sets, c)
		in = fmt.Appendf(in, "D %s %d %d", c.id, len(c.chains), len(c.chains[0]))
		for _, ch := range c.chains {
			in = rdiff.AppendHex(in, ch...)
		}
		in = append(in, '\n')
	}
	res := rdiff.Run(t, rscript, "testdata/rdiff_diagnose.R", in)
	mismatches := 0
	deliberate := map[string]int{}
	worst := map[string]float64{}
	for _, c := range sets {
		var flat []float64
		for _, ch := range c.chains {
			flat = append(flat, ch...)
		}
		echo, _ := res.Get(c.id, "echo")
		if !slices.Equal(echo.Values, flat) {
			t.Fatalf("%s: R read the draws as %v, sent %v", c.id, echo.Values, flat)
		}
		if e, ok := res.Get(c.id, "error"); ok {
			mismatches++
			t.Errorf("%s: summarise_draws stopped: %s", c.id, e.Err)
			continue
		}
		got := summaryFields(Summarize(c.chains))
		var bad []string
		short := false
		for i, name := range summaryNames {
			want, ok := res.Get(c.id, name)
			if !ok || len(want.Values) != 1 {
				bad = append(bad, name+": R printed nothing")
				continue
			}
			g, w := got[i], want.Values[0]
			if n := len(c.chains[0]); (n == 2 || n == 3) && len(c.chains) > 1 && math.IsNaN(w) && !math.IsNaN(g) &&
				slices.Contains([]string{"rhat", "rhat_basic", "ess_bulk", "ess_basic", "mcse_mean", "mcse_sd"}, name) {
				short = true
				continue
			}
			if (name == "rhat" || name == "rhat_basic") && math.IsInf(g, 1) && (math.IsInf(w, 1) || w > 1e10) {
				if !math.IsInf(w, 1) {
					deliberate["R-hat of chains each constant at different values: +Inf (posterior ~1e15 from rounding)"]++
				}
				continue
			}
			abs, rel := 0.0, posteriorTolerance[name]
			if name == "mean" {
				abs, rel = meanTolerance(flat), 0x1p-52
			}
			if dev := relErr(g, w); !math.IsInf(dev, 1) && dev > worst[name] {
				worst[name] = dev
			}
			if !rdiff.Close(g, w, rel, abs) {
				bad = append(bad, fmt.Sprintf("%s %.17g, R %.17g", name, g, w))
			}
		}
		if short {
			deliberate["2 or 3 iterations per chain: posterior's split of a plain matrix, where summarise_draws prints NA for R-hat, ESS bulk/basic, MCSE mean/sd"]++
		}
		if len(bad) > 0 {
			mismatches++
			if mismatches <= 20 {
				t.Errorf("%s (%s, %d chains × %d): %s\n  draws: %v", c.id, c.style, len(c.chains), len(c.chains[0]), strings.Join(bad, "; "), c.chains)
			}
		}
	}
	var ws []string
	for _, name := range summaryNames {
		ws = append(ws, fmt.Sprintf("%s %.1g", name, worst[name]))
	}
	var ds []string
	for k, v := range deliberate {
		ds = append(ds, fmt.Sprintf("%d × %s", v, k))
	}
	if len(ds) == 0 {
		ds = []string{"none"}
	}
	t.Logf("%d chain sets compared with posterior, %d mismatches; deliberate differences: %s; worst relative deviations: %s; %.1fs",
		len(sets), mismatches, strings.Join(ds, "; "), strings.Join(ws, ", "), time.Since(start).Seconds())
	if mismatches > 0 {
		t.Errorf("%d of %d chain sets differ from posterior (seed %d)", mismatches, len(sets), seed)
	}
}
