package bayes

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/risk"

	"github.com/riskgate/riskgate/internal/shared"
)

// brmsRow is one row of a brms summary: mean, sd, quantiles and, when the
// file has them, the quantiles' Monte Carlo standard errors.
type brmsRow struct {
	mean, sd, q2_5, q50, q97_5 float64
	mcseQ                      [3]float64
}

// readBrmsOneToOne reads a one-to-one summary (system, r, family, param,
// then the named columns) into rows keyed "system/r/family/param".
func readBrmsOneToOne(tb testing.TB, path string, cols ...string) map[string]brmsRow {
	tb.Helper()
	rows := shared.ReadCSV(tb, path)
	idx := map[string]int{}
	for i, h := range rows[0] {
		idx[h] = i
	}
	out := map[string]brmsRow{}
	for _, r := range rows[1:] {
		v := make([]float64, len(cols))
		for i, c := range cols {
			j, ok := idx[c]
			if !ok {
				tb.Fatalf("%s: no column %q", path, c)
			}
			var err error
			if v[i], err = strconv.ParseFloat(r[j], 64); err != nil {
				tb.Fatalf("%s: %v", path, err)
			}
		}
		row := brmsRow{mean: v[0], sd: v[1], q2_5: v[2], q50: v[3], q97_5: v[4]}
		if len(v) == 8 {
			row.mcseQ = [3]float64{v[5], v[6], v[7]}
		}
		out[r[0]+"/"+r[1]+"/"+r[2]+"/"+r[3]] = row
	}
	return out
}

// sharedBrmsOneToOne is reference/brms/rb04_one_to_one.csv (brms 2.18,
// reference/scripts/brms_ref.R: 4 chains × 4,000 iterations, 8,000 draws per fit).
func sharedBrmsOneToOne(tb testing.TB) map[string]brmsRow {
	return readBrmsOneToOne(tb, shared.Path(tb, "reference/brms/rb04_one_to_one.csv"), "mean", "sd", "q2.5", "q50", "q97.5")
}

// preciseBrmsOneToOne is the same fits with 80,000 draws each
// (testdata/brms_onetoone/make.R).
func preciseBrmsOneToOne(tb testing.TB) map[string]brmsRow {
	return readBrmsOneToOne(tb, "testdata/brms_onetoone/rb04_one_to_one_80k.csv",
		"mean", "sd", "2.5%", "50%", "97.5%", "mcse_q2.5", "mcse_q50", "mcse_q97.5")
}

// oneToOneCase is one of the sixteen brms one-to-one fits.
type oneToOneCase struct {
	system string
	w      float64
	fam    Family
}

func oneToOneCases() []oneToOneCase {
	var out []oneToOneCase
	for _, sys := range []string{"Chal. 3", "Chal. 4"} {
		for _, w := range []float64{1, 2, 5, 10} {
			for _, fam := range []Family{SkewNormal{}, Gaussian{}} {
				out = append(out, oneToOneCase{sys, w, fam})
			}
		}
	}
	return out
}

func (c oneToOneCase) params() []string {
	if _, g := c.fam.(Gaussian); g {
		return []string{"b_Intercept", "sigma"}
	}
	return []string{"b_Intercept", "sigma", "alpha"}
}

func (c oneToOneCase) key(param string) string {
	return fmt.Sprintf("%s/%g/%s/%s", c.system, c.w, c.fam.Name(), param)
}

// brmsOneToOnePriors are the priors of every fit in both brms files: brms's
// defaults for the first fit's data (Chal. 3's differences at w = 1,
// reference/brms/rb04_priors.txt), which update(newdata = ...) keeps for the
// other fits (?update.brmsfit: "Data-dependent default priors will not be
// updated automatically"); the 80,000-draw file records them per fit.
var brmsOneToOnePriors = OneToOneOptions{Intercept: StudentT{3, 0, 2.5}, Sigma: HalfStudentT{3, 2.5}}

// TestBrmsOneToOnePriors checks brms's default-prior rule on the first fit's
// data against what brms printed (reference/brms/rb04_priors.txt), and that
// the rule would have given another intercept location for Chal. 4 — which
// is why the fits must be run with the first fit's priors.
func TestBrmsOneToOnePriors(t *testing.T) {
	t.Parallel()
	tab := rb04(t)
	champ := tab.Scores[systemIndex(t, tab, "Champion")]
	for _, c := range []struct {
		system string
		loc    float64
	}{{"Chal. 3", 0}, {"Chal. 4", 0.1}} {
		d := risk.Pair{X: tab.Scores[systemIndex(t, tab, c.system)], Base: champ}.Adjusted(1)
		ip, sp := BrmsInterceptSigmaPriors(d)
		if ip != (StudentT{3, c.loc, 2.5}) || sp != (HalfStudentT{3, 2.5}) {
			t.Errorf("%s, w = 1: %v, %v; want student_t(3, %g, 2.5), half_student_t(3, 2.5)", c.system, ip, sp, c.loc)
		}
	}
	for _, r := range shared.ReadCSV(t, "testdata/brms_onetoone/rb04_one_to_one_80k.csv")[1:] {
		if r[len(r)-2] != "student_t(3, 0, 2.5)" || r[len(r)-1] != "student_t(3, 0, 2.5)" {
			t.Errorf("%s/%s/%s: brms priors %q, %q", r[0], r[1], r[2], r[len(r)-2], r[len(r)-1])
		}
	}
}

