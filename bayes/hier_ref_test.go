package bayes

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/shared"
	"gonum.org/v1/gonum/stat/distuv"
)

// rstanarmRow is one row of summary(stanreg, probs = c(.025, .5, .975)).
type rstanarmRow struct {
	mean, mcse, sd, q2_5, q50, q97_5, neff float64
	// mcseQ are posterior's mcse_quantile of the 2.5, 50 and 97.5%
	// quantiles of the same draws, where a test has them (zero otherwise).
	mcseQ [3]float64
}

func readRstanarmSummary(tb testing.TB, path string) map[string]rstanarmRow {
	tb.Helper()
	out := map[string]rstanarmRow{}
	for _, r := range shared.ReadCSV(tb, path)[1:] {
		v := make([]float64, 7)
		for i := range v {
			var err error
			if v[i], err = strconv.ParseFloat(r[i], 64); err != nil {
				tb.Fatalf("%s: %v", path, err)
			}
		}
		out[r[8]] = rstanarmRow{mean: v[0], mcse: v[1], sd: v[2], q2_5: v[3], q50: v[4], q97_5: v[5], neff: v[6]}
	}
	return out
}

// rstanarmQuantileMCSE is the Monte Carlo error of the reference's p-quantile:
// sd·√(p(1−p)) / φ(Φ⁻¹(p)) / √n_eff, or the measured one (mcseQ) when the row has it.
func rstanarmQuantileMCSE(r rstanarmRow, p float64) float64 {
	for i, q := range []float64{0.025, 0.5, 0.975} {
		if p == q && r.mcseQ[i] > 0 {
			return r.mcseQ[i]
		}
	}
	z := distuv.UnitNormal.Quantile(p)
	return r.sd * math.Sqrt(p*(1-p)) / distuv.UnitNormal.Prob(z) / math.Sqrt(r.neff)
}

// compareWithRstanarm checks a fit against an rstanarm summary at the
// issue's tolerances: every effect and the intercept in mean within
// max(0.001, 3·mcse) and in the 2.5/50/97.5% quantiles within
// max(0.002, 3·quantile MCSE); σ and the group SDs (square roots of the
// Sigma[...] variances) within 3% relative in those quantiles. It returns
// the worst deviation in units of its tolerance.
func compareWithRstanarm(t *testing.T, f *HierFit, ref map[string]rstanarmRow) float64 {
	t.Helper()
	worst, worstWhat := 0.0, ""
	worstScale, worstScaleWhat := 0.0, ""
	check := func(what string, got, want, tol float64) {
		d := math.Abs(got-want) / tol
		isScale := strings.HasPrefix(what, "sigma") || strings.HasPrefix(what, "sd_")
		if isScale && d > worstScale {
			worstScale, worstScaleWhat = d, what
		}
		if !isScale && d > worst {
			worst, worstWhat = d, what
		}
		if !(d <= 1) {
			t.Errorf("%s: %.6g, rstanarm %.6g (tolerance %.3g, off by %.2f×)", what, got, want, tol, d)
		}
	}
	effect := func(name string, i int) {
		r, ok := ref[name]
		if !ok {
			t.Fatalf("reference has no row %q", name)
		}
		s := f.Describe()[i]
		check(name+" mean", s.Mean, r.mean, math.Max(0.001, 3*r.mcse))
		for _, q := range []struct {
			p         float64
			got, want float64
		}{{0.025, s.Q2_5, r.q2_5}, {0.5, s.Q50, r.q50}, {0.975, s.Q97_5, r.q97_5}} {
			check(fmt.Sprintf("%s q%g", name, 100*q.p), q.got, q.want, math.Max(0.002, 3*rstanarmQuantileMCSE(r, q.p)))
		}
	}
	effect("(Intercept)", IdxIntercept)
	for s, name := range f.Systems {
		effect("b[(Intercept) system:"+strings.ReplaceAll(name, " ", "_")+"]", f.SystemIndex(s))
	}
	for j, name := range f.Topics {
		effect("b[(Intercept) topic:"+strings.ReplaceAll(name, " ", "_")+"]", f.TopicIndex(j))
	}
	scale := func(name string, i int, sqrt bool) {
		r := ref[name]
		tr := func(x float64) float64 {
			if sqrt {
				return math.Sqrt(x)
			}
			return x
		}
		s := f.Describe()[i]
		for _, q := range []struct {
			label     string
			got, want float64
		}{{"q2.5", s.Q2_5, tr(r.q2_5)}, {"q50", s.Q50, tr(r.q50)}, {"q97.5", s.Q97_5, tr(r.q97_5)}} {
			check(f.Names[i]+" "+q.label, q.got, q.want, 0.03*math.Abs(q.want))
		}
	}
	scale("sigma", IdxSigma, false)
	scale("Sigma[topic:(Intercept),(Intercept)]", IdxSDTopic, true)
	scale("Sigma[system:(Intercept),(Intercept)]", IdxSDSystem, true)
	t.Logf("worst deviation: intercept and effects %.2f × tolerance (%s); σ and group SDs %.2f × tolerance (%s)",
		worst, worstWhat, worstScale, worstScaleWhat)
	return math.Max(worst, worstScale)
}

