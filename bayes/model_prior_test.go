package bayes

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/riskgate/riskgate/bayes/posterior"
	"gonum.org/v1/gonum/stat/distuv"
)

// TestPriorDensities compares each prior's log density with gonum's
// distributions (half distributions: twice the density on x > 0), its
// derivative with finite differences, and its draws' mean with the exact mean.
func TestPriorDensities(t *testing.T) {
	t.Parallel()
	type ref struct {
		p     Prior
		logp  func(x float64) float64
		mean  float64
		xs    []float64
		heavy bool // no finite variance to check a sample mean against
	}
	st := func(nu, mu, s float64) func(float64) float64 {
		return distuv.StudentsT{Mu: mu, Sigma: s, Nu: nu}.LogProb
	}
	cases := []ref{
		{Normal{0.3, 0.55}, distuv.Normal{Mu: 0.3, Sigma: 0.55}.LogProb, 0.3, []float64{-1, 0, 0.3, 2}, false},
		{StudentT{3, 0.2, 2.5}, st(3, 0.2, 2.5), 0.2, []float64{-4, 0, 0.2, 7}, false},
		{Exponential{4.6}, distuv.Exponential{Rate: 4.6}.LogProb, 1 / 4.6, []float64{0.01, 0.2, 3}, false},
		{Gamma{2.5, 4}, distuv.Gamma{Alpha: 2.5, Beta: 4}.LogProb, 2.5 / 4, []float64{0.01, 0.5, 3}, false},
		{HalfNormal{0.7}, func(x float64) float64 { return math.Ln2 + distuv.Normal{Mu: 0, Sigma: 0.7}.LogProb(x) }, 0.7 * math.Sqrt(2/math.Pi), []float64{0.01, 0.5, 3}, false},
		{HalfStudentT{3, 2.5}, func(x float64) float64 { return math.Ln2 + st(3, 0, 2.5)(x) }, 0, []float64{0.01, 1, 30}, true},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		for _, x := range c.xs {
			lp, d := c.p.LogPDF(x)
			if want := c.logp(x); math.Abs(lp-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("%v at %g: log density %.15g, gonum %.15g", c.p, x, lp, want)
			}
			h := 1e-6 * math.Max(1, math.Abs(x))
			up, _ := c.p.LogPDF(x + h)
			dn, _ := c.p.LogPDF(x - h)
			if fd := (up - dn) / (2 * h); math.Abs(fd-d) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("%v at %g: derivative %g, finite difference %g", c.p, x, d, fd)
			}
		}
		if c.p.Positive() {
			if lp, _ := c.p.LogPDF(-0.1); !math.IsInf(lp, -1) {
				t.Errorf("%v: log density %v below 0", c.p, lp)
			}
		}
		n := 20000
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = c.p.Rand(r)
			if c.p.Positive() && xs[i] < 0 {
				t.Fatalf("%v drew %v", c.p, xs[i])
			}
		}
		if !c.heavy {
			if m, se := posterior.Mean(xs), posterior.SD(xs)/math.Sqrt(float64(n)); math.Abs(m-c.mean) > 5*se {
				t.Errorf("%v: draws' mean %v, want %v (SE %v)", c.p, m, c.mean, se)
			}
		}
	}
}

func TestParsePrior(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Prior{
		"normal(0.31, 0.55)":     Normal{0.31, 0.55},
		"Student-T(3, 0, 2.5)":   StudentT{3, 0, 2.5},
		"cauchy(0,1)":            StudentT{1, 0, 1},
		" exponential( 4.6 ) ":   Exponential{4.6},
		"gamma(1, 1)":            Gamma{1, 1},
		"half_normal(1)":         HalfNormal{1},
		"half-student_t(3, 2.5)": HalfStudentT{3, 2.5},
		"half_cauchy(2)":         HalfStudentT{1, 2},
	} {
		p, err := ParsePrior(in)
		if err != nil || p != want {
			t.Errorf("ParsePrior(%q) = %v, %v; want %v", in, p, err, want)
		}
	}
	for _, bad := range []string{"", "normal", "normal(0)", "normal(0, -1)", "normal(0, 1", "lognormal(0, 1)",
		"gamma(1, x)", "exponential(NaN)", "normal(0, Inf)", "gamma(0, 1)", "normal(0,1)x"} {
		if p, err := ParsePrior(bad); err == nil {
			t.Errorf("ParsePrior(%q) = %v, want an error", bad, p)
		}
	}
}

// FuzzParsePrior: no input panics, and whatever parses prints as text that
// parses back to the same prior.
func FuzzParsePrior(f *testing.F) {
	for _, s := range []string{"normal(0.31, 0.55)", "student_t(3, 0, 2.5)", "exponential(4.6)", "gamma(1,1)",
		"half_normal(1)", "half_student_t(3, 2.5)", "half_cauchy(2)", "cauchy(0, 1)", "normal(", "(", ")", "gamma(1e308, 1e-308)",
		"ir_pools", "IR-POOLS()", "ir_pools(1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePrior(s)
		if err != nil {
			return
		}
		q, err := ParsePrior(p.String())
		if err != nil || q != p {
			t.Fatalf("%q parsed as %v, which reparses as %v, %v", s, p, q, err)
		}
	})
}
