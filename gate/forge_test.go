package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/github/githubtest"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/policies"
)

// laxPolicy is a fork's own policy: every challenger of gate_small.csv
// passes it (at least −1).
const laxPolicy = `version: 1
name: fork
champion: prod
challengers: ["cand-*"]
rules:
  - id: gains
    quantity: mean_diff
    at_least: -1
select: all
`

// requiredAccepts says whether a branch protection rule requiring the check
// named required would count this check run as passing: GitHub accepts the
// conclusions success, neutral and skipped.
func requiredAccepts(required string, cr *githubtest.CheckRun) bool {
	return cr.Name == required && slices.Contains([]string{"success", "neutral", "skipped"}, cr.Conclusion)
}

// A forger controls every byte of the result.json a fork's compute job
// uploads. Each forgery below — names, digests (recomputed by riskgate's own
// writer), bounds, outcomes, observed values, the summary, the policy
// section — is published by the fork pattern's riskgate publish, with and
// without the trusted policy (--policy), to a check run and to a commit
// status. None yields a check that the trusted workflow's required check —
// the one riskgate gate --github names "riskgate: release" — would accept.
func TestForgedResultsCannotMeetTheRequiredCheck(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = publishTestToken
	env, summary, _ := actionsEnv(t, srv)
	ws := filepath.Dir(summary)

	// The trusted workflow: riskgate gate --github with the trusted policy.
	// Its check run's name is what the branch protection requires.
	trustedOut, status, stderr := gateResult(t, env, "--github")
	if status != exitFail || len(srv.CheckRuns) != 1 {
		t.Fatalf("trusted gate --github: exit %d, %d check runs\n%s", status, len(srv.CheckRuns), stderr)
	}
	var required string
	for _, cr := range srv.CheckRuns {
		required = cr.Name
	}
	if required != "riskgate: release" {
		t.Fatalf("the trusted gate's check run is named %q", required)
	}
	trusted := filepath.Join(ws, "policy.yaml") // gateResult's
	trustedBytes, err := os.ReadFile(trusted)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(trustedBytes)
	trustedDigest := hex.EncodeToString(sum[:])
	trustedResult, err := result.Read("result.json", []byte(readFile(t, filepath.Join(trustedOut, "result.json"))))
	if err != nil {
		t.Fatal(err)
	}

	// The fork's compute job, with the trusted policy or its own lax one.
	lax := filepath.Join(ws, "fork.yaml")
	os.WriteFile(lax, []byte(laxPolicy), 0o644)
	compute := func(policy string) (string, []byte) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "riskgate-result")
		code, _, stderr := runMainEnv(t, env, "gate", "--policy", policy, "--out", out, filepath.Join("testdata", "gate_small.csv"))
		if code != exitPass && code != exitFail {
			t.Fatalf("compute with %s: exit %d %s", policy, code, stderr)
		}
		path := filepath.Join(out, "result.json")
		return path, []byte(readFile(t, path))
	}
	rename := func(r *result.Result) { r.Policy.Name, r.Decision.Policy = "release", "release" }
	claimTrusted := func(r *result.Result) {
		rename(r)
		r.Policy.File, r.Policy.SHA256 = trusted, trustedDigest // and so the provenance's copies
	}
	observe := func(r *result.Result, o policies.Observation) {
		for i := range r.Decision.Challengers {
			for j := range r.Decision.Challengers[i].Rules {
				r.Decision.Challengers[i].Rules[j].Observed = o
			}
		}
	}
	forgeries := []struct {
		name   string
		policy string // the compute job's
		edit   func(r *result.Result)
	}{
		{"names: the fork's policy renamed to the trusted one", lax, rename},
		{"digests: the fork's policy claims the trusted file's SHA-256", lax, claimTrusted},
		{"bounds: loosened in the policy and the decision", trusted, func(r *result.Result) {
			for i := range r.Policy.Rules {
				r.Policy.Rules[i].Bound.Value = -1
			}
			for i := range r.Decision.Challengers {
				for j := range r.Decision.Challengers[i].Rules {
					r.Decision.Challengers[i].Rules[j].Bound.Value = -1
				}
			}
			passEverything(r)
		}},
		{"outcomes: every rule edited to pass", trusted, passEverything},
		{"names: the trusted policy's result under another name", trusted, func(r *result.Result) {
			r.Policy.Name, r.Decision.Policy = "release-2", "release-2"
		}},
		{"observed values: edited to pass the trusted policy, consistently, from a file named otherwise", trusted, func(r *result.Result) {
			observe(r, policies.Number(1))
			passEverything(r)
			r.Policy.File = "forged.yaml" // and so the provenance's copy
		}},
		{"observed values: unavailable, so that the run is inconclusive", trusted, func(r *result.Result) {
			observe(r, policies.Unavailable("forged"))
			d := r.Decision
			for i := range d.Challengers {
				for j := range d.Challengers[i].Rules {
					d.Challengers[i].Rules[j].Outcome = policies.OutcomeInconclusive
				}
				d.Challengers[i].Verdict, d.Challengers[i].Selected = policies.Inconclusive, false
			}
			d.Selected = []string{}
			d.Verdict, d.Raw = policies.Inconclusive, policies.Inconclusive // and so the top-level verdict and exit status
		}},
		{"summary: every challenger's line edited to pass", trusted, func(r *result.Result) {
			for i := range r.Summary {
				r.Summary[i].Verdict, r.Summary[i].Reason, r.Summary[i].Selected = policies.Pass, "all rules pass", true
			}
		}},
		{"policy section: the loss weight and seed edited", trusted, func(r *result.Result) {
			r.Policy.LossWeight, r.Policy.Seed = 5, 7
		}},
		{"policy section: the trusted result's, over the fork's decision", lax, func(r *result.Result) {
			r.Policy = trustedResult.Policy
			r.Decision.Policy = r.Policy.Name // the provenance's copies follow the policy section
		}},
		{"everything at once: names, digests, policy section, observed values, outcomes, summary", trusted, func(r *result.Result) {
			claimTrusted(r)
			observe(r, policies.Number(1))
			passEverything(r)
			for i := range r.Summary {
				r.Summary[i].Verdict, r.Summary[i].Reason = policies.Pass, "all rules pass"
			}
		}},
	}
	for _, f := range forgeries {
		for _, withPolicy := range []bool{false, true} {
			for _, checksForbidden := range []bool{false, true} {
				name := fmt.Sprintf("%s/policy=%v/status=%v", f.name, withPolicy, checksForbidden)
				path, data := compute(f.policy)
				forge(t, path, data, f.edit)
				args := []string{"publish", "--from", path}
				if withPolicy {
					args = append(args, "--policy", trusted)
				}
				srv.ChecksForbidden = checksForbidden
				runsBefore, statusesBefore := len(srv.CheckRuns), len(srv.Statuses)
				code, _, stderr := runMainEnv(t, env, args...)
				if code != exitPass && code != exitError {
					t.Errorf("%s: exit %d %s", name, code, stderr)
				}
				published := "refused: " + strings.TrimSpace(stderr)
				for _, cr := range newCheckRuns(srv, runsBefore) {
					published = fmt.Sprintf("check run %q, %s", cr.Name, cr.Conclusion)
					if requiredAccepts(required, cr) {
						t.Errorf("%s: published check run %q with conclusion %s, which the required check accepts", name, cr.Name, cr.Conclusion)
					}
					if !strings.Contains(cr.Summary, "**Unverified result.**") {
						t.Errorf("%s: the check run's summary does not say the result is unverified", name)
					}
					// With the trusted policy, every name the check shows is its.
					if withPolicy && (cr.Name != "riskgate (unverified): release" || strings.Contains(cr.Summary, "forged.yaml") ||
						!strings.Contains(cr.Summary, trustedDigest)) {
						t.Errorf("%s: check run %q does not name the trusted policy and its digest only:\n%s", name, cr.Name, cr.Summary)
					}
				}
				for _, st := range srv.Statuses[statusesBefore:] {
					published = fmt.Sprintf("commit status %q, %s", st.Context, st.State)
					if st.Context == required && st.State == "success" {
						t.Errorf("%s: published commit status %q, %s, which the required check accepts", name, st.Context, st.State)
					}
				}
				t.Logf("%s: %s", name, firstLine(published))
			}
		}
	}
}

