package mdcheck

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Fold is what a GFM renderer (goldmark with its GitHub extensions:
// tables, strikethrough, autolinks, task lists) shows of a report before
// its first <details> block — what a reviewer sees of a pull-request
// comment without expanding anything — and after.
type Fold struct {
	// AboveColumns are the column counts of the tables above the fold,
	// BelowColumns of those after it.
	AboveColumns, BelowColumns []int
	// Above is the rendered HTML above the fold.
	Above string
}

// ParseFold renders md as GitHub does and splits it at the first top-level
// <details> block.
func ParseFold(t testing.TB, md string) Fold {
	t.Helper()
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM))
	src := []byte(md)
	doc := gm.Parser().Parse(text.NewReader(src))
	var f Fold
	below := false
	var above bytes.Buffer
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if hb, ok := n.(*ast.HTMLBlock); ok && !below {
			var raw strings.Builder
			for i := 0; i < hb.Lines().Len(); i++ {
				seg := hb.Lines().At(i)
				raw.Write(seg.Value(src))
			}
			if strings.HasPrefix(strings.TrimSpace(raw.String()), "<details>") {
				below = true
			}
		}
		ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
			if tb, ok := c.(*east.Table); entering && ok {
				cols := 0
				if h := tb.FirstChild(); h != nil {
					cols = h.ChildCount()
				}
				if below {
					f.BelowColumns = append(f.BelowColumns, cols)
				} else {
					f.AboveColumns = append(f.AboveColumns, cols)
				}
				return ast.WalkSkipChildren, nil
			}
			return ast.WalkContinue, nil
		})
		if !below {
			if err := gm.Renderer().Render(&above, src, n); err != nil {
				t.Fatal(err)
			}
		}
	}
	f.Above = above.String()
	return f
}

// CheckFold fails t when a table above the fold of md has more than
// maxColumns columns, or when nothing is above the fold.
func CheckFold(t testing.TB, md string, maxColumns int) Fold {
	t.Helper()
	f := ParseFold(t, md)
	if strings.TrimSpace(f.Above) == "" {
		t.Errorf("nothing above the fold")
	}
	for i, n := range f.AboveColumns {
		if n > maxColumns {
			t.Errorf("table %d above the fold has %d columns, more than %d", i+1, n, maxColumns)
		}
	}
	return f
}
