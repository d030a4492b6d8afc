package escape

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameRunes bounds how much of a run or topic name a report prints.
const MaxNameRunes = 60

// Plain prepares text from the inputs for a plain-text channel — a
// terminal, a check run's name, title and annotations, a commit status,
// junit.xml, a workflow command's message — so that what a reader sees is
// what the text holds: every format character (Unicode category Cf: the
// bidirectional controls that can make a name read backwards, U+202E; zero
// width spaces and joiners; the soft hyphen; the byte-order mark) and the line
// and paragraph separators are shown as ⟨U+XXXX⟩, as the markdown escapers
// show them; a tab is a space; a line break (LF, CR or CR LF) is "\n" when
// lines is set and a space otherwise; any other control character, and
// invalid UTF-8, is U+FFFD. A channel's own length limit and whitespace rules
// apply after it.
func Plain(s string, lines bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range s {
		switch {
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CR LF is one line break: the LF writes it
		case r == '\n' || r == '\r':
			if lines {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case r == '\t':
			b.WriteByte(' ')
		case isVisible(r):
			v, _ := visible(r)
			b.WriteString(v)
		case unicode.IsControl(r) || r == utf8.RuneError:
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// PlainName prepares a name for a terminal: Plain on one line, cut to
// MaxNameRunes characters of the name (then "…").
func PlainName(s string) string {
	if utf8.RuneCountInString(s) > MaxNameRunes {
		s = string([]rune(s)[:MaxNameRunes]) + "…"
	}
	return Plain(s, false)
}

// visible spells a character that changes text without being seen — every
// format character (Unicode category Cf), among them the bidirectional
// controls (which can make a name read backwards: U+202E) and the zero-width
// characters, and the line and paragraph separators (U+2028, U+2029: a line
// break to some readers) — as ⟨U+XXXX⟩, so that a reader sees it.
func visible(r rune) (string, bool) {
	if r >= 0xad && (r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r)) {
		return fmt.Sprintf("⟨U+%04X⟩", r), true
	}
	return "", false
}

// Clip cuts s to at most n runes, ending in "…" when cut; n ≤ 0 sets no
// limit.
func Clip(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Printable prepares a sentence for a terminal or a page: Plain on one line.
func Printable(s string) string { return Plain(s, false) }

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=,+@%-]+$`)

// Shell quotes s for a POSIX shell, only when it needs it.
func Shell(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
