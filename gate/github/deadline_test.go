package github

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// scaledSleep waits d/300 for real (a minute is 200 ms), so that a wait
// between attempts takes longer than a short per-request timeout, as
// GitHub's minute does against the default 30 s.
func scaledSleep(slept *[]time.Duration) func(context.Context, time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		*slept = append(*slept, d)
		return sleepContext(ctx, d/300)
	}
}

// Issue 23, defect 5: a secondary rate limit asking for a wait longer than
// a request may take — Retry-After: 60, or none (a minute) — ends in a
// retry that succeeds: each attempt is timed, not the wait between them.
func TestRateLimitWaitLongerThanARequestTimeout(t *testing.T) {
	for _, after := range []int{60, -1} {
		h := newHarness(t, "")
		h.srv.RateLimit["POST "+repoPath+"/issues/7/comments"] = after
		p := h.publisher(Options{RequestTimeout: 100 * time.Millisecond})
		p.Sleep = scaledSleep(&h.slept)
		res, err := p.Publish(context.Background(), sampleReport(VerdictFail))
		if err != nil || res.Comment != "created" || len(res.Failures) != 0 || len(h.srv.Comments(7)) != 1 {
			t.Errorf("Retry-After %d: error %v, result %+v; want the retry to create the comment\n%s", after, err, res, h.log.String())
		}
		if !slices.Equal(h.slept, []time.Duration{time.Minute}) {
			t.Errorf("Retry-After %d: slept %v, want one minute", after, h.slept)
		}
	}
}

// A request that gets no answer within the per-request timeout fails on
// its own, saying so, and the rest is published.
func TestRequestTimeoutEndsAHangingRequest(t *testing.T) {
	h := newHarness(t, "")
	h.srv.Delays["POST "+repoPath+"/check-runs"] = 10 * time.Second
	start := time.Now()
	res := h.publish(sampleReport(VerdictFail), Options{RequestTimeout: 100 * time.Millisecond})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v with a 100 ms request timeout", took)
	}
	if res.Comment != "created" || len(res.Failures) != 1 || !strings.Contains(res.Failures[0], "could not create the check run") ||
		!strings.Contains(res.Failures[0], "did not answer within 100ms") {
		t.Errorf("result %+v; want the comment and one failure naming the timeout", res)
	}
}

// Issue 23, defect 13: a server that pages comments endlessly holds the
// publication only until its deadline; the failure says so on standard error
// and in the job summary, and the step outputs and summary are written.
func TestPublishDeadline(t *testing.T) {
	h := newHarness(t, "")
	h.srv.EndlessComments = true
	h.srv.Delays["GET "+repoPath+"/issues/7/comments"] = 20 * time.Millisecond
	r := sampleReport(VerdictFail)
	start := time.Now()
	res, err := h.publisher(Options{Timeout: 300 * time.Millisecond, RequirePublish: true}).Publish(context.Background(), r)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v with a deadline of 300 ms", took)
	}
	if !errors.Is(err, ErrNotPublished) {
		t.Errorf("--require-publish: error %v, want ErrNotPublished", err)
	}
	const ranOut = "publishing to GitHub ran out of time: stopped at the deadline of 300ms (--publish-timeout)"
	if len(res.Failures) == 0 || !strings.Contains(res.Failures[len(res.Failures)-1], ranOut) {
		t.Errorf("failures %q; want the last to say the deadline passed", res.Failures)
	}
	if !strings.Contains(h.log.String(), "riskgate: warning: github: "+ranOut) {
		t.Errorf("standard error does not say the deadline passed:\n%s", h.log.String())
	}
	summary := h.file(h.env.StepSummary)
	if !strings.HasPrefix(summary, r.Markdown) || !strings.Contains(summary, "ran out of time") {
		t.Errorf("job summary:\n%s", summary)
	}
	if out := parseOutputs(t, h.file(h.env.Output)); out["verdict"] != "fail" {
		t.Errorf("step outputs %v", out)
	}
	pages := 0
	for _, c := range h.calls() {
		if strings.HasPrefix(c, "GET "+repoPath+"/issues/7/comments") {
			pages++
		}
	}
	if pages < 2 || pages >= maxCommentPages {
		t.Errorf("%d pages read before the deadline", pages)
	}
}
