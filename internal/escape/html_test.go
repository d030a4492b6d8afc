package escape

import "testing"

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
