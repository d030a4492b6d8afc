package gate

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// TestHelpVersionCompletion: help, version and completion as gh has them.
func TestHelpVersionCompletion(t *testing.T) {
	t.Parallel()
	_, gateHelp, _ := runMain(t, "gate", "--help")
	_, validateHelp, _ := runMain(t, "policy", "validate", "--help")
	_, rootHelp, _ := runMain(t, "--help")
	for _, c := range []struct {
		args []string
		want string // stdout, exactly, when not ""
		has  string // a line stdout must contain
	}{
		{args: []string{"help", "gate"}, want: gateHelp},
		{args: []string{"help", "policy", "validate"}, want: validateHelp},
		{args: []string{"help"}, want: rootHelp},
		{args: []string{"version"}, has: "riskgate version "},
		{args: []string{"--version"}, has: "riskgate version "},
		{args: []string{"completion", "bash"}, has: "complete"},
		{args: []string{"completion", "zsh"}, has: "compdef"},
		{args: []string{"completion", "fish"}, has: "riskgate"},
		{args: []string{"gate", "--lo", "--generate-shell-completion"}, has: "--loss-weight"},
		{args: []string{"policy", "--generate-shell-completion"}, has: "validate"},
	} {
		code, out, errw := runMain(t, c.args...)
		if code != 0 || errw != "" {
			t.Errorf("%q: exit %d, stderr %q", c.args, code, errw)
		}
		if c.want != "" && out != c.want {
			t.Errorf("%q printed\n%s\nwant\n%s", c.args, out, c.want)
		}
		if c.has != "" && !strings.Contains(out, c.has) {
			t.Errorf("%q printed %q, want it to contain %q", c.args, out, c.has)
		}
	}
	if !strings.Contains(rootHelp, "completion") || !strings.Contains(rootHelp, "help ") || !strings.Contains(rootHelp, "version ") {
		t.Errorf("root help does not list help, version and completion:\n%s", rootHelp)
	}
}

// TestUsageErrors: a usage mistake is one line saying what is wrong, with a
// did-you-mean, then one line pointing to the command's --help; exit 2 and
// nothing on standard output.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args       []string
		want, help string
	}{
		{[]string{"gat"}, `unknown command "gat" for riskgate; did you mean "gate"?`, "riskgate"},
		{[]string{"help", "gat"}, `unknown command "gat" for riskgate; did you mean "gate"?`, "riskgate"},
		{[]string{"gate", "--loss-weigth", "5"}, "unknown flag --loss-weigth for riskgate gate; did you mean --loss-weight?", "riskgate gate"},
		{[]string{"policy", "valdate", "x.yaml"}, `unknown command "valdate" for riskgate policy; did you mean "validate"?`, "riskgate policy"},
		{[]string{"compare", "--chalenger", "x"}, "did you mean --challenger?", "riskgate compare"},
		{[]string{"gate", "--seed", "x"}, `invalid value "x" for flag --seed`, "riskgate gate"},
		{[]string{"fit", "--seed"}, "flag needs an argument", "riskgate fit"},
		{[]string{"gate", "--zzzzzz"}, "unknown flag --zzzzzz for riskgate gate", "riskgate gate"},
	} {
		code, out, errw := runMain(t, c.args...)
		if code != exitError || out != "" {
			t.Errorf("%q: exit %d, stdout %q; want 2 and nothing", c.args, code, out)
		}
		lines := strings.Split(strings.TrimSuffix(errw, "\n"), "\n")
		if len(lines) != 2 || !strings.Contains(lines[0], c.want) || lines[1] != "Run '"+c.help+" --help' for usage." {
			t.Errorf("%q: stderr %q, want one line containing %q and a pointer to %s --help", c.args, errw, c.want, c.help)
		}
		if strings.Contains(c.want, "zzzz") && strings.Contains(errw, "did you mean") {
			t.Errorf("%q: suggested a flag for a word like none: %q", c.args, errw)
		}
	}
}