// TestOneToOneBrms compares OneToOne with brms's brm(d ~ 1, family =
// skew_normal() | gaussian()) on the risk-adjusted differences of Chal. 3 and
// Chal. 4 against Champion in rb04.csv at w = 1, 2, 5, 10: the mean and the
// 2.5/50/97.5% quantiles of the location (b_Intercept), σ and α within 0.1
// posterior sd of brms's.
//
// The reference is the 80,000-draw repeat of reference/brms/rb04_one_to_one.csv
// (testdata/brms_onetoone; same models, priors and seed), whose Monte Carlo
// error at the tail quantiles is about 0.01 sd. The shared file's 8,000 draws
// leave its tail quantiles up to 0.17 sd from the posterior: for Chal. 3 at
// w = 1 (Gaussian) it gives q2.5 = −0.02709 where 2-D quadrature of the exact
// posterior and the 80,000-draw run both give −0.02819 to −0.02823 (0.12 sd
// away); TestSharedBrmsOneToOneWithinMCError checks that the shared file
// differs from the precise one only by its own Monte Carlo error, and this
// test logs our worst deviation from the shared file in units of 0.1 sd.
// Our fits target ESS 20,000 (tail-quantile error about 0.02 sd).
func TestOneToOneBrms(t *testing.T) {
	t.Parallel()
	skipInShortMode(t, "brms reference fits")
	ref, sh := preciseBrmsOneToOne(t), sharedBrmsOneToOne(t)
	tab := rb04(t)
	champ := tab.Scores[systemIndex(t, tab, "Champion")]
	worst, worstWhat := 0.0, ""
	worstShared, worstSharedWhat := 0.0, ""
	for _, c := range oneToOneCases() {
		x := tab.Scores[systemIndex(t, tab, c.system)]
		o := brmsOneToOnePriors
		o.Family, o.Sampler, o.TargetESS, o.MaxDraws = c.fam, mcmc.NUTSOptions{Seed: 1}, 20000, 20000
		f, err := OneToOne(x, champ, c.w, o)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Converged {
			t.Errorf("%s w %g %s: not converged: %v", c.system, c.w, c.fam.Name(), f.Warnings)
		}
		for i, p := range c.params() {
			key := c.key(p)
			r, ok := ref[key]
			if !ok {
				t.Fatalf("reference has no row %s", key)
			}
			s := f.Fit.Describe()[i]
			rs := sh[key]
			for _, q := range []struct {
				what            string
				got, want, shar float64
			}{{"mean", s.Mean, r.mean, rs.mean}, {"q2.5", s.Q2_5, r.q2_5, rs.q2_5}, {"q50", s.Q50, r.q50, rs.q50}, {"q97.5", s.Q97_5, r.q97_5, rs.q97_5}} {
				d := math.Abs(q.got-q.want) / (0.1 * r.sd)
				if d > worst {
					worst, worstWhat = d, key+" "+q.what
				}
				if ds := math.Abs(q.got-q.shar) / (0.1 * rs.sd); ds > worstShared {
					worstShared, worstSharedWhat = ds, key+" "+q.what
				}
				if !(d <= 1) {
					t.Errorf("%s %s: %.6g, brms %.6g (tolerance %.3g = 0.1 sd, off by %.2f×)", key, q.what, q.got, q.want, 0.1*r.sd, d)
				}
			}
		}
	}
	t.Logf("worst deviation from the 80,000-draw brms fits %.2f × tolerance (%s); from the shared 8,000-draw file %.2f × (%s)",
		worst, worstWhat, worstShared, worstSharedWhat)
}

