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

type workflow struct {
	Name        string            `yaml:"name"`
	On          yaml.Node         `yaml:"on"`
	Permissions map[string]string `yaml:"permissions"`
	Jobs        map[string]struct {
		If    string `yaml:"if"`
		Steps []step `yaml:"steps"`
	} `yaml:"jobs"`
}

func loadWorkflow(t *testing.T, name string) workflow {
	t.Helper()
	var w workflow
	if err := yaml.Unmarshal([]byte(readRepoFile(t, filepath.Join(".github/workflows", name))), &w); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return w
}

func stepNamed(t *testing.T, w workflow, job, name string) step {
	t.Helper()
	for _, s := range w.Jobs[job].Steps {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("workflow %q job %s has no step %q", w.Name, job, name)
	return step{}
}

func TestCIWorkflowRunsCIScript(t *testing.T) {
	t.Parallel()
	w := loadWorkflow(t, "ci.yml")
	found := false
	for _, s := range w.Jobs["test"].Steps {
		found = found || strings.TrimSpace(s.Run) == ".ci/run"
	}
	if !found {
		t.Error("ci.yml must run .ci/run")
	}
	ci := readRepoFile(t, ".ci/run")
	if !regexp.MustCompile(`\nactionlint_version=v\d+\.\d+\.\d+\n`).MatchString(ci) || !strings.Contains(ci, "go install \"github.com/rhysd/actionlint/cmd/actionlint@${actionlint_version}\"") {
		t.Error(".ci/run must install a pinned actionlint through the Go module proxy")
	}
	// The suite runs with an explicit timeout and ends with the summary of
	// skipped tests; pipefail keeps go test's status as the script's.
	suite := regexp.MustCompile(`(?m)^go test -json -timeout \d+m \./\.\.\. \| go run \./internal/testsummary$`)
	if !suite.MatchString(ci) || !strings.Contains(ci, "set -o pipefail\n") {
		t.Error(".ci/run must end with go test -json -timeout Nm ./... | go run ./internal/testsummary, under set -o pipefail")
	}
}

// No workflow script may expand ${{ }} itself: untrusted values (branch
// names, titles) would become shell code. They go through env: instead.
func TestWorkflowScriptsTakeNoExpressions(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(repoRoot, ".github/workflows/*.yml"))
	if len(files) < 4 {
		t.Fatalf("workflows: %v", files)
	}
	for _, f := range files {
		w := loadWorkflow(t, filepath.Base(f))
		for job, j := range w.Jobs {
			for _, s := range j.Steps {
				if strings.Contains(s.Run, "${{") {
					t.Errorf("%s job %s step %q expands an expression in its script", filepath.Base(f), job, s.Name)
				}
			}
		}
	}
}

