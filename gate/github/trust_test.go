package github

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/riskgate/riskgate/gate/github/githubtest"
)

// recorder is a second server, on another host than the API: it records the
// Authorization header of every request and answers as the API would.
type recorder struct {
	*httptest.Server
	mu    sync.Mutex
	auths []string
}

func newRecorder(t *testing.T) *recorder {
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.auths = append(rec.auths, r.Header.Get("Authorization"))
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			w.Write([]byte("[]"))
			return
		}
		w.WriteHeader(http.StatusCreated)
		w.Write([]byte(`{"id": 1}`))
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (rec *recorder) seen() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.auths...)
}

// A 307 from the API to another origin is followed without the token; one
// to the API's own origin keeps it (the harness checks that every request the
// API server receives carries the token).
func TestRedirectToAnotherHostCarriesNoToken(t *testing.T) {
	for _, method := range []string{"GET", "POST"} {
		t.Run(method, func(t *testing.T) {
			h := newHarness(t, "")
			other := newRecorder(t)
			path := repoPath + "/issues/7/comments"
			if method == "POST" {
				path = repoPath + "/check-runs"
			}
			h.srv.Redirects[method+" "+path] = other.URL + path
			h.publish(sampleReport(VerdictFail), Options{})
			seen := other.seen()
			if len(seen) != 1 {
				t.Fatalf("the other host got %d requests, want the redirected one", len(seen))
			}
			if seen[0] != "" {
				t.Errorf("the redirected %s carried Authorization %q to another host", method, seen[0])
			}
		})
	}
	t.Run("same host, another name", func(t *testing.T) {
		// localhost and 127.0.0.1 are the same server but not the same origin.
		h := newHarness(t, "")
		other := newRecorder(t)
		path := repoPath + "/issues/7/comments"
		h.srv.Redirects["GET "+path] = strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + path
		h.publish(sampleReport(VerdictFail), Options{})
		if seen := other.seen(); len(seen) != 1 || seen[0] != "" {
			t.Errorf("requests at localhost: Authorization %q, want one without", seen)
		}
	})
	t.Run("same origin keeps the token", func(t *testing.T) {
		h := newHarness(t, "")
		path := repoPath + "/issues/7/comments"
		h.srv.Redirects["GET "+path] = h.srv.URL + path + "?per_page=100"
		res := h.publish(sampleReport(VerdictFail), Options{})
		if res.Comment != "created" || len(res.Failures) != 0 {
			t.Errorf("result %+v after a redirect within the API", res)
		}
		if n := len(h.srv.Requests()); n != 4 { // redirected GET, GET again, POST comment, POST check run
			t.Errorf("%d requests, want 4: %q", n, h.calls())
		}
	})
}

// countingTransport records the hosts it is asked to reach.
type countingTransport struct {
	base  http.RoundTripper
	mu    sync.Mutex
	hosts []string
}

func (c *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.hosts = append(c.hosts, req.URL.Host)
	c.mu.Unlock()
	return c.base.RoundTrip(req)
}

