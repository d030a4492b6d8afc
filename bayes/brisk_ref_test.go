package bayes

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/shared"
)

// systemIndex is the index of the named system of t.
func systemIndex(tb testing.TB, t *Table, name string) int {
	tb.Helper()
	i := slices.Index(t.Systems, name)
	if i < 0 {
		tb.Fatalf("no system %q", name)
	}
	return i
}

// TestBRiskPoolIsRstanarmData checks the pool against what rstanarm printed
// for the one it was fitted to (reference/rstanarm/rb04_brisk5_prior.txt,
// built by reference/scripts/rstanarm_ref.R with risk_r = 5): intercept
// prior normal(0.19, 0.97) and σ ~ exponential(2.6) after autoscaling, that is
// mean 0.19, 2.5·sd 0.97 and 1/sd 2.6 to the digits printed.
func TestBRiskPoolIsRstanarmData(t *testing.T) {
	t.Parallel()
	tab := rb04(t)
	pool, err := BRiskPool(tab, systemIndex(t, tab, "Champion"), 5)
	if err != nil {
		t.Fatal(err)
	}
	p := TableRstanarmPriors(pool)
	n, e := p.Intercept.(Normal), p.Sigma.(Exponential)
	if roundR(n.Mu, 2) != 0.19 || roundR(n.Sigma, 2) != 0.97 || roundR(e.Rate, 1) != 2.6 {
		t.Errorf("priors on the pool: %v, %v; rstanarm printed normal(0.19, 0.97), exponential(2.6)", n, e)
	}
	// the paper's example: champion 0.50, challenger 0.45, w = 2 → 0.40
	ex := &Table{Systems: []string{"champ", "chal"}, Topics: []string{"a", "b"}, Scores: [][]float64{{0.5, 0.2}, {0.45, math.NaN()}}}
	q, err := BRiskPool(ex, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(q.Scores[1][0]-0.40) > 1e-15 || !math.IsNaN(q.Scores[1][1]) || q.Scores[0][0] != 0.5 {
		t.Errorf("pool %v, want [[0.5 0.2] [0.4 NaN]]", q.Scores)
	}
}

// TestBRiskRstanarm compares BRisk at w = 5 (Gaussian, rstanarm's default
// priors on the pool, the exact collapsed path) with
// reference/rstanarm/rb04_brisk5_summary.csv (rstanarm 2.21.3, stan_glmer 4
// chains × 4,000 iterations, adapt_delta 0.99, seed 12345; see
// reference/HOW.md) at the tolerances of TestRstanarmBalanced: means within
// max(0.001, 3·mcse), quantiles within max(0.002, 3·quantile MCSE), σ and the
// group SDs within 3% in their quantiles. The tolerance covers only the
// reference's Monte Carlo error, so our fit targets ESS 400,000 (seed 1, the
// CLI's default) to keep its own error small. The closest check is
// fub04Dge's 2.5% quantile: our posterior at ESS 2,000,000 (seeds 7 and 42
// agree to 1e-5) puts it at −0.05710 against rstanarm's −0.05934, 0.945 ×
// the tolerance 3 × 0.00079; at ESS 400,000 our own noise moves that check by
// about ±0.06 × (seeds 1–7: worst 0.92–0.98 ×; seed 42: 1.04 ×). rstanarm's
// own refits with seeds 1–3 (testdata/rstanarm_brisk5/seeds.R and .log) give
// −0.05626, −0.05834, −0.05772 for that quantile: the shared −0.05934 is the
// reference's noise, and ours lies within rstanarm's spread.
//
// The quantile MCSE is the reference's own, measured by posterior's
// mcse_quantile on the very same draws (testdata/rstanarm_brisk5, whose
// make.R reruns the fit with the same seed and reproduces the shared
// summary; checked below). The sd·√(p(1−p))/φ(Φ⁻¹(p))/√n_eff approximation
// of TestRstanarmBalanced uses n_eff, the ESS of the mean, while a tail
// quantile has its own, smaller ESS (for the system effects here about half:
// tail-ESS ≈ 5,000 against n_eff ≈ 10,000), so it understates the
// reference's error at the 2.5% and 97.5% quantiles: against it, our
// system-effect tail quantiles deviate by z-scores of sd 1.25 (1.37 on the
// plain fit) while their posterior sds agree with rstanarm's to 0.2%, and
// with any seed one or two of the 380 quantile checks reach 1.0–1.15 × that
// tolerance (b[(Intercept) system:input.fub04Dg] q2.5, rstanarm −0.08490
// against our −0.0874 to −0.0878 for seeds 1–6; its measured MCSE is 0.00121,
// the approximation's 0.00083).
func TestBRiskRstanarm(t *testing.T) {
	t.Parallel()
	skipInShortMode(t, "rstanarm reference fit")
	ref := readRstanarmSummary(t, shared.Path(t, "reference/rstanarm/rb04_brisk5_summary.csv"))
	addQuantileMCSE(t, ref, "testdata/rstanarm_brisk5/rb04_brisk5_quantile_mcse.csv")
	tab := rb04(t)
	ch := systemIndex(t, tab, "Champion")
	var chals []int
	for i, name := range tab.Systems {
		if strings.HasPrefix(name, "Chal.") {
			chals = append(chals, i)
		}
	}
	r, err := BRisk(tab, ch, 5, BRiskOptions{Challengers: chals, Hier: HierOptions{Sampler: mcmc.NUTSOptions{Seed: 1}, TargetESS: 400000}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Fit.Method != MethodCollapsed {
		t.Fatalf("method %s, want the collapsed path", r.Fit.Method)
	}
	if !r.Converged {
		t.Errorf("not converged: %v", r.Warnings)
	}
	compareWithRstanarm(t, r.Fit, ref)
}

// addQuantileMCSE sets the measured quantile MCSEs of a summary made by
// testdata/rstanarm_brisk5/make.R on ref's rows, after checking that the
// file's means are ref's (the same draws).
func addQuantileMCSE(t *testing.T, ref map[string]rstanarmRow, path string) {
	t.Helper()
	rows := shared.ReadCSV(t, path)
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	num := func(r []string, name string) float64 {
		v, err := strconv.ParseFloat(r[col[name]], 64)
		if err != nil {
			t.Fatalf("%s: %s: %v", path, name, err)
		}
		return v
	}
	n := 0
	for _, r := range rows[1:] {
		row, ok := ref[r[0]]
		if !ok {
			continue
		}
		if m := num(r, "mean"); m != row.mean {
			t.Fatalf("%s: mean of %s is %v, the shared reference's %v: not the same draws", path, r[0], m, row.mean)
		}
		row.mcseQ = [3]float64{num(r, "mcse_q2.5"), num(r, "mcse_q50"), num(r, "mcse_q97.5")}
		ref[r[0]] = row
		n++
	}
	if n < 95 {
		t.Fatalf("%s: %d rows match the reference, want the intercept and 95 effects", path, n)
	}
}
