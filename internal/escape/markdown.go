// Package escape makes text from the inputs (run, topic and policy names,
// reasons) safe where riskgate writes it: markdown, a terminal, a plot, a
// shell command line. Every writer of the tool escapes through this package.
package escape

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// markdownPunct is the ASCII punctuation that can start or end markdown
// syntax, including GitHub's extensions (tables, strikethrough, :emoji:, $math$).
const markdownPunct = "\\`*_{}[]()+-.!|~=:$\"'"

// Markdown escapes s for use as inline text in GitHub-flavoured
// markdown, in a paragraph or a table cell: the result cannot start a block,
// end a table cell, open a link, emphasis, code span or HTML tag, or mention
// a user, a team or an issue. Line breaks become spaces and other control
// characters are dropped. What a reader sees is s.
//
// ASCII punctuation is backslash-escaped (CommonMark §2.4); <, > and & become
// entities; @ and # are followed by a zero-width space (&#8203;), which GitHub
// renders invisibly but which breaks @mentions and #references — backslashes
// do not, because GitHub finds those in the rendered text.
func Markdown(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case isVisible(r):
			v, _ := visible(r)
			b.WriteString(v)
		case unicode.IsControl(r) || r == utf8.RuneError:
			// dropped: controls render as nothing useful; RuneError is invalid UTF-8
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '@' || r == '#':
			b.WriteRune(r)
			b.WriteString("&#8203;")
		case r < utf8.RuneSelf && strings.ContainsRune(markdownPunct, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isVisible(r rune) bool { _, ok := visible(r); return ok }
