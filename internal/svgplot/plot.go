// Package svgplot draws riskgate's figures as inline SVG with gonum/plot:
// the palette, fonts and sizes, the plotters the figures share (intervals,
// points, bands, reference lines, curves) and Render, which turns a plot
// into an <svg> element safe to embed in a page.
package svgplot

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/internal/stats"

	"github.com/riskgate/riskgate/internal/escape"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The building blocks of the HTML report's SVG plots, drawn with
// gonum.org/v1/plot and its SVG backend (vg/vgsvg). Each plot becomes an
// inline <svg> element: vgsvg escapes every string it draws with
// html.EscapeString, and Render replaces its XML prologue and root tag
// with a tag of ours, so the page embeds nothing but markup gonum/plot drew.
// The plotters below draw what the report's figures share: intervals with a
// centre dot (forest plots), observed points, shaded bands and reference
// lines.

// Colours of the plots; the page's CSS repeats them for its legends.
var (
	Champion   = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}  // blue
	Challenger = color.RGBA{R: 0xd9, G: 0x5f, B: 0x02, A: 0xff}  // orange
	Artifact   = color.RGBA{R: 0xa0, G: 0xa0, B: 0xa0, A: 0xff}  // grey
	Aggregate  = color.RGBA{R: 0x60, G: 0x60, B: 0x60, A: 0xff}  // dark grey: a summary of many artifacts
	AtRisk     = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}  // red
	AtRiskBand = color.NRGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0x38} // translucent red
	Reference  = color.RGBA{R: 0x70, G: 0x70, B: 0x70, A: 0xff}
)

// FitColors colour the fits of a run in the loss-weight and density plots:
// the raw fit (w = 1) first, then the risk-adjusted fits in increasing w
// (Dark2 of ColorBrewer; a seventh fit reuses the palette).
var FitColors = []color.RGBA{
	{R: 0x33, G: 0x33, B: 0x33, A: 0xff},
	{R: 0x1b, G: 0x9e, B: 0x77, A: 0xff},
	{R: 0xd9, G: 0x5f, B: 0x02, A: 0xff},
	{R: 0x75, G: 0x70, B: 0xb3, A: 0xff},
	{R: 0xe7, G: 0x29, B: 0x8a, A: 0xff},
	{R: 0x66, G: 0xa6, B: 0x1e, A: 0xff},
	{R: 0xe6, G: 0xab, B: 0x02, A: 0xff},
}

func FitColor(k int) color.RGBA { return FitColors[k%len(FitColors)] }

// CSSColor is c as a CSS hex colour, for the page's legends.
func CSSColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// Sizes of the plots, in points (1/72 in); the page scales them to its width.
const (
	Width     = 960
	RowHeight = 17 // per row of a forest plot
	Margin    = 76 // axes, ticks and padding of a forest plot
)

// Font is the font of every text of the plots. Its family is
// metric-compatible with Arial and Helvetica, which the page names as
// fallbacks for machines without it.
func Font(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// FontFallback replaces the font family vgsvg writes for Font.
const (
	FontFamily   = "font-family:Liberation Sans;"
	FontFallback = "font-family:Liberation Sans,Arial,Helvetica,sans-serif;"
)

// New returns a plot with the report's fonts and no title (figures
// carry their titles and legends in HTML).
func New() *plot.Plot {
	p := plot.New()
	p.Title.TextStyle.Font = Font(12)
	p.X.Label.TextStyle.Font = Font(12)
	p.Y.Label.TextStyle.Font = Font(12)
	p.X.Tick.Label.Font = Font(11)
	p.Y.Tick.Label.Font = Font(11)
	p.Legend.TextStyle.Font = Font(10)
	p.X.Tick.Marker, p.Y.Tick.Marker = CleanTicks{}, CleanTicks{}
	return p
}

// Label prepares a run or topic name for a plot: control characters
// become U+FFFD and the name is cut to n runes. vgsvg escapes it.
func Label(s string, n int) string { return escape.Clip(escape.PlainName(s), n) }

// Render draws p on a w × h canvas and returns it as an inline <svg>
// element whose aria-label is label. A plot that cannot be drawn (gonum/plot
// panics on some degenerate inputs) is an error, which the report prints in
// place of the plot.
func Render(p *plot.Plot, w, h vg.Length, label string) (svg template.HTML, err error) {
	defer func() {
		if e := recover(); e != nil {
			svg, err = "", fmt.Errorf("the plot could not be drawn: %v", e)
		}
	}()
	c := vgsvg.New(w, h)
	p.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", err
	}
	return Inline(b.String(), float64(w.Points()), float64(h.Points()), label)
}

