package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/htmlpage"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/internal/svgplot"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// atRiskMark is the colour of the mark under a topic at risk in the
// difference plots: dark, to stand out on a red loss bar.
var atRiskMark = color.RGBA{R: 0x1b, G: 0x1f, B: 0x24, A: 0xff}

// diffPlot is the per-topic difference plot of one challenger, the figure IR
// practitioners read first: the observed difference Δ_t = challenger −
// champion of every topic, sorted from the largest win to the largest loss,
// as bars — wins in the challenger's colour above zero, losses in red below
// — with the topics the model flags as at risk marked under their bar and
// every topic named (up to maxTopicLabels topics). atRisk are the
// challenger's topics at risk (nil when no fit flags topics); w is that
// fit's loss weight.
func diffPlot(r *result.Result, challenger string, index, colorIndex int, atRisk map[string]bool, w float64) figure {
	fig := figure{Figure: htmlpage.Figure{ID: fmt.Sprintf("fig-diff-%d", index), Title: "Per-topic differences: " + escape.PlainName(challenger) + " − champion",
		Legend: []htmlpage.Key{{Class: fmt.Sprintf("k-chal%d", colorIndex), Label: "win (challenger higher)"}, {Class: "k-loss", Label: "loss (challenger lower)"}}}}
	champ, chal := r.Data.SystemScores(r.Data.Champion), r.Data.SystemScores(challenger)
	if champ == nil || chal == nil {
		fig.Missing = "The result has no per-topic scores of this challenger and the champion."
		fig.Legend = nil
		return fig
	}
	type topicDiff struct {
		topic string
		d     float64
	}
	var diffs []topicDiff
	wins, ties, losses := 0, 0, 0
	for j, topic := range r.Data.Topics {
		if j >= len(champ) || j >= len(chal) {
			break
		}
		d := float64(chal[j]) - float64(champ[j])
		if !stats.Finite(d) {
			continue
		}
		switch {
		case d > 0:
			wins++
		case d < 0:
			losses++
		default:
			ties++
		}
		diffs = append(diffs, topicDiff{topic, d})
	}
	if len(diffs) == 0 {
		fig.Missing = "No topic is scored by both this challenger and the champion."
		fig.Legend = nil
		return fig
	}
	// Largest win first; ties keep data order.
	slices.SortStableFunc(diffs, func(a, b topicDiff) int { return cmp.Compare(b.d, a.d) })
	keep := svgplot.Spread(len(diffs), maxPredictiveTopics)
	if len(keep) < len(diffs) {
		fig.Notes = append(fig.Notes, fmt.Sprintf("%d topics: %d of them are drawn, evenly spread by rank of the difference; result.json has every score.", len(diffs), len(keep)))
	}
	win := svgplot.ChallengerColor(colorIndex)
	bars := &svgplot.Bars{Width: 0.8}
	marks := &svgplot.Points{Color: atRiskMark, Radius: vg.Points(3.5), Shape: draw.PyramidGlyph{}}
	yr := svgplot.NewRange()
	yr.Add(0)
	names := make([]string, len(keep))
	for x, i := range keep {
		td := diffs[i]
		names[x] = svgplot.Label(td.topic, 20)
		c := color.Color(win)
		if td.d < 0 {
			c = svgplot.Loss
		}
		bars.X, bars.Y, bars.Colors = append(bars.X, float64(x)), append(bars.Y, td.d), append(bars.Colors, c)
		yr.Add(td.d)
	}
	lo, hi := yr.Padded(0.06)
	pad := (hi - lo) * 0.04
	for x, i := range keep {
		if td := diffs[i]; atRisk[td.topic] {
			marks.X, marks.Y = append(marks.X, float64(x)), append(marks.Y, math.Min(td.d, 0)-pad)
		}
	}
	if len(marks.X) > 0 {
		lo -= pad
	}
	if atRisk != nil {
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: "k-mark", Label: "▲ topic at risk in the model (w = " + numfmt.G(w) + ")"})
	}
	p := svgplot.New()
	p.Y.Min, p.Y.Max = lo, hi
	p.Y.Label.Text = "Δ = challenger − champion"
	h := 240 + topicAxis(p, names, "topics, largest win to largest loss", "topics by rank of the difference, largest win to largest loss")
	p.Add(&svgplot.RefLine{At: 0, Style: draw.LineStyle{Color: svgplot.Reference, Width: vg.Points(0.75)}}, bars, marks)
	wdt := topicPlotWidth(len(keep), 14)
	fig.Wide = wdt > svgplot.Width
	fig.Render(p, wdt, h, "Per-topic differences to the champion, sorted, losses in red")
	fig.Caption = fmt.Sprintf("The observed difference of every topic, sorted: %d wins, %d ties and %d losses against the champion.", wins, ties, losses)
	switch {
	case atRisk != nil && len(marks.X) > 0:
		fig.Caption += fmt.Sprintf(" ▲ marks the %s the model flags as at risk at w = %s (the risk-adjusted difference below its 95%% posterior predictive interval).", numfmt.Plural(len(marks.X), "topic"), numfmt.G(w))
	case atRisk != nil:
		fig.Caption += " The model flags no topic as at risk at w = " + numfmt.G(w) + "."
	}
	return fig
}

// htmlDiffPlots draws the difference plot of each challenger of order, the
// topics at risk from the fit the per-topic panels use.
func htmlDiffPlots(pg *htmlPage, r *result.Result, fits []labelledFit, order []string) {
	colors := challengerIndex(r)
	pf, ok := predictiveFit(r, fits)
	for i, c := range order {
		var atRisk map[string]bool
		w := 0.0
		if ok && pf.fit.Pool == result.PoolRiskAdjusted {
			if tr, found := topicsAtRisk(pf.fit, c); found {
				atRisk = map[string]bool{}
				for _, t := range tr.Topics {
					atRisk[t.Topic] = true
				}
				w = pf.fit.LossWeight
			}
		}
		pg.DiffPlots = append(pg.DiffPlots, diffPlot(r, c, i+1, colors[c], atRisk, w))
	}
}
