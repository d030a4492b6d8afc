package gate

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/github"
	"github.com/riskgate/riskgate/gate/github/githubtest"
	"github.com/urfave/cli/v3"
)

const publishTestToken = "ghs_publishCommandTESTtoken0123456789abcdef"

// actionsEnv returns GitHub Actions variables pointing at srv for a
// pull_request event on #7 (for runMainEnv and gateResult), and the
// job-summary and step-output files.
func actionsEnv(t *testing.T, srv *githubtest.Server) (env map[string]string, summary, output string) {
	dir := t.TempDir()
	event := filepath.Join(dir, "event.json")
	os.WriteFile(event, []byte(`{"pull_request":{"number":7,"head":{"sha":"1111111111111111111111111111111111111111"}}}`), 0o644)
	summary, output = filepath.Join(dir, "summary.md"), filepath.Join(dir, "output")
	env = map[string]string{
		"GITHUB_TOKEN": publishTestToken, "GITHUB_REPOSITORY": "octo/ranker", "GITHUB_API_URL": srv.APIURL(),
		"GITHUB_SERVER_URL": "https://github.example", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": event,
		"GITHUB_SHA": "2222222222222222222222222222222222222222", "GITHUB_RUN_ID": "42", "GITHUB_WORKSPACE": dir,
		"GITHUB_STEP_SUMMARY": summary, "GITHUB_OUTPUT": output,
	}
	return env, summary, output
}

// failingPolicy fails cand-b of testdata/gate_small.csv on rule gains, at line 6.
const failingPolicy = `version: 1
name: release
champion: prod
challengers: ["cand-*"]
rules:
  - id: gains
    quantity: mean_diff
    at_least: 0
select: all
`

