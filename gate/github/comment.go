package github

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	gh "github.com/google/go-github/v62/github"
)

// The sticky comment starts with a hidden marker naming the policy, so that
// each policy keeps one comment on a pull request, followed by the digest of
// what it says, for --comment-mode on-change.
const (
	markerPrefix = "<!-- riskgate:comment policy="
	markerSuffix = " -->"
)

func commentMarker(policy string) string { return markerPrefix + markerText(policy) + markerSuffix }

func digestLine(digest string) string { return "<!-- riskgate:digest " + digest + " -->" }

var digestRE = regexp.MustCompile(`<!-- riskgate:digest ([0-9A-Za-z%._~]+) -->`)

func commentDigest(body string) string {
	if m := digestRE.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	return ""
}

// maxCommentPages bounds the pages of 100 comments read (10,000 comments).
const maxCommentPages = 100

// findComment returns the oldest comment on the pull request that starts
// with marker, reading every page; nil if there is none.
func (p *Publisher) findComment(ctx context.Context, c *gh.Client, t target, marker string) (*gh.IssueComment, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for page := 0; page < maxCommentPages; page++ {
		comments, resp, err := c.Issues.ListComments(ctx, t.owner, t.repo, t.pr, opts)
		if err != nil {
			return nil, err
		}
		for _, cm := range comments {
			if strings.HasPrefix(cm.GetBody(), marker) {
				return cm, nil
			}
		}
		if resp.NextPage == 0 {
			return nil, nil
		}
		opts.Page = resp.NextPage
	}
	return nil, fmt.Errorf("pull request #%d has more than %d comments; not looking further", t.pr, maxCommentPages*100)
}

// comment writes the sticky comment as the comment mode says.
func (p *Publisher) comment(ctx context.Context, c *gh.Client, t target, r Report, res *Result) error {
	marker := commentMarker(r.PolicyName)
	existing, err := p.findComment(ctx, c, t, marker)
	if err != nil {
		return fmt.Errorf("listing the comments: %w", err)
	}
	digest := r.digest()
	switch p.Options.CommentMode {
	case CommentOnFail:
		if r.passed() && existing == nil {
			res.Comment = "skipped: the gate passed (comment-mode on-fail)"
			return nil
		}
	case CommentOnChange:
		if existing != nil && commentDigest(existing.GetBody()) == digest {
			res.Comment, res.CommentID = "unchanged", existing.GetID()
			return nil
		}
	}
	body := marker + "\n" + digestLine(digest) + "\n" + r.body()
	note := func(limit int) string { return cutNote(limit, p.Options.Artifact, t.reportURL) }
	limits := []int{CommentLimit, CommentLimit / 2, CommentLimit / 16}
	return sendFitted(body, limits, note, func(text string) error {
		if existing == nil {
			cm, _, err := c.Issues.CreateComment(ctx, t.owner, t.repo, t.pr, &gh.IssueComment{Body: &text})
			if err == nil {
				res.Comment, res.CommentID = "created", cm.GetID()
			}
			return err
		}
		cm, _, err := c.Issues.EditComment(ctx, t.owner, t.repo, existing.GetID(), &gh.IssueComment{Body: &text})
		if err == nil {
			res.Comment, res.CommentID = "updated", cm.GetID()
		}
		return err
	})
}
