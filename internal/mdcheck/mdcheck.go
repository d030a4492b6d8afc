// Package mdcheck checks in tests that a report is markdown of the shape
// GitHub renders as meant (tables, <details>, <pre>), for every package whose
// tests render markdown.
package mdcheck

import (
	"regexp"
	"strings"
	"testing"
)

// Structure checks that md is GitHub-flavoured markdown of the shape
// riskgate's reports mean, as GitHub's parser (cmark-gfm) reads it:
//   - under the size limit of a comment;
//   - every table starts after a blank line, its second line is a delimiter
//     row, and every row has the header's number of cells (cells split at
//     pipes not escaped by a backslash, as GFM does even inside code spans);
//   - <details> is followed by a <summary> line and a blank line (so that the
//     markdown inside renders), and </details> stands after a blank line;
//   - <pre> blocks close, and hold no raw tag (names are entity-escaped).
func Structure(t testing.TB, md string, maxBytes int) {
	t.Helper()
	if len(md) >= maxBytes {
		t.Errorf("markdown is %d bytes, over %d", len(md), maxBytes)
	}
	lines := strings.Split(md, "\n")
	delim := regexp.MustCompile(`^\|(:?-+:?\|)+$`)
	inPre, details := false, 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		prev := ""
		if i > 0 {
			prev = lines[i-1]
		}
		switch {
		case inPre:
			if l == "</pre>" {
				inPre = false
			} else if strings.ContainsAny(l, "<>") {
				t.Errorf("line %d: raw < or > inside <pre>: %q", i+1, l)
			}
		case l == "<pre>":
			inPre = true
		case l == "<details>":
			details++
			if i+2 >= len(lines) || !regexp.MustCompile(`^<summary>[^<>]*</summary>$`).MatchString(lines[i+1]) || lines[i+2] != "" {
				t.Errorf("line %d: <details> must be followed by <summary>…</summary> and a blank line", i+1)
			}
		case l == "</details>":
			details--
			if prev != "" {
				t.Errorf("line %d: </details> must follow a blank line", i+1)
			}
		case strings.HasPrefix(l, "|"):
			if prev != "" {
				t.Errorf("line %d: a table must follow a blank line", i+1)
			}
			n := cells(l)
			if i+1 >= len(lines) || !delim.MatchString(lines[i+1]) || cells(lines[i+1]) != n {
				t.Fatalf("line %d: table header without a matching delimiter row", i+1)
			}
			for i++; i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|"); i++ {
				if c := cells(lines[i+1]); c != n {
					t.Errorf("line %d: %d cells, the header has %d: %q", i+2, c, n, lines[i+1])
				}
			}
		}
	}
	if inPre || details != 0 {
		t.Errorf("unclosed <pre> (%v) or <details> (%d)", inPre, details)
	}
}

// cells counts the cells of a table row: pipes not escaped by a backslash,
// less one.
func cells(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}
