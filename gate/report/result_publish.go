package report

import (
	"github.com/riskgate/riskgate/gate/github"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/policies"
)

// GitHub is what --github publishes for a result: GitHubDecision of
// the result's decision and its rules, with the markdown report md. riskgate
// gate --github and riskgate publish --from result.json both build it here,
// from the Result, so that they publish the same thing (the same digest for
// --comment-mode on-change). The built-in default policy has no file in the
// repository, so its rules' annotations go to the workflow log only. A
// judging worklist written with the report set is named, for the comment to
// say which artifact holds it.
func GitHub(r *result.Result, md string) github.Report {
	p := &policies.Policy{Name: r.Policy.Name, File: r.Policy.File}
	if r.Policy.Default {
		p.File = ""
	}
	for _, rr := range r.Policy.Rules {
		p.Rules = append(p.Rules, &policies.Rule{
			ID: rr.ID, Pos: policies.Pos{Line: rr.Line, Column: rr.Column},
			// Only the name: a result may come from a newer riskgate with quantities this one does not know.
			Quantity: &policies.Quantity{Name: rr.Quantity},
			Bound:    rr.Bound, Severity: rr.Severity, Description: rr.Description,
		})
	}
	rep := GitHubDecision(p, r.Decision, md)
	if r.Judgments != nil {
		rep.Worklist = r.Judgments.File // "" when the gate wrote no report set
	}
	return rep
}