// Inline turns a document written by vgsvg into an element for an HTML
// page: the XML prologue and the root tag (with its XML namespaces, which
// HTML does not need) are replaced by a root tag of ours, and the font
// family gets its fallbacks.
func Inline(doc string, w, h float64, label string) (template.HTML, error) {
	i := strings.Index(doc, "<svg")
	if i < 0 {
		return "", fmt.Errorf("the plot could not be drawn: no <svg> element")
	}
	j := strings.IndexByte(doc[i:], '>')
	if j < 0 {
		return "", fmt.Errorf("the plot could not be drawn: unterminated <svg> tag")
	}
	body := strings.ReplaceAll(doc[i+j+1:], FontFamily, FontFallback)
	ws, hs := strconv.FormatFloat(w, 'f', -1, 64), strconv.FormatFloat(h, 'f', -1, 64)
	root := `<svg class="plot" viewBox="0 0 ` + ws + " " + hs + `" width="` + ws + `" height="` + hs +
		`" role="img" aria-label="` + html.EscapeString(label) + `">`
	return template.HTML(root + body), nil
}

// Range is the smallest interval holding every finite value, or (NaN,
// NaN) when there is none.
type Range struct{ lo, hi float64 }

func NewRange() Range { return Range{math.NaN(), math.NaN()} }

func (r *Range) Add(xs ...float64) {
	for _, x := range xs {
		if !stats.Finite(x) {
			continue
		}
		if math.IsNaN(r.lo) || x < r.lo {
			r.lo = x
		}
		if math.IsNaN(r.hi) || x > r.hi {
			r.hi = x
		}
	}
}

func (r Range) Empty() bool { return math.IsNaN(r.lo) }

// Bounds are the ends of the range, NaN when it is empty.
func (r Range) Bounds() (lo, hi float64) { return r.lo, r.hi }

// padded widens the range by share of its width on each side (by share of
// its magnitude, or share, when it is a single point).
func (r Range) Padded(share float64) (lo, hi float64) {
	w := r.hi - r.lo
	if w == 0 {
		w = math.Max(math.Abs(r.lo), 1)
	}
	return r.lo - share*w, r.hi + share*w
}

// IntervalItem is one interval of a forest plot: a thin line over the outer
// interval [Lo, Hi], a thick line over the inner one [Lo50, Hi50] and a dot
// at Mid, at position At of the categorical axis. NaN ends or centres are
// not drawn.
type IntervalItem struct {
	At         float64
	Lo, Hi     float64
	Lo50, Hi50 float64
	Mid        float64
	Color      color.Color
}

// Intervals draws intervalItems, along x at height At (Vertical false: a
// forest plot) or along y at abscissa At (Vertical true: the topic plots).
type Intervals struct {
	Items    []IntervalItem
	Vertical bool
	Width    vg.Length // of the outer line; the inner one is 2.5 times as wide
	Radius   vg.Length // of the dot
}

func (iv *Intervals) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pt := func(at, v float64) vg.Point {
		if iv.Vertical {
			return vg.Point{X: trX(at), Y: trY(v)}
		}
		return vg.Point{X: trX(v), Y: trY(at)}
	}
	for _, it := range iv.Items {
		if stats.Finite(it.Lo) && stats.Finite(it.Hi) {
			a, b := pt(it.At, it.Lo), pt(it.At, it.Hi)
			c.StrokeLines(draw.LineStyle{Color: it.Color, Width: iv.Width}, c.ClipLinesXY([]vg.Point{a, b})...)
		}
		if stats.Finite(it.Lo50) && stats.Finite(it.Hi50) {
			a, b := pt(it.At, it.Lo50), pt(it.At, it.Hi50)
			c.StrokeLines(draw.LineStyle{Color: it.Color, Width: 2.5 * iv.Width}, c.ClipLinesXY([]vg.Point{a, b})...)
		}
		if stats.Finite(it.Mid) {
			c.DrawGlyph(draw.GlyphStyle{Color: it.Color, Radius: iv.Radius, Shape: draw.CircleGlyph{}}, pt(it.At, it.Mid))
		}
	}
}

