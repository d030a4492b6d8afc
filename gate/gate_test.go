package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/riskgate/riskgate/gate/report"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/mdcheck"

	"github.com/riskgate/riskgate/policies"
)

// normalizeRun replaces what varies from run to run in a gate report — the
// start time, elapsed times, the temporary folder — so that goldens are stable.
func normalizeRun(s, tmp string) string {
	if tmp != "" {
		s = strings.ReplaceAll(s, tmp, "$TMP")
	}
	for _, r := range []struct {
		re   *regexp.Regexp
		with string
	}{
		{regexp.MustCompile(`"started_at": "[^"]*"`), `"started_at": "STARTED"`},
		{regexp.MustCompile(`"elapsed_ms": \d+`), `"elapsed_ms": 0`},
		{regexp.MustCompile(`"(risk|bca|tests|bayes|brisk)": \d+`), `"$1": 0`},
		{regexp.MustCompile("\\| started \\| `[^`]*` \\|"), "| started | `STARTED` |"},
		{regexp.MustCompile(`\| elapsed \| \d+ ms \|`), "| elapsed | 0 ms |"},
	} {
		s = r.re.ReplaceAllString(s, r.with)
	}
	return s
}

// gateRunOut runs riskgate gate with --out into a new folder and returns the
// exit status, standard output, standard error and the folder.
func gateRunOut(t *testing.T, args ...string) (code int, stdout, stderr, dir string) {
	t.Helper()
	dir = t.TempDir()
	code, stdout, stderr = runMain(t, append([]string{"gate", "--out", dir}, args...)...)
	return code, stdout, stderr, dir
}

func readOut(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// The example's whole output and every report it writes, in golden files;
// every report is rendered from result.json alone.
// The run is exampleRun's, shared with the tests of its progress lines
// (TestGateProgressLines checks its stderr; TestGateCheapPolicyGolden that
// a gate without --progress writes nothing there).
func TestGateExampleGolden(t *testing.T) {
	t.Parallel()
	ex := exampleRun(t)
	if ex.code != exitPass {
		t.Errorf("exit %d, want 0 (ship candidate-better)\n%s", ex.code, ex.stderr)
	}
	checkGolden(t, "gate/example.table.golden", ex.stdout)
	files := ex.files()
	for _, name := range report.FileNames {
		checkGolden(t, "gate/example."+name+".golden", normalizeRun(files[name], ex.dir))
	}
	checkReportsFromJSON(t, files)
	mdcheck.Structure(t, files["report.md"], report.MaxMarkdownBytes)
	checkJUnit(t, files["junit.xml"], 9, 2, 1) // 3 rules × 3 challengers; risky fails not-riskier, equivalent better-on-average; risky's topics-at-risk warning is skipped
}

// checkReportsFromJSON reads result.json back and checks that it renders
// every other report byte for byte, and itself.
func checkReportsFromJSON(t *testing.T, files map[string]string) {
	t.Helper()
	r, err := result.Read("result.json", []byte(files["result.json"]))
	if err != nil {
		t.Fatal(err)
	}
	got, err := report.Files(r)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		if string(got[name]) != want {
			t.Errorf("%s rendered from result.json differs from the one the run wrote:\n%s", name, firstDiff(string(got[name]), want))
		}
	}
}

func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return "line " + strconv.Itoa(i+1) + ":\n got " + la[i] + "\nwant " + lb[i]
		}
	}
	return "lengths differ"
}

// Each --format on standard output is the file --out writes.
func TestGateFormatsMatchFiles(t *testing.T) {
	t.Parallel()
	policy := filepath.Join("testdata", "gate", "cheap.yaml")
	for format, file := range map[string]string{"md": "report.md", "json": "result.json", "junit": "junit.xml"} {
		code, stdout, stderr, dir := gateRunOut(t, "--policy", policy, "--format", format)
		if code != exitPass {
			t.Fatalf("--format %s: exit %d\n%s", format, code, stderr)
		}
		if want := readOut(t, dir, file); stdout != want {
			t.Errorf("--format %s differs from %s:\n%s", format, file, firstDiff(stdout, want))
		}
	}
}

