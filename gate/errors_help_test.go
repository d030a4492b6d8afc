package gate

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// Issue 30, item 5: errors without the help the others give. Each case is
// the command (on a small pool with rb04's names), which printed no
// did-you-mean or no "riskgate:" prefix before.

// Every flag of every command, abbreviated by two runes (--champ of
// --champion, as `riskgate gate --champ X` gave it), gets the flag as its
// did-you-mean through the one usage-error path (usage.go, internal/suggest).
func TestEveryFlagAbbreviationSuggested(t *testing.T) {
	t.Parallel()
	checked := 0
	var walk func(path []string, c *cli.Command)
	walk = func(path []string, c *cli.Command) {
		for _, sub := range c.Commands {
			walk(append(append([]string{}, path...), sub.Name), sub)
		}
		if len(c.Commands) > 0 || len(path) == 0 {
			return
		}
		names := flagNames(c)
		for _, f := range c.Flags {
			if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
				continue // a renamed flag's old spelling
			}
			name := f.Names()[0]
			if len(name) < 5 {
				continue
			}
			abbr := name[:len(name)-2]
			if startsOthers(abbr, name, names) {
				continue // too short to mean one flag, or the start of several
			}
			args := append(append([]string{}, path...), "--"+abbr, "x")
			code, out, errw := runMain(t, args...)
			want := fmt.Sprintf("unknown flag --%s for riskgate %s; did you mean --%s?", abbr, strings.Join(path, " "), name)
			if code != exitError || out != "" || !strings.HasPrefix(errw, "riskgate: "+want+"\n") {
				t.Errorf("riskgate %s: exit %d, stderr %q; want %q", strings.Join(args, " "), code, errw, want)
			}
			checked++
		}
	}
	walk(nil, newApp(&streams{}, testDeps()))
	if checked < 50 {
		t.Errorf("only %d flags checked", checked)
	}
	t.Logf("%d flag abbreviations checked", checked)
}

func startsOthers(abbr, name string, names []string) bool {
	for _, n := range names {
		if n != name && strings.HasPrefix(strings.ToLower(n), strings.ToLower(abbr)) {
			return true
		}
	}
	return false
}

// One system-name lookup for every command: compare, fit, pair and the gate
// all say "did you mean" for a mistyped system, and list ten systems, not all.
func TestEveryCommandSuggestsSystems(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("system,topic,score\n")
	systems := []string{"Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}
	for i := range 40 {
		systems = append(systems, fmt.Sprintf("input.run%02d", i))
	}
	for s, name := range systems {
		for topic := range 6 {
			fmt.Fprintf(&b, "%s,t%d,0.%d%d\n", name, topic, (s+topic)%10, s%7)
		}
	}
	csv := writeTemp(t, "rb04-names.csv", b.String())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--champion", "Champio", "--challenger", "Chal. *", csv}, `champion "Champio" is not in the data; did you mean "Champion"? (systems: "Champion", "Chal. 1",`},
		{[]string{"compare", "--champion", "Champion", "--challenger", "Chal 4", csv}, `--challenger "Chal 4" is not in the data; did you mean "Chal. 4"?`},
		{[]string{"fit", "--champion", "Champio", csv}, `--champion "Champio" is not in the data; did you mean "Champion"?`},
		{[]string{"pair", "--champion", "Champio", "--challenger", "Chal. 1", csv}, `is not in the data; did you mean "Champion"?`},
		{[]string{"gate", "--champion", "Champio", "--challenger", "Chal. *", csv}, `champion "Champio" is not in the data; did you mean "Champion"?`},
	} {
		code, out, errw := runMain(t, c.args...)
		checkOneLineError(t, code, out, errw, c.want)
		if !strings.Contains(errw, "… and 35 more)") || strings.Contains(errw, "input.run39") {
			t.Errorf("%q: want ten systems listed and the count of the rest: %s", c.args, errw)
		}
	}
}

