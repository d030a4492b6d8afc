package gate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/riskgate/riskgate/gate/report"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/gate/github"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// publishCommandOptions are the options of riskgate publish.
type publishCommandOptions struct {
	From        string // the saved result
	ReportMD    string // the markdown report; replaces the result's own
	PullRequest int    // the pull request the result is for, when the event does not say
	HeadSHA     string // the commit the result is for, when the event does not say
	PolicyPath  string // the trusted policy the result must have applied; "" trusts the result's own
	Publish     *publishOptions
}

const publishDescription = `Publishes a result saved by an earlier job to GitHub, exactly as riskgate gate --github
does: the sticky pull-request comment, the check run (or commit status), the job summary,
the step outputs and the annotations.

It is the second half of the pattern for pull requests from forks, whose pull_request
workflows get a read-only token: an unprivileged job runs the gate and uploads the result,
and a workflow_run job with write permission downloads it and runs riskgate publish. The
result is untrusted there: its check run and commit status are named "riskgate (unverified):
POLICY", which riskgate gate --github never uses (require the gate's "riskgate: POLICY",
never these), its comment says it is unverified, and a pull-request number from
--pull-request or the result is used only when that pull request's head is the commit of
the triggering run. With --policy, every name, digest and bound published is the trusted
file's, and a result computed with any other policy is refused.

The token is GITHUB_TOKEN from the environment, never a flag. Exit status: 0 when the
result was read, whether or not publishing succeeded (failures are reported on standard
error and in the job summary); 2 for a bad result file, or a failure to publish with
--require-publish.`

func newPublishCommand(s *streams, d deps) *cli.Command {
	o := &publishCommandOptions{Publish: &publishOptions{getenv: d.getenv}}
	flags := []cli.Flag{
		&cli.StringFlag{Name: "from", Destination: &o.From, Required: true, Usage: "the saved result `FILE` (JSON)"},
		&cli.StringFlag{Name: "report-md", Destination: &o.ReportMD,
			Usage: "the markdown report `FILE` to publish instead of the result's own (passed through as is: use it only with a trusted file)"},
		&cli.IntFlag{Name: "pull-request", Destination: &o.PullRequest,
			Usage: "the pull request `NUMBER` the result is for, when the event does not name it (checked against the head commit)"},
		&cli.StringFlag{Name: "head-sha", Destination: &o.HeadSHA,
			Usage: "the commit `SHA` the result is for, when the event does not name it"},
		&cli.BoolFlag{Name: "verbose", Destination: &o.Publish.Verbose, Usage: "log each GitHub API request (never the token)"},
		&cli.StringFlag{Name: "policy", Destination: &o.PolicyPath,
			Usage: "the trusted policy `FILE` (e.g. from the base branch) the result must have applied: its rules, bounds and waivers decide, not the result's copy"},
	}
	return &cli.Command{
		Name:        "publish",
		Usage:       "publish a saved gate result to GitHub (for a separate, privileged job)",
		UsageText:   "riskgate publish --from result.json [--report-md report.md] [--comment-mode always|on-change|on-fail|off] [--require-publish]",
		Description: publishDescription,
		Flags:       append(flags, o.Publish.publishFlags()...),
		Action: func(ctx context.Context, c *cli.Command) error {
			if c.Args().Len() > 0 {
				return fmt.Errorf("publish takes no arguments (got %q); name the result with --from", c.Args().First())
			}
			return runPublish(ctx, o, s)
		},
	}
}

func runPublish(ctx context.Context, o *publishCommandOptions, s *streams) error {
	if err := o.Publish.check(); err != nil {
		return err
	}
	if o.PullRequest < 0 {
		return fmt.Errorf("--pull-request %d: expected a pull-request number", o.PullRequest)
	}
	var trusted *policies.Policy
	if o.PolicyPath != "" {
		var err error
		if trusted, err = policies.Load(o.PolicyPath); err != nil {
			return err
		}
	}
	rep, err := loadPublishReport(o.From, o.ReportMD, trusted)
	if err != nil {
		return err
	}
	if o.PullRequest > 0 {
		rep.PullRequest = o.PullRequest
	}
	if o.HeadSHA != "" {
		rep.HeadSHA = o.HeadSHA
	}
	o.Publish.GitHub = true
	return o.Publish.publish(ctx, rep, s)
}

// maxResultSize bounds the result file read.
const maxResultSize = 64 << 20

// loadPublishReport reads what riskgate publish publishes: the result.json
// of a gate run, with its markdown report rendered from the result (every name
// escaped: the file may come from an untrusted fork), or read from reportMD
// when given. With trusted, the result must have applied that policy file,
// whose names, digests and bounds then replace the result's own (see
// result.Result.Check and AdoptPolicy). The report's Source is
// github.SourceFile: a file anyone could have written is published under
// names a gate run never uses.
func loadPublishReport(from, reportMD string, trusted *policies.Policy) (github.Report, error) {
	// A gate run marks its folder until it has written its set, and with
	// its error if it ends in one: a result.json beside the marker (even an
	// empty one, all a full disk may allow) is an earlier run's, not the
	// verdict to publish.
	if marker := filepath.Join(filepath.Dir(from), errorMarker); fileExists(marker) {
		return github.Report{}, inputerr.At(from, 0, "the last gate run on this folder ended in an error or has not finished (%s): this result is an earlier run's; expected a folder without %s", marker, errorMarker)
	}
	data, err := readLimited(from, maxResultSize)
	if err != nil {
		return github.Report{}, err
	}
	r, err := result.Read(from, data)
	if err != nil {
		return github.Report{}, err
	}
	// A verdict GitHub has no conclusion for is refused first.
	if rep := report.GitHub(r, ""); rep.Validate() != nil {
		return rep, inputerr.At(from, 0, "%v", rep.Validate())
	}
	// The verdict published is the one the file's own records give (and
	// the trusted policy, when given).
	if err := r.Check(from, trusted); err != nil {
		return github.Report{}, err
	}
	if trusted != nil {
		if err := r.AdoptPolicy(trusted); err != nil {
			return github.Report{}, inputerr.At(from, 0, "%v", err)
		}
	}
	var md strings.Builder
	if reportMD != "" {
		text, err := readLimited(reportMD, maxResultSize)
		if err != nil {
			return github.Report{}, err
		}
		md.Write(text)
	} else if err := report.Markdown(&md, r); err != nil {
		return github.Report{}, err
	}
	rep := report.GitHub(r, md.String())
	rep.JSONPath, rep.MarkdownPath = from, reportMD
	return rep, nil
}

func fileExists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

func readLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, inputerr.At(name, 0, "larger than %d MiB", limit>>20)
	}
	return data, nil
}
