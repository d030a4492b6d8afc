// Package githubtest is a local stand-in for the parts of GitHub's REST API
// that package github uses — issue comments, check runs, commit statuses and
// pull requests, and the token's user — with GitHub's validation limits and
// the failures a publisher must survive (a fork's read-only token, a token
// that cannot create check runs, bodies refused as too long, secondary rate
// limits, redirects, comments by other users). Every request is recorded for
// tests to assert on.
package githubtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Request is one request the server received.
type Request struct {
	Method  string
	Path    string // without the server's prefix
	URLPath string // as received, with the prefix
	Query   string
	Body    []byte
	Auth    string // the Authorization header
}

// Comment is an issue comment held by the server.
type Comment struct {
	ID   int64
	Body string
	User string // the author's login
}

// ActionsBot is the login of GITHUB_TOKEN's identity, which writes the
// comments of an installation token.
const ActionsBot = "github-actions[bot]"

// OtherUser is the author of the comments AddComment adds.
const OtherUser = "octocat"

// Server emulates the REST endpoints. Set the fault fields before the
// requests they affect; read the state after.
type Server struct {
	*httptest.Server
	// Prefix is the API's path on the server: "" like api.github.com, or
	// "/api/v3" like GitHub Enterprise Server.
	Prefix string
	// Token, when set, is the only credential accepted (Authorization:
	// Bearer Token); other requests get 401.
	Token string

	// ReadOnly refuses every write with 403, as a fork's pull_request token does.
	ReadOnly bool
	// ChecksForbidden refuses check runs with 403 (a token without checks: write).
	ChecksForbidden bool
	// MaxBodyBytes, when positive, refuses comment bodies longer than this
	// many bytes with GitHub's 422 "body is too long" (GitHub counts
	// characters; a different count is what the publisher must survive).
	MaxBodyBytes int
	// RateLimit maps "METHOD /path" to a Retry-After in seconds: the first
	// such request gets a secondary-rate-limit 403 with that header (none
	// when negative).
	RateLimit map[string]int
	// Redirects maps "METHOD /path" to a URL: the first such request gets a
	// 307 Temporary Redirect there.
	Redirects map[string]string
	// Delays maps "METHOD /path" to how long every such request waits
	// before it is answered (a slow or hanging API).
	Delays map[string]time.Duration
	// EndlessComments makes every page of a pull request's comments link
	// to a next page, as a misbehaving API or proxy might.
	EndlessComments bool
	// TokenUser is the login of the account the token belongs to, which
	// GET /user returns and which authors the comments written. Empty means
	// an installation token (GITHUB_TOKEN or a GitHub App's): GET /user is
	// 403 "Resource not accessible by integration", as on GitHub, and
	// comments are written as ActionsBot.
	TokenUser string
	// EditOthers lets the token edit comments written by someone else (a
	// token with write access to the repository); by default such an edit
	// is refused with 403.
	EditOthers bool

	mu       sync.Mutex
	requests []Request
	comments map[int][]*Comment // by pull-request number, oldest first
	nextID   int64

	// The state, to read once the requests are done.
	CheckRuns map[int64]*CheckRun
	Statuses  []Status
	// Pulls maps pull-request numbers to their head commits.
	Pulls map[int]string
}

// CheckRun is a check run as the server holds it, annotations accumulated.
type CheckRun struct {
	ID          int64
	Name        string
	ExternalID  string
	HeadSHA     string
	Conclusion  string
	Title       string
	Summary     string
	DetailsURL  string
	Annotations []Annotation
}

// Annotation is a check run annotation as sent.
type Annotation struct {
	Path            string `json:"path"`
	StartLine       int    `json:"start_line"`
	EndLine         int    `json:"end_line"`
	AnnotationLevel string `json:"annotation_level"`
	Title           string `json:"title"`
	Message         string `json:"message"`
}

// Status is a commit status as sent.
type Status struct {
	SHA         string
	State       string `json:"state"`
	Description string `json:"description"`
	Context     string `json:"context"`
	TargetURL   string `json:"target_url"`
}

