package github

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/riskgate/riskgate/internal/escape"
)

// GitHub's limits, in characters.
const (
	CommentLimit      = 65536 // an issue or pull-request comment body
	CheckSummaryLimit = 65535 // a check run's output.summary
	StatusLimit       = 140   // a commit status description
	// SummaryLimit keeps the job summary within GitHub's 1 MiB per step
	// whatever the characters' encoded size (at most 4 bytes each).
	SummaryLimit = 1 << 18
	// Plain-text fields GitHub bounds, with margin.
	nameLimit            = 100
	titleLimit           = 255
	annotationTitleLimit = 255
	annotationMsgLimit   = 32 << 10
)

// fit returns body if it has at most limit characters; otherwise body cut at
// a line break, with any <details> block and code fence left open closed, and
// note (which says where the full report is) appended, all within limit.
func fit(body string, limit int, note string) (string, bool) {
	if utf8.RuneCountInString(body) <= limit {
		return body, false
	}
	budget := limit - utf8.RuneCountInString(note)
	for budget > 0 {
		cut := cutAtLine(body, budget)
		out := cut + closeBlocks(cut) + note
		n := utf8.RuneCountInString(out)
		if n <= limit {
			return out, true
		}
		budget -= n - limit
	}
	return escape.Clip(note, limit), true
}

// cutAtLine returns the longest prefix of s with at most n characters, ending
// at a line break when one falls in its second half.
func cutAtLine(s string, n int) string {
	end, count := len(s), 0
	for i := range s {
		if count == n {
			end = i
			break
		}
		count++
	}
	prefix := s[:end]
	if i := strings.LastIndexByte(prefix, '\n'); i >= len(prefix)/2 {
		prefix = prefix[:i+1]
	}
	return prefix
}

// closeBlocks returns what closes the code fence and <details> blocks that
// markdown s leaves open, so that a cut report still renders.
func closeBlocks(s string) string {
	var closing strings.Builder
	fenced := false
	open := 0
	for _, line := range strings.Split(s, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		open += strings.Count(t, "<details") - strings.Count(t, "</details>")
	}
	if !strings.HasSuffix(s, "\n") {
		closing.WriteByte('\n')
	}
	if fenced {
		closing.WriteString("```\n")
	}
	for ; open > 0; open-- {
		closing.WriteString("\n</details>\n")
	}
	return closing.String()
}

// cutNote is appended to a body cut to fit: it says where the full report is.
func cutNote(limit int, artifact, reportURL string) string {
	return "\n---\n:warning: This report was cut to fit GitHub's limit of " + thousands(limit) +
		" characters. The full report is in " + artifactOfRun(artifact, reportURL) + ".\n"
}

// artifactOfRun names the artifact of this workflow run that holds the
// report set (the Action's artifact-name, when known), the run linked when
// its page is known.
func artifactOfRun(artifact, reportURL string) string {
	where := "the report artifact of this workflow run"
	if artifact != "" {
		where = "the **" + escape.Markdown(artifact) + "** artifact of this workflow run"
	}
	if u := linkURL(reportURL); u != "" {
		where = strings.Replace(where, "this workflow run", "[this workflow run]("+u+")", 1)
	}
	return where
}

// worklistLine says where the judging worklist is (artifactOfRun) and how
// to use it; "" without a worklist.
func worklistLine(worklist, artifact, reportURL string) string {
	if worklist == "" {
		return ""
	}
	where := artifactOfRun(artifact, reportURL)
	// The name is escaped as text, not put in a code span: a result read
	// from a file could name anything, and a code span shows escapes as is.
	return "\n\nThe judging worklist **" + escape.Markdown(worklist) + "** is in " + where +
		": fill in its labels and run the gate again with `--judgments` and the file.\n"
}

// thousands writes n with a comma every three digits, as GitHub's messages do.
func thousands(n int) string {
	d := strconv.Itoa(n)
	var b strings.Builder
	for i := range len(d) {
		if i > 0 && (len(d)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(d[i])
	}
	return b.String()
}
