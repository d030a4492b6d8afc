package escape

import (
	"strings"
	"testing"
)

// hostile is a name that tries every injection a pull-request comment allows.
const hostile = "@octocat <img src=x> | `rm -rf`"

func TestMarkdown(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Chal. 1", `Chal\. 1`},
		{hostile, "@&#8203;octocat &lt;img src\\=x&gt; \\| \\`rm \\-rf\\`"},
		{"fixes #12, cc @team/core", `fixes #&#8203;12, cc @&#8203;team/core`},
		{"a\nb\r\tc\x00d", "a b  cd"},
		{"[x](javascript:alert(1))", `\[x\]\(javascript\:alert\(1\)\)`},
		{"**bold** _it_ ~~s~~ $x$ :tada:", `\*\*bold\*\* \_it\_ \~\~s\~\~ \$x\$ \:tada\:`},
		{"<!-- x --> &amp;", `&lt;\!\-\- x \-\-&gt; &amp;amp;`},
		{"BM25+RM3 (ndcg@10)", `BM25\+RM3 \(ndcg@&#8203;10\)`},
		{"\xff ok", " ok"},
		// A bidirectional control, shown visibly, its '+' escaped (a crasher
		// of FuzzMarkdown, testdata/fuzz/FuzzMarkdown/64cf968cad986dec).
		{"a\u202eb\u061c", `a⟨U\+202E⟩b⟨U\+061C⟩`},
	} {
		if got := Markdown(c.in); got != c.want {
			t.Errorf("Markdown(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{hostile, "a|b", "@x #1", "<b>", "\n# h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Markdown(s)
		for i := 0; i < len(out); i++ {
			c := out[i]
			switch {
			case c == '\n' || c == '\r' || c == '<' || c == '>':
				t.Fatalf("%q: raw %q in %q", s, c, out)
			case c == '@' || c == '#':
				if !strings.HasPrefix(out[i+1:], "&#8203;") && !(c == '#' && i >= 1 && out[i-1] == '&') {
					t.Fatalf("%q: live %c in %q", s, c, out)
				}
			case strings.IndexByte(markdownPunct, c) >= 0 && c != '\\':
				if i == 0 || out[i-1] != '\\' {
					t.Fatalf("%q: unescaped %q at %d in %q", s, c, i, out)
				}
			}
		}
	})
}
