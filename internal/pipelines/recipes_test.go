package pipelines

import (
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// docs/ci.md shows each recipe and workflow verbatim, so that what a reader
// copies is what these tests run.
func TestDocsShowTheTestedFiles(t *testing.T) {
	t.Parallel()
	doc := readRepoFile(t, "docs/ci.md")
	for _, f := range []string{
		"docs/recipes/gitlab-ci.yml", "docs/recipes/Jenkinsfile", "docs/recipes/argo-analysistemplate.yaml", "docs/recipes/pre-deploy.sh",
		".github/workflows/riskgate-pr.yml", ".github/workflows/riskgate-fork-compute.yml", ".github/workflows/riskgate-fork-publish.yml",
	} {
		if !strings.Contains(doc, "\n"+readRepoFile(t, f)+"```\n") {
			t.Errorf("docs/ci.md does not show %s as it is", f)
		}
	}
}

type gitlabJob struct {
	Image     string            `yaml:"image"`
	Variables map[string]string `yaml:"variables"`
	Script    []string          `yaml:"script"`
	Artifacts struct {
		When    string   `yaml:"when"`
		Paths   []string `yaml:"paths"`
		Reports struct {
			JUnit string `yaml:"junit"`
		} `yaml:"reports"`
	} `yaml:"artifacts"`
	AllowFailure struct {
		ExitCodes []int `yaml:"exit_codes"`
	} `yaml:"allow_failure"`
}

func TestGitLabRecipe(t *testing.T) {
	t.Parallel()
	var jobs map[string]gitlabJob
	if err := yaml.Unmarshal([]byte(readRepoFile(t, "docs/recipes/gitlab-ci.yml")), &jobs); err != nil {
		t.Fatal(err)
	}
	job := jobs["riskgate"]
	if job.Artifacts.Reports.JUnit != "riskgate-report/junit.xml" || job.Artifacts.When != "always" || !slices.Equal(job.AllowFailure.ExitCodes, []int{3}) {
		t.Errorf("artifacts or allow_failure: %+v", job)
	}
	// GitLab runs the script lines as one bash script that stops on errors.
	script := strings.Join(job.Script, "\n")
	for _, c := range []struct {
		exit, curlExit int
		token, mr      bool
		wantNote       bool
	}{
		{exit: 0},
		{exit: 1, token: true, mr: true, wantNote: true},
		{exit: 3, token: true, mr: true, curlExit: 22, wantNote: true},
		{exit: 1, token: true}, // no merge request
		{exit: 0, mr: true},    // no token
		{exit: 2, token: true, mr: true, wantNote: true},
	} {
		t.Run(fmt.Sprintf("exit%d-token%v-mr%v", c.exit, c.token, c.mr), func(t *testing.T) {
			s := newSandbox(t)
			s.write("runs/a.csv", "x")
			env := map[string]string{"STUB_EXIT": fmt.Sprint(c.exit), "STUB_CURL_EXIT": fmt.Sprint(c.curlExit),
				"CI_API_V4_URL": "https://gitlab.example/api/v4", "CI_PROJECT_ID": "12"}
			for k, v := range job.Variables {
				env[k] = v
			}
			if c.token {
				env["RISKGATE_GITLAB_TOKEN"] = fakeToken
			}
			if c.mr {
				env["CI_MERGE_REQUEST_IID"] = "34"
			}
			code, out := s.run(env, "bash", "-eo", "pipefail", "-c", script)
			if code != c.exit {
				t.Errorf("job exit %d, want riskgate's %d\n%s", code, c.exit, out)
			}
			s.checkInstalled(job.Variables["RISKGATE_VERSION"], filepath.Join(s.root, ".local", "bin"))
			want := []string{"gate", "--policy", "riskgate-policy.yaml", "--out", "riskgate-report", "runs/a.csv"}
			if got := s.calls("riskgate"); len(got) != 1 || !slices.Equal(got[0], want) {
				t.Errorf("riskgate calls %q, want %q", got, want)
			}
			curl := s.calls("curl")
			if c.wantNote != (len(curl) == 1) {
				t.Fatalf("curl calls %q, want a note: %v", curl, c.wantNote)
			}
			if c.wantNote && !slices.Contains(curl[0], "https://gitlab.example/api/v4/projects/12/merge_requests/34/notes") {
				t.Errorf("note posted to %q", curl[0])
			}
			if strings.Contains(out, fakeToken) {
				t.Error("the job log shows the token")
			}
		})
	}
}

func TestJenkinsRecipe(t *testing.T) {
	t.Parallel()
	text := readRepoFile(t, "docs/recipes/Jenkinsfile")
	blocks := regexp.MustCompile(`(?s)'''\n(.*?)'''`).FindAllStringSubmatch(text, -1)
	if len(blocks) != 2 {
		t.Fatalf("want the install and gate sh blocks, found %d", len(blocks))
	}
	for _, want := range []string{"junit allowEmptyResults: true, testResults: 'riskgate-report/junit.xml'", "if (status == 3)", "unstable(", "error("} {
		if !strings.Contains(text, want) {
			t.Errorf("Jenkinsfile lacks %q", want)
		}
	}
	version := jenkinsVersion(t, text)
	for _, exit := range []int{0, 1, 3} {
		s := newSandbox(t)
		env := map[string]string{"RISKGATE_VERSION": version, "RISKGATE_POLICY": "policies/release.yaml", "STUB_EXIT": fmt.Sprint(exit)}
		if code, out := s.run(env, "sh", "-e", "-c", blocks[0][1]); code != 0 {
			t.Fatalf("install block: exit %d\n%s", code, out)
		}
		s.checkInstalled(version, filepath.Join(s.root, ".local", "bin"))
		// sh(returnStatus: true) runs the block with sh -xe and returns its status.
		code, out := s.run(env, "sh", "-xe", "-c", blocks[1][1])
		if code != exit {
			t.Errorf("gate block exit %d, want %d\n%s", code, exit, out)
		}
		if got := s.calls("riskgate"); len(got) != 1 || got[0][len(got[0])-1] != "runs/*.csv" || got[0][4] != "riskgate-report" {
			t.Errorf("riskgate calls %q", got)
		}
	}
}

func TestArgoRecipe(t *testing.T) {
	t.Parallel()
	dec := yaml.NewDecoder(strings.NewReader(readRepoFile(t, "docs/recipes/argo-analysistemplate.yaml")))
	type metric struct {
		Name             string `yaml:"name"`
		SuccessCondition string `yaml:"successCondition"`
		FailureCondition string `yaml:"failureCondition"`
		Provider         struct {
			Job *struct {
				Spec struct {
					BackoffLimit *int `yaml:"backoffLimit"`
					Template     struct {
						Spec struct {
							RestartPolicy string `yaml:"restartPolicy"`
							Containers    []struct {
								Env []struct {
									Name  string `yaml:"name"`
									Value string `yaml:"value"`
								} `yaml:"env"`
								Command []string `yaml:"command"`
								Args    []string `yaml:"args"`
							} `yaml:"containers"`
						} `yaml:"spec"`
					} `yaml:"template"`
				} `yaml:"spec"`
			} `yaml:"job"`
			Web *struct {
				URL      string `yaml:"url"`
				JSONPath string `yaml:"jsonPath"`
			} `yaml:"web"`
		} `yaml:"provider"`
	}
	type template struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Spec       struct {
			Metrics []metric `yaml:"metrics"`
		} `yaml:"spec"`
	}
	var docs []template
	for {
		var d template
		err := dec.Decode(&d)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("argo-analysistemplate.yaml: %v", err)
		}
		docs = append(docs, d)
	}
	if len(docs) != 2 {
		t.Fatalf("want two AnalysisTemplates, got %d", len(docs))
	}
	for _, d := range docs {
		if d.APIVersion != "argoproj.io/v1alpha1" || d.Kind != "AnalysisTemplate" || len(d.Spec.Metrics) != 1 {
			t.Errorf("not an AnalysisTemplate with one metric: %+v", d)
		}
	}

	job := docs[0].Spec.Metrics[0].Provider.Job
	if job == nil || job.Spec.BackoffLimit == nil || *job.Spec.BackoffLimit != 0 || job.Spec.Template.Spec.RestartPolicy != "Never" {
		t.Fatalf("the Job must not retry a failed gate: %+v", job)
	}
	c := job.Spec.Template.Spec.Containers[0]
	if !slices.Equal(c.Command, []string{"sh", "-c"}) || len(c.Args) != 1 {
		t.Fatalf("container command %q args %q", c.Command, c.Args)
	}
	for _, exit := range []int{0, 1, 3} {
		s := newSandbox(t)
		s.write("policy/release.yaml", "name: release\n")
		env := map[string]string{"STUB_EXIT": fmt.Sprint(exit)}
		for _, e := range c.Env {
			env[e.Name] = strings.ReplaceAll(e.Value, "{{args.scores-url}}", "https://scores.internal/challenger.csv")
		}
		script := strings.ReplaceAll(c.Args[0], "/policy/", filepath.Join(s.dir, "policy")+"/")
		script = strings.ReplaceAll(script, "/tmp/", s.dir+"/")
		code, out := s.run(env, "sh", "-c", script)
		if code != exit {
			t.Errorf("job exit %d, want riskgate's %d\n%s", code, exit, out)
		}
		if curl := s.calls("curl"); len(curl) != 1 || !slices.Contains(curl[0], "https://scores.internal/challenger.csv") {
			t.Errorf("curl calls %q", curl)
		}
		s.checkInstalled(env["RISKGATE_VERSION"], filepath.Join(s.dir, "bin"))
		if got := s.calls("riskgate"); len(got) != 1 || got[0][len(got[0])-1] != s.dir+"/scores.csv" {
			t.Errorf("riskgate calls %q", got)
		}
	}

	web := docs[1].Spec.Metrics[0]
	if web.Provider.Web == nil || web.Provider.Web.JSONPath != "{$.verdict}" {
		t.Fatalf("web provider %+v", web.Provider.Web)
	}
	// result == "X" || ... : which verdicts satisfy a condition.
	holds := func(cond, verdict string) bool {
		for _, term := range strings.Split(cond, "||") {
			if strings.TrimSpace(term) == fmt.Sprintf("result == %q", verdict) {
				return true
			}
		}
		return false
	}
	for verdict, want := range map[string]string{"pass": "success", "warn": "success", "fail": "failure", "inconclusive": "inconclusive"} {
		got := "inconclusive"
		if holds(web.SuccessCondition, verdict) {
			got = "success"
		} else if holds(web.FailureCondition, verdict) {
			got = "failure"
		}
		if got != want {
			t.Errorf("verdict %s: measurement %s, want %s", verdict, got, want)
		}
	}
}

