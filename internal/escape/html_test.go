package escape

import (
	"strings"
	"testing"
)

// The expected strings spell each entity out by hand: <, >, & as HTML's
// named entities, ` and | by code point, @ and # followed by a zero-width
// space (U+200B), controls dropped.
func TestHTMLText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"riskgate gate --champion 'a b'", "riskgate gate --champion 'a b'"},
		{hostile, "@&#8203;octocat &lt;img src=x&gt; &#124; &#96;rm -rf&#96;"},
		{"a & b #3\n\x7f\tz", "a &amp; b #&#8203;3z"},
		{"</pre><script>", "&lt;/pre&gt;&lt;script&gt;"},
	} {
		if got := HTMLText(c.in); got != c.want {
			t.Errorf("HTMLText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzHTMLText(f *testing.F) {
	for _, s := range []string{hostile, "a|b`c", "@x #1", "</pre>", "a\x00b\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := HTMLText(s)
		for i := 0; i < len(out); i++ {
			switch c := out[i]; {
			case c == '<' || c == '>' || c == '`' || c == '|' || c < 0x20 || c == 0x7f:
				t.Fatalf("%q: raw %q in %q", s, c, out)
			case c == '@' || c == '#':
				if !strings.HasPrefix(out[i+1:], "&#8203;") && !(c == '#' && i >= 1 && out[i-1] == '&') {
					t.Fatalf("%q: live %c in %q", s, c, out)
				}
			case c == '&':
				if !strings.Contains(out[i:min(i+8, len(out))], ";") {
					t.Fatalf("%q: bare & in %q", s, out)
				}
			}
		}
	})
}
