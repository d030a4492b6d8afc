package calibrate

import (
	_ "embed"
	"fmt"
	"image/color"
	"io"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/riskgate/riskgate/internal/htmlpage"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/svgplot"
)

// The HTML report of riskgate calibrate: one self-contained page (the shared
// style sheet and Content-Security-Policy, no script, no external reference)
// with the operating characteristic — the ship rate against the true effect,
// one curve per risk scale — the heat map of the ship rate over the grid with
// the harmful cells outlined, the table of rates and the estimated model.

type calibratePage struct {
	Tool      string
	Policy    string
	Subtitle  []string
	Headlines []string
	OC        htmlpage.Figure
	Heat      htmlpage.Figure
	Rates     htmlpage.Table
	Model     []htmlpage.Pair
	Warnings  []string
}

// WriteHTML writes calibrate's HTML page.
func WriteHTML(w io.Writer, r *Report) error {
	page := calibratePage{Tool: "riskgate " + r.Tool, Policy: htmlpage.Name(r.Policy.Name), Headlines: r.headlines(),
		OC: operatingCharacteristic(r), Heat: heatMap(r)}
	for _, s := range r.subtitle() {
		page.Subtitle = append(page.Subtitle, htmlpage.Sentence(s, 1000))
	}
	rows, align := r.rows()
	page.Rates = htmlpage.Table{Align: align, Head: rows[0], Rows: rows[1:]}
	for _, c := range r.Cells {
		class := ""
		if c.Class == ClassHarmful {
			class = "bad"
		}
		page.Rates.Classes = append(page.Rates.Classes, class)
	}
	if m := r.Model; m != nil {
		page.Model = []htmlpage.Pair{
			{Key: "intercept β0", Value: numfmt.G4(float64(m.Intercept))}, {Key: "σ (residual)", Value: numfmt.G4(float64(m.Sigma))},
			{Key: "sd_topic", Value: numfmt.G4(float64(m.SDTopic))}, {Key: "sd_system", Value: numfmt.G4(float64(m.SDSystem))},
			{Key: "challenger − champion: SD", Value: numfmt.G4(float64(m.DiffSD))}, {Key: "challenger − champion: skewness", Value: numfmt.G4(float64(m.DiffSkew))},
		}
	}
	if rs := r.Resampling; rs != nil {
		page.Model = append(page.Model, htmlpage.Pair{Key: "resampled", Value: fmt.Sprintf("%s with every measure, %s", numfmt.Plural(rs.Topics, "topic"), numfmt.Plural(rs.Challengers, "challenger"))})
		for a, m := range rs.Measures {
			page.Model = append(page.Model, htmlpage.Pair{Key: m.Measure + ": improvements' SD", Value: numfmt.G4(float64(m.DiffSD))})
			for b := a + 1; b < len(rs.Measures); b++ {
				page.Model = append(page.Model, htmlpage.Pair{Key: "correlation " + m.Measure + "–" + rs.Measures[b].Measure, Value: numfmt.Dash.Fixed(float64(rs.Correlation[a][b]), 3)})
			}
		}
	}
	page.Model = append(page.Model, htmlpage.Pair{Key: "policy file", Value: htmlpage.Name(r.Policy.File)}, htmlpage.Pair{Key: "policy SHA-256", Value: r.Policy.SHA256})
	for _, s := range r.Warnings {
		page.Warnings = append(page.Warnings, htmlpage.Sentence(s, 1000))
	}
	return calibrateTemplate.Execute(w, page)
}

// operatingCharacteristic plots each cell's ship rate with its Wilson 95%
// interval against the true effect, one curve per risk scale, with
// reference lines at effect 0, at the smallest effect that matters, and at
// the rates 0.05 and 0.8 that false-ship rates and power are usually held to.
func operatingCharacteristic(r *Report) htmlpage.Figure {
	fig := htmlpage.Figure{ID: "fig-oc", Title: "Operating characteristic"}
	if len(r.Cells) == 0 {
		fig.Missing = "No cell was simulated."
		return fig
	}
	p := svgplot.New()
	xr := svgplot.NewRange()
	for k, risk := range r.Risks {
		col := svgplot.FitColor(k + 1)
		var xs, ys []float64
		iv := &svgplot.Intervals{Vertical: true, Width: vg.Points(1.2), Radius: vg.Points(3)}
		for _, c := range r.Cells {
			if c.Risk != risk || c.Edge != nil { // a null edge's cell is off the effects axis
				continue
			}
			x := float64(c.Effect)
			xs, ys = append(xs, x), append(ys, float64(c.ShipRate))
			iv.Items = append(iv.Items, svgplot.IntervalItem{At: x, Lo: float64(c.ShipCI95[0]), Hi: float64(c.ShipCI95[1]),
				Lo50: math.NaN(), Hi50: math.NaN(), Mid: float64(c.ShipRate), Color: col})
			xr.Add(x)
		}
		p.Add(&svgplot.Curve{X: xs, Y: ys, Style: draw.LineStyle{Color: col, Width: vg.Points(1.5)}}, iv)
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: fmt.Sprintf("k-fit%d", (k+1)%len(svgplot.FitColors)), Label: "risk " + numfmt.G(float64(risk))})
	}
	xr.Add(0, float64(r.MinEffect))
	p.X.Min, p.X.Max = xr.Padded(0.06)
	p.Y.Min, p.Y.Max = -0.02, 1.02
	p.X.Label.Text = "true effect of the challenger (its expected score minus the champion's)"
	if r.Resampling != nil {
		p.X.Label.Text = fmt.Sprintf("true effect of the challenger on %s (its expected score minus the champion's; other measures at %s)", r.Pools.Measure, numfmt.G(float64(r.Resampling.GuardrailEffect)))
	}
	p.Y.Label.Text = "share of pools in which the gate ships it"
	p.Add(&svgplot.RefLine{At: 0, Vertical: true, Style: svgplot.Dashed(svgplot.Reference)}, &svgplot.RefLine{At: float64(r.MinEffect), Vertical: true, Style: svgplot.Dashed(svgplot.Champion)},
		&svgplot.RefLine{At: 0.05, Style: svgplot.Dashed(svgplot.AtRisk)}, &svgplot.RefLine{At: 0.8, Style: svgplot.Dashed(svgplot.Artifact)})
	fig.Render(p, svgplot.Width, 420, "Share of simulated pools in which the gate ships the challenger, against its true effect, per risk scale")
	fig.Caption = fmt.Sprintf("Each point is %s simulated pools like yours in which the challenger's true effect is the value on the x axis, with Wilson's 95%% interval; one curve per risk scale (the spread of its per-topic differences relative to your pool's). Left of the grey line at 0, and wherever the challenger is riskier than the policy allows (the heat map outlines those cells), shipping is a false ship (the red line marks 0.05). Right of the blue line at the smallest effect that matters (%s) it is power where the challenger is not harmful (the grey line marks 0.8).",
		numfmt.Thousands(r.Reps), numfmt.G(float64(r.MinEffect)))
	return fig
}

