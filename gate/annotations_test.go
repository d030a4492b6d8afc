package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/github/githubtest"
)

// passingExamplePolicy ships candidate-better of the built-in example and
// fails the two other challengers (candidate-risky on not-riskier,
// candidate-equivalent on both fail rules): a passing gate with challengers
// it did not select. It is the default policy of this writing, fixed here so
// that the test does not move with the default.
const passingExamplePolicy = `version: 1
name: passing-example
champion: production
challengers: ["candidate-*"]
loss_weight: 5
seed: 1
rules:
  - {id: better-on-average, quantity: bayes.p_better, at_least: 0.95}
  - {id: not-riskier, quantity: brisk.p_riskier, at_most: 0.05}
  - {id: few-topics-at-risk, quantity: topics_at_risk.count, at_most: 2, severity: warn}
select: best
rank_by: bayes.diff.mean
`

// A passing gate makes a green job with no red annotation: the challengers
// it did not select get ::notice lines, never ::error. Checked on the
// example with a fixed passing policy, and with the default policy
// (riskgate gate --example --github) whenever that passes.
func TestGateExampleGitHubNoErrorOnPass(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = publishTestToken
	env, summary, _ := actionsEnv(t, srv)
	policy := filepath.Join(filepath.Dir(summary), "policy.yaml")
	if err := os.WriteFile(policy, []byte(passingExamplePolicy), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name string
		args []string
	}{{"fixed policy", []string{"--policy", policy}}, {"default policy", nil}} {
		// Both without the --risk-sweep fits (1.5 of the default policy's 2
		// CPU-s, 0.8 of the fixed policy's 1.55): the sweep changes no
		// rule's outcome, only what a reason says would change it;
		// TestGateExampleGolden keeps the sweep.
		args := append([]string{"gate", "--example", "--github", "--risk-sweep", "", "--out", t.TempDir()}, c.args...)
		code, _, stderr := runMainEnv(t, env, args...)
		if c.name == "default policy" && code != exitPass {
			t.Logf("%s: the example does not pass (exit %d): nothing more to check", c.name, code)
			continue
		}
		if code != exitPass {
			t.Fatalf("%s: exit %d, want 0\n%s", c.name, code, stderr)
		}
		notices := 0
		for _, line := range strings.Split(stderr, "\n") {
			if strings.HasPrefix(line, "::error") {
				t.Errorf("%s: a passing gate wrote an error annotation: %q", c.name, line)
			}
			if strings.HasPrefix(line, "::notice") && strings.Contains(line, ": fail,") {
				notices++
			}
		}
		if c.name == "fixed policy" && notices != 2 {
			t.Errorf("%s: %d ::notice lines for the unselected challengers' failed rules, want 2 (better-on-average, not-riskier):\n%s", c.name, notices, stderr)
		}
	}
}
