package gate

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/compare"
	"github.com/riskgate/riskgate/gate/engine"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/shared"
)

// TestCompareGolden checks whole outputs of riskgate compare in every format
// against testdata/compare_*.golden (go test ./gate -run CompareGolden -update
// rewrites them). The input is a small hand-made table with a tied topic, an
// artifact and two challengers. The table, json and csv cases are one
// computation in three formats: with -short, the table and csv goldens are
// rendered (compare.Write, as runCompare does) from the report the json run
// printed, read back — the JSON holds the whole report — instead of
// computing it twice more (0.3 CPU-s each, mostly its BRisk fit); the full
// suite runs each through the command.
func TestCompareGolden(t *testing.T) {
	t.Parallel()
	small := filepath.Join("testdata", "compare_small.csv")
	base := []string{"compare", "--champion", "base", "--challenger", "fusion", "--challenger", "exp*", "--samples", "20000", "--tukey-samples", "2000"}
	cases := []struct {
		name string
		args []string
	}{
		{"json", []string{"--format", "json"}},
		{"table", []string{}},
		{"md_riskview", []string{"--format", "md", "--risk-view", "--alpha", "5"}},
		{"csv", []string{"--format", "csv"}},
		{"table_pool_all_holm", []string{"--pool", "all", "--correction", "holm", "--loss-weight", "2"}},
	}
	var fromJSON *compare.Report // the json case's report, read back
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			golden := "compare_" + c.name + ".golden"
			if format := map[string]string{"table": "table", "csv": "csv"}[c.name]; testing.Short() && format != "" {
				if fromJSON == nil {
					t.Fatal("no report from the json case")
				}
				var b strings.Builder
				if err := compare.Write(&b, fromJSON, format, false); err != nil {
					t.Fatal(err)
				}
				checkGolden(t, golden, b.String())
				return
			}
			args := append(append(append([]string{}, base...), c.args...), small)
			code, out, errw := runMain(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errw)
			}
			checkGolden(t, golden, out)
			if c.name == "json" {
				var rep compare.Report
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatal(err)
				}
				fromJSON = &rep
			}
		})
	}
}

// TestCompareJSONContract checks the field names the issue fixes: later
// issues and external tools rely on them.
func TestCompareJSONContract(t *testing.T) {
	t.Parallel()
	code, out, errw := runMain(t, "compare", "--champion", "base", "--challenger", "fusion", "--samples", "1000", "--tukey-samples", "100",
		"--format", "json", filepath.Join("testdata", "compare_small.csv"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"champion", "measure", "loss_weight", "level", "topics", "systems", "anova", "tukey_hsd"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("top level lacks %q", k)
		}
	}
	roles := map[string]map[string]any{}
	for _, s := range doc["systems"].([]any) {
		m := s.(map[string]any)
		roles[m["role"].(string)] = m
		for _, k := range []string{"name", "role", "mean"} {
			if _, ok := m[k]; !ok {
				t.Errorf("system %v lacks %q", m["name"], k)
			}
		}
	}
	ch := roles["challenger"]
	for _, k := range []string{"urisk", "trisk", "trisk_p", "bca", "percentile", "zrisk", "georisk", "wins", "ties", "losses", "tests"} {
		if _, ok := ch[k]; !ok {
			t.Errorf("challenger lacks %q", k)
		}
	}
	for _, k := range []string{"lo", "hi", "level"} {
		if _, ok := ch["bca"].(map[string]any)[k]; !ok {
			t.Errorf("bca lacks %q", k)
		}
		if _, ok := ch["percentile"].(map[string]any)[k]; !ok {
			t.Errorf("percentile lacks %q", k)
		}
	}
	tests := ch["tests"].(map[string]any)
	for test, keys := range map[string][]string{
		"paired_t": {"t", "df", "p", "lo", "hi"}, "welch_t": {"t", "df", "p"}, "wilcoxon": {"v", "p"},
		"sign": {"pos", "neg", "p"}, "permutation": {"p", "b"}, "bootstrap": {"p", "b"},
	} {
		m, ok := tests[test].(map[string]any)
		if !ok {
			t.Errorf("tests lack %q", test)
			continue
		}
		for _, k := range keys {
			if _, ok := m[k]; !ok {
				t.Errorf("tests.%s lacks %q", test, k)
			}
		}
	}
	if _, ok := roles["artifact"]["urisk"]; ok {
		t.Error("an artifact carries challenger fields")
	}
	if _, ok := roles["artifact"]["zrisk"]; ok {
		t.Error("an artifact outside the pool carries zrisk")
	}
	if _, ok := roles["champion"]["zrisk"]; !ok {
		t.Error("the champion lacks zrisk")
	}
}