func TestPlainHTTPRefusedExceptToLoopback(t *testing.T) {
	t.Run("GITHUB_API_URL", func(t *testing.T) {
		h := newHarness(t, "")
		h.env.APIURL = "http://api.github.example"
		p := h.publisher(Options{})
		ct := &countingTransport{base: h.srv.Client().Transport}
		p.HTTPClient = &http.Client{Transport: ct}
		res, err := p.Publish(context.Background(), sampleReport(VerdictFail))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Failures) != 1 || !strings.Contains(res.Failures[0], "plain http") || len(ct.hosts) != 0 {
			t.Errorf("failures %q, requests to %q; want one failure naming plain http and no request", res.Failures, ct.hosts)
		}
	})
	t.Run("redirect", func(t *testing.T) {
		h := newHarness(t, "")
		path := repoPath + "/check-runs"
		h.srv.Redirects["POST "+path] = "http://evil.example" + path
		p := h.publisher(Options{})
		ct := &countingTransport{base: h.srv.Client().Transport}
		p.HTTPClient = &http.Client{Transport: ct}
		res, err := p.Publish(context.Background(), sampleReport(VerdictFail))
		if err != nil {
			t.Fatal(err)
		}
		for _, host := range ct.hosts {
			if host == "evil.example" {
				t.Errorf("a request was sent to %s in plain http", host)
			}
		}
		if !strings.Contains(strings.Join(res.Failures, "\n"), "refusing plain http to evil.example") {
			t.Errorf("failures %q, want the redirect refused", res.Failures)
		}
	})
	for _, u := range []string{"https://api.github.com", "http://127.0.0.1:8080", "http://[::1]:80", "http://localhost"} {
		p, _ := (&Publisher{Env: Env{APIURL: u, Token: testToken}}).client()
		if p == nil {
			t.Errorf("GITHUB_API_URL %s refused", u)
		}
	}
}

// forgedPass is a comment anyone can post: riskgate's public marker, the
// digest of the report about to be published, and a passing verdict.
func forgedPass(r Report) string {
	return commentMarker(r.Source, r.PolicyName) + "\n" + digestLine(r.digest()) + "\n## riskgate: **pass** ✅\n"
}

func TestCommentByAnotherUserIsNotAdopted(t *testing.T) {
	for _, mode := range []CommentMode{CommentAlways, CommentOnChange, CommentOnFail} {
		t.Run(string(mode), func(t *testing.T) {
			h := newHarness(t, "")
			h.srv.EditOthers = true // an edit would succeed: the publisher must not try
			r := sampleReport(VerdictFail)
			r.CommentDigest = "abc123"
			forged := h.srv.AddCommentBy(7, "mallory", forgedPass(r))
			res := h.publish(r, Options{CommentMode: mode})
			if res.Comment != "created" || res.CommentID == forged {
				t.Errorf("result %+v; want a new comment, not the forged one adopted", res)
			}
			for _, rq := range h.srv.Requests() {
				if rq.Method == http.MethodPatch && strings.Contains(rq.Path, "/issues/comments/") {
					t.Errorf("%s %s: edited a comment written by someone else", rq.Method, rq.Path)
				}
			}
			cs := h.srv.Comments(7)
			if len(cs) != 2 || cs[0].Body != forgedPass(r) || cs[1].User != githubtest.ActionsBot || !strings.Contains(cs[1].Body, "**fail**") {
				t.Errorf("comments %+v; want the forged one untouched and riskgate's own failing one", cs)
			}
			if !strings.Contains(h.log.String(), "written by mallory") {
				t.Errorf("log does not say why the marked comment was not adopted:\n%s", h.log.String())
			}
			// The next run adopts riskgate's own comment, not the older forged one.
			res2 := h.publish(r, Options{CommentMode: mode})
			if mode == CommentOnChange && (res2.Comment != "unchanged" || res2.CommentID != res.CommentID) {
				t.Errorf("second on-change run: %+v, want comment %d unchanged", res2, res.CommentID)
			}
			if mode != CommentOnChange && (res2.Comment != "updated" || res2.CommentID != res.CommentID) {
				t.Errorf("second run: %+v, want comment %d updated", res2, res.CommentID)
			}
		})
	}
}

// A personal access token's own comments are those of its user (GET /user);
// the Actions bot's are someone else's then.
func TestCommentAuthorFromUserEndpoint(t *testing.T) {
	h := newHarness(t, "")
	h.srv.TokenUser = "alice"
	h.srv.EditOthers = true
	r := sampleReport(VerdictFail)
	bot := h.srv.AddCommentBy(7, githubtest.ActionsBot, forgedPass(r))
	own := h.srv.AddCommentBy(7, "alice", forgedPass(r))
	res := h.publish(r, Options{})
	if res.Comment != "updated" || res.CommentID != own {
		t.Errorf("result %+v; want alice's comment %d updated, not the bot's %d", res, own, bot)
	}
}

