package github

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/riskgate/riskgate/gate/github/githubtest"
	"github.com/riskgate/riskgate/internal/escape"
)

// testToken stands for GITHUB_TOKEN. Every test checks, when it ends, that
// it appears in nothing written: log, job summary, step outputs, and any
// request but in its Authorization header.
const (
	testToken = "ghs_riskgateTESTtoken0123456789abcdefABCDEF"
	headSHA   = "1111111111111111111111111111111111111111"
	mergeSHA  = "2222222222222222222222222222222222222222"
	repoPath  = "/repos/octo/ranker"
)

type harness struct {
	t     *testing.T
	srv   *githubtest.Server
	env   Env
	log   bytes.Buffer
	slept []time.Duration
}

// newHarness sets up a pull_request event for #7 in octo/ranker, with the
// API on a local server under prefix ("" or "/api/v3").
func newHarness(t *testing.T, prefix string) *harness {
	t.Helper()
	srv := githubtest.NewServer(prefix)
	t.Cleanup(srv.Close)
	srv.Token = testToken
	srv.Pulls[7] = headSHA
	dir := t.TempDir()
	h := &harness{t: t, srv: srv}
	h.env = Env{
		Token: testToken, Repository: "octo/ranker", APIURL: srv.APIURL(), ServerURL: "https://github.example",
		EventName: "pull_request", EventPath: filepath.Join(dir, "event.json"), SHA: mergeSHA, RunID: "42",
		Workspace: dir, StepSummary: filepath.Join(dir, "summary.md"), Output: filepath.Join(dir, "output"),
	}
	h.writeEvent(fmt.Sprintf(`{"number":7,"pull_request":{"number":7,"head":{"sha":%q}}}`, headSHA))
	t.Cleanup(h.assertNoToken)
	return h
}

func (h *harness) writeEvent(payload string) {
	h.t.Helper()
	if err := os.WriteFile(h.env.EventPath, []byte(payload), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) publisher(o Options) *Publisher {
	o.Verbose = true // the token must stay hidden even then
	if o.Artifact == "" {
		o.Artifact = DefaultArtifact
	}
	return &Publisher{
		Env: h.env, Options: o, Log: &h.log, HTTPClient: h.srv.Client(),
		Sleep: func(_ context.Context, d time.Duration) error { h.slept = append(h.slept, d); return nil },
		Now:   func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) },
	}
}

func (h *harness) publish(r Report, o Options) *Result {
	h.t.Helper()
	res, err := h.publisher(o).Publish(context.Background(), r)
	if err != nil {
		h.t.Fatalf("Publish: %v\nlog:\n%s", err, h.log.String())
	}
	return res
}

func (h *harness) file(name string) string {
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		h.t.Fatal(err)
	}
	return string(data)
}

func (h *harness) assertNoToken() {
	t := h.t
	for what, text := range map[string]string{
		"log": h.log.String(), "job summary": h.file(h.env.StepSummary), "step outputs": h.file(h.env.Output),
	} {
		if strings.Contains(text, testToken) {
			t.Errorf("the token appears in the %s:\n%s", what, text)
		}
	}
	for _, rq := range h.srv.Requests() {
		if strings.Contains(string(rq.Body)+rq.URLPath+rq.Query, testToken) {
			t.Errorf("the token appears in %s %s", rq.Method, rq.Path)
		}
		if rq.Auth != "Bearer "+testToken {
			t.Errorf("%s %s: Authorization header is not the token", rq.Method, rq.Path)
		}
	}
}

// calls lists "METHOD path" for each request, with the query for GETs.
func (h *harness) calls() []string {
	var out []string
	for _, rq := range h.srv.Requests() {
		c := rq.Method + " " + rq.Path
		if rq.Method == http.MethodGet && rq.Query != "" {
			c += "?" + rq.Query
		}
		out = append(out, c)
	}
	return out
}

// bodies returns the JSON bodies of the requests matching method and path.
func (h *harness) bodies(method, path string) []map[string]any {
	var out []map[string]any
	for _, rq := range h.srv.Requests() {
		if rq.Method == method && rq.Path == path {
			var m map[string]any
			if err := json.Unmarshal(rq.Body, &m); err != nil {
				h.t.Fatalf("%s %s: body is not JSON: %v", method, path, err)
			}
			out = append(out, m)
		}
	}
	return out
}

