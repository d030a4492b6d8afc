package github

import (
	"net/url"
	"strings"

	"github.com/riskgate/riskgate/internal/escape"
)

// plainText prepares s for a plain-text API field (check run name and title,
// annotation title and message, status context and description) and for a
// workflow command: escape.Plain — the one sanitizer of every plain-text
// channel — then, unless multiline, runs of spaces made one, and the text cut
// to max characters. GitHub shows these fields as text, never as markdown or
// HTML, so nothing is entity-escaped (that would show "&lt;").
func plainText(s string, max int, multiline bool) string {
	out := escape.Plain(s, multiline)
	if !multiline {
		out = strings.Join(strings.Fields(out), " ")
	}
	return escape.Clip(out, max)
}

// workflowCommand formats a workflow command line such as
// "::error file=p.yaml,line=3,title=T::message", escaped as the Actions
// runner unescapes it: in the message %, CR and LF become %25, %0D and %0A;
// property values also escape : and , (%3A, %2C). Empty properties are left out.
func workflowCommand(name string, props [][2]string, message string) string {
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(name)
	sep := " "
	for _, p := range props {
		if p[1] == "" {
			continue
		}
		b.WriteString(sep)
		b.WriteString(p[0])
		b.WriteByte('=')
		b.WriteString(escapeProperty(p[1]))
		sep = ","
	}
	b.WriteString("::")
	b.WriteString(escapeData(message))
	return b.String()
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

// markerText percent-encodes s so that it can sit inside an HTML comment
// whatever it holds: only letters, digits, '.', '_' and '~' stay as they are
// (not '-', so that "-->" cannot occur).
func markerText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte("0123456789ABCDEF"[c>>4])
		b.WriteByte("0123456789ABCDEF"[c&15])
	}
	return b.String()
}

// linkURL returns u if it is an absolute http(s) URL, re-encoded so that it
// can stand inside a markdown link's parentheses; "" otherwise.
func linkURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
		return ""
	}
	s := p.String()
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E").Replace(s)
}