func TestCommentAuthorOption(t *testing.T) {
	h := newHarness(t, "")
	h.srv.EditOthers = true
	r := sampleReport(VerdictFail)
	own := h.srv.AddCommentBy(7, "riskgate-app[bot]", forgedPass(r))
	res := h.publish(r, Options{CommentAuthor: "riskgate-app[bot]"})
	if res.Comment != "updated" || res.CommentID != own {
		t.Errorf("result %+v; want comment %d of the named author updated", res, own)
	}
	for _, c := range h.calls() {
		if c == "GET /user" {
			t.Error("GET /user asked although the author is named")
		}
	}
}

// A result read from a file (SourceFile: riskgate publish) is published under
// names a gate run never uses — the check run, its external id, the commit
// status and the comment's marker — with a note heading every body, and
// never edits the sticky comment of a gate run on the same policy.
func TestUnverifiedReportHasNamesOfItsOwn(t *testing.T) {
	h := newHarness(t, "")
	gate := sampleReport(VerdictFail)
	gateRes := h.publish(gate, Options{})
	file := sampleReport(VerdictPass)
	file.Source = SourceFile
	res := h.publish(file, Options{})
	if res.Comment != "created" || res.CommentID == gateRes.CommentID {
		t.Errorf("result %+v; want a comment of its own beside the gate's %d", res, gateRes.CommentID)
	}
	cs := h.srv.Comments(7)
	if len(cs) != 2 || !strings.Contains(cs[0].Body, "**fail**") {
		t.Fatalf("comments %+v; want the gate's untouched and publish's", cs)
	}
	if !strings.HasPrefix(cs[1].Body, "<!-- riskgate:comment unverified policy=release%20gate -->\n") || !strings.Contains(cs[1].Body, "**Unverified result.**") {
		t.Errorf("publish's comment:\n%s", cs[1].Body)
	}
	cr := h.srv.CheckRuns[res.CheckRunID]
	if cr.Name != "riskgate (unverified): release gate" || cr.ExternalID != "riskgate publish (unverified)" ||
		!strings.HasPrefix(cr.Summary, unverifiedNote) || !strings.HasSuffix(cr.Summary, file.Markdown) {
		t.Errorf("check run %q (%q):\n%s", cr.Name, cr.ExternalID, cr.Summary)
	}
	if gateRun := h.srv.CheckRuns[gateRes.CheckRunID]; gateRun.Name != "riskgate: release gate" || gateRun.ExternalID != "riskgate gate" {
		t.Errorf("the gate's check run %q (%q)", gateRun.Name, gateRun.ExternalID)
	}
	if !strings.Contains(h.file(h.env.StepSummary), unverifiedNote+file.Markdown) {
		t.Error("the job summary does not say the result is unverified")
	}
	h.srv.ChecksForbidden = true
	h.publish(file, Options{CommentMode: CommentOff})
	if st := h.srv.Statuses[len(h.srv.Statuses)-1]; st.Context != "riskgate (unverified): release gate" {
		t.Errorf("commit status context %q", st.Context)
	}
}

// Whatever two policies are named, a check (or status) a file names is never
// one a gate run names, and neither comment marker starts the other.
func FuzzNamesOfSourcesDisjoint(f *testing.F) {
	for _, s := range [][2]string{{"release", "release"}, {"", ""}, {" (unverified): x", "x"}, {"x", ": x"}, {"\u202e", "\t"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, gatePolicy, filePolicy string) {
		if a, b := checkName(SourceThisJob, gatePolicy), checkName(SourceFile, filePolicy); a == b {
			t.Errorf("policies %q and %q: both named %q", gatePolicy, filePolicy, a)
		}
		a, b := commentMarker(SourceThisJob, gatePolicy), commentMarker(SourceFile, filePolicy)
		if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
			t.Errorf("markers %q and %q: one starts the other", a, b)
		}
	})
}
