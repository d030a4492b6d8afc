package escape

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, line, lines string }{
		{"plain", "plain", "plain"},
		{"a\u202eb", "a⟨U+202E⟩b", "a⟨U+202E⟩b"}, // right-to-left override
		{"\u2066x\u2069\u200e\u200f\u061c", "⟨U+2066⟩x⟨U+2069⟩⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩", "⟨U+2066⟩x⟨U+2069⟩⟨U+200E⟩⟨U+200F⟩⟨U+061C⟩"},
		{"zero\u200bwidth\u200c\u200d\u2060\ufeff", "zero⟨U+200B⟩width⟨U+200C⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩", "zero⟨U+200B⟩width⟨U+200C⟩⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩"},
		{"soft\u00adhyphen\U000E0041", "soft⟨U+00AD⟩hyphen⟨U+E0041⟩", "soft⟨U+00AD⟩hyphen⟨U+E0041⟩"},
		{"line\u2028para\u2029", "line⟨U+2028⟩para⟨U+2029⟩", "line⟨U+2028⟩para⟨U+2029⟩"},
		{"a\r\nb\rc\nd\te", "a b c d e", "a\nb\nc\nd e"},
		{"nul\x00esc\x1b[31mdel\x7fc1\u0085", "nul\uFFFDesc\uFFFD[31mdel\uFFFDc1\uFFFD", "nul\uFFFDesc\uFFFD[31mdel\uFFFDc1\uFFFD"},
		{"bad\xffutf8", "bad\uFFFDutf8", "bad\uFFFDutf8"},
		{"émoji 😀 ok", "émoji 😀 ok", "émoji 😀 ok"},
	} {
		if got := Plain(c.in, false); got != c.line {
			t.Errorf("Plain(%q, false) = %q, want %q", c.in, got, c.line)
		}
		if got := Plain(c.in, true); got != c.lines {
			t.Errorf("Plain(%q, true) = %q, want %q", c.in, got, c.lines)
		}
	}
	if got := PlainName(strings.Repeat("é", MaxNameRunes) + "\u202e"); got != strings.Repeat("é", MaxNameRunes)+"…" {
		t.Errorf("PlainName cuts at %d characters of the name: %q", MaxNameRunes, got)
	}
	if got := Markdown("a\u200bb\u00ad"); got != `a⟨U\+200B⟩b⟨U\+00AD⟩` {
		t.Errorf("Markdown shows every format character: %q", got)
	}
	if got := MarkdownText("a\u200bb"); got != "a⟨U+200B⟩b" {
		t.Errorf("MarkdownText shows every format character: %q", got)
	}
}

// FuzzPlain: whatever the text, Plain's is valid UTF-8 with no control
// character (but line feeds, when lines are kept), no format character and
// no line or paragraph separator; each format character or separator in the
// input is spelled ⟨U+XXXX⟩; and Plain changes nothing more the second time.
func FuzzPlain(f *testing.F) {
	for _, s := range []string{"a\u202eb", "\u2066x\u2069", "zero\u200bwidth", "a\r\nb\r", "nul\x00\x1b[31m", "bad\xff", "\U000E0041\ufeff", "line\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lines := range []bool{false, true} {
			got := Plain(s, lines)
			if !utf8.ValidString(got) {
				t.Fatalf("Plain(%q, %v) = %q: not valid UTF-8", s, lines, got)
			}
			for _, r := range got {
				if (unicode.IsControl(r) && !(lines && r == '\n')) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
					t.Fatalf("Plain(%q, %v) = %q holds %U", s, lines, got, r)
				}
			}
			// Each one is spelled once: Plain writes "⟨U+" for it and copies
			// the input's own "⟨U+" as it is (a linear count: the inputs can
			// be long).
			shown := strings.Count(s, "⟨U+")
			for _, r := range s {
				if isVisible(r) {
					shown++
				}
			}
			if n := strings.Count(got, "⟨U+"); n != shown {
				t.Fatalf("Plain(%q, %v) = %q spells %d characters ⟨U+XXXX⟩, want %d", s, lines, got, n, shown)
			}
			if again := Plain(got, lines); again != got {
				t.Fatalf("Plain is not idempotent: %q, then %q", got, again)
			}
		}
	})
}