func sampleReport(verdict string) Report {
	return Report{
		PolicyName: "release gate",
		Verdict:    verdict,
		Title:      "riskgate: " + verdict + " — Chal. 2 fails p_better",
		Summary:    verdict + ": Chal. 2 fails p_better (0.91 < 0.95)",
		Markdown:   "## riskgate: **" + verdict + "**\n\n| challenger | rule | observed | bound | outcome |\n|---|---|---|---|---|\n| Chal. 2 | p\\_better | 0.91 | ≥ 0.95 | fail |\n",
		Annotations: []Annotation{
			{Level: LevelFailure, Path: "policies/release.yaml", StartLine: 12, EndLine: 14, Title: "p_better", Message: "Chal. 2: observed 0.91; needs at least 0.95"},
			{Level: LevelWarning, Path: "policies/release.yaml", StartLine: 20, Title: "urisk", Message: "Chal. 2: URisk −0.01"},
		},
		JSONPath: "riskgate-report/result.json", MarkdownPath: "riskgate-report/report.md",
		Source: SourceThisJob,
	}
}

func TestFirstRunCreatesCommentSecondEditsIt(t *testing.T) {
	h := newHarness(t, "")
	r := sampleReport(VerdictFail)
	res := h.publish(r, Options{})
	want := []string{
		"GET " + repoPath + "/issues/7/comments?per_page=100",
		"POST " + repoPath + "/issues/7/comments",
		"POST " + repoPath + "/check-runs",
	}
	if got := h.calls(); !slices.Equal(got, want) {
		t.Fatalf("first run requests:\n got %q\nwant %q", got, want)
	}
	if res.Comment != "created" || len(res.Failures) != 0 {
		t.Fatalf("result %+v", res)
	}
	posted := h.bodies("POST", repoPath+"/issues/7/comments")[0]["body"].(string)
	marker := "<!-- riskgate:comment policy=release%20gate -->\n"
	if !strings.HasPrefix(posted, marker) || !strings.HasSuffix(posted, r.Markdown) {
		t.Errorf("comment body does not start with the marker and end with the report:\n%s", posted)
	}

	// Second run, new result: the same comment is edited, none created,
	// once GET /user (403 for an installation token) says it is the token's own.
	r.Markdown += "\nsecond run\n"
	res2 := h.publish(r, Options{})
	calls := h.calls()[3:]
	wantEdit := "PATCH " + repoPath + fmt.Sprintf("/issues/comments/%d", res.CommentID)
	if len(calls) != 4 || calls[0] != want[0] || calls[1] != "GET /user" || calls[2] != wantEdit || calls[3] != want[2] {
		t.Fatalf("second run requests: %q, want GET comments, GET /user, %s, POST check-runs", calls, wantEdit)
	}
	if res2.Comment != "updated" || res2.CommentID != res.CommentID {
		t.Errorf("second run: %+v, want the comment %d updated", res2, res.CommentID)
	}
	comments := h.srv.Comments(7)
	if len(comments) != 1 || !strings.HasSuffix(comments[0].Body, "second run\n") {
		t.Errorf("pull request has %d comments, want the one, edited: %+v", len(comments), comments)
	}
}

func TestCheckRunFields(t *testing.T) {
	h := newHarness(t, "")
	r := sampleReport(VerdictFail)
	res := h.publish(r, Options{})
	body := h.bodies("POST", repoPath+"/check-runs")[0]
	out := body["output"].(map[string]any)
	if body["name"] != "riskgate: release gate" || body["head_sha"] != headSHA || body["status"] != "completed" ||
		body["conclusion"] != "failure" || body["details_url"] != "https://github.example/octo/ranker/actions/runs/42" ||
		out["title"] != r.Title || out["summary"] != r.Markdown {
		t.Errorf("check run body: %v", body)
	}
	cr := h.srv.CheckRuns[res.CheckRunID]
	want := []githubtest.Annotation{
		{Path: "policies/release.yaml", StartLine: 12, EndLine: 14, AnnotationLevel: "failure", Title: "p_better", Message: "Chal. 2: observed 0.91; needs at least 0.95"},
		{Path: "policies/release.yaml", StartLine: 20, EndLine: 20, AnnotationLevel: "warning", Title: "urisk", Message: "Chal. 2: URisk −0.01"},
	}
	if !slices.Equal(cr.Annotations, want) {
		t.Errorf("annotations:\n got %+v\nwant %+v", cr.Annotations, want)
	}
	for verdict, conclusion := range map[string]string{VerdictPass: "success", VerdictWarn: "success", VerdictInconclusive: "action_required"} {
		res := h.publish(sampleReport(verdict), Options{CommentMode: CommentOff})
		if got := h.srv.CheckRuns[res.CheckRunID].Conclusion; got != conclusion {
			t.Errorf("verdict %s: conclusion %s, want %s", verdict, got, conclusion)
		}
	}
}

