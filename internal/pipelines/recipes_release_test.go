package pipelines

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Issue 30, item 4: the recipes ran `go install …@latest` in a Go image on
// every run (unpinned, needing the module proxy, 30–60 s of compiling). Each
// now installs a pinned release with that release's install.sh, which checks
// the archive against the release's checksums.txt, as the Action does.

// installURL is where the recipes download install.sh from, before the tag.
const installURL = "https://raw.githubusercontent.com/riskgate/riskgate/"

// releaseVersion is a release tag, the only kind of version a recipe pins.
var releaseVersion = regexp.MustCompile(`^v[0-9]+\.[0-9]+\.[0-9]+$`)

// Every recipe pins a release and installs it with install.sh at that
// release; none builds with Go or runs in a Go image.
func TestRecipesInstallAPinnedRelease(t *testing.T) {
	t.Parallel()
	versions := map[string]string{
		"docs/recipes/gitlab-ci.yml":              gitlabJobOf(t).Variables["RISKGATE_VERSION"],
		"docs/recipes/Jenkinsfile":                jenkinsVersion(t, readRepoFile(t, "docs/recipes/Jenkinsfile")),
		"docs/recipes/argo-analysistemplate.yaml": argoEnv(t)["RISKGATE_VERSION"],
		"docs/recipes/pre-deploy.sh":              preDeployVersion(t),
	}
	for f, v := range versions {
		text := readRepoFile(t, f)
		if !releaseVersion.MatchString(v) {
			t.Errorf("%s: RISKGATE_VERSION %q is not a pinned release (vMAJOR.MINOR.PATCH)", f, v)
		}
		for _, bad := range []string{"go install", "golang:", "@latest", "go env"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s still has %q", f, bad)
			}
		}
		if !strings.Contains(text, installURL) || !strings.Contains(text, "/install.sh") {
			t.Errorf("%s does not download install.sh from %s<version>/install.sh", f, installURL)
		}
	}
}

