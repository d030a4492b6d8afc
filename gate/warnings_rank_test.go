package gate

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Warnings are ranked and tied to the rules they affect (issue 30 item 3):
// on gate_small.csv with topic q01 scored 0 by every system, the default
// policy's run warns that ZRisk/GeoRisk treat that topic as z = 0 — a
// quantity no rule uses — and that the Bayesian models were fitted without
// enough artifacts, which concerns the Bayesian rule few-topics-at-risk. The
// latter comes first, the former is marked, and the count says so (it was
// "2 warning(s)").
func TestWarningsRankedByTheRulesTheyAffect(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("testdata", "gate_small.csv"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if f := strings.Split(l, ","); len(f) == 3 && f[1] == "q01" {
			l = f[0] + ",q01,0\n"
		}
		b.WriteString(l)
	}
	in := filepath.Join(t.TempDir(), "zero.csv")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// Without the --risk-sweep fits (0.7 of a run's 0.9 CPU-s): the same two
	// warnings, from the rules' fits and ZRisk.
	args := []string{"gate", "--champion", "prod", "--challenger", "cand-*", "--risk-sweep", ""}
	_, out, errw := runMain(t, append(args, in)...)
	if !strings.Contains(out, "\n2 warnings (1 affects no rule); ") {
		t.Errorf("the table's count does not set apart the warning that affects no rule:\n%s%s", out, errw)
	}
	_, out, errw = runMain(t, append(args, "--format", "json", in)...)
	var r struct {
		Warnings       []string
		WarningDetails []struct {
			Text, About string
			Rules       []string
		} `json:"warning_details"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v: %s", err, errw)
	}
	if len(r.WarningDetails) != 2 || len(r.Warnings) != 2 {
		t.Fatalf("warnings %q, details %+v", r.Warnings, r.WarningDetails)
	}
	first, last := r.WarningDetails[0], r.WarningDetails[1]
	if !strings.Contains(first.Text, "the Bayesian models took the system spread from the day-one prior") ||
		strings.Join(first.Rules, ",") != "few-topics-at-risk" {
		t.Errorf("first warning %+v: want the small pool's, tied to few-topics-at-risk", first)
	}
	if !strings.HasPrefix(last.Text, "ZRisk/GeoRisk at w = 2: 1 topic(s) scored 0 by every system") || len(last.Rules) != 0 || last.About != "risk" {
		t.Errorf("last warning %+v: want ZRisk/GeoRisk's, tied to no rule", last)
	}
	for i := range r.Warnings {
		if r.Warnings[i] != r.WarningDetails[i].Text {
			t.Errorf("warnings[%d] %q is not warning_details[%d]'s text", i, r.Warnings[i], i)
		}
	}
}