// A policy without Bayesian rules: every format in golden files, and no MCMC.
func TestGateCheapPolicyGolden(t *testing.T) {
	t.Parallel()
	policy := filepath.Join("testdata", "gate", "cheap.yaml")
	code, stdout, stderr, dir := gateRunOut(t, "--policy", policy)
	if code != exitPass || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	checkGolden(t, "gate/cheap.table.golden", stdout)
	files := map[string]string{}
	for _, name := range report.FileNames {
		files[name] = readOut(t, dir, name)
		checkGolden(t, "gate/cheap."+name+".golden", normalizeRun(files[name], dir))
	}
	checkReportsFromJSON(t, files)
	mdcheck.Structure(t, files["report.md"], report.MaxMarkdownBytes)
	checkJUnit(t, files["junit.xml"], 12, 2, 2)

	var r result.Result
	if err := json.Unmarshal([]byte(files["result.json"]), &r); err != nil {
		t.Fatal(err)
	}
	if r.Bayes != nil || r.BRisk != nil || r.Provenance.Sampler != nil {
		t.Error("a policy without Bayesian rules must fit no model")
	}
	for _, a := range r.Analyses {
		want := a.Name != policies.AnalysisBayes && a.Name != policies.AnalysisBRisk
		if a.Computed != want {
			t.Errorf("analysis %s computed %v, want %v", a.Name, a.Computed, want)
		}
	}
	if r.Verdict() != policies.Pass || r.ExitStatus() != 0 || r.Decision.Selected[0] != "cand-a" {
		t.Errorf("verdict %s, status %d, selected %v", r.Verdict(), r.ExitStatus(), r.Decision.Selected)
	}
}

// checkJUnit parses the JUnit report and checks its counts.
func checkJUnit(t *testing.T, text string, tests, failures, skipped int) {
	t.Helper()
	var s report.JUnitSuites
	if err := xml.Unmarshal([]byte(text), &s); err != nil {
		t.Fatalf("junit.xml does not parse: %v", err)
	}
	if s.Tests != tests || s.Failures != failures || s.Skipped != skipped {
		t.Errorf("junit: %d tests, %d failures, %d skipped; want %d, %d, %d", s.Tests, s.Failures, s.Skipped, tests, failures, skipped)
	}
	n := 0
	for _, suite := range s.Suites {
		n += len(suite.Cases)
	}
	if n != tests {
		t.Errorf("junit: %d test cases, tests=%d", n, tests)
	}
}

// The exit status follows the verdict; --dry-run exits 0 and says what the
// status would have been. Too few topics make a passing rule inconclusive
// (exit 3) but leave a failing one failing (exit 1).
func TestGateExitStatuses(t *testing.T) {
	t.Parallel()
	small := filepath.Join("testdata", "gate_small.csv")
	policy := func(body string) string {
		return writeTemp(t, "policy.yaml", "version: 1\nname: t\nchampion: prod\nchallengers: [\"cand-*\"]\n"+body)
	}
	fail := policy("rules:\n  - {id: gains, quantity: mean_diff, at_least: 0.5}\n")
	inconclusive := policy("requirements: {min_topics: 20}\nrules:\n  - {id: gains, quantity: mean_diff, at_least: 0}\n")
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"--policy", filepath.Join("testdata", "gate", "cheap.yaml")}, exitPass},
		{[]string{"--policy", fail, small}, exitFail},
		{[]string{"--policy", inconclusive, small}, exitInconclusive},
		{[]string{"--policy", fail, "--dry-run", small}, exitPass},
		// cand-b is worse than cand-a: with too few topics it still fails on
		// the evidence there is (a requirement that is not met stops a pass,
		// not a failure).
		{[]string{"--policy", inconclusive, "--champion", "cand-a", "--challenger", "cand-b", small}, exitFail},
	} {
		code, stdout, stderr := runMain(t, append([]string{"gate"}, c.args...)...)
		if code != c.code {
			t.Errorf("gate %q: exit %d, want %d\n%s", c.args, code, c.code, stderr)
		}
		if slicesContains(c.args, "--dry-run") {
			if !strings.Contains(stderr, "dry run: the verdict would be fail (exit status 1); exiting 0") || !strings.Contains(stdout, "(dry run: would exit 1)") {
				t.Errorf("dry run: stdout %q\nstderr %q", stdout, stderr)
			}
		}
	}
}

