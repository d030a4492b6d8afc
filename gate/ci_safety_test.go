package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/github/githubtest"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
)

// copyTestFile copies testdata/name into a fresh folder and returns its path.
func copyTestFile(t *testing.T, name string) (path string, data []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path = filepath.Join(t.TempDir(), filepath.Base(name))
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// The provenance digest is of the bytes judged: one read hashes and parses.
func TestGateProvenanceIsOfTheBytesParsed(t *testing.T) {
	t.Parallel()
	in, data := copyTestFile(t, "gate_small.csv")
	code, out, stderr := runMain(t, "gate", "--policy", filepath.Join("testdata", "gate", "cheap.yaml"), "--format", "json", in)
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r result.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if got := r.Provenance.Inputs; len(got) != 1 || got[0].SHA256 != hex.EncodeToString(sum[:]) || got[0].Bytes != int64(len(data)) || got[0].Role != "scores" {
		t.Errorf("provenance %+v; want the SHA-256 of the %d bytes of %s", got, len(data), in)
	}
}

// An input rewritten after it was read (and before the reports that name
// its digest are written) is refused: exit 2, one line naming the file, and
// no report set.
func TestGateRefusesAnInputChangedDuringTheRun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		change func(path string, data []byte) error
	}{
		{"appended", func(path string, data []byte) error {
			return os.WriteFile(path, append(data, "prod,q99,0.5\n"...), 0o644)
		}},
		// The same size, a later modification time: only the bytes differ.
		{"same-size", func(path string, data []byte) error {
			changed := []byte(strings.Replace(string(data), "0.", "1.", 1))
			if err := os.WriteFile(path, changed, 0o644); err != nil {
				return err
			}
			later := time.Now().Add(time.Minute)
			return os.Chtimes(path, later, later)
		}},
		{"replaced", func(path string, data []byte) error {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, data, 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, data := copyTestFile(t, "gate_small.csv")
			out := filepath.Join(t.TempDir(), "out")
			t.Parallel()
			// The input changes after the analyses, just before the check.
			changeThenVerify := func(o *gateOptions) {
				o.verifyInputs = func(sources []scores.Source) error {
					if err := c.change(in, data); err != nil {
						t.Error(err)
					}
					return scores.VerifySources(sources)
				}
			}
			code, _, stderr := runGateWith(t, context.Background(), changeThenVerify, "--policy", filepath.Join("testdata", "gate", "cheap.yaml"), "--out", out, in)
			if code != exitError || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, in) || !strings.Contains(stderr, "changed during the run") {
				t.Errorf("exit %d, stderr %q; want 2 and one line saying %s changed", code, stderr, in)
			}
			if _, err := os.Stat(filepath.Join(out, "result.json")); err == nil {
				t.Error("a result.json was written for a changed input")
			}
		})
	}
}

// A qrels file the policy names is reported at the policy's key when it
// cannot be read.
func TestGatePolicyQrelsPosition(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	policy := filepath.Join(dir, "policy.yaml")
	text := "version: 1\nname: runs\nchampion: run_a\nchallengers: [run_b]\ninputs:\n  qrels: missing-qrels.txt\nrules:\n  - id: gains\n    quantity: mean_diff\n    at_least: 0\n"
	if err := os.WriteFile(policy, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runMain(t, "gate", "--policy", policy, "../examples/tiny/run_a.txt", "../examples/tiny/run_b.txt")
	want := policy + ":6:10 inputs.qrels"
	if code != exitError || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q; want 2 and one line naming %q", code, stderr, want)
	}
}

// --comment-author names whose sticky comment gate and publish adopt; a
// marker comment by anyone else is left alone.
func TestCommentAuthorFlag(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"gate", "publish"} {
		t.Run(cmd, func(t *testing.T) {
			t.Parallel()
			srv := githubtest.NewServer("")
			defer srv.Close()
			srv.Token = publishTestToken
			srv.EditOthers = true // GitHub would let a maintainer's token edit it: riskgate must not
			env, _, _ := actionsEnv(t, srv)
			out, status, stderr := gateResult(t, env)
			if status != exitFail {
				t.Fatalf("gate exit %d: %s", status, stderr)
			}
			marker := "<!-- riskgate:comment policy=release -->\n"
			if cmd == "publish" { // a result read from a file has a marker of its own
				marker = "<!-- riskgate:comment unverified policy=release -->\n"
			}
			forged := srv.AddCommentBy(7, githubtest.OtherUser, marker+"✅ pass (forged)")
			own := srv.AddCommentBy(7, "riskgate-app[bot]", marker+"old")
			var code int
			if cmd == "gate" {
				_, code, stderr = gateResult(t, env, "--github", "--comment-author", "riskgate-app[bot]")
				if code != exitFail {
					t.Fatalf("exit %d: %s", code, stderr)
				}
			} else {
				code, _, stderr = runMainEnv(t, env, "publish", "--from", filepath.Join(out, "result.json"), "--comment-author", "riskgate-app[bot]")
				if code != exitPass {
					t.Fatalf("exit %d: %s", code, stderr)
				}
			}
			for _, c := range srv.Comments(7) {
				switch c.ID {
				case forged:
					if !strings.Contains(c.Body, "forged") {
						t.Error("the comment by another user was edited")
					}
				case own:
					if strings.HasSuffix(c.Body, "\nold") {
						t.Error("the named author's comment was not updated")
					}
				}
			}
			for _, r := range srv.Requests() {
				if r.Method == "GET" && r.Path == "/user" {
					t.Error("GET /user asked although --comment-author names the author")
				}
			}
		})
	}
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// policy validate warns about a lax policy, one line per warning, and
// still exits 0: the policy is valid.
func TestPolicyValidateWarnsLaxPolicies(t *testing.T) {
	t.Parallel()
	policy := filepath.Join(t.TempDir(), "lax.yaml")
	os.WriteFile(policy, []byte(`version: 1
name: lax
on_inconclusive: pass
model: {max_rhat: 1.2}
rules:
  - {id: gains, quantity: mean_diff, at_least: 0}
waivers:
  - {rule: gains, challenger: "*", reason: always, approver: alice, expires: 2099-12-31}
`), 0o644)
	code, _, stderr := runMain(t, "policy", "validate", policy)
	if code != exitPass {
		t.Fatalf("exit %d %s", code, stderr)
	}
	for _, want := range []string{
		policy + `:8:5: the waiver of rule gains matches every challenger`,
		policy + `:8:5: the waiver of rule gains for * expires on 2099-12-31, more than a year from now`,
		policy + `:3:18: on_inconclusive: pass lets a gate that cannot decide pass`,
		policy + `:4:19: model.max_rhat 1.2 counts chains that disagree as converged`,
	} {
		if !strings.Contains(stderr, "riskgate: warning: "+want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
