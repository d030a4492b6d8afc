package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/htmlpage"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/svgplot"
	"github.com/riskgate/riskgate/policies"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The HTML report's segments (rules per segment, issue 26): per dimension
// and challenger, the segment table and the per-segment interval figure —
// Δ with its paired t interval per segment, the partially pooled δ_g's
// credible interval beside it when the segment model ran, a zero line and
// the by: rules' −margin line. Absent, with its link, when the result has
// no segments.

// htmlSegments is one challenger's segments on one dimension: a table
// of six or seven columns (the segment with its topics, its weight share
// when there is a weight column, the champion's mean, Δ with its interval,
// the pooled δ_g and P(δ_g < −margin) when set, the outcome) and below
// each segment a row of its rules by outcome, so that it fits 800 px.
type htmlSegments struct {
	Title     string
	Head      []string
	HasWeight bool
	HasPooled bool
	Span      int // columns
	Rows      []htmlSegmentRow
	Left      int
	Note      string
	Figure    figure
}

type htmlSegmentRow struct {
	segmentParts
	Outcome, OutcomeClass string
}

// maxSegmentRows caps the rows of a segment table and figure of the page.
const maxSegmentRows = 200

// segmentPlotWidth is the width of the per-segment figure.
const segmentPlotWidth = 720

func htmlSegmentSections(pg *htmlPage, r *result.Result) {
	colors := challengerIndex(r)
	for i, v := range segmentViews(r, htmlpage.Name) {
		s := htmlSegments{Title: htmlpage.Name(v.Challenger) + " − champion by " + htmlpage.Name(v.Dimension), Note: htmlpage.Sentence(v.Note, 2000),
			HasWeight: v.HasWeight, HasPooled: v.PooledHead != ""}
		s.Head = []string{"Segment (topics)"}
		if s.HasWeight {
			s.Head = append(s.Head, "Weight share")
		}
		s.Head = append(s.Head, "Champion mean", "Δ ["+v.IntervalHead+"]")
		if s.HasPooled {
			s.Head = append(s.Head, v.PooledHead, v.PWorseHead)
		}
		s.Head = append(s.Head, "Outcome")
		s.Span = len(s.Head)
		for k, parts := range v.Parts {
			if k >= maxSegmentRows {
				s.Left = len(v.Parts) - k
				break
			}
			s.Rows = append(s.Rows, htmlSegmentRow{segmentParts: parts, Outcome: string(v.Outcomes[k]), OutcomeClass: verdictClass(string(v.Outcomes[k]))})
		}
		s.Figure = segmentPlot(v, i+1, colors[v.Challenger])
		pg.Segments = append(pg.Segments, s)
	}
	if len(pg.Segments) > 0 {
		// Only then, so that a page without segments is as it was.
		pg.ExtraCSS += "table.segments{width:100%}\n"
	}
}

