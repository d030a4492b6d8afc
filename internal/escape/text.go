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

// PlainName prepares a name for a terminal: control characters (which could
// move the cursor or change colours) become U+FFFD, characters that reorder
// or break text invisibly are shown (Visible), and a long name is cut.
func PlainName(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == MaxNameRunes {
			b.WriteString("…")
			break
		}
		if v, ok := visible(r); ok {
			b.WriteString(v)
		} else if unicode.IsControl(r) || r == utf8.RuneError {
			b.WriteRune('\uFFFD')
		} else {
			b.WriteRune(r)
		}
		n++
	}
	return b.String()
}

// visible spells a character that changes text without being seen — the
// bidirectional controls (which can make a name read backwards: U+202E),
// the line and paragraph separators (U+2028, U+2029: a line break to some
// readers), the byte-order mark — as ⟨U+XXXX⟩, so that a reader sees it.
func visible(r rune) (string, bool) {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069,
		r == 0x2028, r == 0x2029, r == 0xfeff:
		return fmt.Sprintf("⟨U+%04X⟩", r), true
	}
	return "", false
}

// Clip cuts s to at most n runes, ending in "…" when cut.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Printable replaces control characters with U+FFFD and shows the
// characters that change text without being seen (as PlainName does).
func Printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		if v, ok := visible(r); ok {
			b.WriteString(v)
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			r = '\uFFFD'
		}
		b.WriteRune(r)
	}
	return b.String()
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=,+@%-]+$`)

// Shell quotes s for a POSIX shell, only when it needs it.
func Shell(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
