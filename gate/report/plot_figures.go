package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/htmlpage"
	"github.com/riskgate/riskgate/internal/svgplot"

	"github.com/riskgate/riskgate/internal/stats"

	"github.com/riskgate/riskgate/internal/escape"

	"github.com/riskgate/riskgate/internal/numfmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The figures of the HTML report, after Benham et al. (SIGIR 2020): the
// system-effect forest plot and the topic-effect intervals (their Figure 4),
// system effects against the loss weight (Figure 7), per-topic predictive
// intervals of the champion and a challenger (Figure 8), and the posterior
// densities of a challenger's difference to the champion at each loss weight
// (Figure 6). Each function returns an htmlFigure: the plot, or in its place
// one sentence saying why there is none.

// Caps on what one plot draws; what is left out is summarised and said in
// the figure's notes, never dropped silently.
const (
	maxForestArtifacts  = 60  // artifacts drawn one by one in the forest plot
	maxTopicIntervals   = 400 // topics in the topic-effect plot
	maxPredictiveTopics = 300 // topics in a predictive plot (topics at risk always kept)
	maxTopicLabels      = 120 // topic names written under a topic axis
	maxPlotLabel        = 36  // runes of a name in a plot
)

// systemForest is the forest plot of the system effects S_s of fit f
// (Figure 4, top): 95% and 50% credible intervals and the posterior mean,
// the champion first, then the challengers in data order, then the
// artifacts best first, each challenger in its colour. Beyond maxForestArtifacts artifacts, artifacts
// evenly spread by rank are drawn and one more row summarises the posterior
// means of all of them; the champion and every challenger are always drawn.
func systemForest(f *result.FitResult) figure {
	fig := figure{Figure: htmlpage.Figure{ID: "fig-systems", Title: "System effects",
		Legend: []htmlpage.Key{{Class: "k-champion", Label: "champion"}}}}
	if msg := fitMissing(f, "system effects"); msg != "" {
		fig.Missing = msg
		return fig
	}
	rows, artifacts, drawn := forestRows(f.Systems)
	k := 0
	for _, e := range f.Systems {
		if e.Role == result.RoleChallenger {
			fig.Legend = append(fig.Legend, htmlpage.Key{Class: fmt.Sprintf("k-chal%d", k%len(svgplot.ChallengerColors)), Label: svgplot.Label(e.Name, maxPlotLabel)})
			k++
		}
	}
	fig.Legend = append(fig.Legend, htmlpage.Key{Class: "k-artifact", Label: "artifact"})
	if drawn < artifacts {
		fig.Notes = append(fig.Notes, fmt.Sprintf("%d artifacts: %d of them are drawn, evenly spread by rank of the posterior mean (#1 is the best), and the last row shows the spread of all their posterior means (range, quartiles, median); result.json has every one.",
			artifacts, drawn))
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: "k-aggregate", Label: "all artifacts"})
	}
	champMean := math.NaN()
	for _, e := range f.Systems {
		if e.Role == result.RoleChampion {
			champMean = float64(e.Mean)
		}
	}

	n := len(rows)
	labels := make([]string, n)
	iv := &svgplot.Intervals{Width: vg.Points(1.2), Radius: vg.Points(2.6)}
	xr := svgplot.NewRange()
	for i, r := range rows {
		y := float64(n - 1 - i) // the first row at the top
		labels[n-1-i] = r.label
		r.item.At = y
		iv.Items = append(iv.Items, r.item)
		xr.Add(r.item.Lo, r.item.Hi, r.item.Mid)
	}
	if xr.Empty() {
		fig.Missing = "No system effect of this fit is a finite number."
		return fig
	}
	xr.Add(0)
	p := svgplot.New()
	p.X.Min, p.X.Max = xr.Padded(0.04)
	p.Y.Min, p.Y.Max = -0.7, float64(n)-0.3
	p.Y.Tick.Marker = svgplot.NominalTicks(labels)
	p.Y.Tick.Length, p.Y.Width = 0, 0
	p.X.Label.Text = "system effect (higher is better): posterior mean, 50% and 95% credible intervals"
	p.Add(&svgplot.RefLine{At: 0, Vertical: true, Style: svgplot.Dashed(svgplot.Artifact)})
	if stats.Finite(champMean) {
		p.Add(&svgplot.RefLine{At: champMean, Vertical: true, Style: svgplot.Dashed(svgplot.Champion)})
	}
	p.Add(iv)
	if !f.Converged {
		fig.Notes = append(fig.Notes, "This fit did not converge (see Diagnostics): the rules that use it are inconclusive.")
	}
	fig.Render(p, svgplot.Width, vg.Length(svgplot.Margin+svgplot.RowHeight*n), "Forest plot of the system effects with 95% credible intervals")
	fig.Caption = "Posterior system effects S_s of the hierarchical model on the raw scores (Benham et al., Figure 4, top): dot the posterior mean, thick line the 50% and thin line the 95% credible interval. The dashed blue line is the champion's mean; the grey one is zero, the average system."
	return fig
}