// TestCompareAgainstReferences runs the command on rb04.csv (through the
// score loader) and checks its JSON against reference/paper/table3.csv and
// reference/r_freq/rb04_pairs.csv (w = 5): Table 3's URisk⁻, TRisk⁻ and
// BCa⁻ to the printed precision (TRisk ±0.002, BCa ±0.005), R's
// deterministic statistics to 1e-8 relative, and ZRisk⁻ with --alpha 5.
// Without BRisk (--brisk=false): none of these depends on its fit, whose
// numbers TestCompareTable3 checks (the fit was 0.55 of this test's
// 1.65 CPU-s per run).
func TestCompareAgainstReferences(t *testing.T) {
	t.Parallel()
	data := shared.Path(t, "data/bayesian-risk/rb04.csv")
	run := func(extra ...string) *compare.Report {
		args := append([]string{"compare", "--champion", "Champion", "--challenger", "Chal. *", "--format", "json", "--tukey-samples", "0", "--brisk=false"}, extra...)
		code, out, errw := runMain(t, append(args, data)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errw)
		}
		var rep compare.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		return &rep
	}
	rep := run("--loss-weight", "5")
	bySys := map[string]compare.System{}
	for _, s := range rep.Systems {
		bySys[s.Name] = s
	}
	table3 := shared.Records(t, shared.Path(t, "reference/paper/table3.csv"))
	for _, row := range table3 {
		s := bySys[row["system"]]
		if s.Name == "" {
			t.Fatalf("no system %q in the report", row["system"])
		}
		near(t, s.Name+" AP", float64(s.Mean), row["ap"], 0.0005)
		if s.Role != "challenger" {
			continue
		}
		near(t, s.Name+" URisk⁻", -float64(s.URisk), row["urisk_minus"], 0.0005)
		near(t, s.Name+" TRisk⁻", -float64(s.TRisk), row["trisk_minus"], 0.002)
		near(t, s.Name+" BCa⁻ lo", -float64(s.BCa.Hi), row["bca_minus_lo"], 0.005)
		near(t, s.Name+" BCa⁻ hi", -float64(s.BCa.Lo), row["bca_minus_hi"], 0.005)
		if s.BCa.Level != 1-0.05/4 {
			t.Errorf("%s BCa level %v, want 1 − 0.05/4", s.Name, s.BCa.Level)
		}
	}
	for _, row := range shared.Records(t, shared.Path(t, "reference/r_freq/rb04_pairs.csv")) {
		if row["r"] != "5" {
			continue
		}
		s := bySys[row["system"]]
		te := s.Tests
		for _, c := range []struct {
			got float64
			col string
		}{
			{float64(s.URisk), "urisk"}, {float64(s.TRisk), "trisk"},
			{float64(te.PairedT.T), "t_paired"}, {float64(te.PairedT.P), "p_paired"},
			{float64(te.WelchT.T), "t_welch"}, {float64(te.WelchT.DF), "df_welch"}, {float64(te.WelchT.P), "p_welch"},
			{float64(te.Wilcoxon.V), "wilcoxon_V"}, {float64(te.Wilcoxon.P), "p_wilcoxon"},
			{float64(te.Sign.Pos), "sign_pos"}, {float64(te.Sign.Neg), "sign_neg"}, {float64(te.Sign.P), "p_sign"},
		} {
			want := shared.ParseFloat(t, row[c.col])
			if math.Abs(c.got-want) > 1e-8*math.Abs(want) {
				t.Errorf("%s %s = %.15g, R %.15g", s.Name, c.col, c.got, want)
			}
		}
		near(t, s.Name+" BCa lo", float64(s.BCa.Lo), row["bca_lo"], 0.005)
		near(t, s.Name+" BCa hi", float64(s.BCa.Hi), row["bca_hi"], 0.005)
		near(t, s.Name+" percentile lo", float64(s.Percentile.Lo), row["perc_lo"], 0.005)
		near(t, s.Name+" percentile hi", float64(s.Percentile.Hi), row["perc_hi"], 0.005)
	}
	// ZRisk⁻ of Table 3 is at 1 + α with α = 5. ZRisk is in closed form:
	// the bootstrap's replicates (--samples) do not enter it.
	rep6 := run("--alpha", "5", "--samples", "1000")
	if rep6.LossWeight != 6 {
		t.Errorf("--alpha 5 gave loss weight %v", rep6.LossWeight)
	}
	for _, s := range rep6.Systems {
		for _, row := range table3 {
			if row["system"] == s.Name {
				near(t, s.Name+" ZRisk⁻", -float64(*s.ZRisk), row["zrisk_minus"], 0.005)
			}
		}
	}
}