// Points draws a glyph at each (X, Y) with a finite Y.
type Points struct {
	X, Y   []float64
	Color  color.Color
	Radius vg.Length
	Shape  draw.GlyphDrawer
}

func (ps *Points) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.GlyphStyle{Color: ps.Color, Radius: ps.Radius, Shape: ps.Shape}
	for i := range ps.X {
		if stats.Finite(ps.X[i]) && stats.Finite(ps.Y[i]) {
			c.DrawGlyph(sty, vg.Point{X: trX(ps.X[i]), Y: trY(ps.Y[i])})
		}
	}
}

// Bands shades the full height of the data area over [x − Half, x + Half]
// for each x of At.
type Bands struct {
	At    []float64
	Half  float64
	Color color.Color
}

func (bs *Bands) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, x := range bs.At {
		x0, x1 := trX(x-bs.Half), trX(x+bs.Half)
		c.FillPolygon(bs.Color, c.ClipPolygonX([]vg.Point{
			{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y},
		}))
	}
}

// RefLine is a reference line across the data area: vertical at X = At
// (Vertical true) or horizontal at Y = At.
type RefLine struct {
	At       float64
	Vertical bool
	Style    draw.LineStyle
}

func (l *RefLine) Plot(c draw.Canvas, p *plot.Plot) {
	if !stats.Finite(l.At) {
		return
	}
	trX, trY := p.Transforms(&c)
	var a, b vg.Point
	if l.Vertical {
		a, b = vg.Point{X: trX(l.At), Y: c.Min.Y}, vg.Point{X: trX(l.At), Y: c.Max.Y}
	} else {
		a, b = vg.Point{X: c.Min.X, Y: trY(l.At)}, vg.Point{X: c.Max.X, Y: trY(l.At)}
	}
	c.StrokeLines(l.Style, c.ClipLinesXY([]vg.Point{a, b})...)
}

// Curve is a polyline through (X, Y); a non-finite point breaks it.
type Curve struct {
	X, Y  []float64
	Style draw.LineStyle
}

func (cv *Curve) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var lines [][]vg.Point
	var cur []vg.Point
	for i := range cv.X {
		if !stats.Finite(cv.X[i]) || !stats.Finite(cv.Y[i]) {
			if len(cur) > 1 {
				lines = append(lines, cur)
			}
			cur = nil
			continue
		}
		cur = append(cur, vg.Point{X: trX(cv.X[i]), Y: trY(cv.Y[i])})
	}
	if len(cur) > 1 {
		lines = append(lines, cur)
	}
	c.StrokeLines(cv.Style, c.ClipLinesXY(lines...)...)
}

// Dashed is the line style of reference lines.
func Dashed(c color.Color) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: vg.Points(0.75), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}
}

// CleanTicks are gonum/plot's default ticks with their labels in the
// shortest form ("25", not "25.00").
type CleanTicks struct{}

func (CleanTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		if t.Label != "" {
			v := t.Value
			if v == 0 {
				v = 0 // no "-0"
			}
			ticks[i].Label = strconv.FormatFloat(v, 'g', 10, 64)
		}
	}
	return ticks
}

// NominalTicks labels the integer positions 0, 1, … of a categorical axis
// with names; no tick marks.
func NominalTicks(names []string) plot.ConstantTicks {
	ticks := make([]plot.Tick, len(names))
	for i, n := range names {
		ticks[i] = plot.Tick{Value: float64(i), Label: n}
	}
	return plot.ConstantTicks(ticks)
}

// Spread returns k indices of 0 … n−1 spread evenly, the first and the
// last included, in increasing order; all n when n ≤ k.
func Spread(n, k int) []int {
	if n <= k {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	if k < 2 {
		return []int{0}
	}
	out := make([]int, k)
	for i := range k {
		out[i] = int(math.Round(float64(i) * float64(n-1) / float64(k-1)))
	}
	return out
}