// forestRow is one row of the forest plot.
type forestRow struct {
	label string
	item  svgplot.IntervalItem
}

// forestRows are the rows of the forest plot of the system effects, top to
// bottom: the champion, the challengers in data order, then the artifacts
// best first — all of them, or beyond maxForestArtifacts that many evenly
// spread by rank (labelled with their rank) and a last row summarising the
// posterior means of all of them. It also returns how many artifacts there
// are and how many are drawn one by one.
func forestRows(systems []result.Effect) (rows []forestRow, artifacts, drawn int) {
	effectItem := func(e result.Effect, c color.RGBA) svgplot.IntervalItem {
		return svgplot.IntervalItem{Lo: float64(e.Q2_5), Hi: float64(e.Q97_5), Lo50: float64(e.Q25), Hi50: float64(e.Q75), Mid: float64(e.Mean), Color: c}
	}
	var chals []forestRow
	var arts []result.Effect
	for _, e := range systems {
		switch e.Role {
		case result.RoleChampion:
			rows = append(rows, forestRow{svgplot.Label(e.Name, maxPlotLabel) + " (champion)", effectItem(e, svgplot.Champion)})
		case result.RoleChallenger:
			chals = append(chals, forestRow{svgplot.Label(e.Name, maxPlotLabel), effectItem(e, svgplot.ChallengerColor(len(chals)))})
		default:
			arts = append(arts, e)
		}
	}
	rows = append(rows, chals...)
	// Best first; ties keep data order.
	slices.SortStableFunc(arts, func(a, b result.Effect) int { return cmpDesc(float64(a.Mean), float64(b.Mean)) })
	keep := svgplot.Spread(len(arts), maxForestArtifacts)
	sampled := len(keep) < len(arts)
	for _, i := range keep {
		label := svgplot.Label(arts[i].Name, maxPlotLabel)
		if sampled {
			label = fmt.Sprintf("#%d %s", i+1, label)
		}
		rows = append(rows, forestRow{label, effectItem(arts[i], svgplot.Artifact)})
	}
	if sampled {
		var means []float64
		for _, e := range arts {
			if stats.Finite(float64(e.Mean)) {
				means = append(means, float64(e.Mean))
			}
		}
		slices.Sort(means)
		q := func(p float64) float64 { return posterior.QuantileSorted(means, p) }
		summary := svgplot.IntervalItem{Lo: math.NaN(), Hi: math.NaN(), Lo50: math.NaN(), Hi50: math.NaN(), Mid: math.NaN(), Color: svgplot.Aggregate}
		if len(means) > 0 {
			summary = svgplot.IntervalItem{Lo: means[0], Hi: means[len(means)-1], Lo50: q(0.25), Hi50: q(0.75), Mid: q(0.5), Color: svgplot.Aggregate}
		}
		rows = append(rows, forestRow{fmt.Sprintf("all %d artifacts (means)", len(arts)), summary})
	}
	return rows, len(arts), len(keep)
}