// TestSharedBrmsOneToOneWithinMCError checks that the shared brms file and
// its 80,000-draw repeat describe the same posteriors: every mean and
// quantile agrees within 4 combined Monte Carlo standard errors, the shared
// file's taken as the repeat's ×√(80,000/8,000) (the same sampler on ten
// times fewer draws; the shared file has no MCSE columns).
func TestSharedBrmsOneToOneWithinMCError(t *testing.T) {
	t.Parallel()
	ref, sh := preciseBrmsOneToOne(t), sharedBrmsOneToOne(t)
	for _, c := range oneToOneCases() {
		for _, p := range c.params() {
			key := c.key(p)
			r, s := ref[key], sh[key]
			for i, q := range []struct {
				what      string
				got, want float64
			}{{"q2.5", s.q2_5, r.q2_5}, {"q50", s.q50, r.q50}, {"q97.5", s.q97_5, r.q97_5}} {
				se := r.mcseQ[i] * math.Sqrt(1+10)
				if z := math.Abs(q.got-q.want) / se; !(z <= 4) {
					t.Errorf("%s %s: shared %.6g, 80k %.6g: %.1f standard errors apart", key, q.what, q.got, q.want, z)
				}
			}
		}
	}
}

// TestOneToOneGaussianQuadrature checks the Gaussian one-to-one posterior
// against its exact marginal of the location μ, computed by 2-D quadrature
// (μ on a fine grid, σ integrated by the midpoint rule; the likelihood from
// the sufficient statistics n, d̄ and Σ(d − d̄)²), for Chal. 3 against
// Champion at w = 1 with brms's priors: mean and 2.5/50/97.5% quantiles within
// 0.03 posterior sd (our MCSE at ESS 40,000 is about 0.005 sd at the mean and
// 0.013 sd at the tail quantiles).
func TestOneToOneGaussianQuadrature(t *testing.T) {
	t.Parallel()
	tab := rb04(t)
	champ := tab.Scores[systemIndex(t, tab, "Champion")]
	x := tab.Scores[systemIndex(t, tab, "Chal. 3")]
	d := risk.Pair{X: x, Base: champ}.Adjusted(1)
	n, m := float64(len(d)), posterior.Mean(d)
	ss := stats.Variance(d) * (n - 1)
	ip, sp := brmsOneToOnePriors.Intercept, brmsOneToOnePriors.Sigma
	se := math.Sqrt(ss/(n-1)) / math.Sqrt(n)
	const nm, ns = 4001, 4000
	lo, hi := m-10*se, m+10*se
	mus, post := make([]float64, nm), make([]float64, nm)
	sMax := 6 * math.Sqrt(ss/(n-1))
	// the σ grid's log prior, n·log σ and 2σ², the same for every μ
	lps, nLogSig, twoSig2 := make([]float64, ns), make([]float64, ns), make([]float64, ns)
	for j := range ns {
		sig := sMax * (float64(j) + 0.5) / ns
		lps[j], _ = sp.LogPDF(sig)
		nLogSig[j], twoSig2[j] = n*math.Log(sig), 2*sig*sig
	}
	for i := range mus {
		mu := lo + (hi-lo)*float64(i)/float64(nm-1)
		mus[i] = mu
		lpMu, _ := ip.LogPDF(mu)
		q := ss + n*(m-mu)*(m-mu)
		tot := 0.0
		for j := range ns {
			tot += math.Exp(lpMu + lps[j] - nLogSig[j] - q/twoSig2[j] + 150)
		}
		post[i] = tot
	}
	// the marginal CDF by the trapezoidal rule, quantiles by linear interpolation
	cdf := make([]float64, nm)
	for i := 1; i < nm; i++ {
		cdf[i] = cdf[i-1] + (post[i]+post[i-1])/2
	}
	z := cdf[nm-1]
	mean, sd := 0.0, 0.0
	for i := range mus {
		mean += mus[i] * post[i]
	}
	mean /= sum(post)
	for i := range mus {
		sd += (mus[i] - mean) * (mus[i] - mean) * post[i]
	}
	sd = math.Sqrt(sd / sum(post))
	quant := func(p float64) float64 {
		for i := 1; i < nm; i++ {
			if cdf[i]/z >= p {
				f := (p - cdf[i-1]/z) / ((cdf[i] - cdf[i-1]) / z)
				return mus[i-1] + f*(mus[i]-mus[i-1])
			}
		}
		return math.NaN()
	}
	o := brmsOneToOnePriors
	o.Sampler, o.TargetESS, o.MaxDraws = mcmc.NUTSOptions{Seed: 3}, 40000, 40000
	f, err := OneToOne(x, champ, 1, o)
	if err != nil {
		t.Fatal(err)
	}
	s := f.Fit.Describe()[0]
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"mean", s.Mean, mean}, {"q2.5", s.Q2_5, quant(0.025)}, {"q50", s.Q50, quant(0.5)}, {"q97.5", s.Q97_5, quant(0.975)}} {
		if d := math.Abs(c.got-c.want) / sd; !(d <= 0.03) {
			t.Errorf("μ %s: %.6g, quadrature %.6g (%.3f sd apart)", c.what, c.got, c.want, d)
		}
	}
	t.Logf("quadrature: mean %.6f q2.5 %.6f q50 %.6f q97.5 %.6f sd %.6f", mean, quant(0.025), quant(0.5), quant(0.975), sd)
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}
