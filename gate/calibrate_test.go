package gate

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/calibrate"

	"github.com/riskgate/riskgate/gate/engine"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/policies"
)

// calibrateCheap is the policy without MCMC of the calibrate goldens.
var calibrateCheap = filepath.Join("testdata", "calibrate", "cheap.yaml")

// The whole output of calibrate in every format, on the example pool with
// the policy without MCMC. Each format is a calibration of its own (1.4
// CPU-seconds, most of it the cells' true effects): -short checks the table
// here and every format from one calibration in gate/calibrate
// (TestReportGolden).
func TestCalibrateGolden(t *testing.T) {
	t.Parallel()
	for _, format := range calibrateFormats {
		if testing.Short() && format != "table" {
			continue
		}
		args := []string{"calibrate", "--example", "--policy", calibrateCheap, "--reps", "60", "--seed", "7", "--format", format}
		checkGoldenRun(t, "calibrate/cheap."+format+".golden", args...)
	}
}

// Same seed, same bytes, whatever the number of cores. Two of the default
// five effects: each cell's truth (a quadrature of about 0.1 CPU-s) is much
// of a calibration's time, and two cells of 40 pools already spread over
// five workers.
func TestCalibrateDeterministic(t *testing.T) {
	t.Parallel()
	runMainWithGOMAXPROCS(t, []int{1, 2, 5}, "calibrate", "--example", "--policy", calibrateCheap, "--reps", "40", "--effects", "-0.02,0.05", "--seed", "3", "--format", "json")
}

