package gate

import (
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/github/githubtest"
)

// Issue 23, defect 13: riskgate gate --github against a server that pages
// comments endlessly stops publishing at --publish-timeout, says so on
// standard error and in the job summary, and exits with the verdict's status.
func TestGatePublishTimeout(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = publishTestToken
	srv.EndlessComments = true
	srv.Delays["GET /repos/octo/ranker/issues/7/comments"] = 20 * time.Millisecond
	env, summary, _ := actionsEnv(t, srv)
	start := time.Now()
	_, status, stderr := gateResult(t, env, "--github", "--publish-timeout", "300ms")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("the gate took %v with --publish-timeout 300ms", took)
	}
	const ranOut = "publishing to GitHub ran out of time: stopped at the deadline of 300ms (--publish-timeout)"
	if status != exitFail || !strings.Contains(stderr, ranOut) {
		t.Errorf("exit %d, want the verdict's 1 and standard error saying the deadline passed:\n%s", status, stderr)
	}
	if s := readFile(t, summary); !strings.Contains(s, "ran out of time") || !strings.Contains(s, "riskgate: **fail**") {
		t.Errorf("job summary:\n%s", s)
	}
	for _, bad := range []string{"0s", "-1s"} {
		code, _, stderr := runMainEnv(t, env, "publish", "--from", "result.json", "--publish-timeout", bad)
		if code != exitError || !strings.Contains(stderr, "--publish-timeout "+bad+": expected a positive duration") {
			t.Errorf("--publish-timeout %s: exit %d %q", bad, code, stderr)
		}
	}
}