func slicesContains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// Usage, input and policy errors: exit 2 with one line, positioned where it can be.
func TestGateErrors(t *testing.T) {
	t.Parallel()
	small := filepath.Join("testdata", "gate_small.csv")
	bad := writeTemp(t, "bad.yaml", "version: 1\nname: t\nrules:\n  - {id: x, quantity: bayes.p_beter, at_least: 0.9}\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy", bad, small}, "bad.yaml:4:"},
		{[]string{"--policy", filepath.Join(t.TempDir(), "none.yaml"), small}, "no such file"},
		{[]string{small}, `champion "production" is not in the data`},
		{[]string{"--champion", "prod", "--challenger", "nope", small}, `challenger "nope" matches no system`},
		{[]string{"--champion", "prod", "--challenger", "cand-*", "--format", "csv", small}, `--format "csv": expected one of table, md, json, junit`},
		{[]string{"--example", small}, "give INPUT files or --example, not both"},
		{[]string{"--example", "--loss-weight", "2", "--alpha", "1"}, "not both"},
		{[]string{"--example", "--loss-weight", "-1"}, "--loss-weight: must be at least 1 (losses count w times; 1 = no extra weight), got -1"},
		{[]string{"--example", "--comment-mode", "sometimes"}, `comment mode "sometimes"`},
		{[]string{"--champion", "prod", "--challenger", "cand-a", filepath.Join(t.TempDir(), "missing.csv")}, "missing.csv"},
	} {
		code, stdout, stderr := runMain(t, append([]string{"gate"}, c.args...)...)
		if code != exitError || stdout != "" || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("gate %q: exit %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, code, stdout, stderr, c.want)
		}
	}
}

