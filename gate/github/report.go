package github

import (
	"fmt"
	"slices"
	"strings"
)

// Verdicts, as the gate decides them.
const (
	VerdictPass         = "pass"
	VerdictWarn         = "warn"
	VerdictFail         = "fail"
	VerdictInconclusive = "inconclusive"
)

var verdicts = []string{VerdictPass, VerdictWarn, VerdictFail, VerdictInconclusive}

// Annotation levels, as check runs name them. Workflow commands call them
// error, warning and notice.
const (
	LevelFailure = "failure"
	LevelWarning = "warning"
	LevelNotice  = "notice"
)

var levels = []string{LevelFailure, LevelWarning, LevelNotice}

// Report is what the gate hands to Publish: everything is already decided
// and rendered.
type Report struct {
	// PolicyName names the check run and the sticky comment's marker, so that
	// several policies can report on one pull request.
	PolicyName string `json:"policy"`
	// Verdict is pass, warn, fail or inconclusive (after on_inconclusive).
	Verdict string `json:"verdict"`
	// Title is the check run's title; "riskgate: VERDICT" when empty.
	Title string `json:"title,omitempty"`
	// Summary is one line: the commit status description (cut to 140
	// characters) and the body when Markdown is empty.
	Summary string `json:"summary"`
	// Markdown is the report body for the comment, the check run summary and
	// the job summary, rendered by the gate with every input name escaped
	// (see escape.Markdown). It is cut to each place's limit here.
	Markdown string `json:"markdown"`
	// Annotations point at the rules that failed or warned.
	Annotations []Annotation `json:"annotations,omitempty"`
	// CommentDigest identifies what the comment says was decided (not
	// when), for --comment-mode on-change; a hash of Verdict and Markdown
	// when empty. (Not result.json's decision_sha256.)
	CommentDigest string `json:"comment_digest,omitempty"`
	// ReportURL is where the full report can be read; the workflow run that
	// uploaded the report artifact when empty.
	ReportURL string `json:"report_url,omitempty"`

	// PullRequest and HeadSHA say which pull request and commit the result is
	// for when the publishing job is not the one that computed it (the
	// workflow_run pattern for forks). They are untrusted: the event's own
	// values win, and a pull-request number taken from here is used only if
	// that pull request's head is the commit being reported on.
	PullRequest int    `json:"pull_request,omitempty"`
	HeadSHA     string `json:"head_sha,omitempty"`

	// Worklist is the judging worklist's file in the report set
	// (judgments-needed.tsv), when the gate wrote one: the comment, the check
	// run and the job summary say which artifact of the run holds it.
	Worklist string `json:"worklist,omitempty"`

	// JSONPath and MarkdownPath are the report files the gate wrote, for the
	// step outputs report-json and report-md.
	JSONPath     string `json:"-"`
	MarkdownPath string `json:"-"`

	// Source says where the result was computed; it names the check run, so
	// it is never read from a file. The zero value is SourceFile.
	Source Source `json:"-"`
}

// Source is where a published result was computed. A required status check
// is matched by name, so a result anyone could have written (a file) is
// published under a name that a result computed by the publishing job never
// has: a branch protection rule that requires the latter cannot be met by
// the former.
type Source int

const (
	// SourceFile is a result read from a file another job wrote (riskgate
	// publish; the workflow_run pattern for forks). It is untrusted: its check
	// run, commit status and sticky comment are named "riskgate (unverified)"
	// or "riskgate (unverified): POLICY", and its body says so. The zero
	// value, so that a report whose source is not said is never taken for a
	// trusted one.
	SourceFile Source = iota
	// SourceThisJob is a result the publishing job computed itself (riskgate
	// gate --github): "riskgate" or "riskgate: POLICY".
	SourceThisJob
)

// unverifiedPrefix begins every name of a SourceFile report.
const unverifiedPrefix = "riskgate (unverified)"

// unverifiedNote heads the body of a SourceFile report.
const unverifiedNote = "> [!NOTE]\n" +
	"> **Unverified result.** It was computed by another job and read from a file: riskgate publish checked that its " +
	"decision follows from the values it records (and from the trusted policy, when given), not that those values are " +
	"what riskgate computes from the runs. Its check run's name begins `" + unverifiedPrefix + "`, which no required " +
	"check should name.\n\n"

// Annotation is a message attached to a line of a file in the repository,
// typically a rule in the policy file.
type Annotation struct {
	Level     string `json:"level"` // failure, warning or notice
	Path      string `json:"path,omitempty"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Title     string `json:"title,omitempty"`
	Message   string `json:"message"`
}

// Validate checks the fields Publish relies on.
func (r *Report) Validate() error {
	if !slices.Contains(verdicts, r.Verdict) {
		return fmt.Errorf("verdict %q: expected one of %s", r.Verdict, strings.Join(verdicts, ", "))
	}
	for i, a := range r.Annotations {
		if !slices.Contains(levels, a.Level) {
			return fmt.Errorf("annotations[%d].level %q: expected one of %s", i, a.Level, strings.Join(levels, ", "))
		}
		if a.StartLine < 0 || a.EndLine < 0 {
			return fmt.Errorf("annotations[%d]: line numbers must not be negative", i)
		}
	}
	return nil
}

// passed says whether the verdict lets the challenger ship.
func (r *Report) passed() bool { return r.Verdict == VerdictPass || r.Verdict == VerdictWarn }
