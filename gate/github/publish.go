package github

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	gh "github.com/google/go-github/v62/github"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/suggest"
)

// CommentMode says when the sticky pull-request comment is written.
type CommentMode string

const (
	// CommentAlways creates the comment, or edits it, on every run.
	CommentAlways CommentMode = "always"
	// CommentOnChange edits the comment only when the digest of what was
	// decided changed since the comment was written.
	CommentOnChange CommentMode = "on-change"
	// CommentOnFail comments only when the gate does not pass (fail or
	// inconclusive); a comment left by an earlier failing run is still
	// edited, so that it never shows a stale failure.
	CommentOnFail CommentMode = "on-fail"
	// CommentOff never comments.
	CommentOff CommentMode = "off"
)

// CommentModes are the valid comment modes, in the order help lists them.
var CommentModes = []CommentMode{CommentAlways, CommentOnChange, CommentOnFail, CommentOff}

// ParseCommentMode checks a --comment-mode value.
func ParseCommentMode(s string) (CommentMode, error) {
	m := CommentMode(s)
	if !slices.Contains(CommentModes, m) {
		names := make([]string, len(CommentModes))
		for i, m := range CommentModes {
			names[i] = string(m)
		}
		return "", fmt.Errorf("comment mode %q: expected one of %s%s", s, strings.Join(names, ", "), suggest.DidYouMean(s, names))
	}
	return m, nil
}

// DefaultArtifact is the name the action uploads the report directory under.
const DefaultArtifact = "riskgate-report"

// Options say how to publish.
type Options struct {
	CommentMode CommentMode // CommentAlways when empty
	// RequirePublish makes a failure to publish an error (the gate exits 2).
	RequirePublish bool
	// Artifact names the uploaded report, for the pointer in a cut body.
	Artifact string
	// Verbose logs each API request's method, path and status.
	Verbose bool
	// MaxWait bounds the total wait on rate limits; DefaultMaxWait when 0.
	MaxWait time.Duration
	// RequestTimeout bounds each request, from sending it to reading its
	// answer, but not the waits on rate limits between attempts;
	// DefaultRequestTimeout when 0.
	RequestTimeout time.Duration
	// Timeout is the deadline of the whole publication to GitHub — every
	// request and wait; DefaultTimeout when 0. What is not done by then is
	// reported as a failure (on standard error and in the job summary); the
	// job summary and step outputs are written all the same.
	Timeout   time.Duration
	UserAgent string
	// CommentAuthor is the login whose sticky comments are adopted (edited
	// rather than a new one created); when empty, the token's own account
	// (see Publisher.author). A GitHub App's token sets APP-SLUG[bot].
	CommentAuthor string
}

// Publisher publishes reports. The zero value of every field but Env and
// Log works; tests replace the HTTP client, the clock and the sleeper.
type Publisher struct {
	Env     Env
	Options Options
	// Log receives workflow commands, notes and failures (standard error:
	// the runner reads workflow commands there too, and standard output may
	// carry a report).
	Log io.Writer
	// HTTPClient's Transport sends the requests; http.DefaultTransport when nil.
	HTTPClient *http.Client
	Sleep      func(context.Context, time.Duration) error
	Now        func() time.Time
}

// Result says what Publish did.
type Result struct {
	Comment    string // created, updated, unchanged or "skipped: why"
	CommentID  int64
	CheckRunID int64
	// Status is true when a commit status was posted because the token
	// cannot create check runs.
	Status bool
	// Failures are what could not be published, one sentence each.
	Failures []string
}

// PublishFromEnv publishes r from inside GitHub Actions, whose variables
// are env (ReadEnv(os.Getenv) in riskgate), and logs to log (standard
// error). It returns an error when r is invalid, or when publishing failed
// and o.RequirePublish is set; any other failure is only reported.
func PublishFromEnv(ctx context.Context, r Report, env Env, o Options, log io.Writer) error {
	p := &Publisher{Env: env, Options: o, Log: log}
	_, err := p.Publish(ctx, r)
	return err
}

// ErrNotPublished is wrapped by Publish's error when RequirePublish is set
// and something could not be published.
var ErrNotPublished = errors.New("publishing to GitHub failed")

// Publish writes r's workflow commands and step outputs, comments on the
// pull request, creates the check run (or a commit status), and appends the
// report and any failure to the job summary.
func (p *Publisher) Publish(ctx context.Context, r Report) (*Result, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if p.Options.CommentMode == "" {
		p.Options.CommentMode = CommentAlways
	}
	if _, err := ParseCommentMode(string(p.Options.CommentMode)); err != nil {
		return nil, err
	}
	if p.Log == nil {
		p.Log = io.Discard
	}
	res := &Result{}

	t := p.resolve(r, res)
	p.writeCommands(r)
	if err := p.writeOutputs(r); err != nil {
		p.fail(res, "could not write the step outputs: %v", err)
	}
	timeout := cmp.Or(p.Options.Timeout, DefaultTimeout)
	api, cancel := context.WithTimeout(ctx, timeout)
	p.publishAPI(api, r, t, res)
	cancel()
	if ctx.Err() == nil && errors.Is(api.Err(), context.DeadlineExceeded) {
		p.fail(res, "publishing to GitHub ran out of time: stopped at the deadline of %v (--publish-timeout); what it had not done by then is listed above", timeout)
	}
	if err := p.writeSummary(r, t, res); err != nil {
		p.fail(res, "could not write the job summary: %v", err)
	}
	if len(res.Failures) > 0 && p.Options.RequirePublish {
		return res, fmt.Errorf("%w (--require-publish): %s", ErrNotPublished, plural(len(res.Failures), "problem")+" reported above")
	}
	return res, nil
}

