package calibrate

import (
	_ "embed"
	"fmt"
	"io"
	"math"

	"github.com/riskgate/riskgate/internal/htmlpage"
	"github.com/riskgate/riskgate/internal/svgplot"

	"github.com/riskgate/riskgate/internal/numfmt"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The HTML report of riskgate calibrate: one self-contained page (the gate
// report's style sheet and Content-Security-Policy, no script, no external
// reference) with the operating-characteristic curve — the ship rate
// against the challenger's true effect — drawn with the gate report's plot
// helpers (plot.go), the table of rates and the estimated model.

type calibratePage struct {
	Tool      string
	Policy    string
	Subtitle  []string
	Headlines []string
	OC        htmlpage.Figure
	Rates     htmlpage.Table
	Model     []htmlpage.Pair
	Warnings  []string
}

func WriteHTML(w io.Writer, r *Report) error {
	page := calibratePage{Tool: "riskgate " + r.Tool, Policy: htmlpage.Name(r.Policy.Name), Headlines: r.headlines(), OC: operatingCharacteristic(r)}
	for _, s := range r.subtitle() {
		page.Subtitle = append(page.Subtitle, htmlpage.Sentence(s, 1000))
	}
	rows := r.rows()
	page.Rates = htmlpage.Table{Align: "rrrrrrrrl", Head: rows[0], Rows: rows[1:]}
	m := r.Model
	page.Model = []htmlpage.Pair{
		{Key: "intercept β0", Value: numfmt.G4(float64(m.Intercept))}, {Key: "σ (residual)", Value: numfmt.G4(float64(m.Sigma))},
		{Key: "sd_topic", Value: numfmt.G4(float64(m.SDTopic))}, {Key: "sd_system", Value: numfmt.G4(float64(m.SDSystem))},
		{Key: "challenger − champion: SD", Value: numfmt.G4(float64(m.DiffSD))}, {Key: "challenger − champion: skewness", Value: numfmt.G4(float64(m.DiffSkew))},
		{Key: "policy file", Value: htmlpage.Name(r.Policy.File)}, {Key: "policy SHA-256", Value: r.Policy.SHA256},
	}
	for _, s := range r.Warnings {
		page.Warnings = append(page.Warnings, htmlpage.Sentence(s, 1000))
	}
	return calibrateTemplate.Execute(w, page)
}

// operatingCharacteristic plots each effect's ship rate with its Wilson 95%
// interval, the pass rate alone when warnings made a difference, and
// reference lines at effect 0, at the smallest effect that matters, and at
// the rates 0.05 and 0.8 that false-ship rates and power are usually held to.
func operatingCharacteristic(r *Report) htmlpage.Figure {
	fig := htmlpage.Figure{ID: "fig-oc", Title: "Operating characteristic"}
	if len(r.Effects) == 0 {
		fig.Missing = "No effect was simulated."
		return fig
	}
	var xs, ship, pass []float64
	iv := &svgplot.Intervals{Vertical: true, Width: vg.Points(1.2), Radius: vg.Points(3)}
	xr := svgplot.NewRange()
	warned := false
	for _, e := range r.Effects {
		x := float64(e.Effect)
		xs, ship, pass = append(xs, x), append(ship, float64(e.ShipRate)), append(pass, float64(e.PassRate))
		iv.Items = append(iv.Items, svgplot.IntervalItem{At: x, Lo: float64(e.ShipCI95[0]), Hi: float64(e.ShipCI95[1]),
			Lo50: math.NaN(), Hi50: math.NaN(), Mid: float64(e.ShipRate), Color: svgplot.Challenger})
		xr.Add(x)
		warned = warned || e.WarnRate > 0
	}
	xr.Add(0, float64(r.MinEffect))
	p := svgplot.New()
	p.X.Min, p.X.Max = xr.Padded(0.06)
	p.Y.Min, p.Y.Max = -0.02, 1.02
	p.X.Label.Text = "true effect of the challenger (its expected score minus the champion's)"
	p.Y.Label.Text = "share of pools in which the gate ships it"
	grey := svgplot.Dashed(svgplot.Reference)
	p.Add(&svgplot.RefLine{At: 0, Vertical: true, Style: grey}, &svgplot.RefLine{At: float64(r.MinEffect), Vertical: true, Style: svgplot.Dashed(svgplot.Champion)},
		&svgplot.RefLine{At: 0.05, Style: svgplot.Dashed(svgplot.AtRisk)}, &svgplot.RefLine{At: 0.8, Style: svgplot.Dashed(svgplot.Artifact)})
	if warned {
		p.Add(&svgplot.Curve{X: xs, Y: pass, Style: draw.LineStyle{Color: svgplot.Aggregate, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(2)}}})
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: "k-aggregate", Label: "pass without warnings"})
	}
	p.Add(&svgplot.Curve{X: xs, Y: ship, Style: draw.LineStyle{Color: svgplot.Challenger, Width: vg.Points(1.5)}}, iv)
	fig.Legend = append([]htmlpage.Key{{Class: "k-challenger", Label: "ship (pass or warn), with Wilson's 95% interval"}}, fig.Legend...)
	fig.Render(p, svgplot.Width, 420, "Share of simulated pools in which the gate ships the challenger, against its true effect")
	fig.Caption = fmt.Sprintf("Each point is %s simulated pools like yours in which the challenger's true effect is the value on the x axis. Left of the grey line at 0 the challenger is worse than the champion: the curve is the false-ship rate there (the red line marks 0.05). Right of the blue line at the smallest effect that matters (%s) it is the power (the grey line marks 0.8).",
		numfmt.Thousands(r.Reps), numfmt.G(float64(r.MinEffect)))
	return fig
}

// calibrateTemplate is the page; calibrate.html.tmpl follows the head all
// pages share.
//
//go:embed calibrate.html.tmpl
var calibrateBody string

var calibrateTemplate = htmlpage.Template("calibrate", calibrateBody)