func near(t *testing.T, what string, got float64, wantText string, tol float64) {
	t.Helper()
	want := shared.ParseFloat(t, wantText)
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.5f, reference %s (tolerance %g)", what, got, wantText, tol)
	}
}

// TestCompareErrors: bad input and options give one line and exit status 2.
func TestCompareErrors(t *testing.T) {
	t.Parallel()
	small := filepath.Join("testdata", "compare_small.csv")
	one := writeTemp(t, "one.csv", "system,topic,score\nA,t1,0.5\nB,t1,0.4\nA,t2,0.3\n")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--champion", "nobody", "--challenger", "fusion", small}, `champion "nobody" is not in the data (systems: "base", "fusion", "expand", "old")`},
		{[]string{"--champion", "base", "--challenger", "z*", small}, `challenger "z*" is not in the data (systems: "base"`},
		// The gate's did-you-mean (scores.SystemHint) in every command.
		{[]string{"--champion", "bas", "--challenger", "fusion", small}, `champion "bas" is not in the data; did you mean "base"? (systems: "base",`},
		{[]string{"--champion", "base", "--challenger", "fusoin", small}, `--challenger "fusoin" is not in the data; did you mean "fusion"? (systems: "base",`},
		{[]string{"--champion", "base", "--challenger", "base", small}, `challenger "base" is the champion`},
		// One glob syntax everywhere (policies.Pattern: * and ?), so "[" is a literal name.
		{[]string{"--champion", "base", "--challenger", "[", small}, `--challenger "[" is not in the data`},
		{[]string{"--champion", "base", "--challenger", "ba*", small}, `--challenger "ba*" matches only the champion`},
		{[]string{"--champion", "base", "--challenger", "fusion", "--correction", "sidak", small}, `--correction: unknown correction "sidak": expected one of bonferroni, holm, bh, none`},
		{[]string{"--champion", "base", "--challenger", "fusion", "--alpha", "1", "--loss-weight", "2", small}, "give --loss-weight W or --alpha A"},
		{[]string{"--champion", "base", "--challenger", "fusion", "--loss-weight", "0", small}, "--loss-weight: must be at least 1 (losses count w times; 1 = no extra weight), got 0"},
		{[]string{"--champion", "base", "--challenger", "fusion", "--level", "95", small}, "--level 95: expected a confidence level"},
		{[]string{"--champion", "base", "--challenger", "fusion", "--format", "xml", small}, `--format "xml": expected one of table, md, json, csv`},
		{[]string{"--champion", "base", "--challenger", "fusion", "--pool", "some", small}, `--pool "some": expected compared or all`},
		{[]string{"--champion", "base", "--challenger", "fusion", "--samples", "10", small}, "--samples 10: expected 100 to 10,000,000 replicates"},
		{[]string{"--champion", "A", "--challenger", "B", one}, "need at least 2 topics scored for every system, have 1"},
		{[]string{"--champion", "A", "--challenger", "B", "--topics", "keep", one}, "compare needs a score for every system on every topic; 1 cell(s) are missing"},
		{[]string{"--champion", "base", "--challenger", "fusion"}, "no INPUT given"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			// Alignment notes may precede the error, which is one line.
			code, out, errw := runMain(t, append([]string{"compare"}, c.args...)...)
			checkOneLineError(t, code, out, errw, c.want)
		})
	}
}

// TestCompareOutputFile: --output writes the file whole, and a failure leaves
// nothing behind.
func TestCompareOutputFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "report.json")
	// Without BRisk (0.3 CPU-s a run, nine tenths of the test): the file is
	// written the same whatever the report holds.
	args := []string{"compare", "--champion", "base", "--challenger", "fusion", "--samples", "1000", "--tukey-samples", "0", "--brisk=false", "--format", "json", "-o", out, filepath.Join("testdata", "compare_small.csv")}
	code, stdout, errw := runMain(t, args...)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, errw)
	}
	b, err := os.ReadFile(out)
	if err != nil || !json.Valid(b) {
		t.Fatalf("output file: %v, valid JSON %v", err, json.Valid(b))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the report", len(entries))
	}
	bad := filepath.Join(dir, "missing", "report.json")
	args[len(args)-2] = bad
	if code, _, _ := runMain(t, args...); code != exitError {
		t.Errorf("unwritable output: exit %d", code)
	}
	if _, err := os.Stat(bad); err == nil {
		t.Error("a failed write left a file")
	}
}