func TestCommentPaginationOver100Comments(t *testing.T) {
	h := newHarness(t, "")
	for i := range 150 {
		h.srv.AddComment(7, fmt.Sprintf("review comment %d", i))
	}
	// Another policy's comment must not be taken for this one's.
	h.srv.AddComment(7, commentMarker(SourceThisJob, "release gate 2")+"\nother policy")
	res := h.publish(sampleReport(VerdictFail), Options{})
	want := []string{
		"GET " + repoPath + "/issues/7/comments?per_page=100",
		"GET " + repoPath + "/issues/7/comments?page=2&per_page=100",
		"POST " + repoPath + "/issues/7/comments",
	}
	if got := h.calls()[:3]; !slices.Equal(got, want) {
		t.Fatalf("requests:\n got %q\nwant %q", got, want)
	}
	// The next run finds the comment on page 2 and edits it.
	n := len(h.srv.Requests())
	h.publish(sampleReport(VerdictPass), Options{})
	got := h.calls()[n:]
	wantEdit := fmt.Sprintf("PATCH %s/issues/comments/%d", repoPath, res.CommentID)
	if len(got) < 4 || got[1] != want[1] || got[2] != "GET /user" || got[3] != wantEdit {
		t.Fatalf("second run requests %q, want both pages read, GET /user and %s", got, wantEdit)
	}
	if cs := h.srv.Comments(7); len(cs) != 152 {
		t.Errorf("%d comments, want 150 + the other policy's + ours", len(cs))
	}
}

func TestForkTokenForbidden(t *testing.T) {
	for _, require := range []bool{false, true} {
		t.Run(fmt.Sprintf("require-publish=%v", require), func(t *testing.T) {
			h := newHarness(t, "")
			h.srv.ReadOnly = true
			r := sampleReport(VerdictFail)
			res, err := h.publisher(Options{RequirePublish: require}).Publish(context.Background(), r)
			if require != (err != nil) || (err != nil && !errors.Is(err, ErrNotPublished)) {
				t.Fatalf("require-publish %v: error %v", require, err)
			}
			want := []string{
				"GET " + repoPath + "/issues/7/comments?per_page=100",
				"POST " + repoPath + "/issues/7/comments",
				"POST " + repoPath + "/check-runs",
				"POST " + repoPath + "/statuses/" + headSHA,
			}
			if got := h.calls(); !slices.Equal(got, want) {
				t.Errorf("requests:\n got %q\nwant %q", got, want)
			}
			if len(res.Failures) != 2 {
				t.Errorf("failures %q, want the comment and the check run/status", res.Failures)
			}
			summary := h.file(h.env.StepSummary)
			if !strings.HasPrefix(summary, r.Markdown) || !strings.Contains(summary, "could not publish everything") ||
				!strings.Contains(summary, "403 Resource not accessible by integration") {
				t.Errorf("job summary lacks the report or the failures:\n%s", summary)
			}
			if out := parseOutputs(t, h.file(h.env.Output)); out["verdict"] != "fail" {
				t.Errorf("step outputs %v, want verdict fail", out)
			}
			if !strings.Contains(h.log.String(), "riskgate: warning: github: could not write the pull-request comment: POST /repos/octo/ranker/issues/7/comments: 403") {
				t.Errorf("log lacks the failure:\n%s", h.log.String())
			}
		})
	}
}

func TestBodyTooLongIsCut(t *testing.T) {
	h := newHarness(t, "")
	r := sampleReport(VerdictFail)
	var md strings.Builder
	md.WriteString("<details><summary>diagnostics</summary>\n\n")
	for i := 0; md.Len() < 100_000; i++ {
		fmt.Fprintf(&md, "| topic %d | 0.%04d |\n", i, i)
	}
	r.Markdown = md.String()
	h.publish(r, Options{})

	body := h.bodies("POST", repoPath+"/issues/7/comments")[0]["body"].(string)
	if n := utf8.RuneCountInString(body); n > CommentLimit || n < CommentLimit-200 {
		t.Errorf("comment has %d characters, want just under %d", n, CommentLimit)
	}
	pointer := "The full report is in the **riskgate\\-report** artifact of [this workflow run](https://github.example/octo/ranker/actions/runs/42)."
	if !strings.Contains(body, pointer) || !strings.Contains(body, "\n</details>\n") {
		t.Errorf("cut comment lacks the pointer or the closed details block:\n%s", body[len(body)-600:])
	}
	summary := h.bodies("POST", repoPath+"/check-runs")[0]["output"].(map[string]any)["summary"].(string)
	if n := utf8.RuneCountInString(summary); n > CheckSummaryLimit || !strings.Contains(summary, pointer) {
		t.Errorf("check summary has %d characters (limit %d) or lacks the pointer", n, CheckSummaryLimit)
	}
	if got := h.file(h.env.StepSummary); !strings.HasPrefix(got, r.Markdown) {
		t.Error("the job summary (limit 1 MiB) should hold the whole report")
	}
}

