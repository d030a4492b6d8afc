package policies

import (
	"errors"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// Issue 23, defect 11: a NUL byte or invalid UTF-8 in a policy gave
// "invalid YAML: …" without a position, and a tab a line but no column.
// Each case's position was counted by hand in its text (columns count
// characters, 1-based, as yaml.v3's node positions do).
func TestPolicyTextErrorsHavePositions(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nname: x\n"
	for _, c := range []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"NUL", head + "champion: a\x00b\n", 3, 12, "control character U+0000 is not allowed in YAML"},
		{"NUL in a comment", head + "# ok\n# é\x00\n", 4, 4, "control character U+0000"},
		{"escape character in quotes", head + "champion: \"\x1b[31m\"\n", 3, 12, "control character U+001B"},
		{"C1 control", head + "champion: a\u0090\n", 3, 12, "control character U+0090"},
		{"U+FFFE", head + "champion: \ufffe\n", 3, 11, `control character U+FFFE is not allowed in YAML; expected printable text (in a double-quoted string, write it as an escape such as \uFFFE)`},
		{"invalid UTF-8", head + "champion: caf\xe9\n", 3, 14, "invalid UTF-8 (byte 0xE9)"},
		{"invalid UTF-8 after multibyte", "name: \"déjà\xc3\"\n", 1, 12, "invalid UTF-8 (byte 0xC3)"},
		{"a lone continuation byte on line 1", "\x80", 1, 1, "invalid UTF-8 (byte 0x80)"},
		{"UTF-16", "\xfe\xff\x00v", 1, 1, "the policy is UTF-16"},
		{"tab indenting a key", head + "rules:\n\t- id: x\n", 4, 1, "invalid YAML: found character that cannot start any token"},
		{"tab after the indentation", head + "challengers:\n  - b\n \t- c\n", 5, 2, "invalid YAML: found a tab character that violates indentation"},
		{"unclosed flow sequence", "version: 1\nname: [x\nrules: []\n", 2, 7, "invalid YAML: did not find expected ',' or ']'"},
		{"unterminated quote on line 1", `"`, 1, 1, "invalid YAML: found unexpected end of stream"},
		{"unknown anchor", head + "champion: *who\n", 3, 11, "invalid YAML: unknown anchor 'who' referenced"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("p.yaml", []byte(c.text))
			var ie *inputerr.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error %v (%T), want an *inputerr.Error", err, err)
			}
			if ie.Line != c.line || ie.Column != c.col || !strings.Contains(ie.Msg, c.msg) {
				t.Errorf("got %q, want p.yaml:%d:%d: …%s…", err, c.line, c.col, c.msg)
			}
		})
	}
}
