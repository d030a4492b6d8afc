package github

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// Env is what Publish reads from the GitHub Actions environment.
type Env struct {
	Token      Secret // GITHUB_TOKEN; never printed
	Repository string // GITHUB_REPOSITORY, owner/name
	APIURL     string // GITHUB_API_URL; https://HOST/api/v3 on GitHub Enterprise Server
	ServerURL  string // GITHUB_SERVER_URL, for links to the workflow run
	EventName  string // GITHUB_EVENT_NAME
	EventPath  string // GITHUB_EVENT_PATH, the webhook payload that started the workflow
	SHA        string // GITHUB_SHA
	RunID      string // GITHUB_RUN_ID
	Workspace  string // GITHUB_WORKSPACE, to make annotation paths relative to the repository

	StepSummary string // GITHUB_STEP_SUMMARY, a file the job summary is appended to
	Output      string // GITHUB_OUTPUT, a file the step outputs are appended to
}

// DefaultAPIURL is GitHub.com's REST API.
const DefaultAPIURL = "https://api.github.com"

// ReadEnv reads the Actions variables through getenv (os.Getenv in riskgate;
// tests pass their own, so that they need not change the process's).
func ReadEnv(getenv func(string) string) Env {
	return Env{
		Token:       Secret(getenv("GITHUB_TOKEN")),
		Repository:  getenv("GITHUB_REPOSITORY"),
		APIURL:      getenv("GITHUB_API_URL"),
		ServerURL:   getenv("GITHUB_SERVER_URL"),
		EventName:   getenv("GITHUB_EVENT_NAME"),
		EventPath:   getenv("GITHUB_EVENT_PATH"),
		SHA:         getenv("GITHUB_SHA"),
		RunID:       getenv("GITHUB_RUN_ID"),
		Workspace:   getenv("GITHUB_WORKSPACE"),
		StepSummary: getenv("GITHUB_STEP_SUMMARY"),
		Output:      getenv("GITHUB_OUTPUT"),
	}
}

// ownerRepo splits GITHUB_REPOSITORY.
func (e Env) ownerRepo() (string, string, error) {
	owner, repo, ok := strings.Cut(e.Repository, "/")
	if !ok || owner == "" || repo == "" || strings.Contains(repo, "/") {
		if e.Repository == "" {
			return "", "", fmt.Errorf("GITHUB_REPOSITORY is not set")
		}
		return "", "", fmt.Errorf("GITHUB_REPOSITORY %q: expected owner/name", e.Repository)
	}
	return owner, repo, nil
}

// runURL is the page of this workflow run, where its artifacts are listed.
func (e Env) runURL() string {
	if e.Repository == "" || e.RunID == "" {
		return ""
	}
	server := strings.TrimRight(e.ServerURL, "/")
	if server == "" {
		server = "https://github.com"
	}
	return server + "/" + e.Repository + "/actions/runs/" + e.RunID
}

// Event is what Publish needs from the webhook payload: the pull request and
// its head commit, and for workflow_run the run that computed the result.
type Event struct {
	// PullRequest is the pull request the workflow runs for; 0 when none.
	PullRequest int
	// HeadSHA is the pull request's head commit (GITHUB_SHA is the merge
	// commit on pull_request events) or the head of the triggering run.
	HeadSHA string
	// RunURL is the page of the triggering workflow run (workflow_run
	// events), which holds the report artifact.
	RunURL string
}

// maxEventSize bounds the payload read; GitHub's are far smaller.
const maxEventSize = 25 << 20

// ReadEvent reads the payload at GITHUB_EVENT_PATH; a zero Event when unset.
func (e Env) ReadEvent() (Event, error) {
	if e.EventPath == "" {
		return Event{}, nil
	}
	f, err := os.Open(e.EventPath)
	if err != nil {
		return Event{}, fmt.Errorf("GITHUB_EVENT_PATH: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEventSize))
	if err != nil {
		return Event{}, fmt.Errorf("GITHUB_EVENT_PATH: %w", err)
	}
	ev, err := ParseEvent(data)
	if err != nil {
		return Event{}, fmt.Errorf("GITHUB_EVENT_PATH %s: %w", e.EventPath, err)
	}
	return ev, nil
}

type prRef struct {
	Number int `json:"number"`
	Head   struct {
		SHA string `json:"sha"`
	} `json:"head"`
}

// ParseEvent reads a webhook payload: pull_request and pull_request_target
// (pull_request.number, pull_request.head.sha) and workflow_run
// (workflow_run.head_sha, the pull request in workflow_run.pull_requests
// whose head is that commit — empty for pull requests from forks — and
// workflow_run.html_url). Other events give the zero Event.
func ParseEvent(data []byte) (Event, error) {
	var p struct {
		PullRequest *prRef `json:"pull_request"`
		WorkflowRun *struct {
			HeadSHA      string  `json:"head_sha"`
			HTMLURL      string  `json:"html_url"`
			PullRequests []prRef `json:"pull_requests"`
		} `json:"workflow_run"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return Event{}, fmt.Errorf("not a webhook payload: %v", err)
	}
	var ev Event
	switch {
	case p.PullRequest != nil:
		ev.PullRequest, ev.HeadSHA = p.PullRequest.Number, p.PullRequest.Head.SHA
	case p.WorkflowRun != nil:
		ev.HeadSHA, ev.RunURL = p.WorkflowRun.HeadSHA, p.WorkflowRun.HTMLURL
		for _, pr := range p.WorkflowRun.PullRequests {
			if pr.Head.SHA == ev.HeadSHA {
				ev.PullRequest = pr.Number
				break
			}
		}
	}
	if ev.PullRequest < 0 {
		ev.PullRequest = 0
	}
	return ev, nil
}