// topicIntervals plots the topic effects T_t of fit f with their 95% and
// 50% credible intervals, topics ordered from hardest to easiest (Figure 4,
// bottom). Beyond maxTopicIntervals topics, topics evenly spread by rank are
// drawn.
func topicIntervals(f *result.FitResult) figure {
	fig := figure{Figure: htmlpage.Figure{ID: "fig-topics", Title: "Topic effects",
		Legend: []htmlpage.Key{{Class: "k-champion", Label: "topic effect: posterior mean, 50% and 95% credible intervals"}}}}
	if msg := fitMissing(f, "topic effects"); msg != "" {
		fig.Missing = msg
		return fig
	}
	if len(f.Topics) == 0 {
		fig.Missing = "The fit has no topic effects."
		return fig
	}
	topics := slices.Clone(f.Topics)
	slices.SortStableFunc(topics, func(a, b result.Effect) int { return cmp.Compare(float64(a.Mean), float64(b.Mean)) })
	keep := svgplot.Spread(len(topics), maxTopicIntervals)
	if len(keep) < len(topics) {
		fig.Notes = append(fig.Notes, fmt.Sprintf("%d topics: %d of them are drawn, evenly spread by rank of the posterior mean; result.json has every one.", len(topics), len(keep)))
	}
	iv := &svgplot.Intervals{Vertical: true, Width: vg.Points(0.9), Radius: vg.Points(1.6)}
	yr := svgplot.NewRange()
	names := make([]string, len(keep))
	for x, i := range keep {
		e := topics[i]
		iv.Items = append(iv.Items, svgplot.IntervalItem{At: float64(x), Lo: float64(e.Q2_5), Hi: float64(e.Q97_5),
			Lo50: float64(e.Q25), Hi50: float64(e.Q75), Mid: float64(e.Mean), Color: svgplot.Champion})
		yr.Add(float64(e.Q2_5), float64(e.Q97_5), float64(e.Mean))
		names[x] = svgplot.Label(e.Name, 20)
	}
	if yr.Empty() {
		fig.Missing = "No topic effect of this fit is a finite number."
		return fig
	}
	yr.Add(0)
	p := svgplot.New()
	p.Y.Min, p.Y.Max = yr.Padded(0.04)
	p.Y.Label.Text = "topic effect (higher is easier)"
	h := 260 + topicAxis(p, names, "topics, hardest to easiest", "topics by rank of the posterior mean, hardest to easiest")
	p.Add(&svgplot.RefLine{At: 0, Style: svgplot.Dashed(svgplot.Artifact)})
	p.Add(iv)
	w := topicPlotWidth(len(keep), 14)
	fig.Render(p, w, h, "Topic effects with 95% credible intervals")
	fig.Wide = w > svgplot.Width
	fig.Caption = "Posterior topic effects T_t (Benham et al., Figure 4, bottom): dot the posterior mean, thick line the 50% and thin line the 95% credible interval; low effects are hard topics, on which every system scores low."
	return fig
}

// riskByLossWeight plots the system effects of the champion and the
// challengers with their credible intervals in each fit of the run: the raw
// fit (w = 1) and the risk-adjusted fit at each loss weight (Figure 7). It
// needs at least one risk-adjusted fit.
func riskByLossWeight(r *result.Result, fits []labelledFit) figure {
	fig := figure{Figure: htmlpage.Figure{ID: "fig-loss-weight", Title: "System effects at each loss weight"}}
	risk := 0
	for _, lf := range fits {
		if lf.fit.Pool == result.PoolRiskAdjusted {
			risk++
		}
	}
	if risk == 0 {
		fig.Missing = noRiskFitReason(r)
		return fig
	}
	systems := append([]string{r.Data.Champion}, r.Data.Challengers...)
	K := len(fits)
	step := math.Min(0.8/float64(K), 0.3)
	iv := &svgplot.Intervals{Width: vg.Points(1), Radius: vg.Points(2)}
	xr := svgplot.NewRange()
	labels := make([]string, len(systems))
	n := len(systems)
	for i, s := range systems {
		y := float64(n - 1 - i)
		labels[n-1-i] = svgplot.Label(s, maxPlotLabel)
		if i == 0 {
			labels[n-1-i] += " (champion)"
		}
		for k, lf := range fits {
			e, ok := systemEffect(lf.fit, s)
			if !ok {
				continue
			}
			// The first fit at the top of the row.
			at := y + (float64(K-1)/2-float64(k))*step
			iv.Items = append(iv.Items, svgplot.IntervalItem{At: at, Lo: float64(e.Q2_5), Hi: float64(e.Q97_5),
				Lo50: float64(e.Q25), Hi50: float64(e.Q75), Mid: float64(e.Mean), Color: svgplot.FitColor(lf.color)})
			xr.Add(float64(e.Q2_5), float64(e.Q97_5), float64(e.Mean))
		}
	}
	if xr.Empty() {
		fig.Missing = "No system effect of these fits is a finite number."
		return fig
	}
	for _, lf := range fits {
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: fmt.Sprintf("k-fit%d", lf.color%len(svgplot.FitColors)), Label: lf.label})
	}
	xr.Add(0)
	p := svgplot.New()
	p.X.Min, p.X.Max = xr.Padded(0.04)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	p.Y.Tick.Marker = svgplot.NominalTicks(labels)
	p.Y.Tick.Length, p.Y.Width = 0, 0
	p.X.Label.Text = "system effect (higher is better; BRisk⁻ is its negation): mean, 50% and 95% credible intervals"
	p.Add(&svgplot.RefLine{At: 0, Vertical: true, Style: svgplot.Dashed(svgplot.Artifact)})
	for i := 1; i < n; i++ {
		p.Add(&svgplot.RefLine{At: float64(i) - 0.5, Style: draw.LineStyle{Color: color.RGBA{R: 0xe0, G: 0xe0, B: 0xe0, A: 0xff}, Width: vg.Points(0.5)}})
	}
	p.Add(iv)
	rowH := 8 + 9*K
	fig.Render(p, svgplot.Width, vg.Length(svgplot.Margin+rowH*n), "System effects with 95% credible intervals at each loss weight")
	fig.Caption = "System effects of the champion and the challengers in the hierarchical model fitted to the raw scores (w = 1) and to the risk-adjusted pool at each loss weight w of the run (Benham et al., Figure 7, drawn reward-positive: rightward is better). In the risk-adjusted pool the champion keeps its scores and every other system scores champion + d, losses in d counted w times; a challenger that falls behind the champion as w grows is riskier than its average suggests."
	return fig
}