// Flags override the policy's roles, loss weight and seed; the replay
// command says so, and replaying it gives the same decision.
func TestGateOverridesAndReplay(t *testing.T) {
	t.Parallel()
	small, _ := filepath.Abs(filepath.Join("testdata", "gate_small.csv"))
	policy, _ := filepath.Abs(filepath.Join("testdata", "gate", "cheap.yaml"))
	code, out, stderr := runMain(t, "gate", "--policy", policy, "--champion", "art-1", "--challenger", "cand-b", "--loss-weight", "3", "--seed", "9", "--format", "json", small)
	if code != exitFail {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	// Read refuses a result whose provenance's copy of the policy digest is not the policy's.
	r, err := result.Read("stdout", []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if r.Data.Champion != "art-1" || len(r.Data.Challengers) != 1 || r.Policy.LossWeight != 3 || r.Policy.Seed != 9 {
		t.Errorf("overrides not applied: %+v, policy %+v", r.Data, r.Policy)
	}
	wantCmd := "riskgate gate --policy " + policy + " --champion art-1 --challenger cand-b --loss-weight 3 --seed 9 " + small
	if r.Provenance.Command != wantCmd {
		t.Errorf("replay command\n got %s\nwant %s", r.Provenance.Command, wantCmd)
	}
	if len(r.Provenance.Inputs) != 1 || len(r.Provenance.Inputs[0].SHA256) != 64 || len(r.Policy.SHA256) != 64 {
		t.Errorf("provenance %+v", r.Provenance)
	}
	args := strings.Fields(strings.TrimPrefix(wantCmd, "riskgate "))
	_, out2, _ := runMain(t, append(args, "--format", "json")...)
	var r2 result.Result
	if err := json.Unmarshal([]byte(out2), &r2); err != nil {
		t.Fatal(err)
	}
	d1, _ := json.Marshal(r.Decision)
	d2, _ := json.Marshal(r2.Decision)
	if !bytes.Equal(d1, d2) {
		t.Error("the replayed run decided differently")
	}
}

// The policy's inputs apply unless INPUT arguments and flags override them:
// the default policy cannot be used without INPUT, cheap.yaml can.
func TestGatePolicyInputs(t *testing.T) {
	t.Parallel()
	code, _, stderr := runMain(t, "gate")
	if code != exitError || !strings.Contains(stderr, "no INPUT given") {
		t.Errorf("no inputs: exit %d %q", code, stderr)
	}
	// cheap.yaml names ../gate_small.csv relative to itself; stdin replaces it.
	data, err := os.ReadFile(filepath.Join("testdata", "gate_small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runMainWithStdin(t, string(data), "gate", "--policy", filepath.Join("testdata", "gate", "cheap.yaml"), "--format", "json", "-")
	if code != exitPass {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	in := r.Provenance.Inputs
	if len(in) != 1 || in[0].Path != "-" || in[0].Bytes != int64(len(data)) || len(in[0].SHA256) != 64 {
		t.Errorf("standard input provenance %+v", in)
	}
}

// exampleArgs is the gate of the example with the progress lines and its
// reports written to out, run once (exampleRun) for the tests that read its
// output, reports or progress: the gate is deterministic, so they can share
// it (about 2 CPU-s a run).
func exampleArgs(out string) []string {
	return []string{"gate", "--example", "--progress", "--out", out}
}

// exampleGate is how the run of exampleArgs ended: its exit status, standard
// output (the table) and error, the folder it wrote its reports to (removed
// once read; its name is in the reports) and the reports' contents.
type exampleGate struct {
	code           int
	stdout, stderr string
	dir            string
	reports        map[string]string
}

// files returns a copy of the reports by file name.
func (e exampleGate) files() map[string]string { return maps.Clone(e.reports) }

// readExampleGate reads the reports exampleArgs(dir) wrote.
func readExampleGate(dir string) (map[string]string, error) {
	files := map[string]string{}
	for _, name := range report.FileNames {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		files[name] = string(data)
	}
	return files, nil
}

// exampleRun returns the run of exampleArgs, made once at the process's
// default GOMAXPROCS (runExample), and fails the test if it could not be made.
func exampleRun(t testing.TB) exampleGate {
	t.Helper()
	e, err := runExample()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var runExample = sync.OnceValues(func() (exampleGate, error) { return runExampleGate(exampleArgs) })

// exampleNoSweepArgs is the gate of the example without the --risk-sweep
// fits and bootstraps (a quarter of exampleArgs' CPU: the default policy's
// rules need one BRisk fit and one BCa bootstrap, at loss weight 2), its
// reports written to out; run once (exampleNoSweepRun) for the tests that
// read its result.
func exampleNoSweepArgs(out string) []string {
	return []string{"gate", "--example", "--risk-sweep", "", "--out", out}
}

// exampleNoSweepRun is exampleRun for exampleNoSweepArgs.
func exampleNoSweepRun(t testing.TB) exampleGate {
	t.Helper()
	e, err := runExampleNoSweep()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var runExampleNoSweep = sync.OnceValues(func() (exampleGate, error) { return runExampleGate(exampleNoSweepArgs) })

// runExampleGate runs riskgate with args(dir) into a new temporary folder
// dir, reads the reports it wrote there and removes it.
func runExampleGate(args func(dir string) []string) (exampleGate, error) {
	dir, err := os.MkdirTemp("", "riskgate-example-")
	if err != nil {
		return exampleGate{}, err
	}
	defer os.RemoveAll(dir)
	var out, errw bytes.Buffer
	e := exampleGate{dir: dir}
	e.code = mainWith(context.Background(), append([]string{"riskgate"}, args(dir)...), strings.NewReader(""), &out, &errw, testDeps())
	e.stdout, e.stderr = out.String(), errw.String()
	if e.reports, err = readExampleGate(dir); err != nil {
		return exampleGate{}, fmt.Errorf("%w (stderr %q)", err, e.stderr)
	}
	return e, nil
}

// The same inputs, policy and seed give the same result whatever GOMAXPROCS
// is: the example at the default GOMAXPROCS, and at 1 and 2 threads (each in
// a child process, runMainChild). Without the --risk-sweep (exampleNoSweepArgs):
// the sweep repeats, at other loss weights, the BRisk fit and the BCa
// bootstrap the default policy's rules run anyway — the same multi-chain,
// chunked procedures — and tripled the child's CPU (1.9 CPU-s against 0.5).
func TestGateDeterministic(t *testing.T) {
	t.Parallel()
	ex, procs := exampleNoSweepRun(t), runtime.GOMAXPROCS(0)
	first := normalizeRun(ex.reports["result.json"], ex.dir)
	for _, n := range []int{1, 2} {
		if n == procs {
			continue
		}
		dir := t.TempDir()
		c := runMainChild(t, []string{"GOMAXPROCS=" + strconv.Itoa(n)}, exampleNoSweepArgs(dir)...)
		if c.stdout != ex.stdout {
			t.Fatalf("output differs between GOMAXPROCS %d and %d:\n%s", procs, n, firstDiff(c.stdout, ex.stdout))
		}
		files, err := readExampleGate(dir)
		if err != nil {
			t.Fatal(err)
		}
		if out := normalizeRun(files["result.json"], dir); out != first {
			t.Fatalf("result differs between GOMAXPROCS %d and %d:\n%s", procs, n, firstDiff(out, first))
		}
	}
}

// A fit that does not converge, and a model that cannot be fitted, make the
// Bayesian rules inconclusive, never passing.
func TestGateBayesianFailsClosed(t *testing.T) {
	t.Parallel()
	small := filepath.Join("testdata", "gate_small.csv")
	var flat strings.Builder
	flat.WriteString("system,topic,score\n")
	for _, s := range []string{"prod", "cand-a", "art"} {
		for _, q := range []string{"q1", "q2", "q3"} {
			flat.WriteString(s + "," + q + ",0.5\n")
		}
	}
	for _, c := range []struct{ model, input, want string }{
		{"{max_rhat: 1.0000001, target_ess: 100}", small, "the Bayesian fit did not converge: R-hat of"},
		{"{target_ess: 100}", writeTemp(t, "flat.csv", flat.String()), "the hierarchical model could not be fitted: every score in the table is the same"},
	} {
		policy := writeTemp(t, "p.yaml", "version: 1\nname: t\nchampion: prod\nchallengers: [\"cand-*\"]\nmodel: "+c.model+
			"\nloss_weight: 2\nrules:\n  - {id: better, quantity: bayes.p_better, at_least: 0}\n  - {id: safe, quantity: brisk.p_riskier, at_most: 1}\n")
		code, out, stderr := runMain(t, "gate", "--policy", policy, "--format", "json", c.input)
		if code != exitInconclusive {
			t.Errorf("model %s: exit %d, want 3\n%s", c.model, code, stderr)
			continue
		}
		var r result.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		for _, ch := range r.Decision.Challengers {
			if rr := ch.Rules[0]; rr.Outcome != policies.OutcomeInconclusive || !strings.Contains(rr.Reason, c.want) {
				t.Errorf("model %s, %s: %s (%s); want inconclusive: %s", c.model, ch.Name, rr.Outcome, rr.Reason, c.want)
			}
			if rr := ch.Rules[1]; rr.Outcome != policies.OutcomeInconclusive {
				t.Errorf("model %s, %s: BRisk rule %s (%s); want inconclusive", c.model, ch.Name, rr.Outcome, rr.Reason)
			}
		}
	}
}

// Cells left missing (--topics keep) are modelled by the Bayesian fit and
// left out pair by pair in the other analyses.
func TestGateMissingCells(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "gate_small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if !strings.HasPrefix(l, "prod,q03,") {
			kept = append(kept, l)
		}
	}
	pool := writeTemp(t, "pool.csv", strings.Join(kept, "\n")+"\n")
	policy := writeTemp(t, "p.yaml", "version: 1\nname: t\nchampion: prod\nchallengers: [\"cand-*\"]\nloss_weight: 2\nmodel: {target_ess: 400}\n"+
		"requirements: {min_topic_coverage: 0.9}\nrules:\n  - {id: better, quantity: bayes.p_better, at_least: 0.5}\n  - {id: urisk, quantity: urisk, at_least: -1}\n")
	code, out, stderr := runMain(t, "gate", "--policy", policy, "--topics", "keep", "--format", "json", pool)
	if code == exitError {
		t.Fatalf("exit 2: %s", stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Data.MissingCells != 1 || float64(r.Data.TopicCoverage) != 11.0/12 {
		t.Errorf("missing %d, coverage %v; want 1 and 11/12", r.Data.MissingCells, r.Data.TopicCoverage)
	}
	if w := r.RiskTable.Systems[1].Wins; w == nil || *w+*r.RiskTable.Systems[1].Losses+*r.RiskTable.Systems[1].Ties != 11 {
		t.Errorf("cand-a should be compared on the 11 topics the champion has: %+v", r.RiskTable.Systems[1])
	}
	for _, ch := range r.Decision.Challengers {
		for _, rr := range ch.Rules {
			if rr.Outcome == policies.OutcomeInconclusive {
				t.Errorf("%s %s inconclusive: %s", ch.Name, rr.Rule, rr.Reason)
			}
		}
	}
}

// --progress writes one line per phase when standard error is not a
// terminal; without it nothing (TestGateCheapPolicyGolden checks stderr is empty).
// The memory estimate comes first (engine.EstimateMemory of the example:
// the runtime's 60 MB, the draws of the rule's fit and one sweep fit at
// once, predictive replicates, what the 4 fits keep, the bootstrap), then the default policy's rules (the paired t test,
// the BCa bound and the BRisk fit at its loss weight 2), then the
// --risk-sweep's fits and the risk sweep's BCa bounds, which say at which
// loss weights a rule passes.
func TestGateProgressLines(t *testing.T) {
	t.Parallel()
	ex := exampleRun(t)
	code, stderr := ex.code, ex.stderr
	want := "riskgate: memory estimate 82 MB (limit 4 GB)…\n" +
		"riskgate: running the significance tests…\n" +
		"riskgate: bootstrapping URisk at loss weight 2…\n" +
		"riskgate: fitting BRisk at loss weight 2 (44 systems × 50 topics)…\n" +
		"riskgate: fitting BRisk at loss weight 1 (44 systems × 50 topics)…\n" +
		"riskgate: fitting BRisk at loss weight 5 (44 systems × 50 topics)…\n" +
		"riskgate: fitting BRisk at loss weight 10 (44 systems × 50 topics)…\n" +
		"riskgate: bootstrapping URisk at loss weight 1…\n" +
		"riskgate: bootstrapping URisk at loss weight 5…\n" +
		"riskgate: bootstrapping URisk at loss weight 10…\n"
	if code == exitError || stderr != want {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// --risk-sweep adds BRisk fits for the risk-against-loss-weight plot only
// when a rule needs BRisk: the default policy's rules use w = 2, the sweep
// adds 1, 5 and 10 (w = 1 is a BRisk fit too, since the default policy has
// no raw-score fit); "" adds none; a bad list is a usage error.
func TestGateRiskSweep(t *testing.T) {
	t.Parallel()
	weightsOf := func(code int, out, stderr string) []float64 {
		t.Helper()
		if code == exitError {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var r result.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		var ws []float64
		for _, f := range r.BRisk {
			ws = append(ws, f.LossWeight)
		}
		return ws
	}
	weights := func(args ...string) []float64 {
		t.Helper()
		return weightsOf(runMain(t, append([]string{"gate", "--example", "--format", "json"}, args...)...))
	}
	ex := exampleRun(t) // the default sweep
	if got := weightsOf(ex.code, ex.reports["result.json"], ex.stderr); !slices.Equal(got, []float64{1, 2, 5, 10}) {
		t.Errorf("default sweep: BRisk at %v, want [1 2 5 10]", got)
	}
	noSweep := exampleNoSweepRun(t) // --risk-sweep ""
	if got := weightsOf(noSweep.code, noSweep.reports["result.json"], noSweep.stderr); !slices.Equal(got, []float64{2}) {
		t.Errorf("--risk-sweep \"\": BRisk at %v, want [2]", got)
	}
	if got := weights("--risk-sweep", "3"); !slices.Equal(got, []float64{2, 3}) {
		t.Errorf("--risk-sweep 3: BRisk at %v, want [2 3]", got)
	}
	code, out, stderr := runMain(t, "gate", "--example", "--risk-sweep", "1,x")
	checkOneLineError(t, code, out, stderr, `--risk-sweep "1,x": expected loss weights ≥ 1`)
}
