package discriminate

import (
	_ "embed"
	"fmt"
	"io"
	"slices"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/riskgate/riskgate/internal/htmlpage"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/svgplot"
)

// The HTML page of riskgate discriminate: one self-contained page (the
// shared style sheet and Content-Security-Policy, no script, no external
// reference) with the ASL curves, the table of measures and the two
// correlation matrices.

type discriminatePage struct {
	Tool     string
	Subtitle string
	Intro    string
	ASL      htmlpage.Figure
	Summary  htmlpage.Table
	Tau      htmlpage.Table
	TauAP    htmlpage.Table
	Warnings []string
}

//go:embed discriminate.html.tmpl
var pageBody string

var pageTemplate = htmlpage.Template("discriminate", pageBody)

// WriteHTML writes the HTML page.
func WriteHTML(w io.Writer, rep *Report) error {
	page := discriminatePage{Tool: "riskgate discriminate", Subtitle: htmlpage.Sentence(rep.subtitle(), 1000),
		Intro: htmlpage.Sentence(rep.explanation(), 2000), ASL: aslCurves(rep)}
	table := func(rows [][]string, align string) htmlpage.Table {
		for len(align) < len(rows[0]) {
			align += "r"
		}
		for _, row := range rows {
			for j := range row {
				row[j] = htmlpage.Name(row[j])
			}
		}
		return htmlpage.Table{Align: align, Head: rows[0], Rows: rows[1:]}
	}
	page.Summary = table(rep.summaryRows(), "rlrrrrrrr")
	page.Tau = table(rep.matrixRows("τ", rep.KendallTau), "l")
	page.TauAP = table(rep.matrixRows("τ_AP", rep.TauAP), "l")
	for _, s := range rep.Warnings {
		page.Warnings = append(page.Warnings, htmlpage.Sentence(s, 1000))
	}
	return pageTemplate.Execute(w, page)
}

// aslCurves plots each measure's ASLs, sorted, against the pair's rank: the
// lower and the further right a curve stays under α, the more pairs the
// measure separates (Sakai, SIGIR 2006).
func aslCurves(rep *Report) htmlpage.Figure {
	fig := htmlpage.Figure{ID: "fig-asl", Title: "ASL curves"}
	if len(rep.Measures) == 0 || rep.Pairs == 0 {
		fig.Missing = "No pair was compared."
		return fig
	}
	p := svgplot.New()
	for k, m := range rep.Measures {
		asl := make([]float64, len(m.Pairs))
		xs := make([]float64, len(m.Pairs))
		for i, pr := range m.Pairs {
			asl[i] = float64(pr.ASL)
			xs[i] = float64(i + 1)
		}
		slices.Sort(asl)
		col := svgplot.FitColor(k + 1)
		p.Add(&svgplot.Curve{X: xs, Y: asl, Style: draw.LineStyle{Color: col, Width: vg.Points(1.5)}})
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: fmt.Sprintf("k-fit%d", (k+1)%len(svgplot.FitColors)), Label: svgplot.Label(m.Name, 40)})
	}
	p.X.Min, p.X.Max = 0, float64(rep.Pairs)+1
	p.Y.Min, p.Y.Max = 0, 1
	p.X.Label.Text = "system pairs, sorted by ASL"
	p.Y.Label.Text = "achieved significance level (ASL)"
	p.Add(&svgplot.RefLine{At: float64(rep.Alpha), Style: svgplot.Dashed(svgplot.AtRisk)})
	fig.Render(p, svgplot.Width, 420, "ASL of every system pair, sorted, one curve per measure, with the significance level")
	fig.Caption = fmt.Sprintf("Each curve is one measure: the %s system pairs sorted by their achieved significance level (%s). "+
		"Pairs left of where a curve crosses the red line at α = %s are significantly different; the further right it crosses, the more discriminative the measure.",
		numfmt.Thousands(rep.Pairs), rep.TestDoc, numfmt.G(float64(rep.Alpha)))
	return fig
}
