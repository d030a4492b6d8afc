package posterior

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// Each of the six decisions on a constructed posterior: normal draws placed
// against the ROPE [−0.05, 0.05].
func TestROPEDecisionSixOutcomes(t *testing.T) {
	t.Parallel()
	rope := ROPE{-0.05, 0.05}
	r := rand.New(rand.NewPCG(42, 0))
	for _, c := range []struct {
		mean, sd float64
		want     Decision
	}{
		{0.20, 0.01, MuchBetter}, // HDI ≈ [0.18, 0.22]: entirely above
		{0.06, 0.01, Better},     // HDI ≈ [0.04, 0.08]: leaves the ROPE upwards only
		{0.00, 0.01, Equivalent}, // HDI ≈ [−0.02, 0.02]: entirely inside
		{-0.06, 0.01, Worse},     // HDI ≈ [−0.08, −0.04]: leaves the ROPE downwards only
		{-0.20, 0.01, MuchWorse}, // HDI ≈ [−0.22, −0.18]: entirely below
		{0.00, 0.10, Undecided},  // HDI ≈ [−0.2, 0.2]: wider than the ROPE on both sides
	} {
		draws := make([]float64, 20000)
		for i := range draws {
			draws[i] = c.mean + c.sd*r.NormFloat64()
		}
		got := ROPEDecision(draws, rope, 0.95)
		if got.Decision != c.want {
			t.Errorf("N(%v, %v): decision %s (HDI [%.4f, %.4f]), want %s", c.mean, c.sd, got.Decision, got.HDILo, got.HDIHi, c.want)
		}
		lo, hi := HDI(draws, 0.95)
		if got.HDILo != lo || got.HDIHi != hi || got.CredMass != 0.95 || got.ROPE != rope {
			t.Errorf("N(%v, %v): result %+v does not carry the HDI [%v, %v] and ROPE", c.mean, c.sd, got, lo, hi)
		}
		inside := 0
		for _, v := range draws {
			if rope.Contains(v) {
				inside++
			}
		}
		if want := float64(inside) / float64(len(draws)); got.Inside != want {
			t.Errorf("N(%v, %v): inside %v, want %v", c.mean, c.sd, got.Inside, want)
		}
		if s := string(got.Decision); s == "" {
			t.Error("empty decision string")
		}
		if d, err := ParseDecision(string(c.want)); err != nil || d != c.want {
			t.Errorf("ParseDecision(%q) = %v, %v", c.want, d, err)
		}
	}
	if got := ROPEDecision([]float64{1}, rope, 0.95).Decision; got != Undecided {
		t.Errorf("one draw: %s, want undecided (no HDI)", got)
	}
}

// Zhang et al. (SIGIR 2016) Tables 4, 5 and 6: every printed 95% HDI of the F1
// difference with its printed decision, ROPE [−0.05, +0.05]. The ≫ and ≪
// symbols did not survive the text extraction of the paper in
// ../shared/seeds/004_*; those rows (marked) are the ones whose HDI lies
// entirely outside the ROPE, and the surviving symbols (≈, <, >) fix the
// rest, including the boundary cases [−0.050, +0.009] → ≈ (bounds included)
// and [−0.035, +0.051] → > (the HDI need not exclude 0).
func TestDecideHDIZhangTables(t *testing.T) {
	t.Parallel()
	rope := ROPE{-0.05, 0.05}
	type row struct {
		lo, hi float64
		sym    string
	}
	tables := map[string][]row{
		"Table 4 (NB_Bern vs NB_Mult)": {
			{-0.125, -0.041, "<"}, {-0.148, -0.080, "≪*"}, {-0.456, -0.345, "≪*"}, {-0.126, -0.062, "≪*"},
			{-0.286, -0.211, "≪*"}, {-0.135, -0.069, "≪*"}, {-0.168, -0.105, "≪*"}, {-0.123, -0.061, "≪*"},
			{-0.178, -0.111, "≪*"}, {-0.105, -0.055, "≪*"}, {+0.074, +0.142, "≫*"}, {-0.125, -0.061, "≪*"},
			{-0.137, -0.058, "≪*"}, {-0.147, -0.084, "≪*"}, {-0.139, -0.079, "≪*"}, {-0.059, +0.004, "<"},
			{-0.141, -0.068, "≪*"}, {-0.134, -0.070, "≪*"}, {-0.128, -0.049, "<"}, {-0.097, +0.022, "<"},
		},
		"Table 5 (SVM_L1 vs SVM_L2)": {
			{-0.063, +0.008, "<"}, {-0.038, +0.014, "≈"}, {-0.035, +0.020, "≈"}, {-0.047, +0.007, "≈"},
			{-0.049, +0.005, "≈"}, {-0.035, +0.019, "≈"}, {-0.078, -0.029, "<"}, {-0.166, -0.098, "≪*"},
			{-0.042, +0.014, "≈"}, {+0.094, +0.160, "≫*"}, {-0.035, +0.009, "≈"}, {-0.030, +0.021, "≈"},
			{-0.066, -0.003, "<"}, {-0.050, +0.009, "≈"}, {-0.036, +0.018, "≈"}, {-0.062, -0.011, "<"},
			{-0.057, -0.003, "<"}, {-0.015, +0.041, "≈"}, {-0.045, +0.017, "≈"}, {-0.035, +0.051, ">"},
		},
		"Table 6 (NB_Mult vs SVM_L2)": {
			{-0.043, +0.042, "≈"}, {-0.007, +0.063, ">"}, {-0.069, +0.013, "<"}, {-0.006, +0.066, ">"},
			{-0.031, +0.040, "≈"}, {+0.017, +0.083, ">"}, {-0.017, +0.046, "≈"}, {-0.005, +0.067, ">"},
			{-0.028, +0.042, "≈"}, {+0.180, +0.253, "≫*"}, {-0.149, -0.082, "≪*"}, {-0.048, +0.017, "≈"},
			{+0.034, +0.113, ">"}, {+0.029, +0.090, ">"}, {+0.016, +0.082, ">"}, {-0.037, +0.021, "≈"},
			{+0.007, +0.074, ">"}, {+0.023, +0.085, ">"}, {-0.023, +0.053, ">"}, {-0.119, +0.001, "<"},
		},
	}
	for name, rows := range tables {
		for cat, r := range rows {
			want := strings.TrimSuffix(r.sym, "*")
			if got := DecideHDI(r.lo, r.hi, rope).Symbol(); got != want {
				t.Errorf("%s category %d: HDI [%+.3f, %+.3f] → %s, the paper says %s", name, cat, r.lo, r.hi, got, r.sym)
			}
		}
	}
	if DecideHDI(math.NaN(), 1, rope) != Undecided {
		t.Error("NaN HDI must be undecided")
	}
}

