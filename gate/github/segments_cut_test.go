package github

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// A report of rules per segment (issue 26) with a 50-segment dimension
// (gate/report's TestSegmentedCommentFits writes it: 35 kB, hostile segment
// names, every segment table under <details>) fits a comment whole, and cut
// to any smaller budget — as a server that refuses the body makes
// sendFitted do (CommentLimit/2, /16) — it ends at a line, closes every
// <details> it opened, keeps within the limit and says where the full
// report is.
func TestSegmentedReportIsCutCleanly(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "report", "testdata", "segments50.report.md.golden"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	if got, cut := fit(md, CommentLimit, "NOTE"); cut || got != md {
		t.Fatalf("a %d-character report was cut to fit %d", utf8.RuneCountInString(md), CommentLimit)
	}
	const note = "\n\n_cut: the full report is in the run's artifact._\n"
	n := utf8.RuneCountInString(md)
	for limit := 600; limit < n; limit += 997 {
		got, cut := fit(md, limit, note)
		if !cut || utf8.RuneCountInString(got) > limit || !strings.HasSuffix(got, note) {
			t.Fatalf("limit %d: cut %v, %d characters, ends %q", limit, cut, utf8.RuneCountInString(got), got[max(0, len(got)-80):])
		}
		body := strings.TrimSuffix(got, note)
		if open, closed := strings.Count(body, "<details>"), strings.Count(body, "</details>"); open != closed {
			t.Errorf("limit %d: %d <details> opened, %d closed", limit, open, closed)
		}
		if !strings.HasSuffix(body, "\n") {
			t.Errorf("limit %d: cut inside a line: …%q", limit, body[max(0, len(body)-60):])
		}
	}
	for _, limit := range []int{CommentLimit / 2, CommentLimit / 16} {
		if got, _ := fit(md, limit, note); strings.Count(got, "<details>") != strings.Count(got, "</details>") {
			t.Errorf("sendFitted's limit %d leaves a <details> open", limit)
		}
	}
}
