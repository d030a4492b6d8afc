package gate

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/calibrate"
	"github.com/riskgate/riskgate/internal/shared"
)

// calibrateGuardrail is the two-measure policy of docs/calibrate.md
// ("Several measures"): map must improve (one-sided paired t at 2.5%),
// ndcg_cut_10 must not regress by more than 0.02 (BCa, one-sided 2.5%).
var calibrateGuardrail = filepath.Join("testdata", "calibrate", "guardrail.yaml")

// robust03Scores are robust03's three runs scored by trec_eval -q (every
// measure of each run, ../shared).
func robust03Scores(t *testing.T) []string {
	t.Helper()
	dir := shared.Path(t, "data/trec_eval/robust03/trec_eval")
	var files []string
	for _, run := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		files = append(files, filepath.Join(dir, run+".all_trec.txt"))
	}
	return files
}

// The whole output of calibrate on a policy of several measures, in every
// format (the table alone in -short): 20 pools per cell, robust03.
func TestCalibrateMeasuresGolden(t *testing.T) {
	t.Parallel()
	files := robust03Scores(t)
	for _, format := range calibrateFormats {
		if testing.Short() && format != "table" {
			continue
		}
		args := append([]string{"calibrate", "--policy", calibrateGuardrail, "--reps", "20", "--seed", "7", "--format", format}, files...)
		checkGoldenRun(t, "calibrate/guardrail."+format+".golden", args...)
	}
}

// The intersection–union test's promise, measured (issue 25, "Done
// when"): at the null edge of each fail rule — the rule's measure at the
// edge of its null hypothesis, the other measure clearly passing — the
// two-measure policy ships a harmful challenger at most as often as that
// rule's α allows: the ship rate is within α + 2 standard errors of a rate
// of α over the cell's pools (α = 0.025 for both rules: the paired t test
// at_most 0.025 one-sided, and the 95% BCa interval's lower end, a
// one-sided 2.5% bound). 200 pools per cell (docs/calibrate.md has 500).
// And on every cell, as the test's logic requires: a pool shipped by the
// whole policy is shipped by its primary rules alone, and a pool that did
// not ship names a rule that blocked it.
func TestCalibrateGuardrailFalseShip(t *testing.T) {
	if testing.Short() {
		t.Skip("calibrates 1,400 pools with BCa bootstraps (about 10 s of CPU)")
	}
	t.Parallel()
	const reps = 200
	args := append([]string{"calibrate", "--policy", calibrateGuardrail, "--reps", "200", "--format", "json"}, robust03Scores(t)...)
	code, out, errw := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var r calibrate.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	const alpha = 0.025
	bound := alpha + 2*math.Sqrt(alpha*(1-alpha)/reps)
	edges := map[string]bool{}
	for _, c := range r.Cells {
		if c.Reps != reps || c.PrimaryAlone == nil || len(c.BlockedBy) != 2 {
			t.Fatalf("cell %+v: expected %d pools, the primary rules' ship rate and two rules' counts", c, reps)
		}
		if c.PrimaryAlone.Rate < c.ShipRate {
			t.Errorf("cell %v %v: the primary rules alone ship %v, fewer than the whole policy's %v", c.Effect, c.Edge, c.PrimaryAlone.Rate, c.ShipRate)
		}
		blocked := 0
		for _, b := range c.BlockedBy {
			blocked += b.Count
		}
		if notShipped := int(math.Round(float64(1-c.ShipRate) * reps)); blocked < notShipped {
			t.Errorf("cell %v %v: %d pools did not ship, %d blocked by a rule", c.Effect, c.Edge, notShipped, blocked)
		}
		if c.Edge == nil {
			continue
		}
		edges[strings.Join(c.Edge, ",")] = true
		if c.Class != calibrate.ClassHarmful {
			t.Errorf("the null edge of %v is %s, expected harmful", c.Edge, c.Class)
		}
		t.Logf("null edge of %v: ship %.3f ± %.3f (bound %.4f); primary alone %.3f", c.Edge, float64(c.ShipRate), float64(c.SE), bound, float64(c.PrimaryAlone.Rate))
		if float64(c.ShipRate) > bound {
			t.Errorf("the null edge of %v ships %.3f of %d pools, above α + 2 SE = %.4f", c.Edge, float64(c.ShipRate), reps, bound)
		}
	}
	if !edges["map-improves"] || !edges["ndcg10-holds"] || len(edges) != 2 {
		t.Errorf("null edges %v, expected those of map-improves and ndcg10-holds", edges)
	}
}

// A policy of several measures is read as the gate reads it; what cannot
// be calibrated so is refused in one line, exit 2.
func TestCalibrateMeasuresRefusals(t *testing.T) {
	t.Parallel()
	files := robust03Scores(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--example"}, "--example is a pool of one measure, and the policy's rules name measures (ndcg_cut_10)"},
		{append([]string{"--artifacts", "3"}, files...), "--artifacts and --sd-system set the parametric model"},
		{append([]string{"--guardrail-effect", "0.9"}, files...), "--guardrail-effect 0.9 at risk 1: a true mean effect of 0.9 on ndcg_cut_10 cannot be reached"},
	} {
		code, _, errw := runMain(t, append([]string{"calibrate", "--policy", calibrateGuardrail, "--reps", "2"}, tc.args...)...)
		if code != 2 || !strings.Contains(errw, tc.want) || strings.Count(strings.TrimSpace(errw), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", tc.args, code, errw, tc.want)
		}
	}
	if code, _, errw := runMain(t, "calibrate", "--example", "--guardrail-effect", "0.01", "--reps", "2"); code != 2 || !strings.Contains(errw, "--guardrail-effect 0.01: the policy's rules use one measure") {
		t.Errorf("exit %d: %s", code, errw)
	}
}