func TestBodyRefusedAsTooLongIsCutFurther(t *testing.T) {
	h := newHarness(t, "")
	// GitHub counts characters, but a server may refuse by another count:
	// 2-byte characters make a 65,536-character body 131 kB.
	h.srv.MaxBodyBytes = 70_000
	r := sampleReport(VerdictFail)
	r.Markdown = strings.Repeat("résumé é é é\n", 10_000)
	res := h.publish(r, Options{})
	posts := 0
	for _, rq := range h.srv.Requests() {
		if rq.Method == "POST" && rq.Path == repoPath+"/issues/7/comments" {
			posts++
		}
	}
	if posts != 2 || res.Comment != "created" || len(res.Failures) != 0 {
		t.Fatalf("%d comment POSTs, result %+v; want a 422 then a shorter body accepted", posts, res)
	}
	if !strings.Contains(h.log.String(), "POST /repos/octo/ranker/issues/7/comments → 422") {
		t.Errorf("the first POST should have been refused:\n%s", h.log.String())
	}
	body := h.srv.Comments(7)[0].Body
	if len(body) > h.srv.MaxBodyBytes || !strings.Contains(body, "This report was cut") {
		t.Errorf("accepted body has %d bytes, or lacks the note", len(body))
	}
}

func TestSecondaryRateLimitRetriedOnce(t *testing.T) {
	h := newHarness(t, "")
	h.srv.RateLimit["POST "+repoPath+"/issues/7/comments"] = 7
	res := h.publish(sampleReport(VerdictFail), Options{})
	if !slices.Equal(h.slept, []time.Duration{7 * time.Second}) {
		t.Errorf("slept %v, want one wait of Retry-After = 7s", h.slept)
	}
	posts := 0
	for _, c := range h.calls() {
		if c == "POST "+repoPath+"/issues/7/comments" {
			posts++
		}
	}
	if posts != 2 || res.Comment != "created" || len(res.Failures) != 0 || len(h.srv.Comments(7)) != 1 {
		t.Errorf("%d POSTs, result %+v; want one refused and one retry that created the comment", posts, res)
	}
}

func TestSecondaryRateLimitWithoutRetryAfterWaitsAMinute(t *testing.T) {
	h := newHarness(t, "")
	h.srv.RateLimit["POST "+repoPath+"/check-runs"] = -1
	res := h.publish(sampleReport(VerdictFail), Options{})
	if !slices.Equal(h.slept, []time.Duration{time.Minute}) || res.CheckRunID == 0 || len(res.Failures) != 0 {
		t.Errorf("slept %v, result %+v; want one wait of a minute, then the check run", h.slept, res)
	}
}

func TestRateLimitBeyondTheWaitBudgetFails(t *testing.T) {
	h := newHarness(t, "")
	h.srv.RateLimit["POST "+repoPath+"/issues/7/comments"] = 600
	res := h.publish(sampleReport(VerdictFail), Options{MaxWait: 90 * time.Second})
	if len(h.slept) != 0 {
		t.Errorf("slept %v; a wait over the budget should not be waited", h.slept)
	}
	// GitHub asked to wait: no further request is sent, the rest fails fast.
	if n := len(h.srv.Requests()); n != 2 {
		t.Errorf("%d requests after the rate limit: %q", n, h.calls())
	}
	if len(res.Failures) != 2 || !strings.Contains(res.Failures[0], "secondary rate limit (retry after 10m0s)") {
		t.Errorf("failures %q; want the comment and the check run failed on the rate limit", res.Failures)
	}
	if !strings.HasPrefix(h.file(h.env.StepSummary), "## riskgate") {
		t.Error("no job summary")
	}
}

