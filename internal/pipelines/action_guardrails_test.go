package pipelines

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/github/githubtest"
)

// The Action end to end on a two-measure policy (issue 25): action.yml's
// steps, with the real riskgate built from this tree in place of the
// stub, gate policies/examples/guardrails.yaml — map must improve, nDCG@10
// must not regress by more than 0.02 — on a per-query CSV of both measures,
// publishing to the local GitHub stand-in (gate/github/githubtest). Two
// runs on one pull request: one sticky comment (written, then edited) and
// one check run per run, for the one policy.
func TestActionGatesATwoMeasurePolicy(t *testing.T) {
	if testing.Short() {
		t.Skip("builds riskgate (seconds to a minute)")
	}
	s := newSandbox(t)
	// The go stub "installs" riskgate-stub: make it the real riskgate.
	s.unstub("riskgate-stub")
	build := exec.Command("go", "build", "-o", filepath.Join(s.stubs, "riskgate-stub"), "./cmd/riskgate")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = fakeToken

	policy, err := os.ReadFile(filepath.Join(repoRoot, "policies", "examples", "guardrails.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s.write("policies/guardrails.yaml", string(policy))
	// 30 topics; new-a gains 0.05 of map on every topic (give or take
	// 0.01) and holds nDCG@10 within 0.005: it passes both rules.
	var b strings.Builder
	b.WriteString("query_id,system,map,nDCG@10\n")
	for j := range 30 {
		base := 0.3 + 0.2*math.Sin(float64(j))
		wobble := 0.01 * math.Cos(3*float64(j))
		fmt.Fprintf(&b, "t%d,bm25,%.4f,%.4f\nt%d,new-a,%.4f,%.4f\n", j, base, base+0.1, j, base+0.05+wobble, base+0.1+wobble/2)
	}
	s.write("eval/per_query.csv", b.String())
	event := filepath.Join(s.root, "event.json")
	os.WriteFile(event, []byte(`{"pull_request":{"number":7,"head":{"sha":"1111111111111111111111111111111111111111"}}}`), 0o644)
	env := map[string]string{
		"GITHUB_REPOSITORY": "octo/ranker", "GITHUB_API_URL": srv.APIURL(), "GITHUB_SERVER_URL": "https://github.example",
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event, "GITHUB_SHA": "2222222222222222222222222222222222222222",
		"GITHUB_RUN_ID": "42", "GITHUB_STEP_SUMMARY": filepath.Join(s.root, "summary.md"),
	}
	for run := 1; run <= 2; run++ {
		r := runAction(t, s, map[string]string{"policy": "policies/guardrails.yaml", "inputs": "eval/*.csv"}, env)
		if r.outputs["verdict"] != "pass" || r.outputs["exit-code"] != "0" {
			t.Fatalf("run %d: verdict %q, exit %q; want pass, 0\n%s", run, r.outputs["verdict"], r.outputs["exit-code"], r.logs)
		}
		cs := srv.Comments(7)
		if len(cs) != 1 || !strings.Contains(cs[0].Body, "ndcg10-guardrail") || !strings.Contains(cs[0].Body, "ndcg_cut_10") {
			t.Fatalf("run %d: comments %+v; want one, naming the guardrail and its measure", run, cs)
		}
		if len(srv.CheckRuns) != run {
			t.Errorf("run %d: %d check runs, want %d (one per run)", run, len(srv.CheckRuns), run)
		}
		if strings.Contains(r.logs, fakeToken) {
			t.Error("the step logs show the token")
		}
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
		t.Errorf("comment requests: %d created, %d edited; want 1 and 1", posts, patches)
	}
	for _, cr := range srv.CheckRuns {
		if cr.Name != "riskgate: guardrails" || cr.Conclusion != "success" {
			t.Errorf("check run %q concluded %q; want \"riskgate: guardrails\", success", cr.Name, cr.Conclusion)
		}
	}
}
