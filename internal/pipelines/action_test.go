package pipelines

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

type step struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

func loadAction(t *testing.T) action {
	t.Helper()
	var a action
	if err := yaml.Unmarshal([]byte(readRepoFile(t, "action.yml")), &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using %q, want composite", a.Runs.Using)
	}
	return a
}

// actionRun is what running the action's steps did.
type actionRun struct {
	outputs  map[string]string // the action's outputs
	status   map[string]int    // exit status of each run step, by id
	uploaded map[string]string // the upload step's resolved with:, nil if skipped
	logs     string
}

// runAction runs the composite action's steps as the runner would: run
// steps as bash scripts with their env: resolved, uses: steps recorded, each
// step's if: evaluated. inputs override the defaults.
func runAction(t *testing.T, s *sandbox, inputs map[string]string, extraEnv map[string]string) actionRun {
	t.Helper()
	a := loadAction(t)
	stepOutputs := map[string]map[string]string{}
	var eval func(string) string
	exprRE := regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	value := func(expr string) string {
		switch {
		case expr == "github.action_ref":
			return "v9.9.9"
		case expr == "github.token":
			return fakeToken
		case strings.HasPrefix(expr, "inputs."):
			name := strings.TrimPrefix(expr, "inputs.")
			in, ok := a.Inputs[name]
			if !ok {
				t.Fatalf("action.yml uses undefined input %q", name)
			}
			if v, ok := inputs[name]; ok {
				return v
			}
			return eval(in.Default)
		case strings.HasPrefix(expr, "steps."):
			parts := strings.Split(expr, ".")
			if len(parts) != 4 || parts[2] != "outputs" {
				t.Fatalf("unsupported expression %q", expr)
			}
			return stepOutputs[parts[1]][parts[3]]
		}
		t.Fatalf("unsupported expression %q", expr)
		return ""
	}
	eval = func(s string) string {
		return exprRE.ReplaceAllStringFunc(s, func(m string) string { return value(exprRE.FindStringSubmatch(m)[1]) })
	}
	failed := false
	cond := func(c string) bool {
		if c == "" {
			return !failed
		}
		ok, always := true, false
		for _, term := range strings.Split(c, "&&") {
			term = strings.TrimSpace(term)
			switch {
			case term == "always()":
				always = true
			case strings.HasSuffix(term, "!= ''"):
				ok = ok && value(strings.TrimSpace(strings.TrimSuffix(term, "!= ''"))) != ""
			default:
				t.Fatalf("unsupported condition %q", c)
			}
		}
		return ok && (always || !failed)
	}

	run := actionRun{status: map[string]int{}, outputs: map[string]string{}}
	for i, st := range a.Runs.Steps {
		if !cond(st.If) {
			continue
		}
		if st.Uses != "" {
			with := map[string]string{}
			for k, v := range st.With {
				with[k] = eval(v)
			}
			if strings.HasPrefix(st.Uses, "actions/upload-artifact@") {
				run.uploaded = with
			}
			continue
		}
		if strings.Contains(st.Run, "${{") {
			t.Errorf("step %q puts an expression in its script; pass it through env: instead", st.Name)
		}
		if st.Shell != "bash" {
			t.Errorf("step %q: shell %q, want bash", st.Name, st.Shell)
		}
		script := filepath.Join(t.TempDir(), "step.sh")
		os.WriteFile(script, []byte(st.Run), 0o644)
		outFile := filepath.Join(t.TempDir(), "output")
		os.WriteFile(outFile, nil, 0o644)
		env := map[string]string{
			"GITHUB_OUTPUT":      outFile,
			"GITHUB_ACTION_PATH": mustAbs(t, repoRoot),
			"GITHUB_WORKSPACE":   s.dir,
			"RUNNER_TEMP":        t.TempDir(),
		}
		for k, v := range extraEnv {
			env[k] = v
		}
		for k, v := range st.Env {
			env[k] = eval(v)
		}
		// The runner's bash: bash --noprofile --norc -eo pipefail {0}
		code, out := s.run(env, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		run.logs += out
		id := st.ID
		if id == "" {
			id = "step" + string(rune('0'+i))
		}
		run.status[id] = code
		data, _ := os.ReadFile(outFile)
		stepOutputs[id] = parseOutputs(string(data))
		if code != 0 {
			failed = true
		}
	}
	for name, o := range a.Outputs {
		run.outputs[name] = eval(o.Value)
	}
	return run
}

func mustAbs(t *testing.T, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// parseOutputs reads name=value lines and name<<DELIM blocks.
func parseOutputs(text string) map[string]string {
	out := map[string]string{}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if name, delim, ok := strings.Cut(lines[i], "<<"); ok {
			var v []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				v = append(v, lines[i])
			}
			out[name] = strings.Join(v, "\n")
		} else if name, v, ok := strings.Cut(lines[i], "="); ok {
			out[name] = v
		}
	}
	return out
}

