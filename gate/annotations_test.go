package gate

import (
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/github/githubtest"
)

// A passing gate makes a green job with no red annotation: the example ships
// candidate-better, and the challengers it did not select (candidate-risky
// fails not-riskier, candidate-equivalent two rules) are ::notice lines.
func TestGateExampleGitHubNoErrorOnPass(t *testing.T) {
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = publishTestToken
	actionsEnv(t, srv)
	code, _, stderr := runMain(t, "gate", "--example", "--github", "--out", t.TempDir())
	if code != exitPass {
		t.Fatalf("exit %d, want 0\n%s", code, stderr)
	}
	notices := 0
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "::error") {
			t.Errorf("a passing gate wrote an error annotation: %q", line)
		}
		if strings.HasPrefix(line, "::notice") && strings.Contains(line, "candidate-risky: fail") {
			notices++
		}
	}
	if notices == 0 {
		t.Errorf("no ::notice for the unselected candidate-risky:\n%s", stderr)
	}
}