func TestCheckRunForbiddenFallsBackToStatus(t *testing.T) {
	h := newHarness(t, "")
	h.srv.ChecksForbidden = true
	r := sampleReport(VerdictFail)
	r.Summary = strings.Repeat("fail: Chal. 2 fails p_better; ", 10)
	res := h.publish(r, Options{})
	if !res.Status || res.CheckRunID != 0 || len(res.Failures) != 0 {
		t.Fatalf("result %+v; want a commit status and no failure", res)
	}
	got := h.bodies("POST", repoPath+"/statuses/"+headSHA)
	if len(got) != 1 {
		t.Fatalf("%d statuses posted on the head commit", len(got))
	}
	st := got[0]
	desc := st["description"].(string)
	if st["state"] != "failure" || st["context"] != "riskgate: release gate" ||
		st["target_url"] != "https://github.example/octo/ranker/actions/runs/42" ||
		utf8.RuneCountInString(desc) != StatusLimit || !strings.HasSuffix(desc, "…") {
		t.Errorf("status %v", st)
	}
	for verdict, state := range map[string]string{VerdictPass: "success", VerdictWarn: "success", VerdictInconclusive: "error"} {
		h.publish(sampleReport(verdict), Options{CommentMode: CommentOff})
		if got := h.srv.Statuses[len(h.srv.Statuses)-1].State; got != state {
			t.Errorf("verdict %s: state %s, want %s", verdict, got, state)
		}
	}
}

func TestAnnotationsInBatchesOf50(t *testing.T) {
	h := newHarness(t, "")
	r := sampleReport(VerdictFail)
	r.Annotations = nil
	for i := range 120 {
		r.Annotations = append(r.Annotations, Annotation{Level: LevelFailure, Path: filepath.Join(h.env.Workspace, "policy.yaml"), StartLine: i + 1, Message: fmt.Sprintf("rule %d", i)})
	}
	r.Annotations = append(r.Annotations, Annotation{Level: LevelNotice, Message: "no file: a workflow command only"})
	res := h.publish(r, Options{CommentMode: CommentOff})
	var sizes []int
	for _, rq := range h.srv.Requests() {
		var body struct {
			Output struct {
				Annotations []any `json:"annotations"`
			} `json:"output"`
		}
		json.Unmarshal(rq.Body, &body)
		sizes = append(sizes, len(body.Output.Annotations))
	}
	wantCalls := []string{"POST " + repoPath + "/check-runs", fmt.Sprintf("PATCH %s/check-runs/%d", repoPath, res.CheckRunID), fmt.Sprintf("PATCH %s/check-runs/%d", repoPath, res.CheckRunID)}
	if !slices.Equal(h.calls(), wantCalls) || !slices.Equal(sizes, []int{50, 50, 20}) {
		t.Fatalf("requests %q with %v annotations; want a create and two updates with 50, 50, 20", h.calls(), sizes)
	}
	anns := h.srv.CheckRuns[res.CheckRunID].Annotations
	if len(anns) != 120 || anns[119].Path != "policy.yaml" || anns[119].StartLine != 120 {
		t.Errorf("check run holds %d annotations; last %+v", len(anns), anns[len(anns)-1])
	}
	if n := strings.Count(h.log.String(), "::error file=policy.yaml,"); n != 120 || !strings.Contains(h.log.String(), "::notice::no file") {
		t.Errorf("%d ::error commands, want 120, and the ::notice", n)
	}
}

func TestEnterpriseBaseURL(t *testing.T) {
	h := newHarness(t, "/api/v3")
	res := h.publish(sampleReport(VerdictWarn), Options{})
	if res.Comment != "created" || res.CheckRunID == 0 || len(res.Failures) != 0 {
		t.Fatalf("result %+v", res)
	}
	for _, rq := range h.srv.Requests() {
		if !strings.HasPrefix(rq.URLPath, "/api/v3/repos/octo/ranker/") {
			t.Errorf("%s %s is not under GITHUB_API_URL", rq.Method, rq.URLPath)
		}
	}
}