// TestMeasureSyntaxEverywhere: trec_eval's -m spelling (ndcg_cut.10) and the
// printed name (ndcg_cut_10) select the same measure in gate and compare, as
// --measure or -m; an unknown one gets a did-you-mean.
func TestMeasureSyntaxEverywhere(t *testing.T) {
	t.Parallel()
	const tiny = "../examples/tiny/"
	in := []string{"--qrels", tiny + "qrels.txt", "--champion", "baseline", "--challenger", "reranker", tiny + "run_a.txt", tiny + "run_b.txt"}
	// The measure compared: compare's JSON names it at its top level, the
	// gate's in data.measure (its default measure; with runs + qrels the
	// default policy also has a rule on judged@10).
	measureOf := func(out string) string {
		var r struct {
			Measure string `json:"measure"`
			Data    struct {
				Measure string `json:"measure"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(out), &r) != nil {
			return ""
		}
		if r.Data.Measure != "" {
			return r.Data.Measure
		}
		return r.Measure
	}
	// The gate without its --risk-sweep fits (half its CPU), compare
	// without BRisk and with few replicates (0.01 CPU-s a run against
	// 0.28): they change no measure.
	for _, cmd := range [][]string{{"gate", "--risk-sweep", ""}, {"compare", "--brisk=false", "--samples", "1000", "--tukey-samples", "0"}} {
		for _, m := range [][2]string{{"--measure", "ndcg_cut.10"}, {"-m", "ndcg_cut_10"}, {"-m", "P.5"}} {
			code, out, errw := runMain(t, slices.Concat(cmd, []string{m[0], m[1], "--format", "json"}, in)...)
			want := map[string]string{"ndcg_cut.10": "ndcg_cut_10", "ndcg_cut_10": "ndcg_cut_10", "P.5": "P_5"}[m[1]]
			if code == exitError || measureOf(out) != want {
				t.Errorf("%s %s %s: exit %d, measure %q, want %q; stderr %q", cmd[0], m[0], m[1], code, measureOf(out), want, errw)
			}
		}
	}
	code, out, errw := runMain(t, append([]string{"gate", "--measure", "ndcg_kut.10"}, in...)...)
	checkOneLineError(t, code, out, errw, `unknown measure "ndcg_kut.10" (did you mean "ndcg_cut.10"?)`)
}

// TestOneDefaultPerFlag: every command's help shows at most one default per
// flag (a usage text saying "default …" hides urfave/cli's own).
func TestOneDefaultPerFlag(t *testing.T) {
	t.Parallel()
	var walk func(path []string, c *cli.Command)
	walk = func(path []string, c *cli.Command) {
		_, out, _ := runMain(t, append(append([]string{}, path...), "--help")...)
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "-") && strings.Count(line, "default") > 1 {
				t.Errorf("riskgate %s --help: two defaults in %q", strings.Join(path, " "), strings.TrimSpace(line))
			}
		}
		for _, sub := range c.Commands {
			walk(append(path, sub.Name), sub)
		}
	}
	root := newApp(&streams{}, testDeps())
	for _, c := range root.Commands {
		walk([]string{c.Name}, c)
	}
}

// TestPairRoles: pair takes --challenger/--champion like every command, with
// -a/-b (Sakai's a and b) as their short forms.
func TestPairRoles(t *testing.T) {
	t.Parallel()
	csv := writeTemp(t, "s.csv", "system,topic,score\nnew,t1,0.5\nnew,t2,0.6\nnew,t3,0.7\nnew,t4,0.2\nprod,t1,0.4\nprod,t2,0.6\nprod,t3,0.5\nprod,t4,0.3\n")
	_, long, _ := runMain(t, "pair", "--challenger", "new", "--champion", "prod", "--draws", "200", "--format", "json", csv)
	code, short, errw := runMain(t, "pair", "-a", "new", "-b", "prod", "--draws", "200", "--format", "json", csv)
	if code != 0 || long != short || long == "" {
		t.Errorf("pair -a/-b: exit %d, stderr %q, output differs from --challenger/--champion: %v", code, errw, long != short)
	}
}

// TestCompareWithoutMeasureName: a CSV without a measure column says so, not
// "Measure –".
func TestCompareWithoutMeasureName(t *testing.T) {
	t.Parallel()
	csv := writeTemp(t, "s.csv", "system,topic,score\nnew,t1,0.5\nnew,t2,0.6\nnew,t3,0.7\nprod,t1,0.4\nprod,t2,0.6\nprod,t3,0.5\n")
	code, out, errw := runMain(t, "compare", "--champion", "prod", "--challenger", "new", "--brisk=false", "--samples", "200", csv)
	if code != 0 || strings.Contains(out, "Measure –") || !strings.Contains(out, "Scores (no measure named in the inputs) over 3 topics") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", code, errw, out)
	}
}

// TestMeasureSyntaxInScoreFiles: a CSV's measure column is selected by either
// spelling; a measure the file does not hold gets a did-you-mean among those
// it does.
func TestMeasureSyntaxInScoreFiles(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("system,topic,score,measure\n")
	for _, m := range []string{"ndcg_cut_10", "P_5"} {
		for i, s := range []string{"new", "prod"} {
			for _, topic := range []string{"t1", "t2", "t3", "t4"} {
				b.WriteString(s + "," + topic + ",0." + string(rune('3'+i)) + topic[1:] + "," + m + "\n")
			}
		}
	}
	csv := writeTemp(t, "s.csv", b.String())
	args := []string{"compare", "--champion", "prod", "--challenger", "new", "--brisk=false", "--samples", "200", "--format", "json"}
	_, dotted, _ := runMain(t, append(args, "-m", "ndcg_cut.10", csv)...)
	code, printed, errw := runMain(t, append(args, "-m", "ndcg_cut_10", csv)...)
	if code != 0 || dotted != printed || !strings.Contains(dotted, `"measure": "ndcg_cut_10"`) {
		t.Errorf("-m ndcg_cut.10 and -m ndcg_cut_10 differ on a CSV (exit %d, stderr %q)", code, errw)
	}
	code, out, errw := runMain(t, append(args, "-m", "ndcg_cut_20", csv)...)
	checkOneLineError(t, code, out, errw, `no scores of measure "ndcg_cut_20" (--measure); did you mean "ndcg_cut_10"?`)
}

// TestChangelogListsRenames: every flag kept only under an old spelling (a
// hidden flag) is listed in CHANGELOG.md.
func TestChangelogListsRenames(t *testing.T) {
	t.Parallel()
	log, err := os.ReadFile("../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	var walk func(path string, c *cli.Command)
	walk = func(path string, c *cli.Command) {
		for _, f := range c.Flags {
			if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
				if !strings.Contains(string(log), path+" --"+f.Names()[0]) && !strings.Contains(string(log), "`--"+f.Names()[0]) {
					t.Errorf("%s --%s is hidden (renamed) but CHANGELOG.md does not list it", path, f.Names()[0])
				}
			}
		}
		for _, sub := range c.Commands {
			walk(path+" "+sub.Name, sub)
		}
	}
	walk("riskgate", newApp(&streams{}, testDeps()))
}
