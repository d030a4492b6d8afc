package bayes

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/shared"
	"gonum.org/v1/gonum/stat/distuv"
)

// posteriorRow is one row of posterior::summarise_draws with mean, sd,
// quantiles, rhat, ess_bulk, ess_tail and mcse_mean.
type posteriorRow struct {
	mean, sd, q2_5, q50, q97_5, rhat, essBulk, essTail, mcseMean float64
}

func readPosteriorSummary(tb testing.TB, path string) map[string]posteriorRow {
	tb.Helper()
	out := map[string]posteriorRow{}
	for _, r := range shared.ReadCSV(tb, path)[1:] {
		v := make([]float64, 9)
		for i := range v {
			var err error
			if v[i], err = strconv.ParseFloat(r[1+i], 64); err != nil {
				tb.Fatalf("%s: %v", path, err)
			}
		}
		out[r[0]] = posteriorRow{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]}
	}
	return out
}

// quantileMCSE is the Monte Carlo error of the reference's p-quantile from its
// sd and the ESS that governs that quantile (tail-ESS for the 2.5% and 97.5%
// quantiles, bulk-ESS for the median): sd·√(p(1−p))/φ(Φ⁻¹(p))/√ESS.
func (r posteriorRow) quantileMCSE(p float64) float64 {
	ess := r.essTail
	if p == 0.5 {
		ess = r.essBulk
	}
	z := distuv.UnitNormal.Quantile(p)
	return r.sd * math.Sqrt(p*(1-p)) / distuv.UnitNormal.Prob(z) / math.Sqrt(ess)
}

// TestBRiskSkewNormalBrms compares the skew-normal BRisk fit at w = 5 with
// brms 2.18's brm(score ~ (1|system) + (1|topic), family = skew_normal(),
// chains = 4, iter = 6000, seed = 12345) on the same pool
// (reference/brms/rb04_hier_skew_r5.csv, reference/scripts/brms_hier_ref.R;
// brms's default priors, reference/brms/rb04_hier_priors.txt, which
// TableBrmsPriors reproduces): b_Intercept, σ, α, both group SDs and every
// system effect r_system[...] within max(0.003, 3 × the reference's Monte
// Carlo error) in mean and 2.5/50/97.5% quantiles. The mean's error is the
// file's mcse_mean; a quantile's is computed from the file's sd and the ESS
// governing it (quantileMCSE), as the file gives no quantile MCSE.
func TestBRiskSkewNormalBrms(t *testing.T) {
	t.Parallel()
	skipInShortMode(t, "brms reference fit")
	ref := readPosteriorSummary(t, shared.Path(t, "reference/brms/rb04_hier_skew_r5.csv"))
	tab := rb04(t)
	ch := systemIndex(t, tab, "Champion")
	var chals []int
	for i, name := range tab.Systems {
		if strings.HasPrefix(name, "Chal.") {
			chals = append(chals, i)
		}
	}
	r, err := BRisk(tab, ch, 5, BRiskOptions{Challengers: chals,
		Hier: HierOptions{Family: SkewNormal{}, Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 4000}})
	if err != nil {
		t.Fatal(err)
	}
	f := r.Fit
	if f.Method != MethodGeneral || f.Family.Name() != "skew_normal" {
		t.Fatalf("method %s, family %s", f.Method, f.Family.Name())
	}
	if p := f.Priors; p.Intercept != (StudentT{3, 0.2, 2.5}) || p.Sigma != (HalfStudentT{3, 2.5}) || p.SDTopic != (HalfStudentT{3, 2.5}) || p.SDSystem != (HalfStudentT{3, 2.5}) || p.Relative {
		t.Errorf("priors %+v; brms printed student_t(3, 0.2, 2.5) on the intercept and student_t(3, 0, 2.5) on sigma and the sds", p)
	}
	if !r.Converged {
		t.Errorf("not converged: %v", r.Warnings)
	}
	worst, worstWhat := 0.0, ""
	check := func(name string, v int) {
		rr, ok := ref[name]
		if !ok {
			t.Fatalf("reference has no row %q", name)
		}
		s := f.Describe()[v]
		for _, c := range []struct {
			what      string
			got, want float64
			mcse      float64
		}{{"mean", s.Mean, rr.mean, rr.mcseMean}, {"q2.5", s.Q2_5, rr.q2_5, rr.quantileMCSE(0.025)},
			{"q50", s.Q50, rr.q50, rr.quantileMCSE(0.5)}, {"q97.5", s.Q97_5, rr.q97_5, rr.quantileMCSE(0.975)}} {
			tol := math.Max(0.003, 3*c.mcse)
			d := math.Abs(c.got-c.want) / tol
			if d > worst {
				worst, worstWhat = d, name+" "+c.what
			}
			if !(d <= 1) {
				t.Errorf("%s %s: %.6g, brms %.6g (tolerance %.3g, off by %.2f×)", name, c.what, c.got, c.want, tol, d)
			}
		}
	}
	check("b_Intercept", IdxIntercept)
	check("sigma", IdxSigma)
	check("alpha", f.FamilyIndex(0))
	check("sd_topic__Intercept", IdxSDTopic)
	check("sd_system__Intercept", IdxSDSystem)
	for s, name := range f.Systems {
		check("r_system["+strings.ReplaceAll(name, " ", ".")+",Intercept]", f.SystemIndex(s))
	}
	t.Logf("worst deviation %.2f × tolerance (%s); %d draws per chain, min bulk-ESS %.0f", worst, worstWhat, f.Draws, f.minBulk())
}
