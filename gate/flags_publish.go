package gate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/github"
	"github.com/urfave/cli/v3"
)

// publishOptions are the flags that publish a result to GitHub, shared by
// riskgate gate (--github) and riskgate publish, as inputOptions are for inputs.
type publishOptions struct {
	GitHub         bool   // --github: publish at all (riskgate publish always does)
	CommentMode    string // --comment-mode: always, on-change, on-fail, off
	RequirePublish bool   // --require-publish: a failure to publish is an error (exit 2)
	Artifact       string // --artifact-name: the report artifact a cut comment points to
	Verbose        bool   // log each GitHub API request (never the token)
	CommentAuthor  string // --comment-author: whose sticky comments are adopted; "" = the token's own account
	// Timeout is --publish-timeout, the deadline of the whole publication.
	Timeout time.Duration
	// getenv reads the GitHub Actions variables (the command's deps).
	getenv func(key string) string
}

// Flags returns --github and the publishing flags, bound to o.
func (o *publishOptions) flags() []cli.Flag {
	return append([]cli.Flag{
		&cli.BoolFlag{Name: "github", Destination: &o.GitHub,
			Usage: "publish to GitHub from the Actions environment: a sticky pull-request comment, a check run (or a commit status), " +
				"the job summary, the step outputs verdict, report-json and report-md, and ::error/::warning annotations. " +
				"A failure to publish is reported on standard error and in the job summary and never changes the verdict or exit status"},
	}, o.publishFlags()...)
}

// publishFlags are the flags other than --github.
func (o *publishOptions) publishFlags() []cli.Flag {
	modes := make([]string, len(github.CommentModes))
	for i, m := range github.CommentModes {
		modes[i] = string(m)
	}
	return []cli.Flag{
		&cli.StringFlag{Name: "comment-mode", Value: string(github.CommentAlways), Destination: &o.CommentMode,
			Usage: "when to write the sticky pull-request comment: `MODE` " + strings.Join(modes, ", ") +
				" (on-change: only when the decision changed; on-fail: only when the gate does not pass, and to update an earlier failing comment)"},
		&cli.BoolFlag{Name: "require-publish", Destination: &o.RequirePublish,
			Usage: "make a failure to publish to GitHub an error (exit status 2) instead of a warning"},
		&cli.StringFlag{Name: "artifact-name", Value: github.DefaultArtifact, Destination: &o.Artifact,
			Usage: "`NAME` of the uploaded report artifact, which a comment cut to GitHub's size limit points to"},
		&cli.DurationFlag{Name: "publish-timeout", Value: github.DefaultTimeout, Destination: &o.Timeout,
			Usage: "stop publishing to GitHub after `DURATION` (every request and rate-limit wait; e.g. 90s, 5m); what is not done by then is reported on standard error and in the job summary, and the verdict and exit status stay"},
		&cli.StringFlag{Name: "comment-author", Destination: &o.CommentAuthor,
			Usage: "the `LOGIN` whose sticky comment is edited (e.g. my-app[bot] for a GitHub App's token); by default the token's own account. A comment with the marker by anyone else is left alone and a new one written"},
	}
}

// Check validates the options, as parsed from the flags, before any work is done.
func (o *publishOptions) check() error {
	if o.Timeout <= 0 {
		return fmt.Errorf("--publish-timeout %v: expected a positive duration, e.g. 3m", o.Timeout)
	}
	_, err := github.ParseCommentMode(o.CommentMode)
	return err
}

// Publish publishes r to GitHub when --github is set, logging to the
// command's standard error. It returns an error only for an invalid report,
// or when publishing failed and --require-publish is set: the caller returns
// it (exit status 2) instead of the verdict's status; otherwise the caller's
// verdict and exit status stand.
func (o *publishOptions) publish(ctx context.Context, r github.Report, s *streams) error {
	if !o.GitHub {
		return nil
	}
	mode, err := github.ParseCommentMode(o.CommentMode)
	if err != nil {
		return err
	}
	return github.PublishFromEnv(ctx, r, github.ReadEnv(o.getenv), github.Options{
		CommentMode:    mode,
		RequirePublish: o.RequirePublish,
		Artifact:       o.Artifact,
		Verbose:        o.Verbose,
		CommentAuthor:  o.CommentAuthor,
		Timeout:        o.Timeout,
		UserAgent:      "riskgate/" + version(),
	}, s.Err)
}
