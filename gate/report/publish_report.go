package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/gate/github"
	"github.com/riskgate/riskgate/policies"
)

// GitHubDecision builds what --github publishes from a policy's decision
// and the rendered markdown report: the verdict, a title and one-line
// summary, one annotation per rule that did not pass for some challenger (at
// the rule's line in the policy file), a notice per note of the decision,
// and the comment's digest for --comment-mode on-change (commentDigest). An
// annotation's level follows the verdict (annotationLevel): a red ::error
// only for a rule that made the run fail. The caller
// sets JSONPath and MarkdownPath to the report files it wrote.
func GitHubDecision(p *policies.Policy, d *policies.Decision, markdown string) github.Report {
	r := github.Report{
		PolicyName:    d.Policy,
		Verdict:       string(d.Verdict),
		Title:         publishTitle(d),
		Summary:       string(d.Verdict) + ": " + d.Reason,
		Markdown:      markdown,
		CommentDigest: commentDigest(d),
	}
	for _, rule := range p.Rules {
		if a, ok := ruleAnnotation(p, rule, d); ok {
			r.Annotations = append(r.Annotations, a)
		}
	}
	for _, u := range d.Unmet {
		r.Annotations = append(r.Annotations, github.Annotation{Level: github.LevelWarning, Path: p.File,
			Title: "requirement " + u.Requirement + " not met", Message: u.Reason})
	}
	for _, n := range d.Notes {
		r.Annotations = append(r.Annotations, github.Annotation{Level: github.LevelNotice, Path: p.File, Title: "riskgate note", Message: n})
	}
	return r
}

func publishTitle(d *policies.Decision) string {
	switch {
	case len(d.Selected) > 0:
		return fmt.Sprintf("%s: ship %s", d.Verdict, strings.Join(d.Selected, ", "))
	case d.Verdict == policies.Inconclusive:
		return "inconclusive: nothing to ship yet"
	}
	return fmt.Sprintf("%s: nothing to ship", d.Verdict)
}

// ruleAnnotation sums up one rule over the challengers it did not pass for;
// false when it passed for every one.
func ruleAnnotation(p *policies.Policy, rule *policies.Rule, d *policies.Decision) (github.Annotation, bool) {
	var lines []string
	level := github.LevelNotice // only waived outcomes
	for _, c := range d.Challengers {
		for _, rr := range c.Rules {
			if rr.Rule != rule.ID || rr.Outcome == policies.OutcomePass {
				continue
			}
			if l := annotationLevel(d, c, rr.Outcome); levelRank(l) > levelRank(level) {
				level = l
			}
			reason := rr.Reason
			if n := nonPassing(rr); n > 1 {
				// A by: rule's reason names its worst segment; the others too.
				reason += "; segments that did not pass: " + failingSegments(rr)
			}
			if rr.Waiver != nil && rr.Waiver.Note != "" {
				reason += "; " + rr.Waiver.Note
			}
			lines = append(lines, fmt.Sprintf("%s: %s, %s", c.Name, rr.Outcome, reason))
		}
	}
	if len(lines) == 0 {
		return github.Annotation{}, false
	}
	a := github.Annotation{
		Level:   level,
		Path:    p.File,
		Title:   "rule " + rule.ID + " (" + rule.Quantity.Name + byText(rule.By) + ", " + rule.Bound.Words() + ")",
		Message: strings.Join(lines, "\n"),
	}
	if rule.Pos.Line > 0 {
		a.StartLine, a.EndLine = rule.Pos.Line, rule.Pos.Line
	}
	return a, true
}

// annotationLevel is the level of an annotation on a challenger's rule
// outcome that is not a pass, following the run's verdict: a failed rule is
// an error only when the run fails (it is then a reason for the failure), a
// warning when the run is inconclusive, and a notice when the run passes —
// the challenger was merely not selected, and a green job shows no red
// annotation. A warn or inconclusive outcome is a warning, except on a
// challenger a passing run did not select (a notice); a waived one a notice.
func annotationLevel(d *policies.Decision, c policies.ChallengerDecision, o policies.Outcome) string {
	passing := d.Verdict == policies.Pass || d.Verdict == policies.Warn
	switch {
	case o == policies.OutcomeWaived, passing && !c.Selected:
		return github.LevelNotice
	case o == policies.OutcomeFail && d.Verdict == policies.Fail:
		return github.LevelFailure
	}
	return github.LevelWarning
}

// levelRank orders annotation levels: notice < warning < failure.
func levelRank(level string) int {
	switch level {
	case github.LevelFailure:
		return 2
	case github.LevelWarning:
		return 1
	}
	return 0
}

// commentDigest is what the sticky comment says was decided, for
// --comment-mode on-change: the first 16 bytes (hex) of the SHA-256 of the
// decision as JSON — the verdicts, outcomes and observed values, not when
// or how long. It is not result.json's decision_sha256, which also covers
// the policy as applied, the roles and the dry-run flag, and guards the
// file against edits (result.Result.DecisionDigest).
func commentDigest(d *policies.Decision) string {
	data, err := json.Marshal(d)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// byText is " by origin" for a by: rule's dimension, "" without one.
func byText(dimension string) string {
	if dimension == "" {
		return ""
	}
	return " by " + dimension
}