func TestCommentModes(t *testing.T) {
	count := func(h *harness, method string) int {
		n := 0
		for _, rq := range h.srv.Requests() {
			if rq.Method == method && strings.Contains(rq.Path, "/comments") {
				n++
			}
		}
		return n
	}
	t.Run("on-change", func(t *testing.T) {
		h := newHarness(t, "")
		r := sampleReport(VerdictFail)
		r.CommentDigest = "abc123"
		h.publish(r, Options{CommentMode: CommentOnChange})
		r.Markdown += "\nrun time 3.1 s\n" // same decision, new text
		if res := h.publish(r, Options{CommentMode: CommentOnChange}); res.Comment != "unchanged" || count(h, "PATCH") != 0 {
			t.Errorf("same digest: %+v, %d edits", res, count(h, "PATCH"))
		}
		r.CommentDigest = "def456"
		if res := h.publish(r, Options{CommentMode: CommentOnChange}); res.Comment != "updated" || count(h, "PATCH") != 1 {
			t.Errorf("new digest: %+v, %d edits", res, count(h, "PATCH"))
		}
	})
	t.Run("on-fail", func(t *testing.T) {
		h := newHarness(t, "")
		if res := h.publish(sampleReport(VerdictPass), Options{CommentMode: CommentOnFail}); count(h, "POST") != 0 || !strings.HasPrefix(res.Comment, "skipped") {
			t.Errorf("a passing gate with no comment yet: %+v", res)
		}
		h.publish(sampleReport(VerdictInconclusive), Options{CommentMode: CommentOnFail})
		h.publish(sampleReport(VerdictPass), Options{CommentMode: CommentOnFail})
		if count(h, "POST") != 1 || count(h, "PATCH") != 1 || !strings.Contains(h.srv.Comments(7)[0].Body, "**pass**") {
			t.Errorf("inconclusive then pass: %d created, %d edited; want the stale comment edited to pass", count(h, "POST"), count(h, "PATCH"))
		}
	})
	t.Run("off", func(t *testing.T) {
		h := newHarness(t, "")
		h.publish(sampleReport(VerdictFail), Options{CommentMode: CommentOff})
		if count(h, "GET")+count(h, "POST") != 0 {
			t.Errorf("comment-mode off made comment requests: %q", h.calls())
		}
	})
	if _, err := ParseCommentMode("sometimes"); err == nil || !strings.Contains(err.Error(), "always, on-change, on-fail, off") {
		t.Errorf("ParseCommentMode(sometimes): %v", err)
	}
}

func TestWorkflowRunFromAFork(t *testing.T) {
	const runURL = "https://github.example/octo/ranker/actions/runs/41"
	payload := fmt.Sprintf(`{"workflow_run":{"head_sha":%q,"html_url":%q,"pull_requests":[]}}`, headSHA, runURL)
	t.Run("pull request checked against the head", func(t *testing.T) {
		h := newHarness(t, "")
		h.writeEvent(payload)
		r := sampleReport(VerdictFail)
		r.PullRequest = 7
		res := h.publish(r, Options{})
		if res.Comment != "created" || len(res.Failures) != 0 || h.calls()[0] != "GET "+repoPath+"/pulls/7" {
			t.Fatalf("result %+v, requests %q", res, h.calls())
		}
		if cr := h.srv.CheckRuns[res.CheckRunID]; cr.HeadSHA != headSHA || cr.DetailsURL != runURL {
			t.Errorf("check run on %s linking %s; want the fork's head and the computing run", cr.HeadSHA, cr.DetailsURL)
		}
	})
	t.Run("forged pull request refused", func(t *testing.T) {
		h := newHarness(t, "")
		h.writeEvent(payload)
		h.srv.Pulls[8] = "3333333333333333333333333333333333333333"
		r := sampleReport(VerdictPass)
		r.PullRequest = 8
		res := h.publish(r, Options{})
		if len(h.srv.Comments(8)) != 0 || len(res.Failures) != 1 || !strings.Contains(res.Failures[0], "not the commit reported on") {
			t.Errorf("a result naming another pull request: %+v", res)
		}
		if res.CheckRunID == 0 {
			t.Error("the check run on the head commit should still be created")
		}
	})
}

func TestPushEventHasNoComment(t *testing.T) {
	h := newHarness(t, "")
	h.env.EventName = "push"
	h.writeEvent(`{"ref":"refs/heads/main","head_commit":{"id":"x"}}`)
	res := h.publish(sampleReport(VerdictPass), Options{})
	if res.Comment != "skipped: not a pull request" || len(res.Failures) != 0 {
		t.Errorf("%+v", res)
	}
	if cr := h.srv.CheckRuns[res.CheckRunID]; cr == nil || cr.HeadSHA != mergeSHA {
		t.Errorf("check run %+v, want one on GITHUB_SHA", cr)
	}
}

func TestNoTokenPublishesOnlyTheFiles(t *testing.T) {
	h := newHarness(t, "")
	h.env.Token = ""
	r := sampleReport(VerdictFail)
	res := h.publish(r, Options{})
	if len(h.srv.Requests()) != 0 || len(res.Failures) != 0 {
		t.Errorf("without a token: %d requests, failures %q", len(h.srv.Requests()), res.Failures)
	}
	if !strings.HasPrefix(h.file(h.env.StepSummary), r.Markdown) || parseOutputs(t, h.file(h.env.Output))["verdict"] != "fail" {
		t.Error("the job summary and step outputs need no token")
	}
	if _, err := h.publisher(Options{RequirePublish: true}).Publish(context.Background(), r); !errors.Is(err, ErrNotPublished) {
		t.Errorf("--require-publish without a token: %v", err)
	}
}

