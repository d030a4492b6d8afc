package policies

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// Positions for what yaml.v3 reports without one. Its reader refuses
// invalid UTF-8 and control characters with no position at all, and its
// scanner and parser errors give a line but no column; a policy error
// always names line:column.

// checkText returns the first byte of data that YAML cannot read — invalid
// UTF-8, or a character outside YAML's printable set (YAML 1.2 §5.1, as
// yaml.v3's reader checks it: tab, LF, CR, U+0020–U+007E, U+0085,
// U+00A0–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF) — as an error at its
// line:column (columns count characters, as yaml.v3's do), or nil. A
// UTF-16 byte order mark is named as such: yaml.v3 would decode UTF-16,
// but every name in a policy must be UTF-8.
func checkText(file string, data []byte) error {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return inputerr.AtCol(file, 1, 1, "the policy is UTF-16 (byte order mark 0x%X 0x%X); expected UTF-8 text", data[0], data[1])
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return inputerr.AtCol(file, line, col, "invalid UTF-8 (byte 0x%02X); expected UTF-8 text", data[i])
		case !yamlPrintable(r):
			escape := fmt.Sprintf("\\x%02X", r)
			if r > 0xff {
				escape = fmt.Sprintf("\\u%04X", r)
			}
			return inputerr.AtCol(file, line, col, "control character %U is not allowed in YAML; expected printable text (in a double-quoted string, write it as an escape such as %s)", r, escape)
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
		i += size
	}
	return nil
}

// yamlPrintable reports whether YAML allows r in a stream (c-printable).
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}

// yamlPosition is the position of a yaml.v3 error reported at line
// (1-based) without a column: where the construct it names starts — for an
// error about a tab, or a character that cannot start a token, the first
// tab at or after line (yaml.v3 names the line of the scalar before a tab
// that breaks the indentation; YAML indents with spaces only); for an
// unclosed flow sequence or mapping, its '[' or '{' on line; else line's
// first non-blank character (where yaml.v3's context mark, the start of a
// block, is). A line past the end of data is column 1.
func yamlPosition(data []byte, line int, msg string) (int, int) {
	lines := bytes.Split(data, []byte("\n"))
	if line < 1 || line > len(lines) {
		return line, 1
	}
	text := lines[line-1]
	at := -1
	switch {
	case strings.Contains(msg, "tab") || strings.Contains(msg, "cannot start any token"):
		for l := line; l <= len(lines); l++ {
			if i := bytes.IndexByte(lines[l-1], '\t'); i >= 0 {
				return l, 1 + utf8.RuneCount(lines[l-1][:i])
			}
		}
	case strings.Contains(msg, "']'"):
		at = bytes.IndexByte(text, '[')
	case strings.Contains(msg, "'}'"):
		at = bytes.IndexByte(text, '{')
	}
	if at < 0 {
		at = len(text) - len(bytes.TrimLeft(text, " \t\r"))
	}
	return line, 1 + utf8.RuneCount(text[:at])
}

var unknownAnchor = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

// unnumberedPosition is the position of a yaml.v3 error without a line:
// an unknown anchor's first alias (*name); else a problem on the first
// line, which yaml.v3 numbers 0 and then leaves out (decode.go: parser.fail
// prints a line only when a mark's is not 0).
func unnumberedPosition(data []byte, msg string) (int, int) {
	if m := unknownAnchor.FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(data, []byte("*"+m[1])); i >= 0 {
			line := 1 + bytes.Count(data[:i], []byte("\n"))
			return line, 1 + utf8.RuneCount(data[bytes.LastIndexByte(data[:i], '\n')+1:i])
		}
	}
	return yamlPosition(data, 1, msg)
}
