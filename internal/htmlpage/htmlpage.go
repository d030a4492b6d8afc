// Package htmlpage is what riskgate's HTML pages share: one self-contained
// head (a Content-Security-Policy forbids scripts and loads), one style sheet
// whose legend colours repeat the plots', figures, tables, and the
// preparation of names and sentences for html/template, which escapes them.
package htmlpage

import (
	_ "embed"
	"fmt"
	"html/template"
	"image/color"
	"strings"

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/svgplot"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Pair is a labelled value.
type Pair struct{ Key, Value string }

// Key is one entry of a figure's legend: a CSS class giving its colour.
type Key struct{ Class, Label string }

// Figure is one plot, or in its place the sentence saying why there is none.
type Figure struct {
	ID      string
	Title   string
	SVG     template.HTML // empty when Missing
	Missing string
	Legend  []Key
	Caption string
	Notes   []string
	Wide    bool // wider than the page: the figure scrolls
}

// Render draws p into the figure, or says why it could not.
func (fig *Figure) Render(p *plot.Plot, w, h vg.Length, label string) {
	svg, err := svgplot.Render(p, w, h, label)
	if err != nil {
		fig.Missing = err.Error()
		return
	}
	fig.SVG = svg
}

// Table is a table of text cells; Classes[i] is the class of row i and
// Align[j] says how column j is aligned: 'l' text, 'r' numbers.
type Table struct {
	Align   string
	Head    []string
	Rows    [][]string
	Classes []string
	Left    int // rows left out
}

// Name prepares a run, topic or rule name for the page (html/template
// escapes it): control characters become U+FFFD and it is cut to 60 runes.
func Name(s string) string { return escape.PlainName(s) }

// Sentence prepares a sentence: control characters become U+FFFD and
// it is cut to n runes.
func Sentence(s string, n int) string { return escape.Clip(escape.Printable(s), n) }

// CSS is the pages' style sheet, page.css with the legend colours of the
// plots (svgplot's palette) where it says {{legend}}.
var CSS = template.CSS(strings.Replace(pageCSS, "{{legend}}\n", legendCSS(), 1))

//go:embed page.css
var pageCSS string

// legendCSS gives each legend class the colour of what it marks in the plots.
func legendCSS() string {
	var b strings.Builder
	for _, k := range []struct {
		class string
		c     color.RGBA
	}{{"champion", svgplot.Champion}, {"challenger", svgplot.Challenger}, {"artifact", svgplot.Artifact}, {"aggregate", svgplot.Aggregate}, {"at-risk", svgplot.AtRisk}} {
		fmt.Fprintf(&b, ".k-%s{--k:%s}", k.class, svgplot.CSSColor(k.c))
	}
	b.WriteString("\n")
	for k, c := range svgplot.FitColors {
		fmt.Fprintf(&b, ".k-fit%d{--k:%s}", k, svgplot.CSSColor(c))
	}
	b.WriteString("\n")
	return b.String()
}

// Template parses the page body after the head every page shares (head.html:
// self-contained, no script, no external reference — the Content-Security-
// Policy forbids them), with the functions css (the style sheet) and numeric
// (whether column j of a table's Align is numeric).
func Template(name, body string) *template.Template {
	return template.Must(template.New(name).Funcs(template.FuncMap{
		"css":     func() template.CSS { return CSS },
		"numeric": func(align string, j int) bool { return j < len(align) && align[j] == 'r' },
	}).Parse(head + body))
}

//go:embed head.html
var head string