func TestStepOutputs(t *testing.T) {
	h := newHarness(t, "")
	os.WriteFile(h.env.Output, []byte("earlier=1\n"), 0o644)
	r := sampleReport(VerdictInconclusive)
	r.MarkdownPath = "dir with\nnewline/report.md"
	h.publish(r, Options{CommentMode: CommentOff})
	got := parseOutputs(t, h.file(h.env.Output))
	want := map[string]string{"earlier": "1", "verdict": "inconclusive", "report-json": r.JSONPath, "report-md": r.MarkdownPath}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("outputs %q, want %q", got, want)
	}
}

// parseOutputs reads a GITHUB_OUTPUT file as the runner does: name=value
// lines and name<<DELIM ... DELIM blocks.
func parseOutputs(t *testing.T, text string) map[string]string {
	t.Helper()
	out := map[string]string{}
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		if name, delim, ok := strings.Cut(line, "<<"); ok {
			var value []string
			for i++; i < len(lines) && lines[i] != delim; i++ {
				value = append(value, lines[i])
			}
			if i == len(lines) {
				t.Fatalf("output %s: delimiter %s never closes", name, delim)
			}
			out[name] = strings.Join(value, "\n")
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("bad output line %q", line)
		}
		out[name] = value
	}
	return out
}

// hostile is a run, rule or policy name that tries markdown, HTML, a
// mention, a table break, a code span and a workflow command.
const hostile = "@octocat <img src=x> | `rm -rf`"

func TestHostileNamesAreEscapedEverywhere(t *testing.T) {
	h := newHarness(t, "")
	h.srv.ChecksForbidden = true // to see the status too
	r := Report{
		PolicyName: hostile + " -->",
		Source:     SourceThisJob,
		Verdict:    VerdictFail,
		Title:      "fail: " + hostile + "\n::warning::injected",
		Summary:    "fail: " + hostile + "\r\n::error::injected",
		// The gate renders its markdown with escape.Markdown.
		Markdown: "| challenger | verdict |\n|---|---|\n| " + escape.Markdown(hostile) + " | fail |\n",
		Annotations: []Annotation{{Level: LevelFailure, Path: "policy.yaml", StartLine: 3,
			Title: "rule " + hostile + ", file=/etc/passwd: x", Message: "challenger " + hostile + "\n::warning::injected 100%"}},
	}
	h.publish(r, Options{})
	h.srv.ChecksForbidden = false
	res := h.publish(r, Options{})

	// Markdown channels: comment, check summary, job summary. Every
	// backtick and pipe is backslash-escaped; no tag, no mention.
	rawMarkup := regexp.MustCompile("(^|[^\\\\])[`|]")
	for what, text := range map[string]string{
		"comment": h.srv.Comments(7)[0].Body, "check summary": h.srv.CheckRuns[res.CheckRunID].Summary, "job summary": h.file(h.env.StepSummary),
	} {
		for _, line := range strings.Split(text, "\n") {
			if !strings.Contains(line, "octocat") {
				continue
			}
			cell := strings.TrimSuffix(strings.TrimPrefix(line, "| "), " | fail |")
			if strings.Contains(cell, "@octocat") || strings.Contains(cell, "<img") || rawMarkup.MatchString(cell) {
				t.Errorf("%s: name not escaped in %q", what, line)
			}
		}
	}
	first, _, _ := strings.Cut(h.srv.Comments(7)[0].Body, "\n")
	name, ok := strings.CutPrefix(first, markerPrefix)
	name, ok2 := strings.CutSuffix(name, markerSuffix)
	if !ok || !ok2 || !regexp.MustCompile(`^[A-Za-z0-9%._~]+$`).MatchString(name) {
		t.Errorf("comment marker is not inert: %q", first)
	}

	// Plain-text channels: shown as text by GitHub, so nothing is
	// entity-escaped, but no line break survives in one-line fields.
	cr := h.srv.CheckRuns[res.CheckRunID]
	st := h.srv.Statuses[0]
	for what, text := range map[string]string{"check name": cr.Name, "check title": cr.Title, "annotation title": cr.Annotations[0].Title,
		"status description": st.Description, "status context": st.Context} {
		if strings.ContainsAny(text, "\r\n") {
			t.Errorf("%s has a line break: %q", what, text)
		}
	}
	if cr.Title != "fail: "+hostile+" ::warning::injected" {
		t.Errorf("check title %q", cr.Title)
	}

	// Workflow commands: one line each, decoding to the text given.
	var cmds []string
	for _, line := range strings.Split(h.log.String(), "\n") {
		if strings.HasPrefix(line, "::") {
			cmds = append(cmds, line)
		} else if strings.Contains(line, "::warning::") || strings.Contains(line, "::error::") {
			t.Errorf("a workflow command escaped its line: %q", line)
		}
	}
	if len(cmds) != 2 {
		t.Fatalf("workflow commands %q, want one per run", cmds)
	}
	name, props, msg := decodeCommand(t, cmds[0])
	if name != "error" || props["title"] != "rule "+hostile+", file=/etc/passwd: x" || props["file"] != "policy.yaml" ||
		props["line"] != "3" || msg != "challenger "+hostile+"\n::warning::injected 100%" {
		t.Errorf("decoded %q %q %q from %q", name, props, msg, cmds[0])
	}
}

