package gate

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/policies"
)

// checkMarkdownStructure checks that md is GitHub-flavoured markdown of the
// shape the report means, as GitHub's parser (cmark-gfm) reads it:
//   - under the size limit of a comment;
//   - every table starts after a blank line, its second line is a delimiter
//     row, and every row has the header's number of cells (cells split at
//     pipes not escaped by a backslash, as GFM does even inside code spans);
//   - <details> is followed by a <summary> line and a blank line (so that the
//     markdown inside renders), and </details> stands after a blank line;
//   - <pre> blocks close, and hold no raw tag (names are entity-escaped).
func checkMarkdownStructure(t *testing.T, md string) {
	t.Helper()
	if len(md) >= maxMarkdownBytes {
		t.Errorf("markdown is %d bytes, over %d", len(md), maxMarkdownBytes)
	}
	lines := strings.Split(md, "\n")
	delim := regexp.MustCompile(`^\|(:?-+:?\|)+$`)
	inPre, details := false, 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		prev := ""
		if i > 0 {
			prev = lines[i-1]
		}
		switch {
		case inPre:
			if l == "</pre>" {
				inPre = false
			} else if strings.ContainsAny(l, "<>") {
				t.Errorf("line %d: raw < or > inside <pre>: %q", i+1, l)
			}
		case l == "<pre>":
			inPre = true
		case l == "<details>":
			details++
			if i+2 >= len(lines) || !regexp.MustCompile(`^<summary>[^<>]*</summary>$`).MatchString(lines[i+1]) || lines[i+2] != "" {
				t.Errorf("line %d: <details> must be followed by <summary>…</summary> and a blank line", i+1)
			}
		case l == "</details>":
			details--
			if prev != "" {
				t.Errorf("line %d: </details> must follow a blank line", i+1)
			}
		case strings.HasPrefix(l, "|"):
			if prev != "" {
				t.Errorf("line %d: a table must follow a blank line", i+1)
			}
			n := cells(l)
			if i+1 >= len(lines) || !delim.MatchString(lines[i+1]) || cells(lines[i+1]) != n {
				t.Fatalf("line %d: table header without a matching delimiter row", i+1)
			}
			for i++; i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|"); i++ {
				if c := cells(lines[i+1]); c != n {
					t.Errorf("line %d: %d cells, the header has %d: %q", i+2, c, n, lines[i+1])
				}
			}
		}
	}
	if inPre || details != 0 {
		t.Errorf("unclosed <pre> (%v) or <details> (%d)", inPre, details)
	}
}

// cells counts the cells of a table row: pipes not escaped by a backslash,
// less one.
func cells(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}

// hostile is a run name that tries markdown, HTML, a table break, a code
// span and an @-mention at once.
const hostile = "@octocat <img src=x> | `rm -rf`"

// A challenger with a hostile name appears inert in every report.
func TestGateHostileNameEscaped(t *testing.T) {
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
	if code == ExitError {
		t.Fatalf("exit 2: %s", stderr)
	}
	if !strings.Contains(stdout, hostile) || strings.ContainsRune(stdout, '\x1b') {
		t.Errorf("terminal report: the name should show as is, with no escape sequence:\n%s", stdout)
	}
	md := readOut(t, dir, "report.md")
	checkMarkdownStructure(t, md)
	for _, bad := range []string{"@octocat", "<img", "| `rm", "`rm -rf`", "<b>", "@team", "#1 "} {
		if strings.Contains(md, bad) {
			t.Errorf("report.md holds %q unescaped", bad)
		}
	}
	if !strings.Contains(md, "@&#8203;octocat &lt;img src=x&gt; &#124; &#96;rm -rf&#96;") { // in the replay command's <pre>
		t.Errorf("the chart should show the name entity-escaped:\n%s", md)
	}

	var suites junitSuites
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

// Control characters in a name never reach the terminal.
func TestTextReportControlCharacters(t *testing.T) {
	r := &result.Result{Verdict: policies.Fail, Policy: result.Policy{Name: "p"}, Data: result.Data{Champion: "c\x1b[2J"},
		Decision: &policies.Decision{Reason: "x\rfails", Challengers: []policies.ChallengerDecision{{Name: "a\nb\x07", Verdict: policies.Fail}}}}
	var b strings.Builder
	writeTextReport(&b, r, false)
	if strings.ContainsAny(b.String(), "\x1b\r\x07") || strings.Contains(b.String(), "a\nb") {
		t.Errorf("control characters reached the terminal: %q", b.String())
	}
}

// Long lists are cut with notes, and the report stays under the limit.
func TestMarkdownReportLimit(t *testing.T) {
	r := &result.Result{Verdict: policies.Fail, Policy: result.Policy{Name: "big"}, Decision: &policies.Decision{Reason: strings.Repeat("why ", 5000)},
		RiskTable: result.RiskTable{LossWeight: 1}}
	long := strings.Repeat("<@x|", 40)
	for i := range 400 {
		name := fmt.Sprintf("%s-%03d", long, i)
		cd := policies.ChallengerDecision{Name: name, Verdict: policies.Fail, Reason: strings.Repeat("because ", 50)}
		for k := range 5 {
			cd.Rules = append(cd.Rules, policies.RuleResult{Rule: fmt.Sprintf("rule-%d", k), Outcome: policies.OutcomeFail,
				Observed: policies.Number(0.5), Bound: policies.Bound{Op: policies.AtLeast, Value: 0.95}, Reason: strings.Repeat("observed 0.5 ", 30)})
		}
		r.Decision.Challengers = append(r.Decision.Challengers, cd)
		r.Data.Challengers = append(r.Data.Challengers, name)
		r.RiskTable.Systems = append(r.RiskTable.Systems, result.SystemRisk{Name: name, Role: result.RoleChallenger})
		r.Warnings = append(r.Warnings, "warning about "+name)
	}
	var b strings.Builder
	if err := writeMarkdownReport(&b, r); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	checkMarkdownStructure(t, md)
	for _, note := range []string{"more rule results", "more challengers", "more warnings"} {
		if !strings.Contains(md, note) {
			t.Errorf("no truncation note %q", note)
		}
	}
	if !utf8.ValidString(md) {
		t.Error("invalid UTF-8 after cutting")
	}
}

// A result read from its JSON writes the same JSON; a result of another
// schema version or of the wrong shape is refused with a position.
func TestResultJSONRoundTrip(t *testing.T) {
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
