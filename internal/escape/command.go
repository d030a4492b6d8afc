package escape

import (
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// breaker goes between the two colons of a line that would start a GitHub
// Actions workflow command: a zero-width space, invisible to a reader and
// fatal to the command.
const breaker = "\u200b"

// CommandGuard passes text to a stream (riskgate's standard output or
// error) so that no line of it can be read as a GitHub Actions workflow
// command. The runner reads a line whose first characters other than
// whitespace (Unicode's, as .NET's TrimStart removes it) are "::" as a
// command — "::stop-commands::", "::add-mask::", "::error::" — whichever
// program wrote it, and it ends a line at a carriage return as at a line
// feed (.NET's ReadLine); a run or topic name from the inputs can put one at the
// start of a line of a table, a chart or an error. On such a line the guard
// puts a zero-width space between the two colons. Only WriteCommand writes
// a command: riskgate's own annotations (gate/github).
//
// A line's leading whitespace is held back until the guard knows how the
// line starts; Flush writes what is held.
type CommandGuard struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte // the current line so far, while it is whitespace (and perhaps one ':')
	midLine bool   // the current line's start is decided
}

// NewCommandGuard guards w.
func NewCommandGuard(w io.Writer) *CommandGuard { return &CommandGuard{w: w} }

// Unwrap returns the guarded stream (to ask whether it is a terminal).
func (g *CommandGuard) Unwrap() io.Writer { return g.w }

// Write writes p with every line that would start a workflow command broken.
func (g *CommandGuard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		if g.midLine {
			i := indexLineEnd(p)
			if i < 0 {
				if _, err := g.w.Write(p); err != nil {
					return 0, err
				}
				return n, nil
			}
			if _, err := g.w.Write(p[:i+1]); err != nil {
				return 0, err
			}
			p = p[i+1:]
			g.midLine = false
			continue
		}
		// At a line's start: hold bytes until the line's first
		// non-whitespace runes decide whether it starts with "::".
		i := indexLineEnd(p)
		take := len(p)
		if i >= 0 {
			take = i + 1
		}
		g.pending = append(g.pending, p[:take]...)
		p = p[take:]
		if err := g.decide(i >= 0); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// decide writes the held start of a line once it is decided: it starts with
// "::" (written broken), it starts with anything else, or it ended (eol).
func (g *CommandGuard) decide(eol bool) error {
	rest := g.pending
	for len(rest) > 0 {
		r, size := utf8.DecodeRune(rest)
		if r == utf8.RuneError && !utf8.FullRune(rest) && !eol {
			return nil // an incomplete rune: wait for the rest of it
		}
		if !unicode.IsSpace(r) || r == '\n' || r == '\r' {
			break
		}
		rest = rest[size:]
	}
	lead := len(g.pending) - len(rest)
	switch {
	case len(rest) >= 2 && rest[0] == ':' && rest[1] == ':':
		out := string(g.pending[:lead+1]) + breaker + string(g.pending[lead+1:])
		g.pending = g.pending[:0]
		g.midLine = !eol
		_, err := io.WriteString(g.w, out)
		return err
	case !eol && (len(rest) == 0 || (len(rest) == 1 && rest[0] == ':')):
		return nil // undecided: whitespace so far, or a single ':'
	}
	_, err := g.w.Write(g.pending)
	g.midLine = !eol
	g.pending = g.pending[:0]
	return err
}

// WriteCommand writes one workflow command line as it is (a newline is
// added). It is how riskgate issues its own annotations; line must be a
// single line (workflow commands escape their line breaks).
func (g *CommandGuard) WriteCommand(line string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.flushLocked(); err != nil {
		return err
	}
	if g.midLine {
		if _, err := io.WriteString(g.w, "\n"); err != nil {
			return err
		}
		g.midLine = false
	}
	_, err := io.WriteString(g.w, strings.ReplaceAll(line, "\n", " ")+"\n")
	return err
}

// Flush writes a held line start (whitespace, or a single ':').
func (g *CommandGuard) Flush() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.flushLocked()
}

func (g *CommandGuard) flushLocked() error {
	if len(g.pending) == 0 {
		return nil
	}
	_, err := g.w.Write(g.pending)
	g.midLine = true
	g.pending = g.pending[:0]
	return err
}

// indexLineEnd returns the index of the first line feed or carriage return
// in p, or -1.
func indexLineEnd(p []byte) int {
	for i, b := range p {
		if b == '\n' || b == '\r' {
			return i
		}
	}
	return -1
}

// Lines splits text into lines as the runner does: at "\n", "\r" and "\r\n".
func Lines(text string) []string {
	return strings.FieldsFunc(strings.ReplaceAll(text, "\r\n", "\n"), func(r rune) bool { return r == '\n' || r == '\r' })
}

// IsWorkflowCommand reports whether the runner would read line as a
// workflow command: its first non-whitespace characters are "::".
func IsWorkflowCommand(line string) bool {
	return strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::")
}
