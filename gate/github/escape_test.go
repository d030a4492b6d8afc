package github

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestWorkflowCommand(t *testing.T) {
	got := workflowCommand("error", [][2]string{{"file", "p,1:x.yaml"}, {"line", "3"}, {"col", ""}, {"title", "50% a\nb"}}, "line 1\r\nline 2 100%::x")
	want := "::error file=p%2C1%3Ax.yaml,line=3,title=50%25 a%0Ab::line 1%0D%0Aline 2 100%25::x"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := workflowCommand("notice", nil, ""); got != "::notice::" {
		t.Errorf("empty: %q", got)
	}
}

func FuzzWorkflowCommand(f *testing.F) {
	for _, s := range []string{hostile, "a\nb", "%0A", "::error::x", "k=v,x:y", "\r\n%25"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, title, msg string) {
		line := workflowCommand("warning", [][2]string{{"title", title}}, msg)
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("command spans lines: %q", line)
		}
		name, props, data := decodeCommand(t, line)
		if name != "warning" || data != msg || (title != "" && props["title"] != title) {
			t.Fatalf("%q decodes to %q %q %q", line, name, props, data)
		}
	})
}

func TestMarkerText(t *testing.T) {
	if got := markerText("release-gate v2 -->"); got != "release%2Dgate%20v2%20%2D%2D%3E" {
		t.Errorf("got %q", got)
	}
	for _, src := range []Source{SourceThisJob, SourceFile} {
		if commentMarker(src, "a") == commentMarker(src, "a b") || commentMarker(src, "ab") == commentMarker(src, "a") {
			t.Error("markers of different policies must differ")
		}
	}
	// Neither source's marker starts the other's, whatever the names.
	for _, names := range [][2]string{{"a", "a"}, {"unverified policy=a", "a"}, {"", ""}} {
		this, file := commentMarker(SourceThisJob, names[0]), commentMarker(SourceFile, names[1])
		if strings.HasPrefix(this, file) || strings.HasPrefix(file, this) {
			t.Errorf("markers %q and %q: one starts the other", this, file)
		}
	}
}

func TestPlainText(t *testing.T) {
	if got := plainText("  a\r\n\tb\x00 c  ", 10, false); got != "a b\uFFFD c" {
		t.Errorf("one line: %q", got)
	}
	if got := plainText("a\r\nb\x07\rc", 10, true); got != "a\nb\uFFFD\nc" {
		t.Errorf("multi-line: %q", got)
	}
	long := strings.Repeat("é", 200)
	if got := plainText(long, StatusLimit, false); utf8.RuneCountInString(got) != StatusLimit || !strings.HasSuffix(got, "…") {
		t.Errorf("cut to %d characters: %q", utf8.RuneCountInString(got), got)
	}
}

func TestLinkURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r/actions/runs/1": "https://github.com/o/r/actions/runs/1",
		"https://x.test/a (b)":                  "https://x.test/a%20%28b%29",
		"javascript:alert(1)":                   "",
		"/relative":                             "",
	} {
		if got := linkURL(in); got != want {
			t.Errorf("linkURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFit(t *testing.T) {
	note := cutNote(100, "riskgate-report", "https://github.example/o/r/actions/runs/1")
	short := "## ok\n"
	if got, cut := fit(short, 100, note); got != short || cut {
		t.Errorf("a body within the limit changed: %q", got)
	}
	body := "<details><summary>x</summary>\n\n```\n" + strings.Repeat("line é\n", 500) + "```\n</details>\n"
	limit := utf8.RuneCountInString(note) + 120
	got, cut := fit(body, limit, note)
	if !cut || utf8.RuneCountInString(got) > limit || !strings.HasSuffix(got, note) {
		t.Fatalf("fit to %d: %d characters, cut %v:\n%s", limit, utf8.RuneCountInString(got), cut, got)
	}
	head := strings.TrimSuffix(got, note)
	if !strings.HasSuffix(head, "```\n\n</details>\n") || strings.Contains(head, "line é\nline") && !strings.HasSuffix(strings.TrimSuffix(head, "```\n\n</details>\n"), "\n") {
		t.Errorf("cut body does not close its fence and details at a line break:\n%s", head)
	}
	if got, _ := fit(body, 10, note); utf8.RuneCountInString(got) > 10 {
		t.Errorf("a limit below the note's size: %q", got)
	}
	if !strings.Contains(note, "limit of 100 characters") || thousands(65536) != "65,536" || thousands(999) != "999" {
		t.Errorf("note %q", note)
	}
}

func TestParseEvent(t *testing.T) {
	for _, c := range []struct {
		payload string
		want    Event
	}{
		{`{"number":3,"pull_request":{"number":3,"head":{"sha":"abc"}}}`, Event{PullRequest: 3, HeadSHA: "abc"}},
		{`{"workflow_run":{"head_sha":"abc","html_url":"https://x/runs/1","pull_requests":[{"number":4,"head":{"sha":"old"}},{"number":5,"head":{"sha":"abc"}}]}}`,
			Event{PullRequest: 5, HeadSHA: "abc", RunURL: "https://x/runs/1"}},
		{`{"workflow_run":{"head_sha":"abc","pull_requests":[]}}`, Event{HeadSHA: "abc"}},
		{`{"ref":"refs/heads/main"}`, Event{}},
		{`{"pull_request":{"number":-2}}`, Event{}},
	} {
		got, err := ParseEvent([]byte(c.payload))
		if err != nil || got != c.want {
			t.Errorf("ParseEvent(%s) = %+v, %v; want %+v", c.payload, got, err, c.want)
		}
	}
	if _, err := ParseEvent([]byte("not json")); err == nil {
		t.Error("a payload that is not JSON must be an error")
	}
}

func FuzzParseEvent(f *testing.F) {
	f.Add([]byte(`{"pull_request":{"number":3,"head":{"sha":"abc"}}}`))
	f.Add([]byte(`{"workflow_run":{"head_sha":"a","pull_requests":[{"number":1,"head":{"sha":"a"}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := ParseEvent(data)
		if err == nil && ev.PullRequest < 0 {
			t.Fatalf("negative pull request from %q", data)
		}
	})
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	resp := func(status int, kv ...string) *http.Response {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(`{"message":"Resource not accessible by integration"}`))}
	}
	secondary := resp(403)
	secondary.Body = io.NopCloser(strings.NewReader(`{"message":"You have exceeded a secondary rate limit."}`))
	for _, c := range []struct {
		resp    *http.Response
		wait    time.Duration
		limited bool
	}{
		{resp(403, "Retry-After", "7"), 7 * time.Second, true},
		{resp(429, "Retry-After", now.Add(30*time.Second).Format(http.TimeFormat)), 30 * time.Second, true},
		{resp(403, "X-Ratelimit-Remaining", "0", "X-Ratelimit-Reset", "1772366420"), 21 * time.Second, true}, // reset 20 s after now, +1 s
		{resp(403), 0, false}, // forbidden, not limited
		{secondary, time.Minute, true},
		{resp(500, "Retry-After", "7"), 0, false},
	} {
		wait, limited := retryAfter(c.resp, now)
		if wait != c.wait || limited != c.limited {
			t.Errorf("%d %v: %v %v, want %v %v", c.resp.StatusCode, c.resp.Header, wait, limited, c.wait, c.limited)
		}
	}
}
