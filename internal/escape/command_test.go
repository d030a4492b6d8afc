package escape

import (
	"bytes"
	"strings"
	"testing"
)

// The payloads of the injection report (issue 17): names at the start of a
// line of a table, with leading whitespace, Unicode spaces or a carriage
// return, written whole or a byte at a time.
func TestCommandGuardBreaksCommands(t *testing.T) {
	for _, in := range []string{
		"::stop-commands::pwnd\n",
		"::add-mask::secret\nnext\n",
		"  ::warning::x\n",
		"\t::error title=T::m\n",
		"\u00a0\u2003::error::nbsp\n",
		"\r::error::cr\n",
		"progress 10%\r::error::after cr\r\n::x\n",
		"ok line\n::error::second line\n",
		"a\n\n  \n::x",
	} {
		for _, chunk := range []int{1, 2, 3, 1000} {
			var b bytes.Buffer
			g := NewCommandGuard(&b)
			for i := 0; i < len(in); i += chunk {
				if _, err := g.Write([]byte(in[i:min(len(in), i+chunk)])); err != nil {
					t.Fatal(err)
				}
			}
			g.Flush()
			out := b.String()
			for _, line := range Lines(out) {
				if IsWorkflowCommand(line) {
					t.Errorf("%q in chunks of %d: line %q is a workflow command", in, chunk, line)
				}
			}
			if strings.ReplaceAll(out, breaker, "") != in {
				t.Errorf("%q in chunks of %d: %q is not the text with breakers", in, chunk, out)
			}
		}
	}
	var b bytes.Buffer
	g := NewCommandGuard(&b)
	g.Write([]byte("table row"))
	g.WriteCommand("::error file=p.yaml::riskgate's own")
	g.Write([]byte("::not ours\n"))
	if want := "table row\n::error file=p.yaml::riskgate's own\n:" + breaker + ":not ours\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// Whatever is written, no line of the output is a workflow command, and the
// output is the input with zero-width spaces added (nothing lost or moved).
func FuzzCommandGuard(f *testing.F) {
	for _, s := range []string{"::stop-commands::x\n", " \u2028::x", "a\n::b", "a\r::b", "\r\n::c", ":\n:", "\xff::x"} {
		f.Add(s, 3)
	}
	f.Fuzz(func(t *testing.T, in string, chunk int) {
		if chunk < 1 {
			chunk = 1
		}
		var b bytes.Buffer
		g := NewCommandGuard(&b)
		for i := 0; i < len(in); i += chunk {
			g.Write([]byte(in[i:min(len(in), i+chunk)]))
		}
		g.Flush()
		out := b.String()
		for _, line := range Lines(out) {
			if IsWorkflowCommand(line) {
				t.Fatalf("%q: line %q is a workflow command", in, line)
			}
		}
		if strings.ReplaceAll(out, breaker, "") != strings.ReplaceAll(in, breaker, "") {
			t.Fatalf("%q became %q", in, out)
		}
	})
}
