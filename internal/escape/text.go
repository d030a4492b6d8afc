package escape

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameRunes bounds how much of a run or topic name a report prints.
const MaxNameRunes = 60

// PlainName prepares a name for a terminal: control characters (which could
// move the cursor or change colours) become U+FFFD, and a long name is cut.
func PlainName(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if n == MaxNameRunes {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) || r == utf8.RuneError {
			r = '\uFFFD'
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// Clip cuts s to at most n runes, ending in "…" when cut.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Printable replaces control characters with U+FFFD.
func Printable(s string) string {
	var b strings.Builder
	for _, r := range s {
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
