package gate

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

const examples = "../policies/examples/"

func TestPolicyValidate(t *testing.T) {
	t.Parallel()
	code, out, errw := runMain(t, "policy", "validate", examples+"release-gate.yaml", examples+"pr-check.yaml", examples+"research.yaml", "../policies/starter.yaml")
	if code != exitPass || errw != "" {
		t.Fatalf("exit %d, stderr %q", code, errw)
	}
	checkGolden(t, "policy/validate-examples.golden", out)

	// Bad files: every problem, one line each, and exit status 2; the good file is still reported.
	code, out, errw = runMain(t, "policy", "validate", "../policies/testdata/errors/enum-typo.yaml", examples+"pr-check.yaml", "../policies/testdata/errors/no-bound.yaml")
	if code != exitError {
		t.Errorf("exit %d", code)
	}
	checkGolden(t, "policy/validate-errors.golden", "stdout:\n"+out+"stderr:\n"+errw)

	code, _, errw = runMain(t, "policy", "validate")
	if code != exitError || !strings.Contains(errw, "name at least one policy FILE") {
		t.Errorf("no file: exit %d, %q", code, errw)
	}
	code, _, errw = runMain(t, "policy", "validate", "no-such.yaml")
	if code != exitError || !strings.Contains(errw, "no-such.yaml") {
		t.Errorf("missing file: exit %d, %q", code, errw)
	}
	code, out, _ = runMainWithStdin(t, string(policies.Starter()), "policy", "validate", "-")
	if code != exitPass || !strings.HasPrefix(out, "<stdin>: valid policy \"default\"") {
		t.Errorf("stdin: exit %d, %q", code, out)
	}
}

func TestPolicyValidateWarnings(t *testing.T) {
	t.Parallel()
	src := "version: 1\nname: w\nrules: [{id: t, quantity: tests.sign.p, at_most: 0.05}]\n" +
		"waivers: [{rule: t, challenger: c, reason: r, approver: a, expires: 2020-01-01}]\n"
	code, _, errw := runMainWithStdin(t, src, "policy", "validate", "-")
	if code != exitPass {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		"riskgate: warning: <stdin>:4:11: waiver of rule t for c expired on 2020-01-01",
		"riskgate: warning: <stdin>:3:9: rule t bounds a two-sided p-value from above",
	} {
		if !strings.Contains(errw, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errw)
		}
	}
}

func TestPolicyExplain(t *testing.T) {
	t.Parallel()
	code, out, errw := runMain(t, "policy", "explain")
	if code != exitPass || errw != "" {
		t.Fatalf("exit %d, %q", code, errw)
	}
	checkGolden(t, "policy/explain-default.golden", out)
	code, out, _ = runMain(t, "policy", "explain", examples+"pr-check.yaml")
	if code != exitPass || !strings.Contains(out, "This policy is advisory") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, _, errw = runMain(t, "policy", "explain", "a.yaml", "b.yaml")
	if code != exitError || !strings.Contains(errw, "give one policy FILE") {
		t.Errorf("two files: exit %d %q", code, errw)
	}
	code, _, errw = runMain(t, "policy", "explain", "../policies/testdata/errors/unknown-quantity.yaml")
	if code != exitError || !strings.HasPrefix(errw, "riskgate: ../policies/testdata/errors/unknown-quantity.yaml:7:15: rules[0].quantity: unknown quantity") {
		t.Errorf("bad file: exit %d %q", code, errw)
	}
}

func TestPolicySchema(t *testing.T) {
	t.Parallel()
	code, out, _ := runMain(t, "policy", "schema")
	if code != exitPass || out != string(policies.Schema()) {
		t.Errorf("exit %d; output differs from policies.Schema()", code)
	}
}

func TestPolicyInit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "p.yaml")
	code, out, errw := runMain(t, "policy", "init", file)
	if code != exitPass || !strings.HasPrefix(out, "wrote "+file) {
		t.Fatalf("exit %d, %q %q", code, out, errw)
	}
	data, err := os.ReadFile(file)
	if err != nil || !bytes.Equal(data, policies.Starter()) {
		t.Fatalf("written file differs from the starter: %v", err)
	}
	if code, _, errw := runMain(t, "policy", "validate", file); code != exitPass {
		t.Errorf("the starter does not validate: %s", errw)
	}

	// Never overwrite without --force.
	if err := os.WriteFile(file, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errw = runMain(t, "policy", "init", file)
	if code != exitError || !strings.Contains(errw, "already exists; use --force") {
		t.Errorf("exit %d %q", code, errw)
	}
	if data, _ := os.ReadFile(file); string(data) != "mine\n" {
		t.Error("init overwrote a file without --force")
	}
	code, _, _ = runMain(t, "policy", "init", "--force", file)
	if data, _ := os.ReadFile(file); code != exitPass || !bytes.Equal(data, policies.Starter()) {
		t.Errorf("--force did not overwrite: exit %d", code)
	}
	// No temporary files left behind.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries", len(entries))
	}

	code, out, _ = runMain(t, "policy", "init", "-")
	if code != exitPass || out != string(policies.Starter()) {
		t.Errorf("init - : exit %d", code)
	}
	code, _, errw = runMain(t, "policy", "init", filepath.Join(dir, "no-such-dir", "p.yaml"))
	if code != exitError || errw == "" {
		t.Errorf("unwritable: exit %d %q", code, errw)
	}
}

func TestPolicyInitDefaultName(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	if code, _, errw := runMain(t, "policy", "init"); code != exitPass {
		t.Fatalf("exit %d %q", code, errw)
	}
	if _, err := os.Stat(defaultPolicyFile); err != nil {
		t.Error(err)
	}
}

// The policy's inputs.format and inputs.topics accept what the flags accept.
func TestPolicyInputValuesMatchFlags(t *testing.T) {
	t.Parallel()
	var topics []string
	for _, m := range scores.TopicModes {
		topics = append(topics, string(m))
	}
	if !slices.Equal(policies.TopicModes, topics) {
		t.Errorf("policies.TopicModes %v, scores.TopicModes %v", policies.TopicModes, topics)
	}
	var o inputOptions
	found := false
	for _, f := range o.flags() {
		if f.Names()[0] != "input-format" {
			continue
		}
		found = true
		usage := f.(interface{ GetUsage() string }).GetUsage()
		_, list, _ := strings.Cut(usage, ": ")
		list, _, _ = strings.Cut(list, " (")
		if got := strings.Join(policies.InputFormats, ", "); list != got {
			t.Errorf("--input-format takes %q, policies take %q", list, got)
		}
	}
	if !found {
		t.Error("no --input-format flag among the input flags")
	}
}