// decodeCommand parses a workflow command as the Actions runner does.
func decodeCommand(t *testing.T, line string) (string, map[string]string, string) {
	t.Helper()
	rest, ok := strings.CutPrefix(line, "::")
	if !ok {
		t.Fatalf("not a command: %q", line)
	}
	head, data, ok := strings.Cut(rest, "::")
	if !ok {
		t.Fatalf("no data in %q", line)
	}
	name, propText, _ := strings.Cut(head, " ")
	props := map[string]string{}
	if propText != "" {
		for _, kv := range strings.Split(propText, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				t.Fatalf("bad property %q in %q", kv, line)
			}
			props[k] = unescapeCommand(v)
		}
	}
	return name, props, unescapeCommand(data)
}

func unescapeCommand(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

func TestTokenScrubbedFromServerMessages(t *testing.T) {
	// A server (or proxy) that echoes the credentials in its errors.
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"message": "bad request with " + r.Header.Get("Authorization")})
	}))
	defer echo.Close()
	h := newHarness(t, "")
	h.env.APIURL = echo.URL
	p := h.publisher(Options{})
	p.HTTPClient = echo.Client()
	res, err := p.Publish(context.Background(), sampleReport(VerdictFail))
	if err != nil || len(res.Failures) != 2 {
		t.Fatalf("%v %+v", err, res)
	}
	if !strings.Contains(h.log.String(), "bad request with Bearer [redacted]") {
		t.Errorf("log:\n%s", h.log.String())
	}
	env := h.env
	for _, s := range []string{fmt.Sprintf("%v %+v %#v %s %q", env, env, env, env.Token, env.Token)} {
		if strings.Contains(s, testToken) {
			t.Errorf("formatting the Env shows the token: %s", s)
		}
	}
	if data, _ := json.Marshal(env); strings.Contains(string(data), testToken) {
		t.Errorf("the Env's JSON shows the token")
	}
}

func TestReportValidation(t *testing.T) {
	h := newHarness(t, "")
	for _, r := range []Report{
		{Verdict: "passed"},
		{Verdict: VerdictPass, Annotations: []Annotation{{Level: "error", Message: "x"}}},
		{Verdict: VerdictPass, Annotations: []Annotation{{Level: LevelNotice, StartLine: -1, Message: "x"}}},
	} {
		if _, err := h.publisher(Options{}).Publish(context.Background(), r); err == nil {
			t.Errorf("%+v: no error", r)
		}
	}
	if len(h.srv.Requests()) != 0 {
		t.Error("an invalid report was published")
	}
}

// A gate that wrote a judging worklist says, in the comment, the check run
// and the job summary, which artifact of the run holds it (linked) and how
// to use it (issue 28: "the PR comment ... links the file's artifact").
func TestWorklistArtifactLinked(t *testing.T) {
	h := newHarness(t, "")
	r := sampleReport(VerdictInconclusive)
	r.Worklist = "judgments-needed.tsv"
	h.publish(r, Options{})
	want := "The judging worklist **judgments\\-needed\\.tsv** is in the **riskgate\\-report** artifact of " +
		"[this workflow run](https://github.example/octo/ranker/actions/runs/42): fill in its labels and run the gate again with `--judgments` and the file."
	comment := h.bodies("POST", repoPath+"/issues/7/comments")[0]["body"].(string)
	summary := h.bodies("POST", repoPath+"/check-runs")[0]["output"].(map[string]any)["summary"].(string)
	for where, text := range map[string]string{"comment": comment, "check run": summary, "job summary": h.file(h.env.StepSummary)} {
		if !strings.Contains(text, want) {
			t.Errorf("the %s does not say where the worklist is:\n%s", where, text)
		}
	}

	// Without a worklist, nothing is said.
	h2 := newHarness(t, "")
	h2.publish(sampleReport(VerdictInconclusive), Options{})
	if c := h2.bodies("POST", repoPath+"/issues/7/comments")[0]["body"].(string); strings.Contains(c, "worklist") {
		t.Errorf("a comment without a worklist names one:\n%s", c)
	}
}