func TestShellRecipe(t *testing.T) {
	t.Parallel()
	script := mustAbs(t, filepath.Join(repoRoot, "docs/recipes/pre-deploy.sh"))
	for _, c := range []struct {
		exit         int
		allow        string
		want         int
		wantInOutput string
	}{
		{0, "", 0, "pass: deploying"},
		{1, "", 1, "fail: not deploying"},
		{2, "", 2, "error (exit status 2)"},
		{3, "", 3, "inconclusive: not deploying"},
		{3, "yes", 0, "inconclusive: deploying"},
	} {
		s := newSandbox(t)
		code, out := s.run(map[string]string{"STUB_EXIT": fmt.Sprint(c.exit), "RISKGATE_ALLOW_INCONCLUSIVE": c.allow},
			"sh", script, "--champion", "bm25", "runs/a b.csv")
		if code != c.want || !strings.Contains(out, c.wantInOutput) {
			t.Errorf("riskgate exit %d, allow %q: script exit %d, want %d; output:\n%s", c.exit, c.allow, code, c.want, out)
		}
		want := []string{"gate", "--policy", "riskgate-policy.yaml", "--out", "riskgate-report", "--champion", "bm25", "runs/a b.csv"}
		if got := s.calls("riskgate"); len(got) != 1 || !slices.Equal(got[0], want) {
			t.Errorf("riskgate calls %q", got)
		}
		s.checkInstalled(preDeployVersion(t), filepath.Join(s.root, ".cache", "riskgate", preDeployVersion(t)))
	}
}