// NewServer starts a server whose API lives under prefix ("" or "/api/v3").
// Close it when done.
func NewServer(prefix string) *Server {
	s := &Server{Prefix: prefix, comments: map[int][]*Comment{}, nextID: 1000,
		CheckRuns: map[int64]*CheckRun{}, Pulls: map[int]string{}, RateLimit: map[string]int{}, Redirects: map[string]string{},
		Delays: map[string]time.Duration{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// APIURL is the value of GITHUB_API_URL for this server.
func (s *Server) APIURL() string { return s.URL + s.Prefix }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Comments returns the comments on pull request pr, oldest first.
func (s *Server) Comments(pr int) []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Comment
	for _, c := range s.comments[pr] {
		out = append(out, *c)
	}
	return out
}

// AddComment adds a comment to pull request pr, as someone else
// (OtherUser) might have.
func (s *Server) AddComment(pr int, body string) int64 { return s.AddCommentBy(pr, OtherUser, body) }

// AddCommentBy adds a comment to pull request pr written by user.
func (s *Server) AddCommentBy(pr int, user, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextID++
	s.comments[pr] = append(s.comments[pr], &Comment{ID: s.nextID, Body: body, User: user})
	return s.nextID
}

// identity is the login that authors what the token writes.
func (s *Server) identity() string {
	if s.TokenUser == "" {
		return ActionsBot
	}
	return s.TokenUser
}

var (
	commentsRE = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/(\d+)/comments$`)
	commentRE  = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/issues/comments/(\d+)$`)
	checksRE   = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/check-runs$`)
	checkRE    = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/check-runs/(\d+)$`)
	statusRE   = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/statuses/([0-9a-fA-F]+)$`)
	pullRE     = regexp.MustCompile(`^/repos/([^/]+)/([^/]+)/pulls/(\d+)$`)
)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	path, ok := strings.CutPrefix(r.URL.Path, s.Prefix)
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: path, URLPath: r.URL.Path, Query: r.URL.RawQuery, Body: body, Auth: r.Header.Get("Authorization")})
	delay := s.Delays[r.Method+" "+path]
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done(): // the client gave up
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !ok || !strings.HasPrefix(path, "/repos/") && path != "/user" {
		writeError(w, http.StatusNotFound, "Not Found", nil)
		return
	}
	key := r.Method + " " + path
	if to, redirected := s.Redirects[key]; redirected {
		delete(s.Redirects, key)
		w.Header().Set("Location", to)
		w.WriteHeader(http.StatusTemporaryRedirect)
		return
	}
	if s.Token != "" && r.Header.Get("Authorization") != "Bearer "+s.Token {
		writeError(w, http.StatusUnauthorized, "Bad credentials", nil)
		return
	}
	if after, limited := s.RateLimit[key]; limited {
		delete(s.RateLimit, key)
		if after >= 0 {
			w.Header().Set("Retry-After", strconv.Itoa(after))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`)
		return
	}
	if s.ReadOnly && r.Method != http.MethodGet {
		writeError(w, http.StatusForbidden, "Resource not accessible by integration", nil)
		return
	}
	switch m := (matcher{path: path}); {
	case path == "/user" && r.Method == http.MethodGet:
		if s.TokenUser == "" {
			writeError(w, http.StatusForbidden, "Resource not accessible by integration", nil)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"login": s.TokenUser, "id": 1, "type": "User"})
	case m.match(commentsRE) && r.Method == http.MethodGet:
		s.listComments(w, r, m.int(3))
	case m.match(commentsRE) && r.Method == http.MethodPost:
		s.writeComment(w, body, m.int(3), 0)
	case m.match(commentRE) && r.Method == http.MethodPatch:
		s.writeComment(w, body, 0, int64(m.int(3)))
	case m.match(checksRE) && r.Method == http.MethodPost:
		if s.ChecksForbidden {
			writeError(w, http.StatusForbidden, "Resource not accessible by integration", nil)
			return
		}
		s.writeCheckRun(w, body, 0)
	case m.match(checkRE) && r.Method == http.MethodPatch:
		s.writeCheckRun(w, body, int64(m.int(3)))
	case m.match(statusRE) && r.Method == http.MethodPost:
		s.createStatus(w, body, m.groups[3])
	case m.match(pullRE) && r.Method == http.MethodGet:
		head, ok := s.Pulls[m.int(3)]
		if !ok {
			writeError(w, http.StatusNotFound, "Not Found", nil)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"number": m.int(3), "head": map[string]any{"sha": head}})
	default:
		writeError(w, http.StatusNotFound, "Not Found", nil)
	}
}