// segmentPlot is the per-segment interval figure of a segment view: one row
// per segment, top to bottom in table order, Δ with its paired t interval
// in the challenger's colour (red when the segment did not pass), the
// pooled δ_g's credible interval just below it, a zero line and a −margin
// line for each margin of the dimension's by: rules.
func segmentPlot(v segmentView, index, colorIndex int) figure {
	fig := figure{Figure: htmlpage.Figure{ID: fmt.Sprintf("fig-segments-%d", index),
		Title:  "Differences per segment: " + svgplot.Label(v.Challenger, maxPlotLabel) + " − champion by " + svgplot.Label(v.Dimension, maxPlotLabel),
		Legend: []htmlpage.Key{{Class: fmt.Sprintf("k-chal%d", colorIndex), Label: "Δ, " + v.IntervalHead}}}}
	if slices.ContainsFunc(v.Outcomes, func(o policies.Outcome) bool { return o != policies.OutcomePass }) {
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: "k-loss", Label: "segment that did not pass"})
	}
	items := v.Items
	if len(items) > maxSegmentRows {
		fig.Notes = append(fig.Notes, fmt.Sprintf("%d segments: the first %d are drawn; the table and result.json have every one.", len(items), maxSegmentRows))
		items = items[:maxSegmentRows]
	}
	if len(items) == 0 {
		fig.Missing = "The challenger has no segment."
		fig.Legend = nil
		return fig
	}
	pooled := false
	for _, it := range items {
		pooled = pooled || it.Pooled
	}
	if pooled {
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: "k-fit1", Label: "pooled δ_g, credible interval (segment model)"})
	}
	nan := math.NaN()
	const off = 0.22 // the pooled interval's offset below its segment's row
	n := len(items)
	labels := make([]string, n)
	deltas := &svgplot.Intervals{Width: vg.Points(1.6), Radius: vg.Points(2.8)}
	pools := &svgplot.Intervals{Width: vg.Points(1.2), Radius: vg.Points(2.2)}
	xr := svgplot.NewRange()
	xr.Add(0)
	chal := svgplot.ChallengerColor(colorIndex)
	for i, it := range items {
		y := float64(n - 1 - i) // the first segment at the top
		labels[n-1-i] = fmt.Sprintf("%s (%d)", svgplot.Label(it.Segment, maxPlotLabel), it.Topics)
		c := color.Color(chal)
		if it.Outcome != policies.OutcomePass {
			c = svgplot.Loss
		}
		deltas.Items = append(deltas.Items, svgplot.IntervalItem{At: y + off/2, Lo: it.Lo, Hi: it.Hi, Lo50: nan, Hi50: nan, Mid: it.Delta, Color: c})
		xr.Add(it.Lo, it.Hi, it.Delta)
		if it.Pooled {
			pools.Items = append(pools.Items, svgplot.IntervalItem{At: y - off/2, Lo: it.PLo, Hi: it.PH, Lo50: nan, Hi50: nan, Mid: it.PMean, Color: svgplot.FitColor(1)})
			xr.Add(it.PLo, it.PH, it.PMean)
		}
	}
	margins := make([]string, len(v.Margins))
	for i, m := range v.Margins {
		xr.Add(-m)
		margins[i] = "−" + numfmt.G(m)
	}
	if len(margins) > 0 {
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: "k-aggregate", Label: strings.Join(margins, ", ") + ": the by: rules' margins"})
	}
	p := svgplot.New()
	p.X.Min, p.X.Max = xr.Padded(0.05)
	p.Y.Min, p.Y.Max = -0.7, float64(n)-0.3
	p.Y.Tick.Marker = svgplot.NominalTicks(labels)
	p.Y.Tick.Length, p.Y.Width = 0, 0
	p.X.Label.Text = "Δ = challenger − champion" + onMeasureText(v.Measure)
	p.Add(&svgplot.RefLine{At: 0, Vertical: true, Style: svgplot.Dashed(svgplot.Artifact)})
	for _, m := range v.Margins {
		p.Add(&svgplot.RefLine{At: -m, Vertical: true, Style: draw.LineStyle{Color: svgplot.Aggregate, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(2)}}})
	}
	p.Add(deltas, pools)
	// 720 px wide: drawn at its size, not scaled down, in the page's
	// 760 px column at 800 px, so that its labels stay readable.
	fig.Render(p, segmentPlotWidth, vg.Length(svgplot.Margin+28*n), "Differences to the champion per segment with their intervals")
	fig.Caption = "Per segment (topics in parentheses), the challenger's mean difference to the champion with its " + v.IntervalHead
	if pooled {
		fig.Caption += " and, below it, the partially pooled δ_g of the segment model with its credible interval"
	}
	fig.Caption += ". The grey dashed line is zero"
	switch len(margins) {
	case 0:
	case 1:
		fig.Caption += "; the dark dashed line is " + margins[0] + ", minus the margin of the by: rules on this dimension"
	default:
		fig.Caption += "; the dark dashed lines are " + strings.Join(margins, " and ") + ", minus the margins of the by: rules on this dimension"
	}
	fig.Caption += "."
	return fig
}
