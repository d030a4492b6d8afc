package escape

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

func TestMarkdownText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Chal. 1", "Chal. 1"},
		{"not-riskier", "not-riskier"},
		{"topics_at_risk.count(loss_weight=5,level=0.95)", "topics_at_risk.count(loss_weight=5,level=0.95)"},
		{"observed 0.9795; needs at most 0.05: more", "observed 0.9795; needs at most 0.05: more"},
		{hostile, "@&#8203;octocat &lt;img src=x&gt; \\| \\`rm -rf\\`"},
		{"fixes #12, cc @team/core", `fixes #&#8203;12, cc @&#8203;team/core`},
		{"a\nb\r\tc\x00d", "a b  cd"},
		{"[x](javascript:alert(1))", `\[x\](javascript\:alert(1))`},
		{"**bold** _it_ ~~s~~ $x$ :tada:", `\*\*bold\*\* \_it\_ \~\~s\~\~ \$x\$ \:tada:`},
		{"<!-- x --> &amp;", `&lt;!-- x --&gt; &amp;amp;`},
		{"- item", `\- item`},
		{"12. item", `12\. item`},
		{"=== see www.example.com", `\=== see www\.example.com`},
		{"\xff ok", "ok"},
		{"     code?", "code?"},
	} {
		if got := MarkdownText(c.in); got != c.want {
			t.Errorf("MarkdownText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// gfm renders GitHub-flavoured markdown (goldmark with its GFM extension:
// tables, strikethrough, autolinks, task lists), as a reader of a pull
// request would see it.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM))

// checkRendersAsText renders out where the reports put it (a paragraph at
// the start of a line, a list item, a table cell) and fails unless GFM
// shows exactly the text of s: no tag (emphasis, link, code, HTML), no
// block, with @ and # followed by a zero-width space.
func checkRendersAsText(t *testing.T, s, out string) {
	t.Helper()
	want := strings.TrimSpace(visibleText(s))
	for _, c := range []struct{ doc, open, close string }{
		{out + "\n", "<p>", "</p>"},
		{"- " + out + "\n", "<ul>\n<li>", "</li>\n</ul>"},
		{"| h |\n|---|\n| " + out + " |\n", "<table>\n<thead>\n<tr>\n<th>h</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>", "</td>\n</tr>\n</tbody>\n</table>"},
	} {
		if strings.TrimSpace(out) == "" {
			return
		}
		var b bytes.Buffer
		if err := gfm.Convert([]byte(c.doc), &b); err != nil {
			t.Fatal(err)
		}
		got := strings.TrimSpace(b.String())
		inner, ok := strings.CutPrefix(got, c.open)
		if ok {
			inner, ok = strings.CutSuffix(inner, c.close)
		}
		if !ok || strings.ContainsAny(inner, "<>") {
			t.Fatalf("%q as %q renders as markup: %q", s, c.doc, got)
		}
		if text := html.UnescapeString(inner); strings.TrimSpace(text) != want {
			t.Fatalf("%q as %q shows %q, want %q", s, c.doc, text, want)
		}
	}
}

// visibleText is what a reader should see of s: controls dropped, line
// breaks as spaces, invisible characters named, @ and # followed by a
// zero-width space.
func visibleText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case isVisible(r):
			v, _ := visible(r)
			b.WriteString(v)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0xfffd:
		case r == '@' || r == '#':
			b.WriteRune(r)
			b.WriteRune('\u200b')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestMarkdownTextRendersAsText(t *testing.T) {
	for _, s := range []string{"Chal. 1", hostile, "**b** _i_ ~~s~~ `c` [l](u) ![i](u) <b>x</b> &amp; \\", "- x", "+ x", "1. x", "3) x", "# h", "> q",
		"=== x", "--- x", "*** x", "___", "a_b_c", "_a_b", "www.example.com and https://example.com", "x:y", "a|b", "[ ] task", "~~~", "```", "\\*"} {
		checkRendersAsText(t, s, MarkdownText(s))
	}
}

func FuzzMarkdownText(f *testing.F) {
	for _, s := range []string{hostile, "a|b", "@x #1", "<b>", "\n# h", "1. x", "_a_", "www.x.y", "a:b:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkRendersAsText(t, s, MarkdownText(s))
	})
}