// target is where on GitHub the report goes.
type target struct {
	owner, repo string
	pr          int
	headSHA     string
	reportURL   string
}

// resolve finds the pull request, commit and report link from the event,
// the environment and, last, the report.
func (p *Publisher) resolve(r Report, res *Result) target {
	ev, err := p.Env.ReadEvent()
	if err != nil {
		p.fail(res, "%v", err)
	}
	t := target{pr: ev.PullRequest, headSHA: ev.HeadSHA, reportURL: r.ReportURL}
	t.owner, t.repo, _ = p.Env.ownerRepo()
	for _, sha := range []string{p.Env.SHA, r.HeadSHA} {
		if t.headSHA == "" {
			t.headSHA = sha
		}
	}
	for _, u := range []string{ev.RunURL, p.Env.runURL()} {
		if t.reportURL == "" {
			t.reportURL = u
		}
	}
	return t
}

func (p *Publisher) publishAPI(ctx context.Context, r Report, t target, res *Result) {
	if !p.Env.Token.set() {
		msg := "GITHUB_TOKEN is not set: no pull-request comment, check run or commit status"
		if p.Options.RequirePublish {
			p.fail(res, "%s", msg)
		} else {
			p.note("%s", msg)
		}
		res.Comment = "skipped: no token"
		return
	}
	if _, _, err := p.Env.ownerRepo(); err != nil {
		p.fail(res, "no pull-request comment, check run or commit status: %v", err)
		return
	}
	c, err := p.client()
	if err != nil {
		p.fail(res, "no pull-request comment, check run or commit status: %v", err)
		return
	}

	switch {
	case p.Options.CommentMode == CommentOff:
		res.Comment = "skipped: comment-mode off"
	default:
		if t.pr == 0 && r.PullRequest > 0 {
			if err := p.checkReportedPR(ctx, c, &t, r.PullRequest); err != nil {
				p.fail(res, "no pull-request comment: %v", err)
				res.Comment = "skipped: unverified pull request"
				break
			}
		}
		if t.pr == 0 {
			res.Comment = "skipped: not a pull request"
			p.note("no pull request in this event (%s): no comment", orNone(p.Env.EventName))
			break
		}
		if err := p.comment(ctx, c, t, r, res); err != nil {
			p.fail(res, "could not write the pull-request comment: %s", describe(err))
		}
	}

	if t.headSHA == "" {
		p.fail(res, "no check run or commit status: no commit to report on (GITHUB_SHA is not set)")
		return
	}
	if err := p.check(ctx, c, t, r, res); err != nil {
		p.fail(res, "%s", err.Error())
	}
}

// checkReportedPR accepts a pull-request number taken from the report (the
// workflow_run pattern, where the event of a fork's pull request names none)
// only if that pull request's head is the commit being reported on, so that
// a forged result cannot comment on another pull request.
func (p *Publisher) checkReportedPR(ctx context.Context, c *gh.Client, t *target, n int) error {
	if t.headSHA == "" {
		return fmt.Errorf("pull request #%d named by the report cannot be checked: no head commit is known", n)
	}
	pr, _, err := c.PullRequests.Get(ctx, t.owner, t.repo, n)
	if err != nil {
		return fmt.Errorf("checking pull request #%d named by the report: %s", n, describe(err))
	}
	if head := pr.GetHead().GetSHA(); head != t.headSHA {
		return fmt.Errorf("the report names pull request #%d, whose head is %s, not the commit reported on (%s)", n, plainText(head, 64, false), t.headSHA)
	}
	t.pr = n
	return nil
}

// client builds the go-github client: base URL from GITHUB_API_URL, the
// token, and below it the rate-limit retries and verbose logging.
func (p *Publisher) client() (*gh.Client, error) {
	base := http.DefaultTransport
	if p.HTTPClient != nil && p.HTTPClient.Transport != nil {
		base = p.HTTPClient.Transport
	}
	if p.Options.Verbose {
		base = &logTransport{base: base, logf: p.verbose}
	}
	sleep, now := p.Sleep, p.Now
	if sleep == nil {
		sleep = sleepContext
	}
	if now == nil {
		now = time.Now
	}
	budget := cmp.Or(p.Options.MaxWait, DefaultMaxWait)
	api := p.Env.APIURL
	if api == "" {
		api = DefaultAPIURL
	}
	u, err := url.Parse(api)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("GITHUB_API_URL %q: expected an https URL", api)
	}
	if err := checkTransport(u); err != nil {
		return nil, fmt.Errorf("GITHUB_API_URL %q: %v", api, err)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	// Each attempt is timed on its own (timeoutTransport), below the
	// retries: an http.Client's Timeout would also cover the waits between
	// attempts, and a wait of a minute could never end in a retry.
	timed := &timeoutTransport{base: base, timeout: cmp.Or(p.Options.RequestTimeout, DefaultRequestTimeout)}
	rt := &rateLimitTransport{base: timed, sleep: sleep, now: now, budget: budget, logf: p.note}
	// The token is added above the retries, per request, and only for the
	// API's origin (see authTransport); not with go-github's WithAuthToken.
	auth := &authTransport{base: rt, token: p.Env.Token, api: u}
	c := gh.NewClient(&http.Client{Transport: auth})
	c.BaseURL = u
	if p.Options.UserAgent != "" {
		c.UserAgent = p.Options.UserAgent
	}
	return c, nil
}

