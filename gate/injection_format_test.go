package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/riskgate/riskgate/gate/github/githubtest"
)

// formatRunes lists the format characters (Unicode category Cf) and line
// separators in s; riskgate's own workflow-command guard writes U+200B only
// between the colons of a line that would start a command, which none here does.
func formatRunes(s string) []rune {
	var out []rune
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			out = append(out, r)
		}
	}
	return out
}

// Issue 23, defect 9: format characters in a run's name — a
// right-to-left override (U+202E), an isolate (U+2066), a zero-width joiner
// (U+200D), a soft hyphen (U+00AD) — reach no channel raw: the check run's
// name, title, summary and annotations, the commit status, the workflow
// commands, junit.xml, the terminal, the comment and the job summary each
// show them as ⟨U+XXXX⟩.
func TestFormatCharactersShownInEveryChannel(t *testing.T) {
	t.Parallel()
	srv := githubtest.NewServer("")
	defer srv.Close()
	srv.Token = publishTestToken
	env, summary, _ := actionsEnv(t, srv)
	ws := filepath.Dir(summary)
	data := readFile(t, filepath.Join("testdata", "gate_small.csv"))
	data = strings.ReplaceAll(data, "cand-a", "cand-a\u202egnp.exe")
	data = strings.ReplaceAll(data, "cand-b", "cand-b\u2066x\u200dy\u00ad")
	pool := filepath.Join(ws, "pool.csv")
	os.WriteFile(pool, []byte(data), 0o644)
	// Policy names are restricted to letters, digits, _ . - (policy
	// validate): the names from the inputs are the runs'. The failing policy
	// annotates cand-b's rule; the lax one ships both, naming them in the
	// check run's title and the commit status's description.
	failing, lax := filepath.Join(ws, "policy.yaml"), filepath.Join(ws, "fork.yaml")
	os.WriteFile(failing, []byte(failingPolicy), 0o644)
	os.WriteFile(lax, []byte(laxPolicy), 0o644)

	channels := map[string]string{}
	for _, policy := range []string{failing, lax} {
		for _, forbidden := range []bool{false, true} {
			srv.ChecksForbidden = forbidden
			out := filepath.Join(ws, "out")
			code, stdout, stderr := runMainEnv(t, env, "gate", "--policy", policy, "--out", out, "--github", pool)
			if code != exitFail && code != exitPass {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			channels["terminal (stdout)"] += stdout
			channels["standard error and workflow commands"] += stderr
			channels["junit.xml"] += readFile(t, filepath.Join(out, "junit.xml"))
		}
	}
	for _, cr := range srv.CheckRuns {
		channels["check run name"] += cr.Name
		channels["check run title"] += cr.Title
		channels["check run summary"] += cr.Summary
		for _, a := range cr.Annotations {
			channels["annotation title"] += a.Title + "\n"
			channels["annotation message"] += a.Message + "\n"
		}
	}
	for _, st := range srv.Statuses {
		channels["commit status context"] += st.Context
		channels["commit status description"] += st.Description
	}
	for _, c := range srv.Comments(7) {
		channels["comment"] += c.Body
	}
	channels["job summary"] = readFile(t, summary)
	for what, text := range channels {
		if raw := formatRunes(text); len(raw) > 0 {
			t.Errorf("%s holds format characters %U raw", what, raw)
		}
	}
	// Each channel names a challenger, and shows its format characters.
	for _, what := range []string{"terminal (stdout)", "junit.xml", "check run title", "check run summary", "comment", "job summary"} {
		if !strings.Contains(channels[what], "202E⟩") {
			t.Errorf("%s does not show U+202E as ⟨U+202E⟩:\n%.600s", what, channels[what])
		}
	}
	for _, what := range []string{"terminal (stdout)", "standard error and workflow commands", "junit.xml", "annotation message", "commit status description"} {
		if !strings.Contains(channels[what], "⟨U+2066⟩x⟨U+200D⟩y⟨U+00AD⟩") {
			t.Errorf("%s does not show cand-b's format characters:\n%.600s", what, channels[what])
		}
	}
}