type matcher struct {
	path   string
	groups []string
}

func (m *matcher) match(re *regexp.Regexp) bool {
	m.groups = re.FindStringSubmatch(m.path)
	return m.groups != nil
}

func (m *matcher) int(i int) int {
	n, _ := strconv.Atoi(m.groups[i])
	return n
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request, pr int) {
	q := r.URL.Query()
	perPage, page := 30, 1
	if v, err := strconv.Atoi(q.Get("per_page")); err == nil && v > 0 {
		perPage = min(v, 100)
	}
	if v, err := strconv.Atoi(q.Get("page")); err == nil && v > 0 {
		page = v
	}
	all := s.comments[pr]
	lo := min((page-1)*perPage, len(all))
	hi := min(lo+perPage, len(all))
	out := []map[string]any{}
	for _, c := range all[lo:hi] {
		out = append(out, commentJSON(c))
	}
	if hi < len(all) || s.EndlessComments {
		last := max((len(all)+perPage-1)/perPage, page+1)
		link := func(p int) string {
			return fmt.Sprintf("<%s%s%s?page=%d&per_page=%d>", s.URL, s.Prefix, r.URL.Path[len(s.Prefix):], p, perPage)
		}
		w.Header().Set("Link", link(page+1)+`; rel="next", `+link(last)+`; rel="last"`)
	}
	writeJSON(w, http.StatusOK, out)
}

func commentJSON(c *Comment) map[string]any {
	kind := "User"
	if strings.HasSuffix(c.User, "[bot]") {
		kind = "Bot"
	}
	return map[string]any{"id": c.ID, "body": c.Body, "user": map[string]any{"login": c.User, "type": kind}}
}

// CommentLimit is GitHub's limit on a comment body, in characters.
const CommentLimit = 65536

func (s *Server) writeComment(w http.ResponseWriter, body []byte, pr int, id int64) {
	var in struct {
		Body *string `json:"body"`
	}
	if json.Unmarshal(body, &in) != nil || in.Body == nil {
		writeError(w, http.StatusUnprocessableEntity, "Invalid request.\n\n\"body\" wasn't supplied.", nil)
		return
	}
	if n := utf8.RuneCountInString(*in.Body); n > CommentLimit || (s.MaxBodyBytes > 0 && len(*in.Body) > s.MaxBodyBytes) {
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", []map[string]any{{
			"resource": "IssueComment", "code": "custom", "field": "body",
			"message": fmt.Sprintf("body is too long (maximum is %d characters)", CommentLimit)}})
		return
	}
	if id == 0 {
		s.nextID++
		c := &Comment{ID: s.nextID, Body: *in.Body, User: s.identity()}
		s.comments[pr] = append(s.comments[pr], c)
		writeJSON(w, http.StatusCreated, commentJSON(c))
		return
	}
	for _, cs := range s.comments {
		for _, c := range cs {
			if c.ID == id {
				if c.User != s.identity() && !s.EditOthers {
					writeError(w, http.StatusForbidden, "Resource not accessible by integration", nil)
					return
				}
				c.Body = *in.Body
				writeJSON(w, http.StatusOK, commentJSON(c))
				return
			}
		}
	}
	writeError(w, http.StatusNotFound, "Not Found", nil)
}

// Check run limits.
const (
	CheckSummaryLimit = 65535
	AnnotationBatch   = 50
	StatusLimit       = 140
)