// digest is what --comment-mode on-change compares, reduced to characters
// that can stand in the comment's hidden marker.
func (r *Report) digest() string {
	d := r.CommentDigest
	if d == "" {
		sum := sha256.Sum256([]byte(r.Verdict + "\x00" + r.Markdown))
		return hex.EncodeToString(sum[:])
	}
	return escape.Clip(markerText(d), 128)
}

// bodyOf is r's body (below) with, when the gate wrote a judging worklist,
// where it is (worklistLine).
func (p *Publisher) bodyOf(r *Report, t target) string {
	return r.body() + worklistLine(r.Worklist, p.Options.Artifact, t.reportURL)
}

// body is the markdown shown in the comment, check run and job summary,
// headed by unverifiedNote when the result was read from a file.
func (r *Report) body() string {
	var body string
	switch {
	case r.Markdown != "":
		body = r.Markdown
	case r.Summary != "":
		body = escape.Markdown(r.Summary)
	default:
		body = "riskgate verdict: **" + r.Verdict + "**"
	}
	if r.Source != SourceThisJob {
		return unverifiedNote + body
	}
	return body
}

// describe says what went wrong in a request, without the server's URL.
func describe(err error) string {
	var er *gh.ErrorResponse
	var ab *gh.AbuseRateLimitError
	var rl *gh.RateLimitError
	switch {
	case errors.As(err, &er) && er.Response != nil:
		msg := er.Message
		for _, e := range er.Errors {
			if e.Message != "" {
				msg += "; " + e.Message
			} else if e.Code != "" {
				msg += fmt.Sprintf("; %s %s", e.Field, e.Code)
			}
		}
		where := ""
		if er.Response.Request != nil {
			where = er.Response.Request.Method + " " + er.Response.Request.URL.Path + ": "
		}
		return fmt.Sprintf("%s%d %s", where, er.Response.StatusCode, strings.TrimSpace(msg))
	case errors.As(err, &ab) && ab.RetryAfter != nil:
		return fmt.Sprintf("secondary rate limit (retry after %v)", ab.RetryAfter.Round(time.Second))
	case errors.As(err, &ab):
		return "secondary rate limit: " + ab.Message
	case errors.As(err, &rl):
		return "rate limit: " + rl.Message
	}
	return err.Error()
}

// status returns the HTTP status of a failed request; 0 if none.
func status(err error) int {
	var er *gh.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		return er.Response.StatusCode
	}
	return 0
}

// tooLong says whether GitHub refused a body for its length.
func tooLong(err error) bool {
	var er *gh.ErrorResponse
	if !errors.As(err, &er) || er.Response == nil || er.Response.StatusCode != http.StatusUnprocessableEntity {
		return false
	}
	text := er.Message
	for _, e := range er.Errors {
		text += " " + e.Message
	}
	return strings.Contains(strings.ToLower(text), "too long")
}

// sendFitted sends body cut to each of limits in turn, moving to the next
// (smaller) one only when GitHub refuses the previous as too long — GitHub
// may count a body differently than characters.
func sendFitted(body string, limits []int, note func(int) string, send func(text string) error) error {
	var err error
	for _, limit := range limits {
		text, _ := fit(body, limit, note(limits[0]))
		if err = send(text); err == nil || !tooLong(err) {
			return err
		}
	}
	return err
}

// fail, note and verbose write one line to the log, the token scrubbed and
// the text made plain (a server's message may hold anything).
func (p *Publisher) fail(res *Result, format string, args ...any) {
	msg := p.logLine(format, args...)
	res.Failures = append(res.Failures, msg)
	fmt.Fprintf(p.Log, "riskgate: warning: github: %s\n", msg)
}

func (p *Publisher) note(format string, args ...any) {
	fmt.Fprintf(p.Log, "riskgate: note: github: %s\n", p.logLine(format, args...))
}

func (p *Publisher) verbose(format string, args ...any) {
	fmt.Fprintf(p.Log, "riskgate: github: %s\n", p.logLine(format, args...))
}

func (p *Publisher) logLine(format string, args ...any) string {
	return escape.Plain(p.Env.Token.scrub(fmt.Sprintf(format, args...)), false)
}

func orNone(s string) string {
	if s == "" {
		return "no GITHUB_EVENT_NAME"
	}
	return s
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
