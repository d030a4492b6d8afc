package svgplot

import (
	"image/color"

	"github.com/riskgate/riskgate/internal/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ChallengerColors give each challenger of a run its colour, in data order,
// the same in every figure and in the page's summary (a ninth challenger
// reuses the palette). None is near the champion's blue, the artifacts' grey,
// the losses' red or the red of topics at risk.
var ChallengerColors = []color.RGBA{
	{R: 0xd9, G: 0x5f, B: 0x02, A: 0xff}, // orange
	{R: 0x75, G: 0x70, B: 0xb3, A: 0xff}, // purple
	{R: 0x1b, G: 0x9e, B: 0x77, A: 0xff}, // green
	{R: 0xe6, G: 0xab, B: 0x02, A: 0xff}, // gold
	{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff}, // brown
	{R: 0x17, G: 0xbe, B: 0xcf, A: 0xff}, // cyan
	{R: 0x66, G: 0xa6, B: 0x1e, A: 0xff}, // olive
	{R: 0xbc, G: 0x80, B: 0xbd, A: 0xff}, // lilac
}

// ChallengerColor is the colour of the k-th challenger (0-based, data order).
func ChallengerColor(k int) color.RGBA { return ChallengerColors[k%len(ChallengerColors)] }

// Loss is the colour of a loss against the champion in the difference plots:
// a dark red, apart from AtRisk's and from the page's "fail" badges.
var Loss = color.RGBA{R: 0xb2, G: 0x18, B: 0x2b, A: 0xff}

// Bars draws a bar from 0 to Y[i] at each X[i], Width data units wide, in
// Colors[i]; a non-finite Y draws nothing.
type Bars struct {
	X, Y   []float64
	Colors []color.Color
	Width  float64
}

func (bs *Bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range bs.X {
		if !stats.Finite(bs.Y[i]) {
			continue
		}
		x0, x1 := trX(bs.X[i]-bs.Width/2), trX(bs.X[i]+bs.Width/2)
		y0, y1 := trY(0), trY(bs.Y[i])
		c.FillPolygon(bs.Colors[i], c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
	}
}
