package gate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/github/githubtest"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/policies"
)

// failedResult runs failingPolicy (cand-b fails rule gains: observed mean
// difference < 0, needs at least 0) and returns the Actions environment it
// ran in (actionsEnv's, for publish), result.json's path and bytes.
func failedResult(t *testing.T) (env map[string]string, path string, data []byte) {
	t.Helper()
	srv := githubtest.NewServer("")
	t.Cleanup(srv.Close)
	env, _, _ = actionsEnv(t, srv)
	out, status, stderr := gateResult(t, env)
	if status != exitFail {
		t.Fatalf("gate exit %d: %s", status, stderr)
	}
	path = filepath.Join(out, "result.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return env, path, data
}

// forge rewrites a result as a forger with riskgate's own code would: the
// edit, then WriteJSON, which recomputes decision_sha256.
func forge(t *testing.T, path string, data []byte, edit func(r *result.Result)) {
	t.Helper()
	r, err := result.Read(path, data)
	if err != nil {
		t.Fatal(err)
	}
	edit(r)
	var b bytes.Buffer
	if err := result.WriteJSON(&b, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// passEverything marks every rule, challenger and the run as passing.
func passEverything(r *result.Result) {
	d := r.Decision
	for i := range d.Challengers {
		for j := range d.Challengers[i].Rules {
			d.Challengers[i].Rules[j].Outcome = policies.OutcomePass
		}
		d.Challengers[i].Verdict = policies.Pass
		d.Challengers[i].Selected = true
	}
	d.Selected = nil
	for _, c := range d.Challengers {
		d.Selected = append(d.Selected, c.Name)
	}
	d.Verdict, d.Raw = policies.Pass, policies.Pass
}

// publish refuses a result.json edited to pass — by hand (the digest no
// longer matches) or consistently with a recomputed digest (the outcomes do
// not follow from the observed values and bounds) — with exit 2 and one
// line, and publishes nothing.
func TestPublishRefusesATamperedResult(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, want string
		tamper     func(t *testing.T, path string, data []byte)
	}{
		{"outcome edited", "edited after riskgate wrote it", func(t *testing.T, path string, data []byte) {
			os.WriteFile(path, bytes.ReplaceAll(data, []byte(`"outcome": "fail"`), []byte(`"outcome": "pass"`)), 0o644)
		}},
		// The top-level verdict is the decision's, written for pipelines.
		{"top-level verdict edited", "the result is inconsistent, refused: verdict pass, but the decision's is fail", func(t *testing.T, path string, data []byte) {
			os.WriteFile(path, bytes.Replace(data, []byte(`"verdict": "fail"`), []byte(`"verdict": "pass"`), 1), 0o644)
		}},
		{"decision's verdict edited", "the result is inconsistent, refused: verdict fail, but the decision's is pass", func(t *testing.T, path string, data []byte) {
			i := bytes.Index(data, []byte(`"decision": {`))
			edited := append(bytes.Clone(data[:i]), bytes.Replace(data[i:], []byte(`"verdict": "fail"`), []byte(`"verdict": "pass"`), 1)...)
			os.WriteFile(path, edited, 0o644)
		}},
		{"exit status edited", "exit_status 0, but the verdict fail gives 1", func(t *testing.T, path string, data []byte) {
			os.WriteFile(path, bytes.Replace(data, []byte(`"exit_status": 1`), []byte(`"exit_status": 0`), 1), 0o644)
		}},
		{"decision edited, top-level verdict to match", "edited after riskgate wrote it", func(t *testing.T, path string, data []byte) {
			for _, at := range []int{0, bytes.Index(data, []byte(`"decision": {`))} {
				data = append(bytes.Clone(data[:at]), bytes.Replace(data[at:], []byte(`"verdict": "fail"`), []byte(`"verdict": "pass"`), 1)...)
			}
			os.WriteFile(path, bytes.Replace(data, []byte(`"exit_status": 1`), []byte(`"exit_status": 0`), 1), 0o644)
		}},
		{"provenance's policy digest edited", "provenance.policy_sha256", func(t *testing.T, path string, data []byte) {
			os.WriteFile(path, bytes.Replace(data, []byte(`"policy_sha256": "`), []byte(`"policy_sha256": "0`), 1), 0o644)
		}},
		{"digest removed", "no decision_sha256", func(t *testing.T, path string, data []byte) {
			i := bytes.Index(data, []byte(`,
  "decision_sha256"`))
			os.WriteFile(path, append(data[:i:i], []byte("\n}\n")...), 0o644)
		}},
		{"outcomes forged, digest recomputed", "gives fail", func(t *testing.T, path string, data []byte) {
			forge(t, path, data, passEverything)
		}},
		{"bound loosened in the decision", "the policy's rule says", func(t *testing.T, path string, data []byte) {
			forge(t, path, data, func(r *result.Result) {
				for i := range r.Decision.Challengers {
					for j := range r.Decision.Challengers[i].Rules {
						r.Decision.Challengers[i].Rules[j].Bound.Value = -1
					}
				}
				passEverything(r)
			})
		}},
		{"verdict forged, outcomes kept", "its rule outcomes give fail", func(t *testing.T, path string, data []byte) {
			forge(t, path, data, func(r *result.Result) {
				for i := range r.Decision.Challengers {
					r.Decision.Challengers[i].Verdict = policies.Pass
				}
				r.Decision.Verdict, r.Decision.Raw = policies.Pass, policies.Pass
			})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			env, path, data := failedResult(t)
			c.tamper(t, path, data)
			code, _, stderr := runMainEnv(t, env, "publish", "--from", path)
			if code != exitError || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, stderr, c.want)
			}
		})
	}
	// The untouched result publishes, and reading and rewriting it keeps
	// the digest.
	env, path, data := failedResult(t)
	forge(t, path, data, func(*result.Result) {})
	if again, _ := os.ReadFile(path); !bytes.Equal(again, data) {
		t.Error("result.json read and written again differs")
	}
	if code, _, stderr := runMainEnv(t, env, "publish", "--from", path); code != exitPass {
		t.Errorf("an untouched result: exit %d %s", code, stderr)
	}
}