func TestActionRunsTheGate(t *testing.T) {
	s := newSandbox(t)
	s.write("runs/a.csv", "x")
	s.write("runs/b.csv", "x")
	run := runAction(t, s, map[string]string{
		"policy": "policies/release.yaml",
		"inputs": "runs/*.csv\nextra.csv",
		"args":   "--champion bm25\n--challenger exp-*",
	}, nil)

	goCalls := s.calls("go")
	if len(goCalls) != 1 || !slices.Equal(goCalls[0][:4], []string{"install", "-ldflags", "-X github.com/riskgate/riskgate/internal/buildinfo.version=v9.9.9", "./cmd/riskgate"}) ||
		goCalls[0][4] != "cwd="+mustAbs(t, repoRoot) {
		t.Errorf("go install calls %q, want the action's own source at its ref", goCalls)
	}
	want := []string{"gate", "--out", "riskgate-report", "--github", "--comment-mode", "always", "--artifact-name", "riskgate-report",
		"--policy", "policies/release.yaml", "--champion", "bm25", "--challenger", "exp-*", "runs/a.csv", "runs/b.csv", "extra.csv"}
	if calls := s.calls("riskgate"); len(calls) != 1 || !slices.Equal(calls[0], want) {
		t.Errorf("riskgate calls:\n got %q\nwant %q", calls, want)
	}
	if s.tokenSet() != "yes" {
		t.Error("GITHUB_TOKEN was not passed to riskgate")
	}
	wantOut := map[string]string{"verdict": "pass", "exit-code": "0", "report-json": "riskgate-report/result.json", "report-md": "riskgate-report/report.md"}
	for k, v := range wantOut {
		if run.outputs[k] != v {
			t.Errorf("output %s = %q, want %q", k, run.outputs[k], v)
		}
	}
	if run.uploaded["name"] != "riskgate-report" || run.uploaded["path"] != "riskgate-report" {
		t.Errorf("upload %v", run.uploaded)
	}
	if strings.Contains(run.logs, fakeToken) {
		t.Error("the step logs show the token")
	}
}

func TestActionFailingGateStillUploads(t *testing.T) {
	s := newSandbox(t)
	run := runAction(t, s, nil, map[string]string{"STUB_EXIT": "1", "STUB_VERDICT": "fail"})
	if run.status["gate"] != 1 || run.outputs["verdict"] != "fail" || run.outputs["exit-code"] != "1" {
		t.Errorf("a failing gate: status %v, outputs %v; want the step to fail with the verdict set", run.status, run.outputs)
	}
	if run.uploaded == nil {
		t.Error("the report must be uploaded when the gate fails")
	}
	if calls := s.calls("riskgate"); len(calls) != 1 || slices.Contains(calls[0], "--policy") {
		t.Errorf("no policy input should mean no --policy: %q", calls)
	}
}

func TestActionInputsCannotInjectShell(t *testing.T) {
	s := newSandbox(t)
	run := runAction(t, s, map[string]string{
		"args":            `$(touch pwned-args) ; echo "x" && touch pwned-and`,
		"inputs":          "`touch pwned-inputs`",
		"version":         "v1.2.3",
		"require-publish": "true",
		"comment-mode":    "off",
		"token":           "",
		"artifact-name":   "",
	}, nil)
	for _, f := range []string{"pwned-args", "pwned-and", "pwned-inputs"} {
		if _, err := os.Stat(filepath.Join(s.dir, f)); err == nil {
			t.Errorf("an input ran shell code (%s exists)", f)
		}
	}
	want := []string{"gate", "--out", "riskgate-report", "--github", "--comment-mode", "off", "--artifact-name", "", "--require-publish",
		"$(touch", "pwned-args)", ";", "echo", `"x"`, "&&", "touch", "pwned-and", "`touch", "pwned-inputs`"}
	if calls := s.calls("riskgate"); len(calls) != 1 || !slices.Equal(calls[0], want) {
		t.Errorf("riskgate calls:\n got %q\nwant %q", calls, want)
	}
	if goCalls := s.calls("go"); len(goCalls) != 1 || goCalls[0][1] != "github.com/riskgate/riskgate/cmd/riskgate@v1.2.3" {
		t.Errorf("version input: go calls %q", goCalls)
	}
	if s.tokenSet() != "no" || run.uploaded != nil {
		t.Errorf("empty token and artifact name: token set %q, upload %v", s.tokenSet(), run.uploaded)
	}
}