// densityPlot draws the posterior density of δ = S_challenger − S_champion
// of every challenger of order in one fit (Figure 6): one panel per fit —
// the raw fit, and the risk-adjusted fit at each loss weight — so that the
// challengers share the axis of the quantity they are judged on, each in its
// colour.
func densityPlot(lf labelledFit, index int, order []string, colors map[string]int) figure {
	title := "δ on the raw scores: P(better) = P(δ > 0)"
	if lf.fit.Pool == result.PoolRiskAdjusted {
		title = "δ in the risk-adjusted pool, w = " + numfmt.G(lf.fit.LossWeight) + ": P(riskier) = P(δ < 0)"
	}
	if !lf.fit.Converged {
		title += " (not converged)"
	}
	fig := figure{Figure: htmlpage.Figure{ID: fmt.Sprintf("fig-density-%d", index), Title: title}}
	p := svgplot.New()
	xr, yr := svgplot.NewRange(), svgplot.NewRange()
	for _, name := range order {
		c, ok := comparison(lf.fit, name)
		if !ok || len(c.Density.X) < 2 || len(c.Density.X) != len(c.Density.Y) {
			continue
		}
		k := colors[name]
		cv := &svgplot.Curve{Style: draw.LineStyle{Color: svgplot.ChallengerColor(k), Width: vg.Points(1.5)}}
		for i := range c.Density.X {
			x, y := float64(c.Density.X[i]), float64(c.Density.Y[i])
			cv.X, cv.Y = append(cv.X, x), append(cv.Y, y)
			xr.Add(x)
			yr.Add(y)
		}
		p.Add(cv)
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: fmt.Sprintf("k-chal%d", k), Label: svgplot.Label(name, maxPlotLabel)})
	}
	if len(fig.Legend) == 0 || xr.Empty() || yr.Empty() {
		fig.Missing = "This fit has no posterior density of a challenger's difference to the champion."
		fig.Legend = nil
		return fig
	}
	xr.Add(0)
	yr.Add(0)
	p.Add(&svgplot.RefLine{At: 0, Vertical: true, Style: svgplot.Dashed(svgplot.Reference)})
	p.X.Min, p.X.Max = xr.Padded(0.03)
	p.Y.Min = 0
	_, p.Y.Max = yr.Padded(0.05)
	p.X.Label.Text = "δ = S(challenger) − S(champion)"
	p.Y.Label.Text = "posterior density"
	fig.Render(p, 480, 290, "Posterior densities of each challenger's difference to the champion in one fit")
	return fig
}

