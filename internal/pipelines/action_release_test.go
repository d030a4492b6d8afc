package pipelines

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writePool writes a score table in the long CSV format with rb04's kind of
// names: the champion "Champion", challengers "Chal. 1" and "Chal. 2" (a
// space and a dot in each), and twelve artifacts, over 30 topics, from a
// fixed seed.
func writePool(t *testing.T, s *sandbox, name string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(18, 1))
	systems := []string{"Champion", "Chal. 1", "Chal. 2"}
	for i := 1; i <= 12; i++ {
		systems = append(systems, fmt.Sprintf("run%02d", i))
	}
	topics := make([]float64, 30)
	for i := range topics {
		topics[i] = 0.2 + 0.5*rng.Float64()
	}
	var b strings.Builder
	b.WriteString("system,topic,score\n")
	for _, sys := range systems {
		effect := 0.03 * rng.NormFloat64()
		for i, base := range topics {
			score := min(1, max(0, base+effect+0.05*rng.NormFloat64()))
			fmt.Fprintf(&b, "%s,%d,%.4f\n", sys, i+1, score)
		}
	}
	s.write(name, b.String())
}

// The Action at a release tag installs that release from the releases URL
// with install.sh — no Go toolchain on the way — and runs the real riskgate
// on it; the second run of the same version takes the cached binary and
// downloads nothing. The policy decides on the mean difference alone: what
// is tested is the install and the arguments, not a fit (the default
// policy's took 1.5 CPU-s a run).
func TestActionInstallsTheRelease(t *testing.T) {
	t.Parallel()
	rel := hostRelease(t)
	srv := newReleaseServer(t, rel)
	s := newSandbox(t)
	s.unstub("curl") // install.sh downloads with the real curl
	s.actionRef = rel.tag
	writePool(t, s, "scores/pool.csv")
	s.write("policy.yaml", "version: 1\nname: action-release\nrules:\n  - {id: gains, quantity: mean_diff, at_least: 0}\n")
	summary := filepath.Join(s.dir, "summary.md")
	inputs := map[string]string{
		"releases-url": srv.url(),
		"policy":       "policy.yaml",
		"inputs":       "scores/*.csv",
		"args":         "--champion\nChampion\n--challenger\nChal. *",
		"token":        "",
	}
	// No Go here: the stub go fails and records any call.
	env := map[string]string{"STUB_GO_FAIL": "1", "GITHUB_STEP_SUMMARY": summary}

	for i, wantDownloads := range []int{2, 0} {
		os.RemoveAll(filepath.Join(s.dir, "riskgate-report"))
		before := len(srv.downloads())
		run := runAction(t, s, inputs, env)
		if run.status["install"] != 0 || run.status["resolve"] != 0 {
			t.Fatalf("run %d: install failed: %v\n%s", i+1, run.status, run.logs)
		}
		t.Logf("run %d: the install step took %v (%d downloads)", i+1, run.took["install"], len(srv.downloads())-before)
		if got := len(srv.downloads()) - before; got != wantDownloads {
			t.Errorf("run %d: %d downloads, want %d: %q", i+1, got, wantDownloads, srv.downloads())
		}
		if calls := s.calls("go"); calls != nil {
			t.Errorf("run %d: the release path ran go: %q", i+1, calls)
		}
		for _, u := range run.used {
			if strings.HasPrefix(u, "actions/setup-go@") {
				t.Errorf("run %d: the release path set up Go", i+1)
			}
		}
		// riskgate gate ran: exit status 0 pass, 1 fail or 3 inconclusive,
		// never 2 (which a split "Chal." "*" would give).
		if code := run.outputs["exit-code"]; code != "0" && code != "1" && code != "3" {
			t.Fatalf("run %d: riskgate exit status %q, verdict %q\n%s", i+1, code, run.outputs["verdict"], run.logs)
		}
		var result struct {
			Tool struct {
				Version string `json:"version"`
			} `json:"tool"`
			Verdict string `json:"verdict"`
			Data    struct {
				Champion    string   `json:"champion"`
				Challengers []string `json:"challengers"`
			} `json:"data"`
		}
		data, err := os.ReadFile(filepath.Join(s.dir, run.outputs["report-json"]))
		if err == nil {
			err = json.Unmarshal(data, &result)
		}
		if err != nil {
			t.Fatalf("run %d: result.json: %v", i+1, err)
		}
		if result.Tool.Version != rel.tag || result.Data.Champion != "Champion" ||
			!slices.Equal(result.Data.Challengers, []string{"Chal. 1", "Chal. 2"}) || result.Verdict != run.outputs["verdict"] {
			t.Errorf("run %d: riskgate %s gated %q against %q (verdict %s, output %s); want %s with Chal. * as one argument",
				i+1, result.Tool.Version, result.Data.Challengers, result.Data.Champion, result.Verdict, run.outputs["verdict"], rel.tag)
		}
	}
	if len(s.cache) != 1 {
		t.Errorf("cache entries %v, want one", s.cache)
	}
	for key := range s.cache {
		if !strings.Contains(key, rel.tag) {
			t.Errorf("cache key %q does not hold the version %s", key, rel.tag)
		}
	}
}

