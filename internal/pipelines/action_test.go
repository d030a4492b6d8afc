package pipelines

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

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
	outputs  map[string]string        // the action's outputs
	status   map[string]int           // exit status of each run step, by id
	took     map[string]time.Duration // wall time of each run step, by id
	used     []string                 // the uses: steps that ran
	uploaded map[string]string        // the upload step's resolved with:, nil if skipped
	logs     string
}

// runAction runs the composite action's steps as the runner would: run
// steps as bash scripts with their env: resolved, each step's if:
// evaluated, uses: steps recorded. actions/cache/restore and save keep their
// directories in s.cache; the rest only record their with:. inputs override
// the defaults; github.action_ref is s.actionRef.
func runAction(t *testing.T, s *sandbox, inputs map[string]string, extraEnv map[string]string) actionRun {
	t.Helper()
	a := loadAction(t)
	stepOutputs := map[string]map[string]string{}
	var eval func(string) string
	exprRE := regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)
	value := func(expr string) string {
		switch {
		case expr == "github.action_ref":
			return s.actionRef
		case expr == "github.token":
			return fakeToken
		case expr == "runner.os":
			return "Linux"
		case expr == "runner.arch":
			return runnerArch()
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
	compareRE := regexp.MustCompile(`^(.+?)\s*(==|!=)\s*'(.*)'$`)
	cond := func(c string) bool {
		if c == "" {
			return !failed
		}
		ok, always := true, false
		for _, term := range strings.Split(c, "&&") {
			term = strings.TrimSpace(term)
			if term == "always()" {
				always = true
				continue
			}
			m := compareRE.FindStringSubmatch(term)
			if m == nil {
				t.Fatalf("unsupported condition %q", c)
			}
			ok = ok && (value(m[1]) == m[3]) == (m[2] == "==")
		}
		return ok && (always || !failed)
	}

	run := actionRun{status: map[string]int{}, took: map[string]time.Duration{}, outputs: map[string]string{}}
	runnerTemp := t.TempDir() // one per job, as on a runner
	for i, st := range a.Runs.Steps {
		if !cond(st.If) {
			continue
		}
		id := st.ID
		if id == "" {
			id = "step" + string(rune('0'+i))
		}
		if st.Uses != "" {
			run.used = append(run.used, st.Uses)
			with := map[string]string{}
			for k, v := range st.With {
				with[k] = eval(v)
			}
			action, _, _ := strings.Cut(st.Uses, "@")
			switch action {
			case "actions/upload-artifact":
				run.uploaded = with
			case "actions/cache/restore":
				hit := "false"
				if saved, ok := s.cache[with["key"]]; ok {
					if err := os.CopyFS(with["path"], os.DirFS(saved)); err != nil {
						t.Fatalf("cache restore: %v", err)
					}
					hit = "true"
				}
				stepOutputs[id] = map[string]string{"cache-hit": hit}
			case "actions/cache/save":
				saved := filepath.Join(s.root, "cache", fmt.Sprint(len(s.cache)))
				if err := os.CopyFS(saved, os.DirFS(with["path"])); err != nil {
					t.Fatalf("cache save of %s: %v", with["path"], err)
				}
				s.cache[with["key"]] = saved
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
			"RUNNER_TEMP":        runnerTemp,
			"RUNNER_OS":          "Linux",
		}
		for k, v := range extraEnv {
			env[k] = v
		}
		for k, v := range st.Env {
			env[k] = eval(v)
		}
		// The runner's bash: bash --noprofile --norc -eo pipefail {0}
		start := time.Now()
		code, out := s.run(env, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		run.took[id] = time.Since(start)
		run.logs += out
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

// runnerArch is runner.arch on this machine.
func runnerArch() string {
	return map[string]string{"amd64": "X64", "arm64": "ARM64", "386": "X86", "arm": "ARM"}[runtime.GOARCH]
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

// A branch (the default here: s.actionRef is main) builds the action's own
// source with go install, stamped with the ref.
func TestActionRunsTheGate(t *testing.T) {
	t.Parallel()
	s := newSandbox(t)
	s.write("runs/a.csv", "x")
	s.write("runs/b.csv", "x")
	run := runAction(t, s, map[string]string{
		"policy": "policies/release.yaml",
		"inputs": "runs/*.csv\nextra.csv",
		"args":   "--champion\nbm25\n--challenger\nexp-*",
	}, nil)

	goCalls := s.calls("go")
	if len(goCalls) != 1 || !slices.Equal(goCalls[0][:4], []string{"install", "-ldflags", "-X github.com/riskgate/riskgate/internal/buildinfo.version=main", "./cmd/riskgate"}) ||
		goCalls[0][4] != "cwd="+mustAbs(t, repoRoot) {
		t.Errorf("go install calls %q, want the action's own source at its ref", goCalls)
	}
	if !slices.ContainsFunc(run.used, func(u string) bool { return strings.HasPrefix(u, "actions/setup-go@") }) {
		t.Errorf("a source build sets up Go: used %q", run.used)
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

// Only a release is downloaded: a branch, a commit or a local action
// (`uses: ./`, no ref) is built from source; the version input builds a
// module version that is no release.
func TestActionBuildsFromSourceForBranchesAndCommits(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ ref, version, wantStamp, wantModule string }{
		{ref: "main", wantStamp: "main"},
		{ref: "release/1.x", wantStamp: "release/1.x"},
		{ref: "0123456789abcdef0123456789abcdef01234567", wantStamp: "0123456789abcdef0123456789abcdef01234567"},
		{ref: "", wantStamp: "local"},
		{ref: "v1.2.3", version: "main", wantModule: "github.com/riskgate/riskgate/cmd/riskgate@main"},
	} {
		s := newSandbox(t)
		s.actionRef = c.ref
		run := runAction(t, s, map[string]string{"version": c.version, "args": "--example"}, nil)
		goCalls := s.calls("go")
		var ok bool
		if c.wantModule != "" {
			ok = len(goCalls) == 1 && slices.Equal(goCalls[0][:2], []string{"install", c.wantModule})
		} else {
			ok = len(goCalls) == 1 && slices.Equal(goCalls[0][:3], []string{"install", "-ldflags", "-X github.com/riskgate/riskgate/internal/buildinfo.version=" + c.wantStamp})
		}
		if !ok || run.status["gate"] != 0 {
			t.Errorf("ref %q, version %q: go calls %q, gate status %d", c.ref, c.version, goCalls, run.status["gate"])
		}
		if slices.ContainsFunc(run.used, func(u string) bool { return strings.HasPrefix(u, "actions/cache/") }) {
			t.Errorf("ref %q: a source build is not cached: used %q", c.ref, run.used)
		}
	}
}

// args and inputs take one item per line, passed as they are: a name with
// a space and a glob (rb04's "Chal. *") reaches riskgate as one argument.
// A single line is split at spaces, as before.
func TestActionArgsOnePerLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, args, inputs string
		want               []string
	}{
		{"per-line", "--champion\nChampion\n--challenger\nChal. *\n", "",
			[]string{"--champion", "Champion", "--challenger", "Chal. *"}},
		{"flag=value", "--champion=Champion\r\n  --challenger=Chal. *  \r\n\n", "",
			[]string{"--champion=Champion", "--challenger=Chal. *"}},
		{"single-line", "--champion bm25 --challenger exp-*", "",
			[]string{"--champion", "bm25", "--challenger", "exp-*"}},
		{"single-line-block", "  --example\n", "", []string{"--example"}},
		{"empty", "", "", nil},
		{"inputs", "", "runs/a b.csv\nruns/c*.csv\nmissing *.csv",
			[]string{"runs/a b.csv", "runs/c 1.csv", "runs/c2.csv", "missing *.csv"}},
		{"inputs-single-line", "", "runs/c*.csv runs/x.csv", []string{"runs/c 1.csv", "runs/c2.csv", "runs/x.csv"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSandbox(t)
			// Files that a glob expanded by mistake would match.
			for _, f := range []string{"Chal. 1", "Chal. 2", "exp-1", "runs/a b.csv", "runs/c 1.csv", "runs/c2.csv"} {
				s.write(f, "x")
			}
			run := runAction(t, s, map[string]string{"args": c.args, "inputs": c.inputs, "artifact-name": ""}, nil)
			calls := s.calls("riskgate")
			want := append([]string{"gate", "--out", "riskgate-report", "--github", "--comment-mode", "always", "--artifact-name", ""}, c.want...)
			if run.status["gate"] != 0 || len(calls) != 1 || !slices.Equal(calls[0], want) {
				t.Errorf("riskgate calls:\n got %q\nwant %q", calls, want)
			}
		})
	}
}

func TestActionFailingGateStillUploads(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	s := newSandbox(t)
	run := runAction(t, s, map[string]string{
		"args":            `$(touch pwned-args) ; echo "x" && touch pwned-and`,
		"inputs":          "`touch pwned-inputs`",
		"version":         "main",
		"require-publish": "true",
		"comment-mode":    "off",
		"comment-author":  "$(touch pwned-author) x[bot]",
		"publish-timeout": "$(touch pwned-timeout) 1m",
		"token":           "",
		"artifact-name":   "",
	}, nil)
	for _, f := range []string{"pwned-args", "pwned-and", "pwned-inputs", "pwned-author", "pwned-timeout"} {
		if _, err := os.Stat(filepath.Join(s.dir, f)); err == nil {
			t.Errorf("an input ran shell code (%s exists)", f)
		}
	}
	want := []string{"gate", "--out", "riskgate-report", "--github", "--comment-mode", "off", "--artifact-name", "", "--require-publish",
		"--comment-author", "$(touch pwned-author) x[bot]", "--publish-timeout", "$(touch pwned-timeout) 1m", "$(touch", "pwned-args)", ";", "echo", `"x"`, "&&", "touch", "pwned-and", "`touch", "pwned-inputs`"}
	if calls := s.calls("riskgate"); len(calls) != 1 || !slices.Equal(calls[0], want) {
		t.Errorf("riskgate calls:\n got %q\nwant %q", calls, want)
	}
	if goCalls := s.calls("go"); len(goCalls) != 1 || goCalls[0][1] != "github.com/riskgate/riskgate/cmd/riskgate@main" {
		t.Errorf("version input: go calls %q", goCalls)
	}
	if s.tokenSet() != "no" || run.uploaded != nil {
		t.Errorf("empty token and artifact name: token set %q, upload %v", s.tokenSet(), run.uploaded)
	}
}

// A version (or an action ref) that is neither a release nor a plain ref
// name stops the action before anything is installed or run.
func TestActionRejectsAStrangeVersion(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"v1.2.3; touch pwned", "$(touch pwned)", "main\n::error::injected"} {
		s := newSandbox(t)
		run := runAction(t, s, map[string]string{"version": version}, nil)
		if run.status["resolve"] != 2 || s.calls("go") != nil || s.calls("curl") != nil || s.calls("riskgate") != nil {
			t.Errorf("version %q: status %v; go %q, curl %q, riskgate %q", version, run.status, s.calls("go"), s.calls("curl"), s.calls("riskgate"))
		}
		if _, err := os.Stat(filepath.Join(s.dir, "pwned")); err == nil {
			t.Errorf("version %q ran shell code", version)
		}
		if strings.Contains(run.logs, "injected") {
			t.Errorf("version %q reached the log:\n%s", version, run.logs)
		}
	}
}

// actionlint checks the workflows' scripts (with shellcheck, when
// installed) but not a composite action's: shellcheck checks them here.
func TestActionScriptsShellcheck(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Skip("shellcheck is not installed (Debian: apt-get install shellcheck)")
	}
	for _, st := range loadAction(t).Runs.Steps {
		if st.Run == "" {
			continue
		}
		script := filepath.Join(t.TempDir(), "step.sh")
		os.WriteFile(script, []byte("#!/usr/bin/env bash\n"+st.Run), 0o644)
		if out, err := exec.Command("shellcheck", "--shell=bash", script).CombinedOutput(); err != nil {
			t.Errorf("step %q: shellcheck: %v\n%s", st.Name, err, out)
		}
	}
}