// heatMap draws the ship rate of every cell of the grid, effects across and
// risks up, the harmful cells outlined in red.
func heatMap(r *Report) htmlpage.Figure {
	fig := htmlpage.Figure{ID: "fig-heat", Title: "Ship rate over the grid"}
	if len(r.Cells) == 0 {
		fig.Missing = "No cell was simulated."
		return fig
	}
	xs, ys := make([]string, len(r.Effects)), make([]string, len(r.Risks))
	for i, e := range r.Effects {
		xs[i] = numfmt.G(float64(e))
	}
	for i, k := range r.Risks {
		ys[i] = numfmt.G(float64(k))
	}
	hm := &heat{}
	for i, c := range r.Cells {
		if c.Edge != nil { // after the grid's cells: a null edge's, off the grid
			break
		}
		hm.cells = append(hm.cells, heatCell{x: float64(i / len(r.Risks)), y: float64(i % len(r.Risks)), rate: float64(c.ShipRate), harmful: c.Class == ClassHarmful})
	}
	p := svgplot.New()
	p.X.Min, p.X.Max = -0.5, float64(len(xs))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(ys))-0.5
	p.X.Tick.Marker, p.Y.Tick.Marker = svgplot.NominalTicks(xs), svgplot.NominalTicks(ys)
	p.X.Label.Text = "true effect"
	p.Y.Label.Text = "risk scale"
	p.Add(hm)
	h := vg.Length(110 + 48*len(ys))
	fig.Render(p, vg.Length(min(960, 200+90*len(xs))), h, "Ship rate of each cell of the grid of true effects and risk scales; harmful cells outlined")
	fig.Legend = []htmlpage.Key{{Class: "k-at-risk", Label: "harmful by the policy's own definition"}}
	fig.Caption = "Each cell is the share of its simulated pools in which the gate ships the challenger (darker: more often). " +
		"A cell outlined in red is harmful by the policy's own definition — " + r.Harm.Words + " — so its ship rate is a false-ship rate; in the other cells at or above the smallest effect that matters, it is power."
	return fig
}

type heatCell struct {
	x, y, rate float64
	harmful    bool
}

// heat is a plotter of unit squares coloured by a rate from white (0) to
// dark blue (1), the rate printed inside, harmful ones outlined.
type heat struct{ cells []heatCell }

func (h *heat) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	font := svgplot.Font(10)
	for _, cell := range h.cells {
		x0, x1 := tx(cell.x-0.48), tx(cell.x+0.48)
		y0, y1 := ty(cell.y-0.46), ty(cell.y+0.46)
		pts := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		c.FillPolygon(heatColor(cell.rate), pts)
		if cell.harmful {
			c.StrokeLines(draw.LineStyle{Color: svgplot.AtRisk, Width: vg.Points(2.5)}, append(pts, pts[0]))
		}
		ink := color.Color(color.Black)
		if cell.rate > 0.55 {
			ink = color.White
		}
		sty := text.Style{Color: ink, Font: font, XAlign: draw.XCenter, YAlign: draw.YCenter, Handler: p.Title.TextStyle.Handler}
		c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, numfmt.Dash.Fixed(cell.rate, 2))
	}
}

// heatColor runs from near white at 0 to dark blue at 1 (ColorBrewer Blues).
func heatColor(rate float64) color.RGBA {
	lo, hi := [3]float64{0xf7, 0xfb, 0xff}, [3]float64{0x08, 0x30, 0x6b}
	t := max(0, min(1, rate))
	var out [3]uint8
	for i := range out {
		out[i] = uint8(math.Round(lo[i] + t*(hi[i]-lo[i])))
	}
	return color.RGBA{R: out[0], G: out[1], B: out[2], A: 0xff}
}

// calibrateTemplate is the page; calibrate.html.tmpl follows the head all
// pages share.
//
//go:embed calibrate.html.tmpl
var calibrateBody string

var calibrateTemplate = htmlpage.Template("calibrate", calibrateBody)