func TestForkPattern(t *testing.T) {
	t.Parallel()
	compute := loadWorkflow(t, "riskgate-fork-compute.yml")
	publish := loadWorkflow(t, "riskgate-fork-publish.yml")

	if len(compute.Permissions) != 1 || compute.Permissions["contents"] != "read" {
		t.Errorf("the compute workflow must be unprivileged: %v", compute.Permissions)
	}
	for _, p := range []string{"pull-requests", "checks", "statuses"} {
		if publish.Permissions[p] != "write" {
			t.Errorf("the publish workflow needs %s: write", p)
		}
	}
	var on struct {
		WorkflowRun struct {
			Workflows []string `yaml:"workflows"`
			Types     []string `yaml:"types"`
		} `yaml:"workflow_run"`
	}
	publish.On.Decode(&on)
	if !slices.Equal(on.WorkflowRun.Workflows, []string{compute.Name}) || !slices.Equal(on.WorkflowRun.Types, []string{"completed"}) {
		t.Errorf("the publish workflow must run when %q completes: %+v", compute.Name, on)
	}
	for _, s := range publish.Jobs["publish"].Steps {
		if strings.HasPrefix(s.Uses, "actions/checkout@") && s.With["ref"] != "" {
			t.Errorf("the privileged job checks out %q; it must never run the pull request's code", s.With["ref"])
		}
	}
	upload := stepNamed(t, compute, "compute", "Upload the result")
	download := stepNamed(t, publish, "publish", "Download the result")
	if upload.With["name"] != download.With["name"] || upload.With["path"] != "riskgate-result" {
		t.Errorf("artifact uploaded as %v, downloaded as %v", upload.With, download.With)
	}

	// Run both scripts against the stub: the compute job records the pull
	// request; the publish job passes on its digits only.
	s := newSandbox(t)
	s.installRiskgate()
	run := stepNamed(t, compute, "compute", "Run the gate")
	code, out := s.run(map[string]string{"PR_NUMBER": "7"}, "bash", "-eo", "pipefail", "-c", run.Run)
	if code != 0 {
		t.Fatalf("compute script: exit %d\n%s", code, out)
	}
	if got := s.calls("riskgate"); len(got) != 1 || !slices.Equal(got[0], []string{"gate", "--example", "--out", "riskgate-result"}) {
		t.Errorf("compute: riskgate calls %q", got)
	}
	data, _ := os.ReadFile(filepath.Join(s.dir, "riskgate-result/pull-request"))
	if string(data) != "7\n" {
		t.Errorf("pull-request file %q", data)
	}
	os.WriteFile(filepath.Join(s.dir, "riskgate-result/pull-request"), []byte("7; rm -rf / $(id)\n"), 0o644)
	pub := stepNamed(t, publish, "publish", "Publish")
	code, out = s.run(map[string]string{"GITHUB_TOKEN": fakeToken}, "bash", "-eo", "pipefail", "-c", pub.Run)
	want := []string{"publish", "--from", "riskgate-result/result.json", "--pull-request", "7", "--comment-mode", "on-change"}
	if got := s.calls("riskgate"); code != 0 || len(got) != 2 || !slices.Equal(got[1], want) {
		t.Errorf("publish: exit %d, riskgate calls %q, want %q\n%s", code, got, want, out)
	}
	if strings.Contains(out, fakeToken) || s.tokenSet() != "yes" {
		t.Errorf("publish: token shown or not passed:\n%s", out)
	}
}

func TestPRExampleUsesTheAction(t *testing.T) {
	t.Parallel()
	w := loadWorkflow(t, "riskgate-pr.yml")
	a := loadAction(t)
	for _, p := range []string{"pull-requests", "checks", "statuses"} {
		if w.Permissions[p] != "write" {
			t.Errorf("the PR gate needs %s: write", p)
		}
	}
	st := stepNamed(t, w, "gate", "riskgate")
	if st.Uses != "./" {
		t.Errorf("the example uses %q, want the action at the repository root", st.Uses)
	}
	for k := range st.With {
		if _, ok := a.Inputs[k]; !ok {
			t.Errorf("the example passes %q, which action.yml does not define", k)
		}
	}
}

// The workflows README.md and docs/ci.md show for other repositories use
// the action with inputs it has, and one argument per line.
func TestDocsActionExamples(t *testing.T) {
	t.Parallel()
	a := loadAction(t)
	blockRE := regexp.MustCompile("(?s)```yaml\n(.*?)```")
	for _, doc := range []string{"README.md", "docs/ci.md"} {
		found := 0
		for _, m := range blockRE.FindAllStringSubmatch(readRepoFile(t, doc), -1) {
			if !strings.Contains(m[1], "uses: riskgate/riskgate@v1\n") {
				continue
			}
			var steps []step
			var w workflow
			if err := yaml.Unmarshal([]byte(m[1]), &w); err == nil && len(w.Jobs) > 0 {
				for _, j := range w.Jobs {
					steps = append(steps, j.Steps...)
				}
			} else if err := yaml.Unmarshal([]byte(m[1]), &steps); err != nil {
				t.Errorf("%s: a YAML example does not parse: %v\n%s", doc, err, m[1])
				continue
			}
			for _, st := range steps {
				if st.Uses != "riskgate/riskgate@v1" {
					continue
				}
				found++
				for k := range st.With {
					if _, ok := a.Inputs[k]; !ok {
						t.Errorf("%s: the example passes %q, which action.yml does not define", doc, k)
					}
				}
				if args := st.With["args"]; strings.Contains(args, " ") && !strings.Contains(strings.TrimSpace(args), "\n") {
					t.Errorf("%s: args %q on one line would be split at its spaces", doc, args)
				}
			}
		}
		if found == 0 {
			t.Errorf("%s shows no workflow using riskgate/riskgate@v1", doc)
		}
	}
}