// R 4.2: bw.nrd0(c(3,1,4,1,5,9,2,6)) = 1.5509141488562004 and
// mean(dnorm(2.5, c(3,1,4,1,5,9,2,6), bw.nrd0(...))) = 0.13277235595596026.
func TestKernelDensityMatchesR(t *testing.T) {
	t.Parallel()
	x := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	if got, want := BandwidthNRD0(x), 1.5509141488562004; math.Abs(got-want) > 1e-14 {
		t.Errorf("bw.nrd0 = %.17g, want %.17g", got, want)
	}
	if got, want := KernelDensity(x, 2.5), 0.13277235595596026; math.Abs(got-want) > 1e-14 {
		t.Errorf("density at 2.5 = %.17g, want %.17g", got, want)
	}
}

// Savage–Dickey on a case with a closed form: θ ~ Beta(1, 1), 7 successes in
// 20 trials, posterior Beta(8, 14); BF01 at θ₀ = 0.5 is dbeta(0.5, 8, 14)/1 =
// 1.5525054931640616 (R 4.2). The kernel estimate from 200,000 exact draws
// must be within 4% (its standard error is about 1%, its smoothing bias 0.5%).
// The prior density is estimated from prior draws too (uniform: 1 at 0.5).
func TestSavageDickeyBetaBinomial(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 0))
	post := make([]float64, 200000)
	prior := make([]float64, 200000)
	for i := range post {
		post[i] = distuv.Beta{Alpha: 8, Beta: 14, Src: r}.Rand()
		prior[i] = distuv.Beta{Alpha: 1, Beta: 1, Src: r}.Rand()
	}
	bf := SavageDickey(post, 1, 0.5)
	if want := 1.5525054931640616; math.Abs(bf.BF01/want-1) > 0.04 {
		t.Errorf("BF01 = %v, analytic %v", bf.BF01, want)
	}
	if d := KernelDensity(prior, 0.5); math.Abs(d-1) > 0.04 {
		t.Errorf("prior density at 0.5 from draws = %v, want 1", d)
	}
	if math.Abs(bf.BF10()*bf.BF01-1) > 1e-12 {
		t.Error("BF10 is not 1/BF01")
	}
}

func BenchmarkROPEDecision(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 0))
	draws := make([]float64, 50000)
	for i := range draws {
		draws[i] = r.NormFloat64()
	}
	for b.Loop() {
		ROPEDecision(draws, ROPE{-0.1, 0.1}, 0.95)
	}
}

func BenchmarkKernelDensity(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 0))
	draws := make([]float64, 50000)
	for i := range draws {
		draws[i] = r.NormFloat64()
	}
	for b.Loop() {
		KernelDensity(draws, 0)
	}
}

// FuzzParseDecision: no input panics, and a decision parses only from its
// own stable string form.
func FuzzParseDecision(f *testing.F) {
	for _, d := range Decisions {
		f.Add(string(d))
	}
	for _, s := range []string{"", "Better", "much-better", " better", "≫"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDecision(s)
		if err != nil {
			return
		}
		if string(d) != s || !slices.Contains(Decisions, d) {
			t.Fatalf("%q parsed as %q", s, d)
		}
	})
}
