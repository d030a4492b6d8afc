package gate

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/fit"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/shared"
)

// fitJSON runs riskgate fit with --format json and decodes the report.
func fitJSON(t *testing.T, args ...string) *fit.Report {
	t.Helper()
	code, out, errs := runMain(t, append(append([]string{"fit"}, args...), "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r fit.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestFitLossWeight: fit --loss-weight 5 on rb04.csv is bayes.BRisk at w = 5
// (the same fit, differences, P(riskier) and topics at risk for the same
// seed), and its report names the pool.
func TestFitLossWeight(t *testing.T) {
	t.Parallel()
	data := shared.Path(t, "data/bayesian-risk/rb04.csv")
	r := fitJSON(t, "--champion", "Champion", "--challenger", "Chal.*", "--loss-weight", "5", "--target-ess", "2000", "--seed", "3", data)
	if r.LossWeight != 5 || r.Family != "gaussian" || r.BRisk == nil || len(r.BRisk.Challengers) != 4 {
		t.Fatalf("loss weight %v family %s brisk %+v", r.LossWeight, r.Family, r.BRisk)
	}
	tab := loadTable(t, data)
	var chals []int
	for _, c := range r.BRisk.Challengers {
		chals = append(chals, tab.SystemIndex(c.Name))
	}
	want, err := bayes.BRisk(&bayes.Table{Systems: tab.Systems, Topics: tab.Topics, Scores: tab.Scores}, tab.SystemIndex("Champion"), 5, bayes.BRiskOptions{Challengers: chals,
		Hier: bayes.HierOptions{Sampler: mcmc.NUTSOptions{Seed: 3}, TargetESS: 2000}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := want.Describe()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range r.BRisk.Challengers {
		w, at := want.Challengers[i], d.Challengers[i].AtRisk
		if float64(c.Diff.Mean) != w.Diff.Mean || float64(c.PRiskier) != w.PRiskier || c.AtRisk != len(at) || len(c.Topics) != 50 {
			t.Errorf("%s: fit %+v, bayes.BRisk diff %+v p %v at risk %d", c.Name, c, w.Diff, w.PRiskier, len(at))
		}
	}
	if got, want := float64(r.Intercept.Mean), want.Fit.Describe()[bayes.IdxIntercept].Mean; got != want {
		t.Errorf("intercept %v, bayes.BRisk's %v", got, want)
	}
	// w = 1 is the plain fit: the same draws as without --loss-weight. On
	// TestFitGolden's small pool (6 × 8), where --loss-weight 2 changes the
	// intercept: 0.2 CPU-s for the two fits, against 0.6 on rb04.
	pool := fitPool(t, "--n-systems", "6", "--n-topics", "8", "--seed", "5")
	a := fitJSON(t, "--champion", "s1", "--challenger", "s2", "--target-ess", "1000", pool)
	b := fitJSON(t, "--champion", "s1", "--challenger", "s2", "--target-ess", "1000", "--loss-weight", "1", pool)
	if !reflect.DeepEqual(a.Intercept, b.Intercept) || !reflect.DeepEqual(a.Comparisons[0], b.Comparisons[0]) {
		t.Error("--loss-weight 1 changed the plain fit")
	}
}

// TestFitSkewNormalFlags runs the skew-normal family (on a small pool, to a
// small ESS target), the forecasts, the pool sweep and the prior sensitivity
// through the command and checks the report's shape. Its seven skew-normal
// fits take 5–6 CPU-seconds: -short runs the same flags on the Gaussian
// family (TestFitBRiskFlags) and one skew-normal fit (TestFitSkewNormalFamily).
func TestFitSkewNormalFlags(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("slow: seven skew-normal fits; -short runs TestFitBRiskFlags and TestFitSkewNormalFamily")
	}
	pool := fitPool(t, "--n-systems", "8", "--n-topics", "10", "--seed", "4")
	r := fitJSON(t, "--champion", "s1", "--challenger", "s2", "--challenger", "s3", "--family", "skew_normal", "--loss-weight", "2",
		"--target-ess", "400", "--forecast", "--pool-sweep", "0,2,10", "--prior-sensitivity", pool)
	if r.Family != "skew_normal" || r.Method != "general" || r.Alpha == nil || r.Priors["alpha"] != "normal(0, 4)" {
		t.Errorf("family %s method %s alpha %v priors %v", r.Family, r.Method, r.Alpha, r.Priors)
	}
	checkFitExtras(t, r, "brms")
	if ps := r.PriorSensitivity; ps.Fits[1].Priors["alpha"] != "normal(0, 2)" {
		t.Errorf("prior sensitivity's second set %+v: want alpha ~ normal(0, 2)", ps.Fits[1])
	}
}

// TestFitBRiskFlags: the forecasts, the pool sweep and the prior
// sensitivity through the command, on the Gaussian family.
func TestFitBRiskFlags(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "8", "--n-topics", "10", "--seed", "4")
	r := fitJSON(t, "--champion", "s1", "--challenger", "s2", "--challenger", "s3", "--loss-weight", "2",
		"--target-ess", "400", "--forecast", "--pool-sweep", "0,2,10", "--prior-sensitivity", pool)
	if r.Family != "gaussian" || r.Alpha != nil {
		t.Errorf("family %s alpha %v", r.Family, r.Alpha)
	}
	checkFitExtras(t, r, "rstanarm")
}

// TestFitSkewNormalFamily: --family skew_normal fits the skew normal with
// the general sampler and reports its shape α and prior.
func TestFitSkewNormalFamily(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "8", "--n-topics", "10", "--seed", "4")
	r := fitJSON(t, "--champion", "s1", "--challenger", "s2", "--challenger", "s3", "--family", "skew_normal", "--loss-weight", "2",
		"--target-ess", "400", pool)
	if r.Family != "skew_normal" || r.Method != "general" || r.Alpha == nil || r.Priors["alpha"] != "normal(0, 4)" {
		t.Errorf("family %s method %s alpha %v priors %v", r.Family, r.Method, r.Alpha, r.Priors)
	}
	if r.Forecasts != nil || r.PoolSweep != nil || r.PriorSensitivity != nil {
		t.Error("forecasts, pool sweep or prior sensitivity without their flags")
	}
}

// checkFitExtras checks the shape of --forecast, --pool-sweep 0,2,10 and
// --prior-sensitivity on fitPool's 8 systems × 10 topics (5 artifacts), the
// prior sets starting with first.
func checkFitExtras(t *testing.T, r *fit.Report, first string) {
	t.Helper()
	if len(r.Forecasts) != 8*10 {
		t.Errorf("%d forecasts, want one per cell (80)", len(r.Forecasts))
	}
	for _, f := range r.Forecasts {
		if !(f.Lo < f.Hi) {
			t.Errorf("forecast %+v: empty interval", f)
		}
	}
	if len(r.PoolSweep) != 3 || r.PoolSweep[0].M != 0 || r.PoolSweep[2].M != 5 || len(r.PoolSweep[1].Artifacts) != 2 || len(r.PoolSweep[1].Challengers) != 2 {
		t.Errorf("pool sweep %+v", r.PoolSweep)
	}
	ps := r.PriorSensitivity
	if ps == nil || len(ps.Fits) != 3 || ps.Fits[0].Name != first {
		t.Fatalf("prior sensitivity %+v", ps)
	}
	if ps.Robust != (len(ps.Changes) == 0 && ps.Fits[0].Converged && ps.Fits[1].Converged && ps.Fits[2].Converged) {
		t.Errorf("robust %v with changes %v", ps.Robust, ps.Changes)
	}
}

func TestFitBRiskErrors(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "3", "--n-topics", "4", "--seed", "1")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"loss weight", []string{"--champion", "s1", "--loss-weight", "-1", pool}, "--loss-weight: must be at least 1 (losses count w times; 1 = no extra weight), got -1"},
		{"family", []string{"--champion", "s1", "--family", "cauchy", pool}, `--family "cauchy": expected one of gaussian, skew_normal`},
		{"pool sweep", []string{"--champion", "s1", "--challenger", "s2", "--pool-sweep", "1,x", pool}, "--pool-sweep"},
		{"sweep without challengers", []string{"--champion", "s1", "--pool-sweep", "1", pool}, "at least one challenger"},
		{"collapsed skew", []string{"--champion", "s1", "--family", "skew_normal", "--method", "collapsed", pool}, "needs the gaussian family"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runMain(t, append([]string{"fit"}, tc.args...)...)
			checkOneLineError(t, code, out, errs, tc.want)
		})
	}
}

// FuzzParsePoolSweep: --pool-sweep never panics, and what it accepts are
// counts ≥ 0, one per comma-separated field.
func FuzzParsePoolSweep(f *testing.F) {
	for _, s := range []string{"1,5,10,20,40", "0", " 3 , 4", "", "1,,2", "-1", "x", "1e3", "9999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := fit.ParsePoolSweep(s)
		if err != nil {
			return
		}
		if len(ms) != len(strings.Split(s, ",")) {
			t.Errorf("%q: %d counts", s, len(ms))
		}
		for _, m := range ms {
			if m < 0 {
				t.Errorf("%q: negative count %d", s, m)
			}
		}
	})
}