// gateResult runs the gate in env (actionsEnv's) with failingPolicy
// (written into the workspace folder, GITHUB_WORKSPACE) and returns the
// report folder.
func gateResult(t *testing.T, env map[string]string, extra ...string) (out string, status int, stderr string) {
	t.Helper()
	ws := env["GITHUB_WORKSPACE"]
	policy := filepath.Join(ws, "policy.yaml")
	if err := os.WriteFile(policy, []byte(failingPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	out = filepath.Join(ws, "out")
	args := append([]string{"gate", "--policy", policy, "--out", out}, extra...)
	status, _, stderr = runMainEnv(t, env, append(args, filepath.Join("testdata", "gate_small.csv"))...)
	return out, status, stderr
}

func TestPublishCommand(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = publishTestToken
	env, summary, output := actionsEnv(t, srv)
	out, status, _ := gateResult(t, env)
	if status != exitFail {
		t.Fatalf("gate exit %d, want 1", status)
	}
	from := filepath.Join(out, "result.json")
	md := filepath.Join(t.TempDir(), "report.md")
	os.WriteFile(md, []byte("## full report from file\n"), 0o644)

	code, stdout, stderr := runMainEnv(t, env, "publish", "--from", from, "--report-md", md, "--verbose")
	if code != exitPass {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	cs := srv.Comments(7)
	if len(cs) != 1 || !strings.HasSuffix(cs[0].Body, "## full report from file\n") {
		t.Errorf("comments %+v", cs)
	}
	if !strings.Contains(stderr, "::error file=policy.yaml,line=6,endLine=6,title=rule gains (mean_diff%2C at least 0)::cand-b: fail, observed -0.01667; needs at least 0") {
		t.Errorf("no workflow command on standard error:\n%s", stderr)
	}
	outputs := readFile(t, output)
	for _, want := range []string{"verdict<<", "\nfail\n", "report-json<<", "\n" + from + "\n", "\n" + md + "\n"} {
		if !strings.Contains(outputs, want) {
			t.Errorf("step outputs lack %q:\n%s", want, outputs)
		}
	}
	assertNoToken(t, stdout, stderr, readFile(t, summary), outputs)

	// Without --report-md the report is rendered from result.json: the
	// gate's own report.md.
	code, _, stderr = runMainEnv(t, env, "publish", "--from", from)
	if cs := srv.Comments(7); code != exitPass || len(cs) != 1 || !strings.HasSuffix(cs[0].Body, readFile(t, filepath.Join(out, "report.md"))) {
		t.Errorf("exit %d %s; the comment is not the gate's report.md:\n%+v", code, stderr, cs)
	}
}

// riskgate gate --github and riskgate publish --from its result.json publish
// the same decision, each under its own names: publish (a result read from a
// file, unverified) never edits the gate's sticky comment, and with
// --comment-mode on-change a second publish leaves its own comment alone.
func TestGateAndPublishAgree(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = publishTestToken
	env, _, _ := actionsEnv(t, srv)
	out, status, stderr := gateResult(t, env, "--github")
	if status != exitFail {
		t.Fatalf("gate --github: exit %d\n%s", status, stderr)
	}
	cs := srv.Comments(7)
	if len(cs) != 1 || !strings.HasSuffix(cs[0].Body, readFile(t, filepath.Join(out, "report.md"))) {
		t.Fatalf("gate --github comment %+v", cs)
	}
	gateComment := cs[0]
	edits := func() int {
		n := 0
		for _, r := range srv.Requests() {
			if r.Method == "PATCH" && strings.Contains(r.Path, "/issues/comments/") {
				n++
			}
		}
		return n
	}
	from := filepath.Join(out, "result.json")
	for i := range 2 {
		code, _, stderr := runMainEnv(t, env, "publish", "--from", from, "--comment-mode", "on-change")
		cs := srv.Comments(7)
		if code != exitPass || edits() != 0 || len(cs) != 2 || cs[0] != gateComment {
			t.Errorf("publish %d of the same result: exit %d, %d comment edits, comments %+v; want the gate's untouched and one of publish's own\n%s", i+1, code, edits(), cs, stderr)
		}
		if !strings.HasPrefix(cs[len(cs)-1].Body, "<!-- riskgate:comment unverified policy=release -->") ||
			!strings.HasSuffix(cs[len(cs)-1].Body, readFile(t, filepath.Join(out, "report.md"))) || !strings.Contains(cs[len(cs)-1].Body, "**Unverified result.**") {
			t.Errorf("publish's comment:\n%s", cs[len(cs)-1].Body)
		}
	}
	names := map[string]string{}
	for _, cr := range srv.CheckRuns {
		names[cr.Name] = cr.ExternalID
	}
	if len(names) != 2 || names["riskgate: release"] != "riskgate gate" || names["riskgate (unverified): release"] != "riskgate publish (unverified)" {
		t.Errorf("check runs (name → external id) %q", names)
	}
}

func TestPublishFailureKeepsTheExitStatus(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.ReadOnly = true // a fork's pull_request token
	env, summary, output := actionsEnv(t, srv)
	out, _, _ := gateResult(t, env)
	from := filepath.Join(out, "result.json")

	code, stdout, stderr := runMainEnv(t, env, "publish", "--from", from, "--verbose")
	if code != exitPass || !strings.Contains(stderr, "riskgate: warning: github: could not write the pull-request comment") {
		t.Errorf("a read-only token: exit %d, want 0 with a warning\n%s", code, stderr)
	}
	if s := readFile(t, summary); !strings.Contains(s, "## ❌ riskgate: **fail**") || !strings.Contains(s, "could not publish everything") {
		t.Errorf("job summary:\n%s", s)
	}
	if !strings.Contains(readFile(t, output), "\nfail\n") {
		t.Error("verdict output not written")
	}
	code2, stdout2, stderr2 := runMainEnv(t, env, "publish", "--from", from, "--require-publish")
	if code2 != exitError || !strings.Contains(stderr2, "riskgate: publishing to GitHub failed (--require-publish): 2 problems reported above") {
		t.Errorf("--require-publish: exit %d, want 2\n%s", code2, stderr2)
	}
	// gate --github: the verdict's exit status stands.
	_, status, stderr3 := gateResult(t, env, "--github")
	if status != exitFail || !strings.Contains(stderr3, "could not write the pull-request comment") {
		t.Errorf("gate --github with a read-only token: exit %d, want 1\n%s", status, stderr3)
	}
	assertNoToken(t, stdout, stderr, stdout2, stderr2, stderr3, readFile(t, summary), readFile(t, output))
}

func TestPublishCommandBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--from", write("syntax.json", "{\n  \"verdict\": \"fail\",\n  oops\n}")}, "syntax.json:3:3: not valid JSON"},
		{[]string{"--from", write("old.json", "{\"verdict\": \"fail\", \"annotations\": []}")}, "old.json: not a riskgate gate result: no schema_version"},
		{[]string{"--from", write("newer.json", "{\"schema_version\": 2, \"verdict\": \"fail\"}")}, "newer.json: result schema_version 2: this riskgate reads version 1"},
		{[]string{"--from", write("type.json", "{\"schema_version\": 1,\n\"warnings\": 3}")}, "type.json:2:14: warnings: expected []string, got JSON number"},
		{[]string{"--from", write("verdict.json", `{"schema_version": 1, "verdict": "passed", "decision": {"verdict": "passed"}}`)}, `verdict.json: verdict "passed": expected one of pass, warn, fail, inconclusive`},
		{[]string{"--from", write("empty.json", "")}, "empty.json:1:1: empty file"},
		{[]string{"--from", filepath.Join(dir, "missing.json")}, "missing.json: no such file"},
		{[]string{"--from", write("ok.json", `{"verdict":"pass"}`), "--comment-mode", "sometimes"}, `comment mode "sometimes": expected one of always, on-change, on-fail, off`},
	} {
		code, _, stderr := runMain(t, append([]string{"publish"}, c.args...)...)
		if code != exitError || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("publish %q: exit %d, stderr %q; want 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
}

// The gate command reuses publishOptions.Flags; check they parse as a set.
func TestPublishOptionsFlags(t *testing.T) {
	t.Parallel()
	o := &publishOptions{}
	cmd := &cli.Command{Name: "x", Flags: o.flags(), Action: func(context.Context, *cli.Command) error { return o.check() }}
	if err := cmd.Run(context.Background(), []string{"x", "--github", "--comment-mode", "on-fail", "--require-publish", "--artifact-name", "gate-report"}); err != nil {
		t.Fatal(err)
	}
	if !o.GitHub || o.CommentMode != "on-fail" || !o.RequirePublish || o.Artifact != "gate-report" {
		t.Errorf("%+v", o)
	}
	off := &publishOptions{CommentMode: "always"}
	if err := off.publish(context.Background(), github.Report{Verdict: "nonsense"}, &streams{Err: &bytes.Buffer{}}); err != nil {
		t.Errorf("without --github Publish must do nothing: %v", err)
	}
}

func readFile(t *testing.T, name string) string {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func assertNoToken(t *testing.T, texts ...string) {
	t.Helper()
	for i, s := range texts {
		if strings.Contains(s, publishTestToken) {
			t.Errorf("output %d shows the token", i)
		}
	}
}
