package gate

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

const discriminatePool = "discriminate/testdata/r/pool.csv"

// riskgate discriminate on a score file of three measures, every format;
// the numbers are gate/discriminate's (checked there against R).
func TestDiscriminateCommand(t *testing.T) {
	t.Parallel()
	args := []string{"discriminate", "-m", "alpha", "-m", "beta", "--measure", "coarse", discriminatePool}
	status, out, errs := runMain(t, args...)
	if status != 0 || !strings.Contains(out, "3 measures, 12 systems (66 pairs), 25 topics; Student's paired t test") ||
		!strings.Contains(out, "   1  alpha                  0.5000           33 of 66") {
		t.Fatalf("status %d, stderr %q, output:\n%s", status, errs, out)
	}
	status, out, _ = runMain(t, append(args, "--format", "json", "--test", "bootstrap", "--samples", "200", "--seed", "3")...)
	var rep struct {
		Test     string
		B        int
		Measures []struct{ Name string }
	}
	if status != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Test != "bootstrap" || rep.B != 200 || len(rep.Measures) != 3 {
		t.Errorf("json: status %d, %+v", status, rep)
	}
	status, out, _ = runMain(t, append(args, "--format", "html")...)
	if status != 0 || !strings.HasPrefix(out, "<!DOCTYPE html>") || !strings.Contains(out, "<svg") || !strings.Contains(out, "ASL curves") {
		t.Errorf("html: status %d, %.200s", status, out)
	}
	dir := t.TempDir()
	status, _, _ = runMain(t, append(args, "--format", "csv", "-o", filepath.Join(dir, "d.csv"))...)
	if status != 0 {
		t.Errorf("-o: status %d", status)
	}
}

// Bad settings and inputs: one line naming the flag or file, exit 2.
func TestDiscriminateBadInput(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--test", "sign"}, `--test "sign": expected one of t, bootstrap, tukey`},
		{[]string{"--alpha", "0"}, "--alpha 0: expected a significance level between 0 and 1"},
		{[]string{"--test", "bootstrap", "--samples", "5"}, "-B 5: expected from 100"},
		{[]string{"--format", "pdf"}, `--format "pdf": expected one of table, md, json, csv, html`},
		{[]string{"-m", "alpha", "-m", "alphq"}, `no scores of measure "alphq" (--measure); did you mean "alpha"?`},
		{[]string{"-m", "alpha", "-m", "alpha"}, "name one measure (alpha)"},
	} {
		code, out, errs := runMain(t, append(append([]string{"discriminate"}, c.args...), discriminatePool)...)
		checkOneLineError(t, code, out, errs, c.want)
	}
	code, out, errs := runMain(t, "discriminate", discriminatePool)
	checkOneLineError(t, code, out, errs, "no --measure given")
	code, out, errs = runMain(t, "discriminate", "-m", "alpha", "-m", "beta", "-")
	checkOneLineError(t, code, out, errs, "standard input (-) can be read only once")
}

// riskgate help measures: the registry's topic.
func TestHelpMeasures(t *testing.T) {
	t.Parallel()
	status, out, _ := runMain(t, "help", "measures")
	for _, want := range []string{"ntcir:nDCG@10 is Järvelin and Kekäläinen's original nDCG", "nDCG@k = ndcg_cut.k", "nERR@k ", "P+ "} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("status %d; output lacks %q", status, want)
		}
	}
}

// eval's NTCIREVAL parameters: a bad one is one line naming it, exit 2.
func TestEvalNTCIREVALParameters(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-g", "1:0", "-m", "Q"}, `option -g: gains "1:0": level 2's gain is 0`},
		{[]string{"-g", "1:two", "-m", "Q"}, `level 2's gain "two" is not a number`},
		{[]string{"-m", "Q(beta=0)"}, "beta = 0; expected a number > 0"},
		{[]string{"-m", "RBP(p=1)"}, "persistence p = 1; expected 0 < p < 1"},
		{[]string{"-m", "nERR@0"}, `cutoff "0": 0 ranks measure nothing`},
		{[]string{"-m", "Q", "-g", "1"}, "qrels.txt:1: relevance level 2, but -g 1 gives gains to levels 1 to 1 only"},
	} {
		code, out, errs := runMain(t, append(append([]string{"eval"}, c.args...), "../examples/tiny/qrels.txt", "../examples/tiny/run_a.txt")...)
		checkOneLineError(t, code, out, errs, c.want)
	}
}

// A gate decides on NTCIREVAL's measures of runs + qrels: a Q-measure rule
// and nERR@10 (a guardrail, once a policy can name several measures) each
// run on robust03's public runs and decide.
func TestGateOnNTCIREVALMeasures(t *testing.T) {
	if testing.Short() {
		t.Skip("fits the model twice on robust03 (seconds)")
	}
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03")
	runs, _ := filepath.Glob(filepath.Join(dir, "runs", "*.run"))
	for _, m := range []struct{ measure, table string }{{"Q", "of Q"}, {"nERR@10", "of nERR@&#8203;10"}} {
		args := append([]string{"gate", "--champion", "NLPR03vb10", "--challenger", "pircRBa1", "--qrels", filepath.Join(dir, "qrels.txt"),
			"--measure", m.measure, "--dry-run", "--format", "md"}, runs...)
		status, out, errs := runMain(t, args...)
		if status != 0 || !strings.Contains(out, "100 topic(s) "+m.table) || !strings.Contains(out, "riskgate: **") {
			t.Errorf("--measure %s: status %d, stderr %q, output:\n%.600s", m.measure, status, errs, out)
		}
	}
}