// A moving tag (v1, v1.4) installs the release tag on the same commit, read
// with git ls-remote from the repository the releases URL belongs to.
func TestActionResolvesAMovingTag(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	// The stand-in release: what is tested is which release is installed,
	// and that the gate step runs it (the stub riskgate records the call).
	released := standInRelease(t, "v1.4.2")
	srv := newReleaseServer(t, released)
	const (
		tagObject = "1111111111111111111111111111111111111111"
		commit    = "2222222222222222222222222222222222222222"
		newer     = "3333333333333333333333333333333333333333"
	)
	srv.refs = strings.Join([]string{
		tagObject + "\trefs/tags/v1", // annotated: its commit follows
		commit + "\trefs/tags/v1^{}",
		commit + "\trefs/tags/v1.3.0",
		commit + "\trefs/tags/v1.4.2",
		commit + "\trefs/tags/v1.4.2-rc.1",
		commit + "\trefs/tags/v1.4",
		commit + "\trefs/tags/v2.0.0",
		newer + "\trefs/tags/v1.5.0", // tagged, but v1 was not moved to it
	}, "\n") + "\n"
	for _, c := range []struct {
		ref, version string
		want         string // the release installed; "" for an error
	}{
		{ref: "v1", want: "v1.4.2"},
		{ref: "main", version: "v1", want: "v1.4.2"},
		{ref: "v1.4", want: "v1.4.2"},
		{ref: "v1.5", want: ""}, // no such tag
		{ref: "v3", want: ""},
	} {
		s := newSandbox(t)
		s.unstub("curl")
		s.actionRef = c.ref
		before := len(srv.downloads())
		run := runAction(t, s, map[string]string{"releases-url": srv.url(), "version": c.version, "token": ""},
			map[string]string{"STUB_GO_FAIL": "1"})
		downloads := srv.downloads()[before:]
		if c.want == "" {
			if run.status["resolve"] != 2 || len(downloads) != 0 || !strings.Contains(run.logs, "no release tag") {
				t.Errorf("ref %s: status %v, downloads %q; want the resolve step to stop\n%s", c.ref, run.status, downloads, run.logs)
			}
			continue
		}
		want := []string{c.want + "/checksums.txt", c.want + "/" + released.archive()}
		if run.status["install"] != 0 || run.status["gate"] != 0 || !slices.Equal(downloads, want) || s.calls("go") != nil {
			t.Errorf("ref %s version %q: status %v, downloads %q, want %q\n%s", c.ref, c.version, run.status, downloads, want, run.logs)
		}
		if calls := s.calls("riskgate"); len(calls) != 1 || len(calls[0]) == 0 || calls[0][0] != "gate" {
			t.Errorf("ref %s: the installed riskgate ran %q, want one gate", c.ref, calls)
		}
		if _, ok := s.cache[fmt.Sprintf("riskgate-%s-Linux-%s", c.want, runnerArch())]; !ok {
			t.Errorf("ref %s: cache keys %v, want the release's", c.ref, s.cache)
		}
	}

	// Without the repository's tags, a moving tag cannot be resolved.
	srv.refs = ""
	s := newSandbox(t)
	s.actionRef = "v1"
	run := runAction(t, s, map[string]string{"releases-url": srv.url()}, map[string]string{"STUB_GO_FAIL": "1"})
	if run.status["resolve"] != 2 || !strings.Contains(run.logs, "could not list the tags") || s.calls("riskgate") != nil {
		t.Errorf("unreachable tags: status %v\n%s", run.status, run.logs)
	}
}

// A release whose download does not match its checksums.txt stops the
// Action before the gate runs.
func TestActionRefusesATamperedRelease(t *testing.T) {
	t.Parallel()
	rel := standInRelease(t, "v1.2.3") // what is refused is the download, whatever it holds
	p := filepath.Join(rel.dir, rel.archive())
	data, _ := os.ReadFile(p)
	data[len(data)/3] ^= 0x80
	os.WriteFile(p, data, 0o644)
	srv := newReleaseServer(t, rel)
	s := newSandbox(t)
	s.unstub("curl")
	s.installRiskgate() // a riskgate on PATH must not be run instead
	s.actionRef = rel.tag
	run := runAction(t, s, map[string]string{"releases-url": srv.url(), "args": "--example"}, map[string]string{"STUB_GO_FAIL": "1"})
	if run.status["install"] == 0 || !strings.Contains(run.logs, "checksum mismatch") {
		t.Errorf("install status %v\n%s", run.status, run.logs)
	}
	if _, ran := run.status["gate"]; ran || s.calls("riskgate") != nil || len(s.cache) != 0 {
		t.Errorf("after a checksum mismatch: status %v, riskgate calls %q, cache %v", run.status, s.calls("riskgate"), s.cache)
	}
	if run.uploaded == nil {
		t.Error("the upload step runs always()")
	}
}
