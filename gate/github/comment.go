package github

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	gh "github.com/google/go-github/v62/github"
)

// The sticky comment starts with a hidden marker naming the policy, so that
// each policy keeps one comment on a pull request, followed by the digest of
// what it says, for --comment-mode on-change. An unverified result (a file,
// see Source) has a marker of its own, so that it never edits the comment of
// a gate run by a trusted job.
const (
	markerPrefix           = "<!-- riskgate:comment policy="
	unverifiedMarkerPrefix = "<!-- riskgate:comment unverified policy="
	markerSuffix           = " -->"
)

func commentMarker(source Source, policy string) string {
	prefix := markerPrefix
	if source != SourceThisJob {
		prefix = unverifiedMarkerPrefix
	}
	return prefix + markerText(policy) + markerSuffix
}

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

// ActionsBot is the login GitHub writes GITHUB_TOKEN's comments under.
const ActionsBot = "github-actions[bot]"

// findComment returns the oldest comment on the pull request that starts
// with marker and was written by the token's own account (see author),
// reading every page; nil if there is none. The marker is public, so anyone
// can post a comment that starts with it: one written by someone else is
// never edited (nor, in on-change mode, trusted to say what was decided),
// and a new comment is created instead.
func (p *Publisher) findComment(ctx context.Context, c *gh.Client, t target, marker string) (*gh.IssueComment, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	self := ""
	for page := 0; page < maxCommentPages; page++ {
		comments, resp, err := c.Issues.ListComments(ctx, t.owner, t.repo, t.pr, opts)
		if err != nil {
			return nil, err
		}
		for _, cm := range comments {
			if !strings.HasPrefix(cm.GetBody(), marker) {
				continue
			}
			if self == "" {
				// Asked only once a marker is seen: a first run needs no identity.
				if self, err = p.author(ctx, c); err != nil {
					return nil, err
				}
			}
			if login := cm.GetUser().GetLogin(); !strings.EqualFold(login, self) {
				p.note("comment %d starts with riskgate's marker but was written by %s, not by this token's account (%s): not adopted",
					cm.GetID(), plainText(orUnknown(login), 64, false), plainText(self, 64, false))
				continue
			}
			return cm, nil
		}
		if resp.NextPage == 0 {
			return nil, nil
		}
		opts.Page = resp.NextPage
	}
	return nil, fmt.Errorf("pull request #%d has more than %d comments; not looking further", t.pr, maxCommentPages*100)
}

// author returns the login whose comments are the token's own: the
// CommentAuthor option when set, else the account GET /user names (a
// personal access or OAuth token). GitHub answers GET /user with 403 for an
// installation token, which GITHUB_TOKEN is: its comments are written by
// github-actions[bot], which is then the author. A GitHub App's installation
// token writes as APP-SLUG[bot], which no API call open to that token tells;
// such a workflow sets CommentAuthor, or gets a new comment on every run.
// A login with "[bot]" cannot be taken by a user, so a bot login cannot be
// forged; any other error leaves the author unknown and no comment is written.
func (p *Publisher) author(ctx context.Context, c *gh.Client) (string, error) {
	if p.Options.CommentAuthor != "" {
		return p.Options.CommentAuthor, nil
	}
	u, _, err := c.Users.Get(ctx, "")
	switch {
	case err == nil && u.GetLogin() != "":
		return u.GetLogin(), nil
	case err == nil:
		return "", fmt.Errorf("GET /user named no login: cannot tell which comments are this token's own")
	case status(err) == http.StatusForbidden:
		return ActionsBot, nil
	}
	return "", fmt.Errorf("cannot tell which comments are this token's own: %s", describe(err))
}

func orUnknown(login string) string {
	if login == "" {
		return "an unknown account"
	}
	return login
}

// comment writes the sticky comment as the comment mode says.
func (p *Publisher) comment(ctx context.Context, c *gh.Client, t target, r Report, res *Result) error {
	marker := commentMarker(r.Source, r.PolicyName)
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
	body := marker + "\n" + digestLine(digest) + "\n" + p.bodyOf(&r, t)
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