// Each recipe's script, against the release snapshot (the Action's install
// tests' release: goreleaser's snapshot under RISKGATE_SNAPSHOT_DIST, else
// the host's archive built here) served from 127.0.0.1, with no Go on PATH
// and the real curl: it installs the release, runs the real gate on a pool
// and exits with the gate's status — 0 pass, 1 fail, 3 inconclusive (the
// GitLab job's allow_failure and Jenkins' unstable read it). Each run
// installs the release (≈ 0.5 CPU-s): -short runs each recipe with one
// verdict, every verdict at least once; TestGitLabRecipe, TestJenkinsRecipe,
// TestArgoRecipe and TestShellRecipe check every recipe's handling of every
// exit status in -short, with a stub riskgate.
func TestRecipesRunTheRelease(t *testing.T) {
	t.Parallel()
	rel := hostRelease(t)
	t.Logf("release %s from %s (goreleaser snapshot: %v)", rel.tag, rel.dir, rel.snapshot)
	srv := newReleaseServer(t, rel)
	raw := newRawServer(t)

	policies := []struct {
		verdict string
		exit    int
		yaml    string
	}{
		{"pass", 0, "rules:\n  - {id: mean, quantity: mean_diff, at_least: -1}\n"},
		{"fail", 1, "rules:\n  - {id: mean, quantity: mean_diff, at_least: 1}\n"},
		{"inconclusive", 3, "requirements: {min_topics: 1000}\nrules:\n  - {id: mean, quantity: mean_diff, at_least: -1}\n"},
	}
	recipes := []struct {
		name  string
		short string // the verdict -short runs this recipe with
		// run runs the recipe in s with env and returns its exit status, its
		// output and the report directory.
		run func(t *testing.T, s *sandbox, env map[string]string) (int, string, string)
	}{
		{"gitlab", "inconclusive", func(t *testing.T, s *sandbox, env map[string]string) (int, string, string) {
			job := gitlabJobOf(t)
			for k, v := range job.Variables {
				env[k] = v
			}
			env["RISKGATE_VERSION"] = rel.tag
			code, out := s.run(env, "bash", "-eo", "pipefail", "-c", raw.rewrite(strings.Join(job.Script, "\n")))
			return code, out, filepath.Join(s.dir, "riskgate-report")
		}},
		{"jenkins", "fail", func(t *testing.T, s *sandbox, env map[string]string) (int, string, string) {
			blocks := jenkinsBlocks(t)
			env["RISKGATE_VERSION"], env["RISKGATE_POLICY"] = rel.tag, "riskgate-policy.yaml"
			if code, out := s.run(env, "sh", "-e", "-c", raw.rewrite(blocks[0])); code != 0 {
				return code, out, ""
			}
			code, out := s.run(env, "sh", "-xe", "-c", blocks[1])
			return code, out, filepath.Join(s.dir, "riskgate-report")
		}},
		{"argo", "pass", func(t *testing.T, s *sandbox, env map[string]string) (int, string, string) {
			for k, v := range argoEnv(t) {
				env[k] = v
			}
			env["RISKGATE_VERSION"], env["SCORES_URL"] = rel.tag, raw.URL+"/scores.csv"
			os.MkdirAll(filepath.Join(s.dir, "policy"), 0o755)
			os.Rename(filepath.Join(s.dir, "riskgate-policy.yaml"), filepath.Join(s.dir, "policy", "release.yaml"))
			raw.setScores(t, filepath.Join(s.dir, "runs", "pool.csv"))
			script := strings.ReplaceAll(argoScript(t), "/tmp/", s.dir+"/")
			script = strings.ReplaceAll(script, "/policy/", filepath.Join(s.dir, "policy")+"/")
			code, out := s.run(env, "sh", "-c", raw.rewrite(script))
			return code, out, filepath.Join(s.dir, "riskgate-report")
		}},
		{"pre-deploy", "fail", func(t *testing.T, s *sandbox, env map[string]string) (int, string, string) {
			env["RISKGATE_VERSION"] = rel.tag
			script := filepath.Join(s.root, "pre-deploy.sh")
			os.WriteFile(script, []byte(raw.rewrite(readRepoFile(t, "docs/recipes/pre-deploy.sh"))), 0o755)
			code, out := s.run(env, "sh", script, "runs/pool.csv")
			return code, out, filepath.Join(s.dir, "riskgate-report")
		}},
	}
	runs := 0
	for _, r := range recipes {
		for _, p := range policies {
			short := r.short == p.verdict
			if !testing.Short() || short {
				runs++
			}
			t.Run(r.name+"/"+p.verdict, func(t *testing.T) {
				if testing.Short() && !short {
					t.Skipf("-short runs %s with the %s verdict only; the stub test of the recipe checks its handling of each exit status", r.name, r.short)
				}
				t.Parallel()
				s := newSandbox(t)
				s.unstub("curl") // install.sh and the recipes download with the real curl
				writePool(t, s, "runs/pool.csv")
				s.write("riskgate-policy.yaml", "version: 1\nname: recipe\nchampion: Champion\nchallengers: [\"Chal. *\"]\n"+p.yaml)
				// No Go here: the stub go fails and records any call.
				env := map[string]string{"STUB_GO_FAIL": "1", "RISKGATE_RELEASES_URL": srv.url()}
				code, out, reports := r.run(t, s, env)
				if code != p.exit {
					t.Fatalf("exit %d, want the gate's %d (%s)\n%s", code, p.exit, p.verdict, out)
				}
				if calls := s.calls("go"); calls != nil {
					t.Errorf("the recipe ran go: %q", calls)
				}
				var result struct {
					Tool struct {
						Version string `json:"version"`
					} `json:"tool"`
					Verdict string `json:"verdict"`
				}
				data, err := os.ReadFile(filepath.Join(reports, "result.json"))
				if err == nil {
					err = json.Unmarshal(data, &result)
				}
				if err != nil {
					t.Fatalf("result.json: %v\n%s", err, out)
				}
				if result.Tool.Version != rel.tag || result.Verdict != p.verdict {
					t.Errorf("riskgate %s gave %s; want the release %s to give %s", result.Tool.Version, result.Verdict, rel.tag, p.verdict)
				}
			})
		}
	}
	t.Cleanup(func() {
		if d := srv.downloads(); len(d) < 2*runs {
			t.Errorf("%d release downloads for %d runs, want the archive and checksums.txt for each", len(d), runs)
		}
	})
}

// rawServer stands for raw.githubusercontent.com: install.sh of this
// checkout at any tag, and a score file for the Argo Job to fetch.
type rawServer struct {
	*httptest.Server
	scores string
}

func newRawServer(t *testing.T) *rawServer {
	t.Helper()
	installSh := readRepoFile(t, "install.sh")
	r := &rawServer{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch p := req.URL.Path; {
		case strings.HasPrefix(p, "/riskgate/riskgate/") && strings.HasSuffix(p, "/install.sh"):
			fmt.Fprint(w, installSh)
		case p == "/scores.csv":
			fmt.Fprint(w, r.scores)
		default:
			http.NotFound(w, req)
		}
	}))
	t.Cleanup(r.Close)
	return r
}

// rewrite points a script's install.sh download at the server.
func (r *rawServer) rewrite(script string) string {
	return strings.ReplaceAll(script, installURL, r.URL+"/riskgate/riskgate/")
}

func (r *rawServer) setScores(t *testing.T, file string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r.scores = string(data) // every Argo run writes the same pool
}

// checkInstalled checks that a recipe run in s installed version into dir
// with install.sh of that version (the stubs' curl and install.sh record
// it), and never ran go.
func (s *sandbox) checkInstalled(version, dir string) {
	s.t.Helper()
	if !releaseVersion.MatchString(version) {
		s.t.Errorf("version %q is not a pinned release", version)
	}
	if calls := s.calls("go"); calls != nil {
		s.t.Errorf("the recipe ran go: %q", calls)
	}
	if got := s.calls("curl-install"); len(got) != 1 || !slices.Contains(got[0], installURL+version+"/install.sh") {
		s.t.Errorf("install.sh downloads %q, want one of %s%s/install.sh", got, installURL, version)
	}
	if got, want := s.calls("install"), []string{"-b", dir, version}; len(got) != 1 || !slices.Equal(got[0], want) {
		s.t.Errorf("install.sh calls %q, want %q", got, want)
	}
}