// TestRstanarmBalanced compares the collapsed path on the complete rb04.csv
// with reference/rstanarm/rb04_plain_summary.csv (rstanarm 2.21.3,
// stan_glmer 4 chains × 4,000 iterations, adapt_delta 0.99, seed 12345; see
// reference/HOW.md).
//
// The fit targets ESS 100,000 so that our own Monte Carlo error is
// negligible next to the reference's. At sd_system's 2.5% quantile the
// reference is 0.009477 with an MCSE of about 0.00027 (2.9%, from its n_eff of
// 3,400); three long fits here (ESS 250,000, seeds 7, 8, 42) give 0.009628 to
// 0.009670, 1.6–2.0% away, inside the 3% tolerance. At ESS 10,000 or 40,000
// our own error (0.9% or 0.4%) made the check depend on the seed (one run
// reached 2.9%).
func TestRstanarmBalanced(t *testing.T) {
	t.Parallel()
	skipInShortMode(t, "rstanarm reference fit")
	ref := readRstanarmSummary(t, shared.Path(t, "reference/rstanarm/rb04_plain_summary.csv"))
	f, err := FitHier(rb04(t), HierOptions{Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 100000})
	if err != nil {
		t.Fatal(err)
	}
	if f.Method != MethodCollapsed || f.Missing != 0 {
		t.Fatalf("method %s with %d missing cells, want the collapsed path on a complete table", f.Method, f.Missing)
	}
	if !f.Converged {
		t.Errorf("not converged: %v", f.Warnings)
	}
	compareWithRstanarm(t, f, ref)
}

// TestRstanarmUnbalanced compares the collapsed (Schur) path on rb04.csv
// without 10% of the artifact cells with rstanarm fitted on the same reduced
// table: testdata/rstanarm_unbalanced/rb04_unbalanced_summary.csv, made by
// make.R beside it (rstanarm 2.21.3, stan_glmer 4 chains × 4,000 iterations,
// adapt_delta 0.99, seed 12345, the fit of reference/scripts/rstanarm_ref.R).
func TestRstanarmUnbalanced(t *testing.T) {
	t.Parallel()
	skipInShortMode(t, "rstanarm reference fit")
	ref := readRstanarmSummary(t, "testdata/rstanarm_unbalanced/rb04_unbalanced_summary.csv")
	full := rb04(t)
	tab := withoutCells(full, removedArtifactCells(full, unbalancedFrac, unbalancedSeed))
	f, err := FitHier(tab, HierOptions{Sampler: mcmc.NUTSOptions{Seed: 42}, TargetESS: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if f.Method != MethodCollapsed || f.Missing != 200 {
		t.Fatalf("method %s with %d missing cells, want the collapsed path with 200", f.Method, f.Missing)
	}
	if !f.Converged {
		t.Errorf("not converged: %v", f.Warnings)
	}
	compareWithRstanarm(t, f, ref)
}