func (s *Server) writeCheckRun(w http.ResponseWriter, body []byte, id int64) {
	var in struct {
		Name       string `json:"name"`
		ExternalID string `json:"external_id"`
		HeadSHA    string `json:"head_sha"`
		Status     string `json:"status"`
		Conclusion string `json:"conclusion"`
		DetailsURL string `json:"details_url"`
		Output     *struct {
			Title       *string      `json:"title"`
			Summary     *string      `json:"summary"`
			Annotations []Annotation `json:"annotations"`
		} `json:"output"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON", nil)
		return
	}
	invalid := func(msg string) { writeError(w, http.StatusUnprocessableEntity, msg, nil) }
	switch {
	case in.Name == "":
		invalid("Invalid request.\n\n\"name\" wasn't supplied.")
		return
	case id == 0 && in.HeadSHA == "":
		invalid("Invalid request.\n\n\"head_sha\" wasn't supplied.")
		return
	case in.Status == "completed" && in.Conclusion == "":
		invalid("Invalid request.\n\n\"conclusion\" wasn't supplied.")
		return
	case in.Conclusion != "" && !strings.Contains(" success failure neutral cancelled skipped timed_out action_required ", " "+in.Conclusion+" "):
		invalid("Invalid request.\n\nconclusion is not included in the list")
		return
	}
	if o := in.Output; o != nil {
		switch {
		case o.Title == nil || o.Summary == nil:
			invalid("Invalid request.\n\n\"title\" and \"summary\" are required with output.")
			return
		case utf8.RuneCountInString(*o.Summary) > CheckSummaryLimit:
			writeError(w, http.StatusUnprocessableEntity, "Validation Failed", []map[string]any{{"resource": "CheckRun", "code": "custom", "field": "summary",
				"message": fmt.Sprintf("summary is too long (maximum is %d characters)", CheckSummaryLimit)}})
			return
		case len(o.Annotations) > AnnotationBatch:
			invalid("Invalid request.\n\nFor 'properties/annotations', is too long (maximum is 50 items).")
			return
		}
		for _, a := range o.Annotations {
			if a.Path == "" || a.StartLine < 1 || a.EndLine < a.StartLine || a.Message == "" ||
				!strings.Contains(" notice warning failure ", " "+a.AnnotationLevel+" ") {
				invalid("Invalid request.\n\nannotation is missing or has an invalid path, start_line, end_line, annotation_level or message.")
				return
			}
		}
	}
	cr := s.CheckRuns[id]
	if id == 0 {
		s.nextID++
		cr = &CheckRun{ID: s.nextID, HeadSHA: in.HeadSHA}
		s.CheckRuns[cr.ID] = cr
	} else if cr == nil {
		writeError(w, http.StatusNotFound, "Not Found", nil)
		return
	}
	cr.Name = in.Name
	if in.ExternalID != "" {
		cr.ExternalID = in.ExternalID
	}
	if in.Conclusion != "" {
		cr.Conclusion = in.Conclusion
	}
	if in.DetailsURL != "" {
		cr.DetailsURL = in.DetailsURL
	}
	if o := in.Output; o != nil {
		cr.Title, cr.Summary = *o.Title, *o.Summary
		cr.Annotations = append(cr.Annotations, o.Annotations...)
	}
	status := http.StatusCreated
	if id != 0 {
		status = http.StatusOK
	}
	writeJSON(w, status, map[string]any{"id": cr.ID, "name": cr.Name, "head_sha": cr.HeadSHA, "conclusion": cr.Conclusion})
}

func (s *Server) createStatus(w http.ResponseWriter, body []byte, sha string) {
	var st Status
	if err := json.Unmarshal(body, &st); err != nil {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON", nil)
		return
	}
	switch {
	case !strings.Contains(" error failure pending success ", " "+st.State+" "):
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", []map[string]any{{"resource": "Status", "code": "custom", "field": "state", "message": "state is not included in the list"}})
		return
	case utf8.RuneCountInString(st.Description) > StatusLimit:
		writeError(w, http.StatusUnprocessableEntity, "Validation Failed", []map[string]any{{"resource": "Status", "code": "custom", "field": "description", "message": "description is too long (maximum is 140 characters)"}})
		return
	}
	st.SHA = sha
	s.Statuses = append(s.Statuses, st)
	writeJSON(w, http.StatusCreated, map[string]any{"id": len(s.Statuses), "state": st.State, "context": st.Context})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, message string, errs []map[string]any) {
	body := map[string]any{"message": message, "documentation_url": "https://docs.github.com/rest"}
	if errs != nil {
		body["errors"] = errs
	}
	writeJSON(w, status, body)
}
