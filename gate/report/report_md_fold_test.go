package report

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/mdcheck"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// CheckComment checks report.md of r as GitHub renders it (goldmark with
// the GFM extension): above the fold (before the first <details>) no table
// has more than six columns, the summary and the worst regressions are
// there, and the only loss weight named is the one that decides (but for
// the evidence's "it passes at w = …"); each
// rule's reason appears once in the whole comment.
func CheckComment(t *testing.T, r *result.Result, md string) mdcheck.Fold {
	t.Helper()
	mdcheck.Structure(t, md, MaxMarkdownBytes)
	f := mdcheck.CheckFold(t, md, 6)
	if len(f.AboveColumns) == 0 || f.AboveColumns[0] != 6 {
		t.Errorf("the summary table does not lead: tables above the fold %v", f.AboveColumns)
	}
	if len(r.Regressions) > 0 && !strings.Contains(f.Above, "Worst regressions") {
		t.Error("no worst regressions above the fold")
	}
	// The evidence may say at which other loss weights a rule would pass
	// ("it passes at w = 2"), and P(better)'s head names the fit it came
	// from ("[BRisk fit, w = 1]": the raw-score model); no other table or
	// figure is for them.
	w := numfmt.G(r.DecidingLossWeight())
	above := regexp.MustCompile(`it passes at w = [0-9., ]+`).ReplaceAllString(f.Above, "")
	above = strings.ReplaceAll(above, result.PBetterLabel([]result.Summary{{PBetterFit: result.FitBRiskRaw}}), "")
	for _, m := range regexp.MustCompile(`w = ([0-9.]+)`).FindAllStringSubmatch(above, -1) {
		if m[1] != w {
			t.Errorf("loss weight %s above the fold; only the deciding w = %s belongs there", m[1], w)
		}
	}
	for _, c := range r.Decision.Challengers {
		for _, rr := range c.Rules {
			if rr.Outcome == policies.OutcomePass {
				continue
			}
			reason := mdSentence(rr.Reason, 600)
			seen := 0
			for _, other := range r.Decision.Challengers {
				for _, o := range other.Rules {
					if o.Outcome != policies.OutcomePass && o.Reason == rr.Reason {
						seen++
					}
				}
			}
			if n := strings.Count(md, reason); n > 1 && seen == 1 {
				t.Errorf("%s's reason for %s appears %d times: %q", c.Name, rr.Rule, n, reason)
			}
		}
	}
	return f
}

// The golden runs' comments fit a pull request.
func TestMarkdownCommentFits(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "testdata", "gate")
	for _, run := range []string{"example", "cheap"} {
		t.Run(run, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, run+".result.json.golden"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := result.Read("result.json", data)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := Markdown(&b, r); err != nil {
				t.Fatal(err)
			}
			f := CheckComment(t, r, b.String())
			t.Logf("%s: %d characters; tables above the fold %v columns, below %v", run, len([]rune(b.String())), f.AboveColumns, f.BelowColumns)
		})
	}
}

// A reason shared by several rules is written once; the others refer to it,
// and the verdicts' reasons, which quote it in parentheses, are shortened
// (riskgate 0534896 wrote such a reason 14 times for an inconclusive example).
func TestMarkdownReasonOnce(t *testing.T) {
	t.Parallel()
	same := "the fit did not converge: R-hat 1.2 of sd_topic above 1.01; raise model.target_ess"
	r := &result.Result{Policy: result.Policy{Name: "p"}, RiskTable: result.RiskTable{LossWeight: 1},
		Decision: &policies.Decision{Verdict: policies.Inconclusive}}
	var why []string
	for _, c := range []string{"a", "b", "c"} {
		cd := policies.ChallengerDecision{Name: c, Verdict: policies.Inconclusive, Reason: "inconclusive on better (" + same + ") and riskier (" + same + ")"}
		why = append(why, c+" is "+cd.Reason)
		for _, rule := range []string{"better", "riskier"} {
			cd.Rules = append(cd.Rules, policies.RuleResult{Rule: rule, Outcome: policies.OutcomeInconclusive, Reason: same})
		}
		r.Decision.Challengers = append(r.Decision.Challengers, cd)
		r.Data.Challengers = append(r.Data.Challengers, c)
	}
	r.Decision.Reason = "no challenger passes; " + strings.Join(why, "; ")
	var b strings.Builder
	if err := Markdown(&b, r); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), mdSentence(same, 600)); n != 1 {
		t.Errorf("the shared reason appears %d times:\n%s", n, b.String())
	}
	if !strings.Contains(b.String(), "no challenger passes; a is inconclusive on better and riskier; b is") {
		t.Errorf("the run's reason is not shortened:\n%s", b.String())
	}
	if n := strings.Count(b.String(), "as for a (better)"); n != 5 {
		t.Errorf("%d references to the first, want 5:\n%s", n, b.String())
	}
}
