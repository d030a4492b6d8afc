package report

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/github"
	"github.com/riskgate/riskgate/policies"
)

func TestNewPublishReport(t *testing.T) {
	t.Parallel()
	p, err := policies.Parse("policies/gate.yaml", []byte(`version: 1
name: release-gate
champion: prod
challengers: ["cand-*"]
loss_weight: 5
rules:
  - {id: better, quantity: bayes.p_better, at_least: 0.95}
  - id: not-riskier
    quantity: brisk.p_riskier
    at_most: 0.05
    severity: warn
  - {id: gain, quantity: bayes.diff.mean, at_least: 0}
rank_by: bayes.diff.mean
`))
	if err != nil {
		t.Fatal(err)
	}
	// cand-1 passes all; cand-2 fails better and warns on not-riskier.
	observed := map[string][]float64{"cand-1": {0.99, 0.01, 0.03}, "cand-2": {0.91, 0.2, 0.01}}
	values := policies.NewValues()
	for c, vs := range observed {
		for i, q := range p.Queries() {
			values.Set(c, q, policies.Number(vs[i]))
		}
	}
	d := p.Evaluate(policies.Evidence{Challengers: []string{"cand-1", "cand-2"}, Values: values,
		Facts: policies.Facts{Topics: 50, Artifacts: 10, TopicCoverage: 1}, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})

	r := GitHubDecision(p, d, "## md\n")
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	if r.PolicyName != "release-gate" || r.Verdict != "pass" || r.Title != "pass: ship cand-1" || !strings.HasPrefix(r.Summary, "pass: cand-1 passes every rule") {
		t.Errorf("report %+v", r)
	}
	// The run passes (cand-1 ships): cand-2's outcomes are notices.
	want := []github.Annotation{
		{Level: "notice", Path: "policies/gate.yaml", StartLine: 7, EndLine: 7, Title: "rule better (bayes.p_better, at least 0.95)",
			Message: "cand-2: fail, observed 0.91; needs at least 0.95"},
		{Level: "notice", Path: "policies/gate.yaml", StartLine: 8, EndLine: 8, Title: "rule not-riskier (brisk.p_riskier, at most 0.05)",
			Message: "cand-2: warn, observed 0.2; needs at most 0.05"},
	}
	if len(r.Annotations) != len(want) {
		t.Fatalf("annotations %+v", r.Annotations)
	}
	for i := range want {
		if r.Annotations[i] != want[i] {
			t.Errorf("annotation %d:\n got %+v\nwant %+v", i, r.Annotations[i], want[i])
		}
	}
	// The digest follows the decision, not the markdown.
	if r2 := GitHubDecision(p, d, "## other text\n"); r2.CommentDigest != r.CommentDigest || len(r.CommentDigest) != 32 {
		t.Errorf("digest %q vs %q", r.CommentDigest, r2.CommentDigest)
	}
	d.Challengers[1].Rules[0].Observed = policies.Number(0.92)
	if GitHubDecision(p, d, "## md\n").CommentDigest == r.CommentDigest {
		t.Error("a different observation must change the digest")
	}
}

// An annotation's level follows the run's verdict: a failed rule of a
// challenger a passing run did not select is a notice, an error only when
// the run fails, a warning when it is inconclusive.
func TestAnnotationLevelFollowsVerdict(t *testing.T) {
	t.Parallel()
	p, err := policies.Parse("gate.yaml", []byte("version: 1\nname: g\nchampion: prod\nloss_weight: 5\nrules:\n  - {id: better, quantity: bayes.p_better, at_least: 0.95}\n  - {id: risk, quantity: brisk.p_riskier, at_most: 0.05, severity: warn}\n"))
	if err != nil {
		t.Fatal(err)
	}
	eval := func(obs map[string][2]float64) *policies.Decision {
		values := policies.NewValues()
		var names []string
		for c, vs := range obs {
			names = append(names, c)
			for _, q := range p.Queries() {
				v := vs[0]
				if q.Quantity == "brisk.p_riskier" {
					v = vs[1]
				}
				values.Set(c, q, policies.Number(v))
			}
		}
		slices.Sort(names)
		return p.Evaluate(policies.Evidence{Challengers: names, Values: values,
			Facts: policies.Facts{Topics: 50, Artifacts: 10, TopicCoverage: 1}, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	}
	levels := func(d *policies.Decision) []string {
		var out []string
		for _, a := range GitHubDecision(p, d, "").Annotations {
			out = append(out, a.Title[:strings.Index(a.Title, " (")]+"="+a.Level)
		}
		return out
	}
	for _, c := range []struct {
		name string
		obs  map[string][2]float64
		want string
	}{
		// cand-b fails better and warns on risk, but cand-a ships: notices.
		{"pass", map[string][2]float64{"cand-a": {0.99, 0.01}, "cand-b": {0.5, 0.5}}, "rule better=notice rule risk=notice"},
		// cand-a ships with a warning on its own risk rule: a warning.
		{"warn", map[string][2]float64{"cand-a": {0.99, 0.5}, "cand-b": {0.5, 0.01}}, "rule better=notice rule risk=warning"},
		// nothing ships: the failed rule is an error.
		{"fail", map[string][2]float64{"cand-b": {0.5, 0.5}}, "rule better=failure rule risk=warning"},
	} {
		d := eval(c.obs)
		if string(d.Verdict) != c.name {
			t.Fatalf("%s: verdict %s", c.name, d.Verdict)
		}
		if got := strings.Join(levels(d), " "); got != c.want {
			t.Errorf("%s: annotations %s, want %s", c.name, got, c.want)
		}
	}
}
