package gate

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/report"
	"github.com/riskgate/riskgate/gate/result"
)

// A Bayesian rule on a pool with 2 artifacts where the policy asks for 10:
// the fit is over every system with the day-one prior on the system spread,
// and result.json (the fit's priors and fallback, a warning) and report.md
// name that prior — golden files, regenerated with -update.
func TestGateSmallPoolNamesThePrior(t *testing.T) {
	t.Parallel()
	policy := filepath.Join("testdata", "gate", "smallpool.yaml")
	code, _, stderr, dir := gateRunOut(t, "--policy", policy)
	if code == exitError {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	files := map[string]string{}
	for _, name := range report.FileNames {
		files[name] = readOut(t, dir, name)
	}
	for _, name := range []string{"result.json", "report.md"} {
		checkGolden(t, "gate/smallpool."+name+".golden", normalizeRun(files[name], dir))
	}
	checkReportsFromJSON(t, files)

	var r result.Result
	if err := json.Unmarshal([]byte(files["result.json"]), &r); err != nil {
		t.Fatal(err)
	}
	const prior = "τ ~ ir_pools = gamma(2, 4)"
	if r.Bayes == nil || !strings.HasSuffix(r.Bayes.Priors["sd_system"], prior) ||
		!strings.HasPrefix(r.Bayes.Fallback, "the system spread has the day-one prior τ_system ~ ir_pools = gamma(2, 4)") ||
		len(r.Bayes.Systems) != 5 {
		t.Fatalf("the fit does not name the day-one prior or is not over all 5 systems: %+v", r.Bayes)
	}
	if !strings.Contains(files["report.md"], "ir_pools = gamma(2, 4)") {
		t.Error("report.md does not name the day-one prior")
	}
}