// policy validate's problems go through Main's one error path, each line
// with the prefix every other error has: a missing file, a policy's several
// problems, and the count.
func TestPolicyValidateErrorsPrefixed(t *testing.T) {
	t.Parallel()
	bad := writeTemp(t, "bad.yaml", "version: 1\nname: x\nfoo: 1\nrules:\n  - id: a\n    quantity: mean_dif\n    at_least: 0\n")
	code, out, errw := runMain(t, "policy", "validate", "nonexist.yaml", bad)
	lines := strings.Split(strings.TrimSuffix(errw, "\n"), "\n")
	if code != exitError || out != "" || len(lines) != 4 {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant 2, nothing, and four lines", code, out, errw)
	}
	for i, want := range []string{"riskgate: open nonexist.yaml: no such file or directory", "riskgate: " + bad + ":3:1: unknown key \"foo\"",
		"riskgate: " + bad + ":6:15: rules[0].quantity: unknown quantity \"mean_dif\"; did you mean \"mean_diff\"?", "riskgate: 2 of 2 policy files are invalid"} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d: %q, want %q…", i+1, lines[i], want)
		}
	}
}

// The lax-policy lint the CHANGELOG promises: a p-value rule at_most 0.5 is
// a warning at file:line:column in policy validate and a note beside the
// gate's verdict.
func TestLaxPolicyLintedInValidateAndGate(t *testing.T) {
	t.Parallel()
	lax := writeTemp(t, "lax.yaml", "version: 1\nname: lax-p\nchampion: production\nchallengers: [\"candidate-*\"]\nrules:\n"+
		"  - id: better\n    quantity: tests.paired_t.p\n    alternative: greater\n    at_most: 0.5\n")
	const lint = ":9:14: rule better passes a challenger whose tests.paired_t.p is up to 0.5"
	code, _, errw := runMain(t, "policy", "validate", lax)
	if code != exitPass || !strings.Contains(errw, "riskgate: warning: "+lax+lint) {
		t.Errorf("policy validate: exit %d, stderr %q; want 0 and the lint", code, errw)
	}
	code, out, errw := runMain(t, "gate", "--example", "--policy", lax)
	if code != exitPass || !strings.Contains(out, "note: lax policy: "+lax+lint) {
		t.Errorf("gate: exit %d, stderr %q, stdout:\n%s\nwant the lint as a note", code, errw, out)
	}
}

// A flag's value that names one of a few (a format, a topic mode, an input
// format, a likelihood family, a comment mode, a correction) gets the same
// did-you-mean.
func TestFlagValuesSuggested(t *testing.T) {
	t.Parallel()
	csv := writeTemp(t, "s.csv", "system,topic,score\nnew,t1,0.5\nnew,t2,0.6\nprod,t1,0.4\nprod,t2,0.6\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--champion", "prod", "--challenger", "new", "--format", "jsno", csv}, `--format "jsno": expected one of table, md, json, csv; did you mean "json"?`},
		{[]string{"compare", "--champion", "prod", "--challenger", "new", "--topics", "zeros", csv}, `--topics "zeros": expected one of intersect, zero, error, keep; did you mean "zero"?`},
		{[]string{"compare", "--champion", "prod", "--challenger", "new", "--input-format", "csv-lon", csv}, `did you mean "csv-long"?`},
		{[]string{"fit", "--champion", "prod", "--family", "gausian", csv}, `did you mean "gaussian"?`},
		{[]string{"gate", "--example", "--comment-mode", "on-chang"}, `did you mean "on-change"?`},
		{[]string{"compare", "--champion", "prod", "--challenger", "new", "--correction", "holn", csv}, `unknown correction "holn": expected one of bonferroni, holm, bh, none; did you mean "holm"?`},
	} {
		code, out, errw := runMain(t, c.args...)
		checkOneLineError(t, code, out, errw, c.want)
	}
}