func gitlabJobOf(t *testing.T) gitlabJob {
	t.Helper()
	var jobs map[string]gitlabJob
	if err := yaml.Unmarshal([]byte(readRepoFile(t, "docs/recipes/gitlab-ci.yml")), &jobs); err != nil {
		t.Fatal(err)
	}
	return jobs["riskgate"]
}

// jenkinsBlocks are the Jenkinsfile's install and gate sh blocks.
func jenkinsBlocks(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, m := range regexp.MustCompile(`(?s)'''\n(.*?)'''`).FindAllStringSubmatch(readRepoFile(t, "docs/recipes/Jenkinsfile"), -1) {
		out = append(out, m[1])
	}
	if len(out) != 2 {
		t.Fatalf("want the install and gate sh blocks, found %d", len(out))
	}
	return out
}

func jenkinsVersion(t *testing.T, text string) string {
	t.Helper()
	m := regexp.MustCompile(`RISKGATE_VERSION = '([^']*)'`).FindStringSubmatch(text)
	if m == nil {
		t.Fatal("the Jenkinsfile sets no RISKGATE_VERSION")
	}
	return m[1]
}

// argoContainer is the Job's container of riskgate-job.
type argoContainer struct {
	Env []struct {
		Name  string `yaml:"name"`
		Value string `yaml:"value"`
	} `yaml:"env"`
	Args []string `yaml:"args"`
}

func argoJobContainer(t *testing.T) argoContainer {
	t.Helper()
	var doc struct {
		Spec struct {
			Metrics []struct {
				Provider struct {
					Job struct {
						Spec struct {
							Template struct {
								Spec struct {
									Containers []argoContainer `yaml:"containers"`
								} `yaml:"spec"`
							} `yaml:"template"`
						} `yaml:"spec"`
					} `yaml:"job"`
				} `yaml:"provider"`
			} `yaml:"metrics"`
		} `yaml:"spec"`
	}
	if err := yaml.NewDecoder(strings.NewReader(readRepoFile(t, "docs/recipes/argo-analysistemplate.yaml"))).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Spec.Metrics) != 1 || len(doc.Spec.Metrics[0].Provider.Job.Spec.Template.Spec.Containers) != 1 {
		t.Fatal("riskgate-job has not one metric with one container")
	}
	return doc.Spec.Metrics[0].Provider.Job.Spec.Template.Spec.Containers[0]
}

func argoEnv(t *testing.T) map[string]string {
	env := map[string]string{}
	for _, e := range argoJobContainer(t).Env {
		env[e.Name] = e.Value
	}
	return env
}

func argoScript(t *testing.T) string {
	c := argoJobContainer(t)
	if len(c.Args) != 1 {
		t.Fatalf("container args %q", c.Args)
	}
	return c.Args[0]
}

// preDeployVersion is pre-deploy.sh's pinned default RISKGATE_VERSION.
func preDeployVersion(t *testing.T) string {
	t.Helper()
	m := regexp.MustCompile(`version="\$\{RISKGATE_VERSION:-([^}]*)\}"`).FindStringSubmatch(readRepoFile(t, "docs/recipes/pre-deploy.sh"))
	if m == nil {
		t.Fatal("pre-deploy.sh has no default RISKGATE_VERSION")
	}
	return m[1]
}

// The recipes' shell follows the standard: shellcheck (when installed)
// finds nothing in pre-deploy.sh, the Argo Job's script, the Jenkins blocks
// (sh) and the GitLab job's script (bash, as GitLab runs it; its
// $RISKGATE_INPUTS is unquoted on purpose, a glob to expand: SC2086 is
// excluded there).
func TestRecipesShellcheck(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Skip("shellcheck is not installed (Debian: apt-get install shellcheck)")
	}
	scripts := map[string]string{
		"pre-deploy.sh":        readRepoFile(t, "docs/recipes/pre-deploy.sh"),
		"argo job":             "#!/bin/sh\n" + argoScript(t),
		"jenkins install":      "#!/bin/sh\n" + jenkinsBlocks(t)[0],
		"jenkins gate":         "#!/bin/sh\n" + jenkinsBlocks(t)[1],
		"gitlab job (bash -e)": "#!/bin/bash\n# shellcheck disable=SC2086\n" + strings.Join(gitlabJobOf(t).Script, "\n"),
	}
	for name, text := range scripts {
		cmd := exec.Command("shellcheck", "-")
		cmd.Stdin = strings.NewReader(text)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("shellcheck %s: %v\n%s", name, err, out)
		}
	}
}