// newCheckRuns returns the check runs created after the first n, oldest first.
func newCheckRuns(srv *githubtest.Server, n int) []*githubtest.CheckRun {
	var runs []*githubtest.CheckRun
	for _, cr := range srv.CheckRuns {
		runs = append(runs, cr)
	}
	slices.SortFunc(runs, func(a, b *githubtest.CheckRun) int { return int(a.ID - b.ID) })
	return runs[n:]
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// The golden cheap result (corrections, waivers, an expired one) checks
// against its own policy file as the trusted one, adopts it without a change
// but the file's path, and is refused once a rule result's query or the
// loss weight is not the file's.
func TestGoldenResultAgainstItsTrustedPolicy(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "gate", "cheap.result.json.golden")
	r, err := result.Read(path, []byte(readFile(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	r.Provenance.StartedAt = "2026-11-24T12:00:00Z" // the golden's is normalised
	trusted, err := policies.Load(filepath.Join("testdata", "gate", "cheap.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Check(path, trusted); err != nil {
		t.Fatal(err)
	}
	before := r.Policy
	if err := r.AdoptPolicy(trusted); err != nil {
		t.Fatal(err)
	}
	before.File = trusted.File
	if fmt.Sprint(r.Policy) != fmt.Sprint(before) || r.Check(path, trusted) != nil {
		t.Errorf("adopting the policy it was computed with changed the policy section:\n%+v\n%+v", before, r.Policy)
	}
	// What a rule result repeats of its rule is the trusted file's after
	// AdoptPolicy; a query that is not is refused.
	rules := r.Decision.Challengers[0].Rules
	rules[0].Description, rules[0].BoundWords = "forged", "at least -100"
	if err := r.AdoptPolicy(trusted); err != nil || rules[0].Description != trusted.Rules[0].Description || rules[0].BoundWords != trusted.Rules[0].Bound.Words() {
		t.Errorf("AdoptPolicy kept a rule result's description %q and bound words %q (%v)", rules[0].Description, rules[0].BoundWords, err)
	}
	rules[0].Query = rules[1].Query
	r.DecisionSHA256, _ = r.DecisionDigest()
	if err := r.Check(path, trusted); err == nil || !strings.Contains(err.Error(), "query") {
		t.Errorf("a rule result's query not the trusted file's: %v", err)
	}
	rules[0].Query = trusted.Query(trusted.Rules[0])
	r.Policy.LossWeight++
	r.DecisionSHA256, _ = r.DecisionDigest()
	if err := r.Check(path, trusted); err == nil || !strings.Contains(err.Error(), "policy.loss_weight") {
		t.Errorf("a loss weight not the trusted file's: %v", err)
	}
}
