package policies

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// Issue 30, item 5: a key mis-indented on line 6 was reported at line 4,
// where yaml.v3's context mark (the start of the rule list) is. The error
// is at the key that breaks the block; positions counted by hand.
func TestMisindentedKeyPosition(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nname: x\nrules:\n  - id: a\n    quantity: mean_diff\n"
	long := head + strings.Repeat("    # a comment\n", 40) + "  at_least: 0\n"
	for _, c := range []struct {
		name, text string
		line, col  int
		msg        string
	}{
		{"key at the list's indentation", head + "  at_least: 0\n", 6, 3, "did not find expected '-' indicator (the block it breaks starts at line 4;"},
		{"key between the list's and the rule's indentation", head + "   at_least: 0\n", 6, 4, "did not find expected '-' indicator"},
		{"after comments", long, 46, 3, "did not find expected '-' indicator"},
		{"a key outdented in a later rule", head + "    at_least: 0\n  - id: b\n    quantity: wins\n   at_least: 3\n", 9, 4, "did not find expected '-' indicator (the block it breaks starts at line 4;"},
		{"model key at no level", "version: 1\nname: x\nmodel:\n  chains: 4\n  max_draws: 100\n seed: 3\nrules: []\n", 6, 2, "did not find expected key"},
		// Not block-context errors: positions as before.
		{"mapping value too deep", head + "      at_least: 0\n", 6, 7, "mapping values are not allowed in this context"},
		{"unclosed flow sequence", "version: 1\nname: [x\nrules: []\n", 2, 7, "did not find expected ',' or ']'"},
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

// A policy of many lines is searched in log₂(lines) parses, not one per
// line: a 3,000-line file with the mis-indented key at its end.
func BenchmarkMisindentedKeyPosition(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("version: 1\nname: x\nrules:\n")
	for i := range 1000 {
		fmt.Fprintf(&sb, "  - id: r%d\n    quantity: wins\n    at_least: 1\n", i)
	}
	sb.WriteString("  at_least: 0\n")
	data := []byte(sb.String())
	for b.Loop() {
		if _, err := Parse("p.yaml", data); err == nil {
			b.Fatal("parsed")
		}
	}
}
