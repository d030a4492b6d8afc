package gate

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/report"

	"github.com/riskgate/riskgate/gate/github/githubtest"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/mdcheck"
	"github.com/riskgate/riskgate/policies"
)

// End-to-end tests of the reports: riskgate gate and publish write every
// report of a run; gate/report's own tests render them from results.

// hostile is a run name that tries markdown, HTML, a table break, a code
// span and an @-mention at once.
const hostile = "@octocat <img src=x> | `rm -rf`"

// A challenger with a hostile name appears inert in every report.
func TestGateHostileNameEscaped(t *testing.T) {
	t.Parallel()
	small, err := os.ReadFile(filepath.Join("testdata", "gate_small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	// cand-a becomes the hostile name (CSV-quoted); a topic gets one too.
	csv := strings.ReplaceAll(string(small), "cand-a,", `"`+strings.ReplaceAll(hostile, `"`, `""`)+`",`)
	csv = strings.ReplaceAll(csv, ",q01,", `,"#1 <b>topic</b> @team",`)
	pool := writeTemp(t, "pool.csv", csv)
	policy := writeTemp(t, "policy.yaml", `version: 1
name: hostile
loss_weight: 5
rules:
  - {id: better, quantity: bayes.p_better, at_least: 0.95}
  - {id: urisk, quantity: urisk, at_least: 0, severity: warn}
model: {target_ess: 400}
`)
	code, stdout, stderr, dir := gateRunOut(t, "--policy", policy, "--champion", "prod", "--challenger", hostile, "--challenger", "cand-b", pool)
	if code == exitError {
		t.Fatalf("exit 2: %s", stderr)
	}
	if !strings.Contains(stdout, hostile) || strings.ContainsRune(stdout, '\x1b') {
		t.Errorf("terminal report: the name should show as is, with no escape sequence:\n%s", stdout)
	}
	md := readOut(t, dir, "report.md")
	mdcheck.Structure(t, md, report.MaxMarkdownBytes)
	for _, bad := range []string{"@octocat", "<img", "| `rm", "`rm -rf`", "<b>", "@team", "#1 "} {
		if strings.Contains(md, bad) {
			t.Errorf("report.md holds %q unescaped", bad)
		}
	}
	if !strings.Contains(md, "@&#8203;octocat &lt;img src=x&gt; &#124; &#96;rm -rf&#96;") { // in the replay command's <pre>
		t.Errorf("the chart should show the name entity-escaped:\n%s", md)
	}

	var suites report.JUnitSuites
	if err := xml.Unmarshal([]byte(readOut(t, dir, "junit.xml")), &suites); err != nil || suites.Suites[0].Name != hostile {
		t.Errorf("junit.xml: %v; first suite %q", err, suites.Suites[0].Name)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(readOut(t, dir, "result.json")), &r); err != nil || r.Data.Challengers[0] != hostile {
		t.Errorf("result.json: %v; challengers %q", err, r.Data.Challengers)
	}
	if html := readOut(t, dir, "report.html"); strings.Contains(html, "<img") {
		t.Errorf("report.html holds the name unescaped:\n%s", html)
	}
}

// A result read from its JSON writes the same JSON; a result of another
// schema version or of the wrong shape is refused with a position.
func TestResultJSONRoundTrip(t *testing.T) {
	t.Parallel()
	_, _, _, dir := gateRunOut(t, "--policy", filepath.Join("testdata", "gate", "cheap.yaml"))
	data := readOut(t, dir, "result.json")
	r, err := result.Read("result.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := result.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if b.String() != data {
		t.Errorf("round trip changed result.json:\n%s", firstDiff(b.String(), data))
	}
	for _, c := range []struct{ text, want string }{
		{`{"verdict": "pass"}`, "r.json: not a riskgate gate result: no schema_version"},
		{`{"schema_version": 2, "verdict": "pass"}`, "r.json: result schema_version 2: this riskgate reads version 1"},
		{"{\"schema_version\": 1,\n \"decision\": {\"challengers\": [{\"rules\": [{\"bound\": {\"above\": 1}}]}]}}", "r.json:2:"},
		{"{\"schema_version\": 1,\n \"decision\": {\"challengers\": [{\"rules\": [{\"observed\": {\"number\": 1, \"category\": \"x\"}}]}]}}", "an observation"},
		{`{"schema_version": 1}`, "the result has no decision"},
	} {
		if _, err := result.Read("r.json", []byte(c.text)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.text, err, c.want)
		}
	}
}

// A challenger named to inject markdown, HTML, a mention and a workflow
// command reaches GitHub inert, from the decision to every channel.
func TestHostileChallengerNamePublished(t *testing.T) {
	t.Parallel()
	const hostile = "@octocat <img src=x> | `rm -rf`\n::error::injected"
	p, err := policies.Parse("policy.yaml", []byte("version: 1\nname: gate\nchampion: prod\nrules:\n  - {id: better, quantity: bayes.p_better, at_least: 0.95}\n"))
	if err != nil {
		t.Fatal(err)
	}
	values := policies.NewValues()
	values.Set(hostile, p.Queries()[0], policies.Number(0.5))
	d := p.Evaluate(policies.Evidence{Challengers: []string{hostile}, Values: values,
		Facts: policies.Facts{Topics: 50, Artifacts: 10, TopicCoverage: 1}, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	r := report.GitHubDecision(p, d, "| challenger |\n|---|\n| "+escape.Markdown(hostile)+" |\n")

	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.ChecksForbidden = true
	env, summary, _ := actionsEnv(t, srv)
	o := &publishOptions{GitHub: true, CommentMode: "always", getenv: func(k string) string { return env[k] }}
	var errw strings.Builder
	if err := o.publish(context.Background(), r, &streams{Err: &errw}); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(errw.String(), "\n") {
		if strings.HasPrefix(line, "::error::injected") {
			t.Errorf("a workflow command escaped its line: %q", line)
		}
	}
	if !strings.Contains(errw.String(), "::error file=policy.yaml,line=5,endLine=5,title=rule better (bayes.p_better%2C at least 0.95)::@octocat <img src=x> | `rm -rf`%0A::error::injected: fail") {
		t.Errorf("workflow command:\n%s", errw.String())
	}
	assertNoToken(t, errw.String(), readFile(t, summary))
	st := srv.Statuses[0]
	if strings.ContainsAny(st.Description, "\n\r") || !strings.HasPrefix(st.Description, "fail: no challenger passes; @octocat <img src=x> | `rm -rf` ::error::injected") {
		t.Errorf("status description %q", st.Description)
	}
	for what, text := range map[string]string{"comment": srv.Comments(7)[0].Body, "job summary": readFile(t, summary)} {
		if strings.Contains(text, "@octocat") || strings.Contains(text, "<img") || strings.Contains(text, "| `") || strings.Contains(text, "\n::error") {
			t.Errorf("%s not escaped:\n%s", what, text)
		}
	}
}
