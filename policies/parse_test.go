package policies

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/suggest"
)

// checkGolden compares got with testdata/<name>, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

// errorLine is the one-line shape every policy error must have.
var errorLine = regexp.MustCompile(`^[^\s:]+\.yaml(:\d+(:\d+)?)?: \S.*$`)

// TestErrorsGolden parses every testdata/errors/*.yaml, which must fail, and
// compares the messages with the .golden files. Each message is one line
// naming file:line:column.
func TestErrorsGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no error cases: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(strings.TrimSuffix(name, ".yaml"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			_, perr := Parse(name, data)
			if perr == nil {
				t.Fatalf("%s parsed without error", name)
			}
			msg := perr.Error()
			for _, line := range strings.Split(msg, "\n") {
				if !errorLine.MatchString(line) {
					t.Errorf("not a one-line positioned error: %q", line)
				}
			}
			for _, e := range unwrapAll(perr) {
				var ie *inputerr.Error
				if !errors.As(e, &ie) {
					t.Errorf("error %q is not an *inputerr.Error", e)
				}
			}
			checkGolden(t, "errors/"+strings.TrimSuffix(name, ".yaml")+".golden", []byte(msg+"\n"))
		})
	}
}

func unwrapAll(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// TestErrorPositions checks that the line:column of an error points at the
// offending token, independently of the golden files.
func TestErrorPositions(t *testing.T) {
	cases := []struct {
		name, yaml string
		line, col  int
		contains   string
	}{
		{"unknown key", "version: 1\nname: x\nrules:\n  - id: a\n    quantity: wins\n    at_leats: 3\n", 6, 5, `unknown key "at_leats" in rules[0]; did you mean "at_least"?`},
		{"unknown quantity", "version: 1\nname: x\nrules:\n  - id: a\n    quantity: winz\n    at_least: 3\n", 5, 15, `did you mean "wins"?`},
		{"bad bound value", "version: 1\nname: x\nrules:\n  - {id: a, quantity: wins, at_least: x}\n", 4, 39, "expected a number"},
		{"missing key", "version: 1\nname: x\nrules:\n  - id: a\n    at_least: 3\n", 4, 5, `missing required key "quantity"`},
		{"waiver rule", "version: 1\nname: x\nrules:\n  - {id: a, quantity: wins, at_least: 3}\nwaivers:\n  - {rule: b, challenger: c, reason: r, approver: z, expires: 2030-01-01}\n", 6, 12, `no rule has id "b"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("p.yaml", []byte(c.yaml))
			var ie *inputerr.Error
			if !errors.As(err, &ie) {
				t.Fatalf("got %v, want an *inputerr.Error", err)
			}
			if ie.Line != c.line || ie.Column != c.col || !strings.Contains(ie.Msg, c.contains) {
				t.Errorf("got %d:%d %q, want %d:%d containing %q", ie.Line, ie.Column, ie.Msg, c.line, c.col, c.contains)
			}
		})
	}
}

// examplePolicies are the shipped policies; each must parse and explain.
var examplePolicies = []string{"starter.yaml", "examples/release-gate.yaml", "examples/pr-check.yaml", "examples/research.yaml", "examples/guardrails.yaml", "examples/segments.yaml"}

var explainNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func TestExamplesValid(t *testing.T) {
	for _, f := range examplePolicies {
		t.Run(f, func(t *testing.T) {
			p, err := Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if w := p.Warnings(explainNow); len(w) > 0 {
				t.Errorf("shipped policy has warnings: %q", w)
			}
			checkGolden(t, "explain/"+strings.TrimSuffix(filepath.Base(f), ".yaml")+".golden", []byte(p.Explain(explainNow)))
		})
	}
}

func TestStarterIsDefault(t *testing.T) {
	p := Default()
	data, err := os.ReadFile("starter.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if string(Starter()) != string(data) {
		t.Error("Starter() differs from starter.yaml")
	}
	if p.Name != "default" || len(p.Rules) != 3 || p.LossWeight != 2 {
		t.Errorf("Default() = %+v", p)
	}
	// The policy chosen by calibration (issue 14, docs/policies.md): a
	// one-sided paired t test at 2.5% (Holm over challengers) and a
	// non-inferiority bound on risk, the one-sided 97.5% BCa bound of the
	// risk-adjusted difference at w = 2 above −0.02.
	if r := p.Rules[0]; p.Query(r) != (Query{Quantity: "tests.paired_t.p", Alternative: Greater}) || r.Correction != "holm" || !reflect.DeepEqual(r.Bound, Bound{Op: AtMost, Value: 0.025}) || r.Severity != SeverityFail {
		t.Errorf("rule 0 = %+v, query %v", r, p.Query(r))
	}
	if r := p.Rules[1]; p.Query(r) != (Query{Quantity: "bca.lo", LossWeight: 2, Level: 0.95, Correction: "bonferroni", Margin: 0.02}) || !reflect.DeepEqual(r.Bound, Bound{Op: AtLeast, Value: 0}) || r.Severity != SeverityFail {
		t.Errorf("rule 1 = %+v, query %v", r, p.Query(r))
	}
	if _, q, ok := p.RiskDefinition(); !ok || q.LossWeight != 2 || q.Margin != 0.02 {
		t.Errorf("risk definition %v, %v", q, ok)
	}
}

// TestParseFields checks that every key of testdata/full.yaml (which uses
// them all) lands in the right field.
func TestParseFields(t *testing.T) {
	src, err := os.ReadFile("testdata/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("dir/full.yaml", src)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.InputPaths(); strings.Join(got, ",") != "dir/a.csv,/abs/b.csv" {
		t.Errorf("InputPaths = %q", got)
	}
	if p.Inputs.Format != "csv-long" || p.Inputs.Qrels != "q.txt" || p.Inputs.Measure != "ndcg_cut_10" || p.Inputs.Topics != "zero" {
		t.Errorf("inputs = %+v", p.Inputs)
	}
	if p.Inputs.Pool != "history" || p.PoolPath() != "dir/history" || p.Inputs.PoolMismatch != PoolRefuse {
		t.Errorf("inputs.pool %q (path %q), pool_mismatch %q", p.Inputs.Pool, p.PoolPath(), p.Inputs.PoolMismatch)
	}
	if p.LossWeight != 2.5 || !p.FromAlpha || p.Seed != 18446744073709551615 {
		t.Errorf("loss weight %v (alpha %v), seed %d", p.LossWeight, p.FromAlpha, p.Seed)
	}
	if p.Model != (Model{Family: SkewNormal, Chains: 2, TargetESS: 500, MaxRhat: 1.05, MaxDraws: 3000}) {
		t.Errorf("model = %+v", p.Model)
	}
	if p.Requirements != (Requirements{MinTopics: 30, MinArtifacts: 5, MinTopicCoverage: 0.8}) {
		t.Errorf("requirements = %+v", p.Requirements)
	}
	want := []string{
		"bayes.diff.lo(level=0.9)",
		"tests.wilcoxon.p(alternative=greater)",
		"rope.decision(level=0.95,rope=[-0.02,0.01])",
		"urisk(loss_weight=10,margin=0.02)",
		"brisk.p_riskier(loss_weight=2.5)",
	}
	var got []string
	for _, q := range p.Queries() {
		got = append(got, q.String())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("queries\n got %q\nwant %q", got, want)
	}
	if n := p.Needs(); len(n) != 4 || n[0] != AnalysisRisk || n[1] != AnalysisTests || n[2] != AnalysisBayes || n[3] != AnalysisBRisk {
		t.Errorf("needs = %v", n)
	}
	if ws := p.BRiskWeights(); len(ws) != 1 || ws[0] != 2.5 {
		t.Errorf("BRisk weights = %v", ws)
	}
	if r := p.Rules[1]; r.Correction != CorrectBH || r.Severity != SeverityFail {
		t.Errorf("rule t = %+v", r)
	}
	if p.Rules[0].Description != "why" || p.Rules[0].Severity != SeverityWarn {
		t.Errorf("rule lo = %+v", p.Rules[0])
	}
	if !reflect.DeepEqual(p.Rules[3].Bound, Bound{Op: In, Lo: 0, Hi: 1}) {
		t.Errorf("rule u bound = %+v", p.Rules[3].Bound)
	}
	w := p.Waivers[0]
	if w.Rule != "t" || w.Challenger.Text != "exp-*" || w.ExpiresText() != "2026-07-01" || w.Pos.Line != 37 {
		t.Errorf("waiver = %+v", w)
	}
	if p.Select != SelectBest || p.RankBy != "brisk.p_riskier" || p.OnInconclusive != Fail || p.OnInsufficientPool != Inconclusive {
		t.Errorf("select %v rank_by %v on_inconclusive %v on_insufficient_pool %v", p.Select, p.RankBy, p.OnInconclusive, p.OnInsufficientPool)
	}
}

func TestDefaults(t *testing.T) {
	p, err := Parse("min.yaml", []byte("version: 1\nname: min\nrules: [{id: a, quantity: wins, at_least: 1}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Seed != 1 || p.Model != defaultModel || p.Select != SelectBest || p.RankBy != "mean_diff" ||
		p.OnInconclusive != Inconclusive || p.LossWeight != 0 || p.Champion != "" || p.Challengers != nil {
		t.Errorf("defaults: %+v", p)
	}
	if p.Rules[0].Severity != SeverityFail {
		t.Errorf("default severity = %v", p.Rules[0].Severity)
	}
	// No Bayesian rule, so no MCMC: only descriptive statistics (wins, and mean_diff for rank_by).
	if n := p.Needs(); len(n) != 1 || n[0] != AnalysisDescriptive {
		t.Errorf("needs = %v", n)
	}
}

func TestAliasesAndNulls(t *testing.T) {
	src := `version: 1
name: anchors
description:
x-bound: &bound 0.95
rules:
  - id: a
    quantity: bayes.p_better
    at_least: *bound
  - id: b
    quantity: brisk.p_riskier
    loss_weight: 3
    at_most: 0.05
`
	// x-bound is not a key; anchors are written inside known keys instead.
	if _, err := Parse("a.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), `unknown key "x-bound"`) {
		t.Fatalf("got %v", err)
	}
	src = strings.Replace(src, "x-bound: &bound 0.95\n", "", 1)
	src = strings.Replace(src, "at_least: *bound", "at_least: &bound 0.95", 1)
	src = strings.Replace(src, "at_most: 0.05", "at_most: *bound", 1)
	p, err := Parse("a.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if p.Description != "" || p.Rules[1].Bound.Value != 0.95 || p.Rules[1].LossWeight != 3 {
		t.Errorf("got %+v %+v", p, p.Rules[1])
	}
}

func TestErrorCap(t *testing.T) {
	data, err := os.ReadFile("testdata/errors/too-many-errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, perr := Parse("too-many-errors.yaml", data)
	lines := strings.Split(perr.Error(), "\n")
	if len(lines) != maxErrors+1 || !strings.Contains(lines[maxErrors], "5 more problems") {
		t.Errorf("got %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func TestLoad(t *testing.T) {
	if _, err := Load("testdata/no-such-file.yaml"); err == nil {
		t.Error("Load of a missing file succeeded")
	}
	big := make([]byte, MaxSize+1)
	if _, err := Parse("big.yaml", big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("oversized policy: %v", err)
	}
	p, err := Load("starter.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// SHA-256 of the file's bytes, for provenance.
	if len(p.Digest) != 64 || p.File != "starter.yaml" {
		t.Errorf("digest %q file %q", p.Digest, p.File)
	}
}

func TestDidYouMean(t *testing.T) {
	valid := []string{"at_least", "at_most", "in", "level"}
	for word, want := range map[string]string{
		"at_leats": `; did you mean "at_least"?`, // transposition
		"atleast":  `; did you mean "at_least"?`,
		"AT_MOST":  `; did you mean "at_most"?`,
		"levle":    `; did you mean "level"?`,
		"lvl":      "", // two edits in three letters is no typo
		"quantile": "",
		"x":        "",
	} {
		if got := suggest.DidYouMean(word, valid); got != want {
			t.Errorf("suggest.DidYouMean(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"cand-*", "cand-1", true},
		{"cand-*", "cand-", true},
		{"cand-*", "xcand-1", false},
		{"Chal. *", "Chal. 4", true},
		{"Chal. ?", "Chal. 10", false},
		{"*", "", true},
		{"a*b*c", "aXbYbZc", true},
		{"a*b*c", "aXbYbZ", false},
		{"runs/*", "runs/x/y", true}, // * crosses "/" (system names are not paths)
		{"[a]", "[a]", true},         // no character classes: brackets match themselves
		{"exact", "exact", true},
		{"exact", "exactly", false},
	} {
		if got := (Pattern{Text: c.pattern}).Match(c.name); got != c.want {
			t.Errorf("%q matches %q = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func TestFormatObserved(t *testing.T) {
	atLeast := Bound{Op: AtLeast, Value: 0.95}
	for _, c := range []struct {
		v    float64
		b    Bound
		want string
	}{
		{0.973123, atLeast, "0.9731"},
		{0.94996, atLeast, "0.94996"}, // four digits would read 0.95 and seem to pass
		{0.95, atLeast, "0.95"},
		{0.9500001, atLeast, "0.9500001"}, // four digits would read as exactly the bound
		{0.050004, Bound{Op: AtMost, Value: 0.05}, "0.050004"},
		{123456, Bound{Op: AtLeast, Value: 0}, "1.235e+05"},
	} {
		if got := formatObserved(c.v, c.b); got != c.want {
			t.Errorf("formatObserved(%v, %v) = %q, want %q", c.v, c.b, got, c.want)
		}
	}
}

func TestWarnings(t *testing.T) {
	src := `version: 1
name: w
loss_weight: 2
select: all
rank_by: mean
rules:
  - id: t
    quantity: tests.paired_t.p
    at_most: 0.05
waivers:
  - {rule: t, challenger: c, reason: r, approver: a, expires: 2026-05-31}
`
	p, err := Parse("w.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.Warnings(explainNow), "\n")
	for _, want := range []string{
		"w.yaml:11:5: waiver of rule t for c expired on 2026-05-31",
		"w.yaml:5:10: rank_by has no effect with select: all",
		"w.yaml: the policy sets a loss weight but no rule uses it",
		"w.yaml:7:5: rule t bounds a two-sided p-value from above",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
	// The waiver is active through the whole expiry day (UTC).
	w := p.Waivers[0]
	if !w.Active(time.Date(2026, 5, 31, 23, 59, 59, 0, time.UTC)) || w.Active(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)) {
		t.Error("waiver expiry boundary wrong")
	}
}

// model.early_stop is on unless a policy turns it off (riskgate calibrate's
// fits stop once decided; the gate's are shown in reports and never do).
func TestEarlyStopDefault(t *testing.T) {
	if !Default().Model.EarlyStop {
		t.Error("the default policy: model.early_stop is off")
	}
	p, err := Parse("p.yaml", []byte("version: 1\nname: p\nchampion: a\nchallengers: [b]\nmodel: {early_stop: false}\nrules:\n  - {id: r, quantity: bayes.p_better, at_least: 0.95}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Model.EarlyStop {
		t.Error("early_stop: false parsed as true")
	}
}
