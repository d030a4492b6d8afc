package report

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/htmlpage"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/svgplot"
)

// The HTML report's summary (one row per challenger, its colour, its
// verdict and why) and worst regressions, which lead the page.

// htmlSummaryRow is one challenger's row of the page's summary.
type htmlSummaryRow struct {
	Name, Verdict, VerdictClass                   string
	Selected                                      bool
	Color                                         int // its index among the challengers: class k-chal<Color>
	Means, Diff, DiffPct, WTL, PBetter, Risk, Why string
	Rules                                         []string // the reason of each rule it did not pass
	WorstSegment                                  string   // its worst segment, "" without by: rules
	// Measures are its rows on the other measures a rule uses.
	Measures []htmlMeasureRow
}

// Span is how many rows the challenger's name spans: its numbers, one row
// per other measure, and its why across the table.
func (r htmlSummaryRow) Span() int { return 2 + len(r.Measures) }

// htmlMeasureRow is a challenger's change on another measure of the gate.
type htmlMeasureRow struct{ Label, Means, Diff, DiffPct, WTL string }

// htmlRegressionRow is one row of the regressions table.
type htmlRegressionRow struct {
	First                                      bool
	Span                                       int
	Challenger                                 string
	Color                                      int
	Topic, Champion, Score, Diff, AtRisk, Note string
}

// challengerIndex is the colour index of each challenger: its position in
// the data.
func challengerIndex(r *result.Result) map[string]int {
	m := map[string]int{}
	for i, c := range r.Data.Challengers {
		m[c] = i % len(svgplot.ChallengerColors)
	}
	return m
}

// challengerCSS gives the page's classes k-chal<k> the challengers'
// colours, k-loss the losses', and draws the summary's swatches.
func challengerCSS() template.CSS {
	var b strings.Builder
	b.WriteString(".swatch{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:6px;vertical-align:-1px;background:var(--k)}\n")
	for k, c := range svgplot.ChallengerColors {
		fmt.Fprintf(&b, ".k-chal%d{--k:%s}", k, svgplot.CSSColor(c))
	}
	fmt.Fprintf(&b, ".k-loss{--k:%s}.k-mark{--k:%s}\n", svgplot.CSSColor(svgplot.Loss), svgplot.CSSColor(atRiskMark))
	return template.CSS(b.String())
}

func htmlSummary(pg *htmlPage, r *result.Result, lim htmlLimits) {
	sum := newSummary(r)
	pg.RiskHead, pg.PBetterHead = sum.RiskHead, sum.PBetterHead
	pg.ChampionMeanHead = "Mean: " + htmlpage.Name(r.Data.Champion) + " → challenger"
	colors := challengerIndex(r)
	whys := map[string]challengerWhy{}
	for _, c := range reasons(r) {
		whys[c.Name] = c
	}
	for i, row := range sum.Rows {
		if i >= lim.riskRows {
			pg.SummaryLeft = len(sum.Rows) - i
			break
		}
		hr := htmlSummaryRow{Name: htmlpage.Name(row.Challenger), Verdict: string(row.Verdict), VerdictClass: verdictClass(string(row.Verdict)),
			Selected: row.Selected, Color: colors[row.Challenger],
			Means: meanText(row.ChampionMean) + " → " + meanText(row.Mean), Diff: numfmt.Signed(float64(row.Diff)), DiffPct: signedPct(float64(row.DiffPercent)),
			WTL: wtlText(row), PBetter: pBetterText(row), Risk: htmlpage.Sentence(sum.riskText(row), 80)}
		for _, m := range row.Measures {
			hr.Measures = append(hr.Measures, htmlMeasureRow{Label: htmlpage.Sentence(measureLabel(m), 200), Means: meanText(m.ChampionMean) + " → " + meanText(m.Mean),
				Diff: numfmt.Signed(float64(m.Diff)), DiffPct: signedPct(float64(m.DiffPercent)), WTL: measureWTL(m)})
		}
		c := whys[row.Challenger]
		hr.Why = htmlpage.Sentence(c.Reason, 600)
		if row.WorstSegment != nil {
			hr.WorstSegment = htmlpage.Sentence(row.WorstSegment.Text(), 600)
		}
		for _, w := range c.Rules {
			text := htmlpage.Sentence(w.Text, 600)
			if w.SameAs != nil {
				text = "as for " + htmlpage.Name(w.SameAs[0]) + " (" + htmlpage.Name(w.SameAs[1]) + ")"
			}
			hr.Rules = append(hr.Rules, htmlpage.Name(w.Rule)+" "+string(w.Outcome)+": "+text)
		}
		pg.Summary = append(pg.Summary, hr)
	}

	for _, g := range r.Regressions {
		if g.LossWeight > 0 {
			pg.AtRiskHead = "At risk (w = " + numfmt.G(g.LossWeight) + ")"
		}
	}
	if pg.AtRiskHead == "" {
		pg.AtRiskHead = "At risk"
	}
	for i, g := range r.Regressions {
		if i >= lim.riskRows {
			break
		}
		if len(g.Topics) == 0 {
			pg.Regressions = append(pg.Regressions, htmlRegressionRow{First: true, Span: 1, Challenger: htmlpage.Name(g.Challenger), Color: colors[g.Challenger],
				Note: "no topic lost"})
			continue
		}
		for k, t := range g.Topics {
			pg.Regressions = append(pg.Regressions, htmlRegressionRow{First: k == 0, Span: len(g.Topics), Challenger: htmlpage.Name(g.Challenger), Color: colors[g.Challenger],
				Topic: htmlpage.Name(t.Topic), Champion: num(t.Champion, 3), Score: num(t.Challenger, 3), Diff: num(t.Diff, 3), AtRisk: atRiskText(t.AtRisk)})
		}
	}
}