// predictivePlot draws, for one challenger, the 95% posterior predictive
// interval of every topic's score for the champion and for the challenger,
// their observed scores, and the challenger's topics at risk (Figure 8).
// In the risk-adjusted pool the challenger's scores are risk-adjusted
// (champion + d with losses counted w times).
func predictivePlot(challenger string, index, colorIndex int, lf labelledFit, champion string) figure {
	fig := figure{Figure: htmlpage.Figure{ID: fmt.Sprintf("fig-predictive-%d", index), Title: escape.PlainName(challenger) + " against the champion, per topic (" + lf.label + ")",
		Legend: []htmlpage.Key{{Class: "k-champion", Label: "champion"}, {Class: fmt.Sprintf("k-chal%d", colorIndex), Label: svgplot.Label(challenger, maxPlotLabel)}}}}
	chalColor := svgplot.ChallengerColor(colorIndex)
	f := lf.fit
	champ := map[string]result.Prediction{}
	var order []result.Prediction
	for _, pr := range f.Predictive {
		if pr.System == champion {
			champ[pr.Topic] = pr
			order = append(order, pr)
		}
	}
	chal := map[string]result.Prediction{}
	for _, pr := range f.Predictive {
		if pr.System == challenger {
			chal[pr.Topic] = pr
		}
	}
	if len(order) == 0 || len(chal) == 0 {
		fig.Missing = "The fit has no predictive intervals of this challenger and the champion."
		fig.Legend = nil
		return fig
	}
	atRisk := map[string]result.TopicAtRisk{}
	if tr, ok := topicsAtRisk(f, challenger); ok {
		for _, t := range tr.Topics {
			atRisk[t.Topic] = t
		}
		fig.Legend = append(fig.Legend, htmlpage.Key{Class: "k-at-risk", Label: fmt.Sprintf("topic at risk (observed difference below its %s predictive interval)", numfmt.Percent(tr.Level))})
		fig.AtRisk, fig.AtRiskKnown = tr.Topics, true
	}
	// Topics from the champion's lowest predicted score to its highest.
	slices.SortStableFunc(order, func(a, b result.Prediction) int { return cmp.Compare(float64(a.Mean), float64(b.Mean)) })
	if len(order) > maxPredictiveTopics {
		var risky, rest []result.Prediction
		for _, pr := range order {
			if _, ok := atRisk[pr.Topic]; ok {
				risky = append(risky, pr)
			} else {
				rest = append(rest, pr)
			}
		}
		// Every topic at risk (up to the cap), and others evenly spread.
		var kept []result.Prediction
		for _, i := range svgplot.Spread(len(risky), maxPredictiveTopics) {
			kept = append(kept, risky[i])
		}
		for _, i := range svgplot.Spread(len(rest), max(maxPredictiveTopics-len(kept), 2)) {
			kept = append(kept, rest[i])
		}
		slices.SortStableFunc(kept, func(a, b result.Prediction) int { return cmp.Compare(float64(a.Mean), float64(b.Mean)) })
		note := fmt.Sprintf("%d topics: %d of them are drawn, evenly spread by the champion's predicted score", len(order), len(kept))
		switch nr := min(len(risky), maxPredictiveTopics); {
		case nr == len(risky) && nr > 0:
			note += fmt.Sprintf(", every topic at risk (%d) among them", nr)
		case nr > 0:
			note += fmt.Sprintf(", %d of the %d topics at risk among them", nr, len(risky))
		}
		fig.Notes = append(fig.Notes, note+"; result.json has every one.")
		order = kept
	}

	const dodge = 0.18
	ivChamp := &svgplot.Intervals{Vertical: true, Width: vg.Points(1.1)}
	ivChal := &svgplot.Intervals{Vertical: true, Width: vg.Points(1.1)}
	obsChamp := &svgplot.Points{Color: svgplot.Champion, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
	obsChal := &svgplot.Points{Color: chalColor, Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
	ring := &svgplot.Points{Color: svgplot.AtRisk, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
	band := &svgplot.Bands{Half: 0.5, Color: svgplot.AtRiskBand}
	// The axis is scaled to the observed scores (and the lower ends of the
	// intervals of the topics at risk, which decide them): in a risk-adjusted
	// pool the predictive intervals are far wider than the scores, and an
	// axis holding them all would squeeze the points into a line.
	yr, ivr := svgplot.NewRange(), svgplot.NewRange()
	names := make([]string, len(order))
	for x, cp := range order {
		at := float64(x)
		names[x] = svgplot.Label(cp.Topic, 20)
		ivChamp.Items = append(ivChamp.Items, svgplot.IntervalItem{At: at - dodge, Lo: float64(cp.Lo), Hi: float64(cp.Hi),
			Lo50: math.NaN(), Hi50: math.NaN(), Mid: math.NaN(), Color: svgplot.Champion})
		obsChamp.X, obsChamp.Y = append(obsChamp.X, at-dodge), append(obsChamp.Y, float64(cp.Observed))
		yr.Add(float64(cp.Observed))
		ivr.Add(float64(cp.Lo), float64(cp.Hi))
		if cc, ok := chal[cp.Topic]; ok {
			ivChal.Items = append(ivChal.Items, svgplot.IntervalItem{At: at + dodge, Lo: float64(cc.Lo), Hi: float64(cc.Hi),
				Lo50: math.NaN(), Hi50: math.NaN(), Mid: math.NaN(), Color: chalColor})
			obsChal.X, obsChal.Y = append(obsChal.X, at+dodge), append(obsChal.Y, float64(cc.Observed))
			yr.Add(float64(cc.Observed))
			ivr.Add(float64(cc.Lo), float64(cc.Hi))
			if _, risky := atRisk[cp.Topic]; risky {
				yr.Add(float64(cc.Lo))
				band.At = append(band.At, at)
				ring.X, ring.Y = append(ring.X, at+dodge), append(ring.Y, float64(cc.Observed))
			}
		}
	}
	if yr.Empty() {
		yr = ivr // no observed score: the intervals alone
	}
	if yr.Empty() {
		fig.Missing = "No predictive interval of this challenger is a finite number."
		fig.Legend = nil
		return fig
	}
	p := svgplot.New()
	p.Y.Min, p.Y.Max = yr.Padded(0.08)
	if lo, hi := ivr.Bounds(); lo < p.Y.Min || hi > p.Y.Max {
		fig.Notes = append(fig.Notes, fmt.Sprintf("The axis is scaled to the observed scores; the predictive intervals reach from %s to %s and are cut at its edges.", numfmt.Dash.Fixed(lo, 2), numfmt.Dash.Fixed(hi, 2)))
	}
	p.Y.Label.Text = "score"
	if f.Pool == result.PoolRiskAdjusted {
		p.Y.Label.Text = "score (the challenger's risk-adjusted)"
	}
	h := 280 + topicAxis(p, names, "topics, by the champion's predicted score", "topics (rank by the champion's predicted score)")
	p.Add(band, ivChamp, ivChal, obsChamp, obsChal, ring)
	w := topicPlotWidth(len(order), 18)
	fig.Wide = w > svgplot.Width
	fig.Render(p, w, h, "Per-topic 95% predictive intervals of the champion and the challenger with the observed scores")
	return fig
}

// topicAxis lays out the x axis of len(names) topics side by side at 0, 1,
// …: up to maxTopicLabels of them are labelled with their names, written
// upwards (the axis titled named), and the height the names take is
// returned; more are labelled by rank (the axis titled ranked).
func topicAxis(p *plot.Plot, names []string, named, ranked string) vg.Length {
	p.X.Min, p.X.Max = -0.7, float64(len(names))-0.3
	f := svgplot.Font(topicPlotFontSize)
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font, p.X.Label.TextStyle.Font, p.Y.Label.TextStyle.Font = f, f, f, f
	if len(names) > maxTopicLabels {
		p.X.Label.Text = ranked
		p.X.Tick.Marker = rankTicks{}
		return 0
	}
	p.X.Label.Text = named
	p.X.Tick.Marker = svgplot.NominalTicks(names)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.X.Tick.Length = 2
	var longest vg.Length
	for _, n := range names {
		longest = max(longest, p.X.Tick.Label.Width(n))
	}
	return vg.Length(math.Ceil(float64(longest)))
}

// topicPlotFontSize is the size of every text of a per-topic plot (the
// topic names, the scores' ticks, the axes' titles): 13 units of a plot at
// most svgplot.Width (960) wide, which the page shrinks to fit a narrow
// window, are at least 10 px on screen down to 800 px windows (760 px of
// content: 13 × 760/960 = 10.3 px); a wider plot scrolls and is never
// shrunk. Chromium measures it (TestHTMLReportLayoutInChromium).
const topicPlotFontSize = 13

// rankTicks labels a topic axis by rank (1-based) every 1, 2 or 5 × 10^k
// topics, about eight labels in all.
type rankTicks struct{}

func (rankTicks) Ticks(lo, hi float64) []plot.Tick {
	n := hi - lo
	step := math.Pow(10, math.Floor(math.Log10(math.Max(n/8, 1))))
	for _, m := range []float64{1, 2, 5, 10} {
		if n/(m*step) <= 10 {
			step *= m
			break
		}
	}
	var out []plot.Tick
	for rank := step; rank-1 <= hi; rank += step {
		if rank-1 >= lo {
			out = append(out, plot.Tick{Value: rank - 1, Label: strconv.FormatFloat(rank, 'f', -1, 64)})
		}
	}
	return out
}

// topicPlotWidth is the width of a plot of n topics side by side: perTopic
// points each when their names are written under the axis, else a fixed
// width that shows the shape of the whole.
func topicPlotWidth(n, perTopic int) vg.Length {
	if n > maxTopicLabels {
		return svgplot.Width
	}
	return vg.Length(max(svgplot.Width, 120+perTopic*n))
}

// labelledFit is a fit with its name in the report and its colour index.
type labelledFit struct {
	fit   *result.FitResult
	label string
	color int
}

// drawableFits are the fits of r with effects to plot: the raw fit, then
// the risk-adjusted fits in increasing loss weight. Colours follow the
// position among all of r's fits, so that a fit keeps its colour from plot
// to plot.
func drawableFits(r *result.Result) []labelledFit {
	var out []labelledFit
	if r.Bayes != nil && r.Bayes.Unavailable == "" && len(r.Bayes.Systems) > 0 {
		out = append(out, labelledFit{r.Bayes, "raw scores (w = 1)", 0})
	}
	for k, f := range r.BRisk {
		if f == nil || f.Unavailable != "" || len(f.Systems) == 0 {
			continue
		}
		label := "BRisk, w = " + numfmt.G(f.LossWeight)
		if !f.Converged {
			label += " (not converged)"
		}
		out = append(out, labelledFit{f, label, k + 1})
	}
	if len(out) > 0 && !out[0].fit.Converged && out[0].fit.Pool == result.PoolRaw {
		out[0].label += " (not converged)"
	}
	return out
}

// noRiskFitReason says why a run has no risk-adjusted fit to plot.
func noRiskFitReason(r *result.Result) string {
	if len(r.BRisk) == 0 {
		return "No risk-adjusted (BRisk) fit in this run: no rule of the policy uses a brisk.* or topics_at_risk quantity."
	}
	var why []string
	for _, f := range r.BRisk {
		if f != nil && f.Unavailable != "" {
			why = append(why, fmt.Sprintf("at w = %s, %s", numfmt.G(f.LossWeight), strings.TrimSuffix(f.Unavailable, ".")))
		}
	}
	if len(why) == 0 {
		return "No risk-adjusted (BRisk) fit of this run has system effects to draw."
	}
	return "No risk-adjusted (BRisk) fit to draw: " + strings.Join(why, "; ") + "."
}

// fitMissing says why fit f has nothing to plot, or "".
func fitMissing(f *result.FitResult, what string) string {
	switch {
	case f == nil:
		return "No Bayesian fit on the raw scores in this run: no rule of the policy uses a bayes.* or rope.* quantity and no BRisk fit at w = 1 was made (a brisk.* or topics_at_risk rule with the risk sweep makes one), so there are no " + what + " to draw."
	case f.Unavailable != "":
		return "No Bayesian fit: " + strings.TrimSuffix(f.Unavailable, ".") + "."
	case len(f.Systems) == 0:
		return "The fit has no " + what + "."
	}
	return ""
}

func systemEffect(f *result.FitResult, name string) (result.Effect, bool) {
	for _, e := range f.Systems {
		if e.Name == name {
			return e, true
		}
	}
	return result.Effect{}, false
}

func comparison(f *result.FitResult, challenger string) (result.Comparison, bool) {
	for _, c := range f.Comparisons {
		if c.Challenger == challenger {
			return c, true
		}
	}
	return result.Comparison{}, false
}

// topicsAtRisk returns a challenger's topics at risk in f, at the 95% level
// when the fit has that level, else at the first level it has.
func topicsAtRisk(f *result.FitResult, challenger string) (result.TopicsAtRisk, bool) {
	var found []result.TopicsAtRisk
	for _, tr := range f.TopicsAtRisk {
		if tr.Challenger == challenger {
			found = append(found, tr)
		}
	}
	if len(found) == 0 {
		return result.TopicsAtRisk{}, false
	}
	for _, tr := range found {
		if tr.Level == 0.95 {
			return tr, true
		}
	}
	return found[0], true
}
