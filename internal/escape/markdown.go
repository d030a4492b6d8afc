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
		if e, ok := entity(r); ok {
			b.WriteString(e)
			continue
		}
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case isVisible(r):
			// ⟨U+202E⟩, its '+' escaped as every ASCII punctuation is.
			v, _ := visible(r)
			b.WriteString(strings.ReplaceAll(v, "+", `\+`))
		case unicode.IsControl(r) || r == utf8.RuneError:
			// dropped: controls render as nothing useful; RuneError is invalid UTF-8
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

// MarkdownText is Markdown with a backslash only where markdown would
// otherwise interpret a character, so that the source stays readable
// ("Chal. 1", "not-riskier", "p_riskier"), for the same places and with the
// same guarantees: no block, table cell, link, emphasis, code span, math,
// emoji, HTML tag, mention or reference can start in the result. Escaped:
//   - always \ ` * [ ] | ~ $ (CommonMark §6 and GitHub's tables,
//     strikethrough and math);
//   - _ unless between two letters or digits (an intraword _ can neither
//     open nor close emphasis, §6.2);
//   - : unless followed by a space or the end (an :emoji: shortcode, a URL
//     scheme);
//   - a leading - + = and the . or ) after leading digits (list items,
//     setext underlines: they start a block only at the start of a line);
//   - the . of www. (GitHub's extended autolinks).
//
// <, > and & become entities, and @ and # are followed by a zero-width
// space, as in Markdown. Leading spaces are dropped (a reader sees none).
func MarkdownText(s string) string {
	// Line breaks become spaces and controls go first, so that the
	// neighbours the rules look at are those a reader sees.
	rs := make([]rune, 0, len(s))
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			rs = append(rs, ' ')
		case !isVisible(r) && (unicode.IsControl(r) || r == utf8.RuneError):
		default:
			rs = append(rs, r)
		}
	}
	// Leading spaces show as nothing, and four of them would start code.
	for len(rs) > 0 && rs[0] == ' ' {
		rs = rs[1:]
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	alnum := func(i int) bool { return i >= 0 && i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i])) }
	digits := 0 // leading ASCII digits
	for digits < len(rs) && rs[digits] >= '0' && rs[digits] <= '9' {
		digits++
	}
	for i, r := range rs {
		if e, ok := entity(r); ok {
			b.WriteString(e)
			continue
		}
		switch {
		case isVisible(r):
			v, _ := visible(r)
			b.WriteString(v)
		case strings.ContainsRune("\\`*[]|~$", r),
			r == '_' && !(alnum(i-1) && alnum(i+1)),
			r == ':' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]),
			i == 0 && strings.ContainsRune("-+=", r),
			i == digits && digits > 0 && (r == '.' || r == ')'),
			r == '.' && i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www"): // GFM's www. autolink
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// entity is what both markdown escapers write for a character markdown
// would read as HTML (<, >, &) or as a mention or reference (@, # — a
// zero-width space after it breaks the link).
func entity(r rune) (string, bool) {
	switch r {
	case '<':
		return "&lt;", true
	case '>':
		return "&gt;", true
	case '&':
		return "&amp;", true
	case '@':
		return "@&#8203;", true
	case '#':
		return "#&#8203;", true
	}
	return "", false
}
