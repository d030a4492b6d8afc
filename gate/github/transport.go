package github

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// authTransport puts the token on requests to the API's own origin — the
// scheme, host and port of GITHUB_API_URL — and on no other. go-github's
// WithAuthToken sets the header in its transport, below net/http's redirect
// handling, so a redirect to another host would carry the token there; here
// every request, the first and each redirect, is judged on its own URL, and
// one to any other origin goes without credentials. A request in plain http
// is refused unless it goes to a loopback address (a local test server), so
// the token never crosses a network unencrypted.
type authTransport struct {
	base  http.RoundTripper
	token Secret
	api   *url.URL
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := checkTransport(req.URL); err != nil {
		if req.Body != nil {
			req.Body.Close() // a RoundTripper closes the body, even on error
		}
		return nil, err
	}
	own := sameOrigin(req.URL, t.api)
	if own || req.Header.Get("Authorization") != "" {
		req = req.Clone(req.Context()) // a RoundTripper must not change its request
		req.Header.Del("Authorization")
		if own {
			req.Header.Set("Authorization", "Bearer "+t.token.reveal())
		}
	}
	return t.base.RoundTrip(req)
}

// checkTransport refuses any scheme but https, and http to anything but a
// loopback address.
func checkTransport(u *url.URL) error {
	switch {
	case strings.EqualFold(u.Scheme, "https"):
		return nil
	case strings.EqualFold(u.Scheme, "http") && isLoopback(u.Hostname()):
		return nil
	case strings.EqualFold(u.Scheme, "http"):
		return fmt.Errorf("refusing plain http to %s: expected https (http is allowed only to a loopback address)", u.Host)
	}
	return fmt.Errorf("refusing a %q URL: expected https", u.Scheme)
}

// isLoopback reports localhost and the loopback addresses (127.0.0.0/8, ::1).
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (a missing port is the scheme's default).
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && port(a) == port(b)
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "http") {
		return "80"
	}
	return "443"
}

// DefaultMaxWait bounds the total time Publish waits on rate limits.
const DefaultMaxWait = 90 * time.Second

// DefaultRequestTimeout bounds each request (Options.RequestTimeout).
const DefaultRequestTimeout = 30 * time.Second

// DefaultTimeout is the deadline of a whole publication (Options.Timeout):
// the rate-limit waits' budget, with time left for some twenty slow requests.
const DefaultTimeout = 3 * time.Minute

// requestTimeoutError is a request that got no whole answer in time.
type requestTimeoutError struct{ after time.Duration }

func (e requestTimeoutError) Error() string {
	return fmt.Sprintf("GitHub did not answer within %v", e.after)
}

// timeoutTransport gives each request its own deadline, from sending it to
// the end of reading its answer (the body's Close releases it).
type timeoutTransport struct {
	base    http.RoundTripper
	timeout time.Duration
}

func (t *timeoutTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeoutCause(req.Context(), t.timeout, requestTimeoutError{t.timeout})
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		if req.Context().Err() == nil && ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, ctx: ctx, parent: req.Context(), cancel: cancel}
	return resp, nil
}

// cancelBody ends its request's deadline when closed, and says that the
// deadline passed when reading is cut short by it.
type cancelBody struct {
	io.ReadCloser
	ctx, parent context.Context
	cancel      context.CancelFunc
}

func (b *cancelBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.parent.Err() == nil && b.ctx.Err() != nil {
		err = context.Cause(b.ctx)
	}
	return n, err
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// maxAttempts bounds the requests sent for one API call.
const maxAttempts = 4

// rateLimitTransport retries a request GitHub rate-limited — a 403 or 429
// with Retry-After (a secondary rate limit), or with x-ratelimit-remaining 0
// and x-ratelimit-reset (the primary one) — after the time GitHub asks for,
// as long as the waits of the whole publish stay within a budget. It sits
// below go-github, which therefore never sees the refused request (and does
// not block later requests on it).
type rateLimitTransport struct {
	base   http.RoundTripper
	sleep  func(context.Context, time.Duration) error
	now    func() time.Time
	budget time.Duration // left to wait, over every request
	logf   func(format string, args ...any)
}

func (t *rateLimitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	for attempt := 1; ; attempt++ {
		resp, err := t.base.RoundTrip(req)
		if err != nil || attempt == maxAttempts {
			return resp, err
		}
		wait, limited := retryAfter(resp, t.now())
		if !limited {
			return resp, nil
		}
		if wait > t.budget {
			t.logf("rate limited on %s %s; GitHub asks to wait %v, more than the %v left to wait", req.Method, req.URL.Path, wait, t.budget.Round(time.Second))
			return resp, nil
		}
		if deadline, ok := req.Context().Deadline(); ok && time.Until(deadline) < wait {
			t.logf("rate limited on %s %s; GitHub asks to wait %v, past the publishing deadline", req.Method, req.URL.Path, wait)
			return resp, nil
		}
		if req.Body != nil && req.GetBody == nil {
			return resp, nil // the body cannot be sent again
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		t.logf("rate limited on %s %s; retrying in %v", req.Method, req.URL.Path, wait)
		if err := t.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		t.budget -= wait
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
	}
}

// retryAfter reads how long GitHub asks a rate-limited client to wait.
func retryAfter(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	if v := resp.Header.Get("Retry-After"); v != "" {
		if s, err := strconv.Atoi(v); err == nil && s >= 0 {
			return time.Duration(s) * time.Second, true
		}
		if at, err := http.ParseTime(v); err == nil {
			return max(at.Sub(now), 0), true
		}
	}
	if resp.Header.Get("X-Ratelimit-Remaining") == "0" {
		if s, err := strconv.ParseInt(resp.Header.Get("X-Ratelimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(s, 0).Sub(now)+time.Second, 0), true
		}
	}
	// A secondary rate limit without Retry-After: GitHub asks for at least a
	// minute. The body is read to tell it from a permission error, and put back.
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err == nil && strings.Contains(strings.ToLower(string(body)), "secondary rate limit") {
		return secondaryWait, true
	}
	return 0, false
}

// secondaryWait is the wait after a secondary rate limit that names none.
const secondaryWait = time.Minute

// sleepContext waits d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// logTransport logs each request's method, path and status (never headers,
// where the token is) when verbose.
type logTransport struct {
	base http.RoundTripper
	logf func(format string, args ...any)
}

func (t *logTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.base.RoundTrip(req)
	var status string
	if err != nil {
		status = err.Error()
	} else {
		status = strconv.Itoa(resp.StatusCode)
	}
	t.logf("%s %s → %s (%v)", req.Method, req.URL.RequestURI(), status, time.Since(start).Round(time.Millisecond))
	return resp, err
}