// TestCompareDeterministic: the same seed gives the same output; another
// seed changes the randomised figures.
func TestCompareDeterministic(t *testing.T) {
	t.Parallel()
	args := func(seed string) []string {
		return []string{"compare", "--champion", "base", "--challenger", "*", "--samples", "5000", "--tukey-samples", "500", "--seed", seed, "--format", "json", filepath.Join("testdata", "compare_small.csv")}
	}
	_, a, _ := runMain(t, args("7")...)
	_, b, _ := runMain(t, args("7")...)
	_, c, _ := runMain(t, args("8")...)
	if a != b {
		t.Error("same seed, different output")
	}
	if a == c {
		t.Error("different seeds, same output")
	}
}

// TestMatchChallengers: exact names win over globs, globs skip the champion,
// and duplicates collapse in first-match order.
func TestMatchChallengers(t *testing.T) {
	t.Parallel()
	tab := scores.NewTable("map", []string{"base", "run[2]", "run2", "runx", "other"}, []string{"t1", "t2"})
	cases := []struct {
		patterns []string
		want     []int
	}{
		{[]string{"run[2]"}, []int{1}},             // the exact name, not the glob matching "run2"
		{[]string{"run?"}, []int{2, 3}},            // glob
		{[]string{"*"}, []int{1, 2, 3, 4}},         // never the champion
		{[]string{"runx", "run*"}, []int{3, 1, 2}}, // pattern order, then table order, no duplicates
	}
	for _, c := range cases {
		got, err := engine.MatchChallengers(tab, c.patterns, 0)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.patterns, got, err, c.want)
		}
	}
}

// TestCompareGOMAXPROCS: the whole report is identical with one or two
// threads.
func TestCompareGOMAXPROCS(t *testing.T) {
	t.Parallel()
	args := []string{"compare", "--champion", "base", "--challenger", "*", "--samples", "20000", "--tukey-samples", "2000", "--format", "json", filepath.Join("testdata", "compare_small.csv")}
	runMainWithGOMAXPROCS(t, []int{1, 2}, args...)
}

// TestCompareAlignmentRecorded: topics dropped to complete the table are
// named in the JSON report as well as noted on stderr.
func TestCompareAlignmentRecorded(t *testing.T) {
	t.Parallel()
	in := writeTemp(t, "x.csv", "system,topic,score\nA,t1,0.5\nB,t1,0.4\nA,t2,0.3\nB,t2,0.2\nA,t3,0.1\nB,t4,0.3\nA,t4,0.25\n")
	// Without BRisk (0.3 of the test's 0.34 CPU-s): the alignment is the loader's.
	code, out, errw := runMain(t, "compare", "--champion", "A", "--challenger", "B", "--samples", "1000", "--brisk=false", "--format", "json", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var rep compare.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Topics != 3 || rep.Alignment == nil || !slices.Equal(rep.Alignment.DroppedTopics, []string{"t3"}) || !strings.Contains(errw, `"t3"`) {
		t.Errorf("topics %d, alignment %+v, stderr %q", rep.Topics, rep.Alignment, errw)
	}
}

// TestCompareMarkdownEscapesNames: in the md view (posted as pull-request
// comments) a system name can neither add a table column nor mention anyone.
func TestCompareMarkdownEscapesNames(t *testing.T) {
	t.Parallel()
	in := writeTemp(t, "x.csv", "system,topic,score\nbase,t1,0.5\nbase,t2,0.3\nbase,t3,0.4\n"+
		"x|@y,t1,0.6\nx|@y,t2,0.2\nx|@y,t3,0.45\n")
	code, out, errw := runMain(t, "compare", "--champion", "base", "--challenger", "x|@y", "--samples", "1000", "--tukey-samples", "0", "--format", "md", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "@y") && !strings.Contains(line, `x\|\@y`) {
			t.Errorf("unescaped name in %q", line)
		}
	}
	var header int
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "| System |"):
			header = strings.Count(line, " | ")
		case strings.HasPrefix(line, `| x\|\@y |`):
			if n := strings.Count(line, " | "); n != header {
				t.Errorf("row %q has %d cell separators, header %d", line, n, header)
			}
		}
	}
}
