package escape

import "strings"

// HTMLText escapes s as text inside an HTML block of a markdown document,
// such as <pre> or <summary>: what markdown would read as HTML or as a
// mention or reference becomes what Markdown writes for it (entity), and so
// do ` and | (&#96;, &#124;), which mean nothing in the block but would if it
// were ever read as markdown. Control characters are dropped.
func HTMLText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if e, ok := entity(r); ok {
			b.WriteString(e)
			continue
		}
		switch {
		case r == '`':
			b.WriteString("&#96;")
		case r == '|':
			b.WriteString("&#124;")
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
