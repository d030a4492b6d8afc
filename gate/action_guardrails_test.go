package gate

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/github/githubtest"
)

// The Action on a two-measure policy (issue 25): riskgate gate run as
// action.yml runs it (gate --out riskgate-report --github --comment-mode
// always --artifact-name riskgate-report --policy …, then the inputs)
// with policies/examples/guardrails.yaml — map must improve, nDCG@10 must
// not regress by more than 0.02 — against the local GitHub stand-in, twice
// on the same pull request: one sticky comment, written by the first run
// and edited by the second, naming both measures; one check run per run,
// for the one policy, not one per measure.
func TestActionTwoMeasurePolicyOneCommentOneCheckRun(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = publishTestToken
	env, summary, _ := actionsEnv(t, srv)
	ws := filepath.Dir(summary)

	// 30 topics; new-a gains 0.05 of map on every topic (give or take
	// 0.01) and holds nDCG@10 within 0.005: it passes both rules.
	var b strings.Builder
	b.WriteString("system,topic,measure,score\n")
	for j := range 30 {
		base := 0.3 + 0.2*math.Sin(float64(j))
		wobble := 0.01 * math.Cos(3*float64(j))
		fmt.Fprintf(&b, "bm25,t%d,map,%.4f\nnew-a,t%d,map,%.4f\n", j, base, j, base+0.05+wobble)
		fmt.Fprintf(&b, "bm25,t%d,nDCG@10,%.4f\nnew-a,t%d,nDCG@10,%.4f\n", j, base+0.1, j, base+0.1+wobble/2)
	}
	scoresFile := filepath.Join(ws, "per_query.csv")
	if err := os.WriteFile(scoresFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	policy := filepath.Join("..", "policies", "examples", "guardrails.yaml")
	out := filepath.Join(ws, "riskgate-report")
	checkRunsBefore := 0
	for run := 1; run <= 2; run++ {
		code, _, stderr := runMainEnv(t, env, "gate", "--out", out, "--github", "--comment-mode", "always", "--artifact-name", "riskgate-report",
			"--policy", policy, scoresFile)
		if code != exitPass {
			t.Fatalf("run %d: exit %d, want 0 (pass)\n%s", run, code, stderr)
		}
		cs := srv.Comments(7)
		if len(cs) != 1 {
			t.Fatalf("run %d: %d comments on the pull request, want 1 (sticky)", run, len(cs))
		}
		body := cs[0].Body
		for _, want := range []string{"map-improves", "ndcg10-guardrail", "map", "ndcg_cut_10"} {
			if !strings.Contains(body, want) {
				t.Errorf("run %d: the comment does not name %q:\n%s", run, want, body)
			}
		}
		if !strings.HasSuffix(body, readFile(t, filepath.Join(out, "report.md"))) {
			t.Errorf("run %d: the comment is not the gate's report.md", run)
		}
		if n := len(srv.CheckRuns); n != checkRunsBefore+1 {
			t.Errorf("run %d: %d check runs after it, want %d (one per run)", run, n, checkRunsBefore+1)
		}
		checkRunsBefore = len(srv.CheckRuns)
	}
	var posts, patches int
	for _, r := range srv.Requests() {
		switch {
		case r.Method == "POST" && strings.HasSuffix(r.Path, "/issues/7/comments"):
			posts++
		case r.Method == "PATCH" && strings.Contains(r.Path, "/issues/comments/"):
			patches++
		}
	}
	if posts != 1 || patches != 1 {
		t.Errorf("comment requests: %d created, %d edited; want 1 and 1 (the second run edits the first's)", posts, patches)
	}
	for _, cr := range srv.CheckRuns {
		if cr.Name != "riskgate: guardrails" || cr.Conclusion != "success" {
			t.Errorf("check run %q concluded %q; want \"riskgate: guardrails\", success", cr.Name, cr.Conclusion)
		}
	}
	assertNoToken(t, readFile(t, summary))
}