// The JSON report: the grid's cells with their truth, class and rates (the
// schema of the decisions issue), rates that add up to 1, standard errors
// √(p(1 − p)/n), classes from the policy's definition, and the headlines.
func TestCalibrateJSON(t *testing.T) {
	t.Parallel()
	// 10 pools a cell: the assertions hold for any number (the cells'
	// truths, a quadrature each, are most of the CPU; 50 pools cost 1.2 s more).
	code, out, errw := runMain(t, "calibrate", "--example", "--policy", calibrateCheap, "--reps", "10", "--effects", "-0.02,-0.01,0,0.02",
		"--risks", "1,2", "--min-effect", "0.02", "--format", "json")
	if code != 0 || errw != "" {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var r struct {
		SchemaVersion int               `json:"schema_version"`
		Cells         []map[string]any  `json:"cells"`
		Harm          calibrate.Harm    `json:"harm"`
		FalseShip     *calibrate.Figure `json:"false_ship"`
		Power         *calibrate.Figure `json:"power"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.SchemaVersion != 2 || len(r.Cells) != 8 {
		t.Fatalf("schema %d, %d cells", r.SchemaVersion, len(r.Cells))
	}
	// The cheap policy judges risk with a warn rule only: harm is a mean
	// effect of 0 or less, and the true risk-adjusted differences are at the
	// policy's loss weight.
	if r.Harm.Rule != "" || r.Harm.LossWeight != 2 {
		t.Errorf("harm %+v", r.Harm)
	}
	for i, c := range r.Cells {
		for _, k := range []string{"effect", "risk", "true_mean_diff", "true_risk_diff", "class", "reps", "pass_rate", "warn_rate", "fail_rate", "inconclusive_rate", "ship_rate", "se"} {
			if _, ok := c[k]; !ok {
				t.Fatalf("cell %d has no %s", i, k)
			}
		}
		sum := 0.0
		for _, k := range []string{"pass_rate", "warn_rate", "fail_rate", "inconclusive_rate"} {
			sum += c[k].(float64)
		}
		ship := c["pass_rate"].(float64) + c["warn_rate"].(float64)
		if math.Abs(sum-1) > 1e-12 || math.Abs(c["ship_rate"].(float64)-ship) > 1e-12 {
			t.Errorf("cell %d: rates add up to %v, ship %v", i, sum, c["ship_rate"])
		}
		if se := math.Sqrt(ship * (1 - ship) / 10); math.Abs(c["se"].(float64)-se) > 1e-12 {
			t.Errorf("cell %d: se %v, want %v", i, c["se"], se)
		}
		effect, risk := c["effect"].(float64), c["risk"].(float64)
		if want := []float64{-0.02, -0.01, 0, 0.02}[i/2]; effect != want || risk != []float64{1, 2}[i%2] {
			t.Errorf("cell %d is effect %v, risk %v", i, effect, risk)
		}
		if math.Abs(c["true_mean_diff"].(float64)-effect) > 1e-6 {
			t.Errorf("cell %d: true mean difference %v, effect %v", i, c["true_mean_diff"], effect)
		}
		// A riskier challenger (risk 2) has a lower true risk-adjusted difference.
		if i%2 == 1 && c["true_risk_diff"].(float64) >= r.Cells[i-1]["true_risk_diff"].(float64) {
			t.Errorf("cell %d: risk 2's true risk-adjusted difference %v is not below risk 1's", i, c["true_risk_diff"])
		}
		wantClass := calibrate.ClassHarmful
		if effect >= 0.02 {
			wantClass = calibrate.ClassBeneficial
		}
		if c["class"] != wantClass {
			t.Errorf("cell %d: class %v, want %v", i, c["class"], wantClass)
		}
	}
	if r.FalseShip == nil || r.Power == nil || r.Power.Effect != 0.02 {
		t.Fatalf("headlines %+v %+v", r.FalseShip, r.Power)
	}
}

// The test of the method: on a policy built to be conservative (a
// one-sided paired t test at 1% and P(better) ≥ 0.99), the ship rate of
// every harmful cell is below 5% and the power at a clearly positive effect
// above 80%. Expected values: the example pool's differences have SD 0.060
// over 50 topics, so the t statistic's mean is effect/0.0085: −1.2 at −0.01
// (false-ship rate about P(t₄₉ > 2.4 + 1.2) ≈ 0.0004), 0 at 0 (the test's
// nominal 1%, a little more: the differences are skewed to the left, which
// makes a one-sided t test for "greater" liberal — calibrate exists to show
// such things) and 4.7 at +0.04 (power about P(t₄₉ > 2.4 − 4.7) ≈ 0.99).
func TestCalibrateConservativePolicy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipped in short mode: a calibration of 600 simulated pools (go test without -short runs it)")
	}
	const reps = 200
	code, out, errw := runMain(t, "calibrate", "--example", "--policy", filepath.Join("testdata", "calibrate", "conservative.yaml"),
		"--reps", fmt.Sprint(reps), "--effects", "-0.01,0,0.04", "--min-effect", "0.04", "--format", "json")
	if code != 0 || errw != "" {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var r calibrate.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	neg, zero, pos := r.Cells[0], r.Cells[1], r.Cells[2]
	t.Logf("ship %.3f ± %.3f at -0.01, %.3f ± %.3f at 0, power %.3f ± %.3f at 0.04", neg.ShipRate, neg.SE, zero.ShipRate, zero.SE, pos.ShipRate, pos.SE)
	for _, c := range []calibrate.Cell{neg, zero} {
		if c.ShipRate >= 0.05 || c.Class != calibrate.ClassHarmful {
			t.Errorf("false-ship rate at %v: %v (%s), want < 0.05", c.Effect, c.ShipRate, c.Class)
		}
	}
	if pos.ShipRate <= 0.8 || pos.Class != calibrate.ClassBeneficial {
		t.Errorf("power at 0.04: %v (%s), want > 0.8", pos.ShipRate, pos.Class)
	}
	worst := neg
	if zero.ShipRate > neg.ShipRate {
		worst = zero
	}
	if r.FalseShip == nil || r.FalseShip.Effect != worst.Effect || r.FalseShip.Rate != worst.ShipRate || r.Power == nil || r.Power.Effect != 0.04 {
		t.Errorf("headlines %+v %+v", r.FalseShip, r.Power)
	}
	if inconclusiveTotal(&r) != 0 {
		t.Errorf("%v inconclusive pools", inconclusiveTotal(&r))
	}
}

// inconclusiveTotal is the share of inconclusive verdicts over all cells.
func inconclusiveTotal(r *calibrate.Report) float64 {
	s := 0.0
	for _, c := range r.Cells {
		s += float64(c.InconclusiveRate)
	}
	return s
}

// engine.Decide, which stops once every challenger fails, gives riskgate
// gate's verdict: simulated pools of several effects are written to files
// and judged by the gate command, on the default policy (two MCMC fits,
// stopping after the first for most worse challengers) and on the policy
// without MCMC (every verdict, warn included).
func TestGateDecisionIsTheGates(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipped in short mode: 40 simulated pools through the gate command and engine.Decide (go test without -short runs it)")
	}
	systems := append([]string{"production", "candidate-x"}, engine.NumberedNames("artifact-", 15)...)
	topics := engine.NumberedNames("t", 40)
	dir := t.TempDir()
	// The default policy's risk rule (BRisk at w = 5, shrunk towards 15
	// artifacts) passes challengers far better than the champion; the cheap
	// policy's URisk warning needs the example pool's skewed differences.
	ex := engine.ExamplePool()
	exModel, err := bayes.EstimatePoolModel(&bayes.Table{Systems: ex.Systems, Topics: ex.Topics, Scores: ex.Scores}, ex.SystemIndex("production"),
		[]int{ex.SystemIndex("candidate-better"), ex.SystemIndex("candidate-risky"), ex.SystemIndex("candidate-equivalent")})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		policy  string
		model   bayes.PoolModel
		effects []float64
		reps    int
	}{
		{"", bayes.PoolModel{Intercept: 0.3, Sigma: 0.05, SDTopic: 0.15, SDSystem: 0.02, DiffSD: 0.03}, []float64{-0.01, 0.004, 0.06, 0.1}, 2},
		{calibrateCheap, exModel, []float64{-0.01, 0, 0.01, 0.02}, 8},
	}
	seen := map[string]map[policies.Verdict]int{}
	for _, tc := range cases {
		var none policyOverrides // the policy as riskgate gate reads it without overrides
		p, err := none.loadPolicy(tc.policy)
		if err != nil {
			t.Fatal(err)
		}
		seen[p.Name] = map[policies.Verdict]int{}
		for e, effect := range tc.effects {
			for rep := range tc.reps {
				pool, _, err := tc.model.Simulate(calibrate.Stream(11, e, rep), effect, systems, topics)
				if err != nil {
					t.Fatal(err)
				}
				d, err := engine.Decide(context.Background(), p, engine.Tables{calibrate.BayesToScores(pool)}, time.Now())
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, fmt.Sprintf("%s-%d-%d.csv", p.Name, e, rep))
				writeLongCSV(t, path, pool)
				if os.Getenv("KEEP") != "" {
					writeLongCSV(t, filepath.Join(os.Getenv("KEEP"), filepath.Base(path)), pool)
				}
				args := []string{"gate", "--format", "json", path}
				if tc.policy != "" {
					args = append(args, "--policy", tc.policy)
				}
				_, out, errw := runMain(t, args...)
				var r result.Result
				if err := json.Unmarshal([]byte(out), &r); err != nil {
					t.Fatalf("%s: %v (%s)", path, err, errw)
				}
				if r.Verdict() != d.Verdict || r.Decision.Raw != d.Raw {
					t.Errorf("%s, effect %g: gate says %s (%s), gateDecision %s (%s)", p.Name, effect, r.Verdict(), r.Decision.Raw, d.Verdict, d.Raw)
				}
				seen[p.Name][d.Verdict]++
			}
		}
	}
	t.Logf("verdicts: %v", seen)
	// The cases must exercise what they are for.
	if seen["default"][policies.Pass] == 0 || seen["default"][policies.Fail] == 0 {
		t.Errorf("the default policy's pools gave %v; want passes and failures", seen["default"])
	}
	for _, v := range []policies.Verdict{policies.Pass, policies.Warn, policies.Fail} {
		if seen["cheap-calibration"][v] == 0 {
			t.Errorf("the cheap policy's pools gave %v; want every verdict but inconclusive", seen["cheap-calibration"])
		}
	}
}

// writeLongCSV writes a table as CSV long format.
func writeLongCSV(t *testing.T, path string, tb *bayes.Table) {
	t.Helper()
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.Write([]string{"system", "topic", "score"})
	for s, name := range tb.Systems {
		for j, topic := range tb.Topics {
			w.Write([]string{name, topic, fmt.Sprint(tb.Scores[s][j])})
		}
	}
	w.Flush()
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Bad options and impossible effects: one line, exit status 2.
func TestCalibrateErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--example", "--reps", "0"}, "--reps 0: expected 1 or more"},
		{[]string{"--example", "--effects", "0.01,x"}, `"x" is not an effect`},
		{[]string{"--example", "--effects", "0.01,0.01"}, "0.01 is given twice"},
		{[]string{"--example", "--effects", "-1.5"}, "is not an effect"},
		{[]string{"--example", "--effects", "0.9"}, "a true effect of 0.9 is impossible"},
		{[]string{"--example", "--min-effect", "0"}, "--min-effect 0"},
		{[]string{"--example", "--format", "xml"}, "xml"},
		{[]string{"--example", filepath.Join("testdata", "gate_small.csv")}, "not both"},
		{[]string{"--example", "--policy", "nope.yaml"}, "nope.yaml"},
		{[]string{"--example", "--champion", "nobody"}, "nobody"},
	} {
		code, out, errw := runMain(t, append([]string{"calibrate"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errw, tc.want) || strings.Count(errw, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want status 2 and one line with %q", tc.args, code, out, errw, tc.want)
		}
	}
}