// The golden results (the built-in example: MCMC, select: best; cheap:
// corrections, waivers, an expired one) pass the check as written.
func TestGoldenResultsCheck(t *testing.T) {
	t.Parallel()
	for _, run := range []string{"example", "cheap"} {
		t.Run(run, func(t *testing.T) { checkGoldenResult(t, run) })
	}
}

func checkGoldenResult(t *testing.T, run string) {
	path := filepath.Join("testdata", "gate", run+".result.json.golden")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Read(path, data)
	if err != nil {
		t.Fatal(err)
	}
	r.Provenance.StartedAt = "2026-11-24T12:00:00Z" // the golden's is normalised
	if err := r.Check(path, nil); err != nil {
		t.Error(err)
	}
}

// A forger who loosens the bound in the result's copy of the policy as well
// as in the decision makes a file consistent with itself: only the trusted
// policy file (publish --policy) refuses it.
func TestPublishWithTrustedPolicy(t *testing.T) {
	t.Parallel()
	env, path, data := failedResult(t)
	policy := filepath.Join(filepath.Dir(filepath.Dir(path)), "policy.yaml") // gateResult's
	if code, _, stderr := runMainEnv(t, env, "publish", "--from", path, "--policy", policy); code != exitPass {
		t.Fatalf("an untouched result against its policy: exit %d %s", code, stderr)
	}
	forge(t, path, data, func(r *result.Result) {
		for i := range r.Policy.Rules {
			r.Policy.Rules[i].Bound.Value = -1
		}
		for i := range r.Decision.Challengers {
			for j := range r.Decision.Challengers[i].Rules {
				r.Decision.Challengers[i].Rules[j].Bound.Value = -1
			}
		}
		passEverything(r)
	})
	if code, _, stderr := runMainEnv(t, env, "publish", "--from", path); code != exitPass {
		t.Logf("self-consistent forgery without --policy: exit %d %s", code, stderr)
	}
	code, _, stderr := runMainEnv(t, env, "publish", "--from", path, "--policy", policy)
	if code != exitError || !strings.Contains(stderr, "against "+policy) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("with --policy: exit %d, stderr %q; want 2 and one line", code, stderr)
	}
	other := filepath.Join(t.TempDir(), "other.yaml")
	os.WriteFile(other, []byte(strings.Replace(failingPolicy, "at_least: 0", "at_least: -1", 1)), 0o644)
	if code, _, stderr := runMainEnv(t, env, "publish", "--from", path, "--policy", other); code != exitError || !strings.Contains(stderr, "computed with a policy of SHA-256") {
		t.Errorf("another policy: exit %d, stderr %q", code, stderr)
	}
}
