package github

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"

	gh "github.com/google/go-github/v62/github"
)

// annotationBatch is the most annotations GitHub takes in one request.
const annotationBatch = 50

// checkName names the check run (and the commit status) after the policy:
// "riskgate: POLICY" for a result computed by this job, "riskgate
// (unverified): POLICY" for one read from a file (see Source). The two sets
// of names are disjoint — one continues "riskgate" with ':', the other with
// ' (' — whatever the policy's name, so that no file can name a check as a
// trusted gate does.
func checkName(source Source, policy string) string {
	prefix := "riskgate"
	if source != SourceThisJob {
		prefix = unverifiedPrefix
	}
	if policy == "" {
		return prefix
	}
	return plainText(prefix+": "+policy, nameLimit, false)
}

// externalID is the check run's external_id: which command published it.
func externalID(source Source) string {
	if source == SourceThisJob {
		return "riskgate gate"
	}
	return "riskgate publish (unverified)"
}

// conclusion maps a verdict to a check run conclusion. An inconclusive
// verdict is action_required, not neutral: a required check accepts
// success, neutral and skipped, and an undecided gate must not pass one
// (as the commit status's error does not).
func conclusion(verdict string) string {
	switch verdict {
	case VerdictPass, VerdictWarn:
		return "success"
	case VerdictFail:
		return "failure"
	}
	return "action_required"
}

// statusState maps a verdict to a commit status state (which has no neutral).
func statusState(verdict string) string {
	switch verdict {
	case VerdictPass, VerdictWarn:
		return "success"
	case VerdictFail:
		return "failure"
	}
	return "error"
}

// check creates the check run, with its annotations in batches, or posts a
// commit status when the token may not create check runs.
func (p *Publisher) check(ctx context.Context, c *gh.Client, t target, r Report, res *Result) error {
	name := checkName(r.Source, r.PolicyName)
	title := r.Title
	if title == "" {
		title = "riskgate: " + r.Verdict
	}
	title = plainText(title, titleLimit, false)
	anns := p.checkAnnotations(r.Annotations)
	first := anns[:min(len(anns), annotationBatch)]
	note := func(limit int) string { return cutNote(limit, p.Options.Artifact, t.reportURL) }
	limits := []int{CheckSummaryLimit, CheckSummaryLimit / 2, CheckSummaryLimit / 16}

	var summary string
	var run *gh.CheckRun
	err := sendFitted(p.bodyOf(&r, t), limits, note, func(text string) error {
		opts := gh.CreateCheckRunOptions{
			Name:        name,
			HeadSHA:     t.headSHA,
			ExternalID:  gh.String(externalID(r.Source)),
			Status:      gh.String("completed"),
			Conclusion:  gh.String(conclusion(r.Verdict)),
			CompletedAt: &gh.Timestamp{Time: p.now()},
			Output:      &gh.CheckRunOutput{Title: &title, Summary: &text, Annotations: first},
		}
		if u := linkURL(t.reportURL); u != "" {
			opts.DetailsURL = &u
		}
		var err error
		run, _, err = c.Checks.CreateCheckRun(ctx, t.owner, t.repo, opts)
		summary = text
		return err
	})
	if err != nil {
		if s := status(err); s == http.StatusForbidden || s == http.StatusNotFound {
			p.note("the token cannot create check runs (%s); posting a commit status instead", describe(err))
			return p.commitStatus(ctx, c, t, r, res, err)
		}
		return fmt.Errorf("could not create the check run: %s", describe(err))
	}
	res.CheckRunID = run.GetID()
	for i := annotationBatch; i < len(anns); i += annotationBatch {
		batch := anns[i:min(len(anns), i+annotationBatch)]
		_, _, err := c.Checks.UpdateCheckRun(ctx, t.owner, t.repo, run.GetID(), gh.UpdateCheckRunOptions{
			Name:   name,
			Output: &gh.CheckRunOutput{Title: &title, Summary: &summary, Annotations: batch},
		})
		if err != nil {
			return fmt.Errorf("could not add annotations %d–%d of %d to the check run: %s", i+1, i+len(batch), len(anns), describe(err))
		}
	}
	return nil
}

// commitStatus posts the verdict as a commit status; checkErr is why the
// check run could not be created.
func (p *Publisher) commitStatus(ctx context.Context, c *gh.Client, t target, r Report, res *Result, checkErr error) error {
	desc := r.Summary
	if desc == "" {
		desc = "riskgate: " + r.Verdict
	}
	st := &gh.RepoStatus{
		State:       gh.String(statusState(r.Verdict)),
		Description: gh.String(plainText(desc, StatusLimit, false)),
		Context:     gh.String(checkName(r.Source, r.PolicyName)),
	}
	if u := linkURL(t.reportURL); u != "" {
		st.TargetURL = &u
	}
	if _, _, err := c.Repositories.CreateStatus(ctx, t.owner, t.repo, t.headSHA, st); err != nil {
		return fmt.Errorf("could not create a check run (%s) nor a commit status (%s)", describe(checkErr), describe(err))
	}
	res.Status = true
	return nil
}

// checkAnnotations converts the report's annotations for the check run.
// Those without a file in the repository are left to the workflow commands.
func (p *Publisher) checkAnnotations(in []Annotation) []*gh.CheckRunAnnotation {
	var out []*gh.CheckRunAnnotation
	for _, a := range in {
		path := p.repoPath(a.Path)
		if path == "" {
			continue
		}
		start := max(a.StartLine, 1)
		end := max(a.EndLine, start)
		ca := &gh.CheckRunAnnotation{
			Path:            &path,
			StartLine:       gh.Int(start),
			EndLine:         gh.Int(end),
			AnnotationLevel: gh.String(a.Level),
			Message:         gh.String(plainText(a.Message, annotationMsgLimit, true)),
		}
		if a.Title != "" {
			ca.Title = gh.String(plainText(a.Title, annotationTitleLimit, false))
		}
		if *ca.Message == "" {
			ca.Message = gh.String(a.Level)
		}
		out = append(out, ca)
	}
	return out
}

// repoPath makes a path relative to the repository (GITHUB_WORKSPACE), with
// forward slashes; "" for a path outside it.
func (p *Publisher) repoPath(path string) string {
	if path == "" {
		return ""
	}
	if filepath.IsAbs(path) {
		if p.Env.Workspace == "" {
			return ""
		}
		rel, err := filepath.Rel(p.Env.Workspace, path)
		if err != nil {
			return ""
		}
		path = rel
	}
	path = filepath.ToSlash(filepath.Clean(path))
	if path == "." || path == ".." || strings.HasPrefix(path, "../") {
		return ""
	}
	return path
}
