// Package htmlpage is what riskgate's HTML pages share: one self-contained
// head (a Content-Security-Policy forbids scripts and loads), one style sheet
// whose legend colours repeat the plots', figures, tables, and the
// preparation of names and sentences for html/template, which escapes them.
package htmlpage

import (
	"fmt"
	"html/template"
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

// CSS is the page's style sheet; the legend colours repeat the plots'.
var CSS = template.CSS(`
:root{--fg:#1b1f24;--muted:#59636e;--line:#d1d9e0;--bg2:#f6f8fa}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);margin:0;background:#fff}
main,header.banner>div,nav>div,footer{max-width:1100px;margin:0 auto;padding:0 20px}
header.banner{padding:18px 0 14px;border-bottom:4px solid var(--line);background:var(--bg2)}
header.banner h1{margin:0 0 6px;font-size:26px}
header.banner p{margin:4px 0}
.v-pass{--v:#1a7f37}.v-warn{--v:#9a6700}.v-fail{--v:#cf222e}.v-inconclusive{--v:#8250df}.v-waived{--v:#0969da}.v-other{--v:#59636e}
header.banner.v-pass,header.banner.v-warn,header.banner.v-fail,header.banner.v-inconclusive,header.banner.v-other{border-bottom-color:var(--v)}
.verdict{color:var(--v);text-transform:uppercase;letter-spacing:.04em}
.badge{display:inline-block;padding:0 7px;border-radius:10px;color:#fff;background:var(--v);font-size:12px;font-weight:600;white-space:nowrap}
nav{border-bottom:1px solid var(--line);padding:6px 0;font-size:13px}
nav a{margin-right:14px}
a{color:#0969da;text-decoration:none}
h2{margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line);font-size:20px}
h3{margin:20px 0 8px;font-size:16px}
table{border-collapse:collapse;margin:8px 0 12px;font-size:13px}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--bg2)}
table.data td:first-child{white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.champion td{background:#eef5fb}
tr.bad td{background:#fff1f0}
.scroll{overflow-x:auto;max-width:100%}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12px}
pre{background:var(--bg2);padding:8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
figure{margin:12px 0 20px}
figure svg.plot{display:block;max-width:100%;height:auto}
figure.wide svg.plot{max-width:none}
figcaption{color:var(--muted);font-size:13px;max-width:900px}
.legend{margin:4px 0;font-size:13px}
.legend span{margin-right:14px;white-space:nowrap}
.legend span::before{content:"";display:inline-block;width:18px;height:4px;margin-right:5px;vertical-align:middle;background:var(--k)}
.k-champion{--k:` + svgplot.CSSColor(svgplot.Champion) + `}.k-challenger{--k:` + svgplot.CSSColor(svgplot.Challenger) + `}.k-artifact{--k:` + svgplot.CSSColor(svgplot.Artifact) + `}.k-aggregate{--k:` + svgplot.CSSColor(svgplot.Aggregate) + `}.k-at-risk{--k:` + svgplot.CSSColor(svgplot.AtRisk) + `}
` + fitKeys() + `
.missing{color:var(--muted);font-style:italic}
.note{color:var(--muted);font-size:13px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(480px,1fr));gap:0 24px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
footer{color:var(--muted);font-size:12px;margin-top:32px;padding-bottom:24px}
`)

func fitKeys() string {
	var b strings.Builder
	for k, c := range svgplot.FitColors {
		fmt.Fprintf(&b, ".k-fit%d{--k:%s}", k, svgplot.CSSColor(c))
	}
	return b.String()
}

// Head opens every riskgate HTML page: self-contained, no script, no
// external reference (the Content-Security-Policy forbids them); the page's
// title and style sheet follow.
const Head = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{{.Tool}}">
`
