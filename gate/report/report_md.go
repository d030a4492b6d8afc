package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/reportfmt"
)

// The markdown report (report.md): GitHub-flavoured markdown sized for a
// pull-request comment. Above the fold, in at most six columns: the verdict,
// the summary, each challenger's reasons (each repeated reason once) and the
// worst regressions; everything else in <details>. Every name and sentence
// that comes from the inputs or the result is escaped (escape.MarkdownText
// in markdown, escape.HTMLText inside <pre> and <summary>), so that no run or topic name can inject markdown, HTML or an
// @-mention. Long lists are cut with a note saying how many were left out,
// and the whole stays under MaxMarkdownBytes.

// MaxMarkdownBytes bounds report.md: under GitHub's 65,536-character limit
// on comments and check-run summaries, with room for the sticky comment's marker.
const MaxMarkdownBytes = 60_000

// mdLimits cap the lists of the markdown report.
type mdLimits struct {
	ruleRows       int // rows of the rules table (rules × challengers)
	challengers    int // rows of the challenger, risk and comparison tables
	chartArtifacts int // artifacts drawn in the chart, best first
	topicsAtRisk   int // per challenger
	lines          int // warnings, notes, inputs
	text           int // runes of one sentence (a reason)
	segmentRows    int // rows of a challenger's segment table
}

var mdDefaultLimits = mdLimits{ruleRows: 200, challengers: 50, chartArtifacts: 10, topicsAtRisk: 15, lines: 30, text: 600, segmentRows: 100}

func (l mdLimits) halved() mdLimits {
	return mdLimits{ruleRows: max(l.ruleRows/2, 10), challengers: max(l.challengers/2, 5), chartArtifacts: l.chartArtifacts / 2,
		topicsAtRisk: max(l.topicsAtRisk/2, 3), lines: max(l.lines/2, 5), text: max(l.text/2, 120),
		segmentRows: max(l.segmentRows/2, 5)}
}

// Markdown writes the markdown report of r, at most MaxMarkdownBytes.
func Markdown(w io.Writer, r *result.Result) error {
	lim := mdDefaultLimits
	var s string
	for range 8 {
		var b strings.Builder
		mdReport(&b, r, lim)
		s = b.String()
		if len(s) < MaxMarkdownBytes {
			break
		}
		lim = lim.halved()
	}
	if len(s) >= MaxMarkdownBytes {
		s = cutMarkdown(s)
	}
	_, err := io.WriteString(w, s)
	return err
}

// cutMarkdown cuts s at a line end under the limit, closes any <pre> or
// <details> left open, and says so.
func cutMarkdown(s string) string {
	const note = "\n\n_The report was cut here to fit in a comment; result.json has everything._\n"
	keep := s[:MaxMarkdownBytes-len(note)-64]
	if i := strings.LastIndexByte(keep, '\n'); i > 0 {
		keep = keep[:i+1]
	}
	if strings.Count(keep, "<pre>") > strings.Count(keep, "</pre>") {
		keep += "</pre>\n"
	}
	keep += note
	for range strings.Count(keep, "<details>") - strings.Count(keep, "</details>") {
		keep += "\n</details>\n"
	}
	return keep
}

// mdName escapes a run, topic or rule name for a markdown paragraph or table cell.
func mdName(s string) string { return escape.MarkdownText(escape.Clip(s, escape.MaxNameRunes)) }

// mdSentence escapes a sentence (a reason, a warning), cut to n runes.
func mdSentence(s string, n int) string { return escape.MarkdownText(escape.Clip(s, n)) }

// mdCell is mdSentence for a table cell that is usually a number: a number
// stays as it is (a cell starts no block).
func mdCell(s string, n int) string {
	if reportfmt.IsNumeric(s) {
		return s
	}
	return mdSentence(s, n)
}

// mdCode shows s as a code span in a table cell, in which GitHub interprets
// nothing: backticks and control characters are dropped, a pipe is escaped
// (GitHub splits cells at a pipe even inside a code span, and shows \| as
// |), and s is cut to n runes.
func mdCode(s string, n int) string {
	var b strings.Builder
	for _, r := range escape.Clip(s, n) {
		switch {
		case r == '|':
			b.WriteString(`\|`)
		case r != '`' && r >= 0x20 && r != 0x7f:
			b.WriteRune(r)
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		return "–"
	}
	return "`" + b.String() + "`"
}

// mdAlign is the separator row of a report table of rows
// (reportfmt.PipeTable), every column's alignment explicit: right where
// align holds 'r', left elsewhere.
func mdAlign(align string, rows [][]string) []string {
	if len(rows) == 0 {
		return nil
	}
	seps := make([]string, len(rows[0]))
	for k := range seps {
		seps[k] = ":---"
		if k < len(align) && align[k] == 'r' {
			seps[k] = "---:"
		}
	}
	return seps
}

// cutNote is the line saying how many items a list left out.
func cutNote(b *strings.Builder, left int, what string) {
	if left > 0 {
		fmt.Fprintf(b, "_… and %d more %s (result.json lists every one)._\n\n", left, what)
	}
}

func mdReport(b *strings.Builder, r *result.Result, lim mdLimits) {
	d := r.Decision
	// Banner.
	fmt.Fprintf(b, "## %s riskgate: **%s**", verdictEmoji(string(r.Verdict())), r.Verdict())
	if len(d.Selected) > 0 {
		names := make([]string, len(d.Selected))
		for i, s := range d.Selected {
			names[i] = mdName(s)
		}
		b.WriteString(" — ship " + strings.Join(names, ", "))
	}
	if r.DryRun {
		fmt.Fprintf(b, " (dry run: would exit %d)", r.ExitStatus())
	}
	b.WriteString("\n\n")
	measure := ""
	if r.Data.Measure != "" {
		measure = " of " + mdName(r.Data.Measure)
	}
	example := ""
	if r.Data.Example {
		example = " (the built-in simulated example)"
	}
	fmt.Fprintf(b, "Policy **%s** · champion **%s** · %d challenger(s) · %d artifact(s)%s · %d topic(s)%s%s\n\n",
		mdName(r.Policy.Name), mdName(r.Data.Champion), len(r.Data.Challengers), len(r.Data.Artifacts), poolNote(r, mdName), len(r.Data.Topics), measure, example)
	if wt := r.WeightingText(); wt != "" {
		b.WriteString("**Weighted:** " + mdSentence(wt, lim.text) + "\n\n")
	}
	b.WriteString(mdSentence(shortReason(r, d.Reason), lim.text*2) + "\n\n")
	for _, u := range d.Unmet {
		fmt.Fprintf(b, "- **requirement %s not met:** %s\n", mdName(u.Requirement), mdSentence(u.Reason, lim.text))
	}
	notes := d.Notes
	if len(notes) > lim.lines {
		notes = notes[:lim.lines]
	}
	for _, n := range notes {
		fmt.Fprintf(b, "- note: %s\n", mdSentence(n, lim.text))
	}
	if len(d.Unmet)+len(notes) > 0 {
		b.WriteString("\n")
	}
	cutNote(b, len(d.Notes)-len(notes), "notes")

	mdSummary(b, r, lim)
	mdJudgments(b, r)
	mdWhy(b, r, lim)
	mdRegressions(b, r, lim)
	mdWorstSegments(b, r, lim)

	mdRules(b, r, lim)
	mdSegments(b, r, lim)
	mdDetails(b, "Risk measures (Table 3 view)", func() { mdRiskTable(b, r, lim) })
	if r.Bayes != nil {
		mdDetails(b, "System effects and differences to the champion (hierarchical model)", func() { mdBayes(b, r, lim) })
	}
	if len(r.BRisk) > 0 {
		ws := make([]string, len(r.BRisk))
		for i, f := range r.BRisk {
			ws[i] = numfmt.G(f.LossWeight)
		}
		mdDetails(b, "BRisk at each loss weight (w = "+strings.Join(ws, ", ")+") and topics at risk", func() { mdBRisk(b, r, lim) })
	}
	mdDiagnostics(b, r, lim)
	mdProvenance(b, r, lim)
}

// mdDetails writes a collapsed section: <details>, its summary line, a
// blank line (so that the markdown inside renders), body, and the close.
func mdDetails(b *strings.Builder, summary string, body func()) {
	b.WriteString("<details>\n<summary>" + escape.HTMLText(summary) + "</summary>\n\n")
	body()
	b.WriteString("</details>\n\n")
}

// mdSummary is the summary table: six columns, the verdict with the name.
func mdSummary(b *strings.Builder, r *result.Result, lim mdLimits) {
	sum := newSummary(r)
	if len(sum.Rows) == 0 {
		return
	}
	rows := [][]string{{"Challenger", "Mean: " + mdName(r.Data.Champion) + " → challenger", "Δ (Δ%)", "W/T/L", escape.MarkdownText(sum.PBetterHead), escape.MarkdownText(sum.RiskHead)}}
	for i, row := range sum.Rows {
		if i >= lim.challengers {
			break
		}
		name := mdName(row.Challenger)
		if row.Selected {
			name = "**" + name + "** (ship)"
		}
		rows = append(rows, []string{verdictEmoji(string(row.Verdict)) + " " + name, meanText(row.ChampionMean) + " → " + meanText(row.Mean),
			numfmt.Signed(float64(row.Diff)) + " (" + signedPct(float64(row.DiffPercent)) + ")", wtlText(row), pBetterText(row), sum.riskText(row)})
		// A gate of several measures: one row per other measure a rule uses.
		for _, m := range row.Measures {
			rows = append(rows, []string{"↳ " + escape.MarkdownText(measureLabel(m)), meanText(m.ChampionMean) + " → " + meanText(m.Mean),
				numfmt.Signed(float64(m.Diff)) + " (" + signedPct(float64(m.DiffPercent)) + ")", measureWTL(m), "–", "–"})
		}
	}
	reportfmt.PipeTable(b, mdAlign("lrrrrr", rows), rows)
	cutNote(b, len(sum.Rows)-(len(rows)-1), "challengers")
}

// mdWhy lists each challenger's verdict and the reason of every rule it did
// not pass, with what would decide it; a reason given before is referred to.
func mdWhy(b *strings.Builder, r *result.Result, lim mdLimits) {
	cs := reasons(r)
	worst := map[string]string{}
	for _, row := range result.NewSummary(r) {
		worst[row.Challenger] = worstSegmentText(row)
	}
	for i, c := range cs {
		if i >= lim.challengers {
			break
		}
		fmt.Fprintf(b, "- %s %s · **%s**", verdictEmoji(string(c.Verdict)), c.Verdict, mdName(c.Name))
		if c.Selected {
			b.WriteString(" (ship)")
		}
		b.WriteString(" — " + mdSentence(c.Reason, lim.text))
		if ws := worst[c.Name]; ws != "" {
			b.WriteString(" · " + mdSentence(ws, lim.text))
		}
		b.WriteString("\n")
		for _, w := range c.Rules {
			text := mdSentence(w.Text, lim.text)
			if w.SameAs != nil {
				text = "as for " + mdName(w.SameAs[0]) + " (" + mdName(w.SameAs[1]) + ")"
			}
			fmt.Fprintf(b, "  - %s %s: %s\n", mdName(w.Rule), w.Outcome, text)
		}
	}
	if len(cs) > 0 {
		b.WriteString("\n")
	}
	cutNote(b, len(cs)-min(len(cs), lim.challengers), "challengers")
}

// mdRegressions is the table of each challenger's worst topics.
func mdRegressions(b *strings.Builder, r *result.Result, lim mdLimits) {
	if len(r.Regressions) == 0 {
		return
	}
	atRisk := "At risk"
	for _, g := range r.Regressions {
		if g.LossWeight > 0 {
			atRisk = "At risk (w = " + numfmt.G(g.LossWeight) + ")"
		}
	}
	b.WriteString("**Worst regressions**, the topics each challenger loses most on (Δ = challenger − champion):\n\n")
	rows := [][]string{{"Challenger", "Topic", mdName(r.Data.Champion), "Challenger", "Δ", atRisk}}
	shown := 0
	for _, g := range r.Regressions {
		if shown >= lim.challengers {
			break
		}
		shown++
		for i, t := range g.Topics {
			name := ""
			if i == 0 {
				name = mdName(g.Challenger)
			}
			rows = append(rows, []string{name, mdName(t.Topic), num(t.Champion, 3), num(t.Challenger, 3), num(t.Diff, 3), atRiskText(t.AtRisk)})
		}
		if len(g.Topics) == 0 {
			rows = append(rows, []string{mdName(g.Challenger), "none lost", "", "", "", ""})
		}
	}
	reportfmt.PipeTable(b, mdAlign("llrrrl", rows), rows)
	cutNote(b, len(r.Regressions)-shown, "challengers")
}

func mdRules(b *strings.Builder, r *result.Result, lim mdLimits) {
	d := r.Decision
	b.WriteString("<details>\n<summary>All rules</summary>\n\n")
	rows := [][]string{{"Challenger", "Rule", "Quantity", "Observed", "Bound", "Outcome"}}
	total := 0
	for _, c := range d.Challengers {
		for i, rr := range c.Rules {
			total++
			if len(rows)-1 >= lim.ruleRows {
				continue
			}
			name := ""
			if i == 0 {
				name = mdName(c.Name)
			}
			query := mdSentence(rr.Query.String(), 120)
			if seg := ruleSegmentsText(rr); seg != "" {
				query += " — " + mdSentence(seg, 200)
			}
			rows = append(rows, []string{name, mdName(rr.Rule), query,
				mdCell(result.RuleObserved(rr), 60), mdSentence(rr.Bound.String(), 80),
				verdictEmoji(string(rr.Outcome)) + " " + string(rr.Outcome)})
		}
	}
	reportfmt.PipeTable(b, mdAlign("lllrll", rows), rows)
	cutNote(b, total-(len(rows)-1), "rule results")
	b.WriteString("</details>\n\n")
}

func mdRiskTable(b *strings.Builder, r *result.Result, lim mdLimits) {
	rt := r.RiskTable
	fmt.Fprintf(b, "Losses count %s times; higher is better.\n\n", numfmt.G(rt.LossWeight))
	header := []string{"System", "Mean", "W/T/L", "URisk", "TRisk"}
	hasBCa, hasBRisk := false, false
	for _, s := range rt.Systems {
		hasBCa = hasBCa || s.BCa != nil
		hasBRisk = hasBRisk || s.BRisk != nil
	}
	if hasBCa {
		header = append(header, "BCa "+numfmt.Percent(rt.BCaLevel))
	}
	header = append(header, "ZRisk", "GeoRisk")
	if hasBRisk {
		header = append(header, "BRisk 95%")
	}
	rows := [][]string{header}
	for i, s := range rt.Systems {
		if i > lim.challengers {
			break
		}
		name := mdName(s.Name)
		if s.Role == result.RoleChampion {
			name += " (champion)"
		}
		wtl := "–"
		if s.Wins != nil {
			wtl = fmt.Sprintf("%d/%d/%d", *s.Wins, *s.Ties, *s.Losses)
		}
		row := []string{name, num(s.Mean, 3), wtl, numPtr(s.URisk, 3), numPtr(s.TRisk, 2)}
		if hasBCa {
			row = append(row, intervalText(s.BCa))
		}
		row = append(row, numPtr(s.ZRisk, 2), numPtr(s.GeoRisk, 3))
		if hasBRisk {
			row = append(row, intervalText(s.BRisk))
		}
		rows = append(rows, row)
	}
	reportfmt.PipeTable(b, mdAlign("lrrrrrrrr", rows), rows)
	cutNote(b, len(rt.Systems)-(len(rows)-1), "challengers")
	fmt.Fprintf(b, "URisk, TRisk and BCa against the champion; ZRisk and GeoRisk over the %s. Benham et al.'s \"⁻\" columns are the negations.\n\n", rt.Pool)
}

// intervalText prints "est [lo, hi]", or "–".
func intervalText(i *result.Interval) string {
	if i == nil {
		return "–"
	}
	return fmt.Sprintf("%s [%s, %s]", num(i.Estimate, 3), num(i.Lo, 3), num(i.Hi, 3))
}

func mdBayes(b *strings.Builder, r *result.Result, lim mdLimits) {
	f := r.Bayes
	if f == nil {
		return
	}
	b.WriteString("95% credible intervals of each system's effect.\n\n")
	if !mdFitStatus(b, f, lim) {
		return
	}
	// The chart: champion, challengers, then the best artifacts.
	var rows []chartRow
	var arts []result.Effect
	shownChal := 0
	for _, e := range f.Systems {
		switch e.Role {
		case result.RoleArtifact:
			arts = append(arts, e)
			continue
		case result.RoleChallenger:
			if shownChal >= lim.challengers {
				continue
			}
			shownChal++
		}
		rows = append(rows, effectRow(e))
	}
	slices.SortStableFunc(arts, func(a, c result.Effect) int { return cmpDesc(float64(a.Mean), float64(c.Mean)) })
	for _, e := range arts[:min(len(arts), lim.chartArtifacts)] {
		rows = append(rows, effectRow(e))
	}
	// Champion first, then challengers, in data order: Systems is in data order.
	slices.SortStableFunc(rows, func(a, c chartRow) int { return a.order - c.order })
	b.WriteString("<pre>\n" + drawChart(rows, escape.HTMLText) + "</pre>\n\n")
	legend := "─ 95% interval, ━ 50% interval, ● posterior mean, · zero."
	if left := len(arts) - min(len(arts), lim.chartArtifacts); left > 0 {
		legend += fmt.Sprintf(" The %d best artifacts are drawn; %d more are in result.json.", min(len(arts), lim.chartArtifacts), left)
	}
	b.WriteString(legend + "\n\n")

	rowsT := [][]string{{"Challenger", "P(better than champion)", "Difference δ", "95% interval"}}
	hasROPE := false
	for _, c := range f.Comparisons {
		hasROPE = hasROPE || len(c.ROPE) > 0
	}
	if hasROPE {
		rowsT[0] = append(rowsT[0], "ROPE decision")
	}
	for i, c := range f.Comparisons {
		if i >= lim.challengers {
			break
		}
		lo, hi := c.Interval(0.95)
		row := []string{mdName(c.Challenger), numfmt.Dash.P(float64(c.PBetter)), num(c.Diff.Mean, 4), fmt.Sprintf("[%s, %s]", num(jsonfloat.Float(lo), 4), num(jsonfloat.Float(hi), 4))}
		if hasROPE {
			var ds []string
			for _, rp := range c.ROPE {
				ds = append(ds, fmt.Sprintf("%s in [%s, %s]", rp.Decision, numfmt.G(rp.Lo), numfmt.G(rp.Hi)))
			}
			row = append(row, mdSentence(strings.Join(ds, "; "), 200))
		}
		rowsT = append(rowsT, row)
	}
	reportfmt.PipeTable(b, mdAlign("lrrrl", rowsT), rowsT)
	cutNote(b, len(f.Comparisons)-(len(rowsT)-1), "challengers")
}

func effectRow(e result.Effect) chartRow {
	label := e.Name
	if e.Role == result.RoleChampion {
		label += " (champion)"
	}
	order := 2 // champion, challengers, then artifacts
	switch e.Role {
	case result.RoleChampion:
		order = 0
	case result.RoleChallenger:
		order = 1
	}
	return chartRow{Label: label, Mean: float64(e.Mean), Lo: float64(e.Q2_5), Hi: float64(e.Q97_5), Lo50: float64(e.Q25), Hi50: float64(e.Q75), order: order}
}

func cmpDesc(a, c float64) int {
	switch {
	case a > c:
		return -1
	case a < c:
		return 1
	}
	return 0
}

// mdFitStatus says when a fit is missing (and reports false: nothing more to
// show) or did not converge.
func mdFitStatus(b *strings.Builder, f *result.FitResult, lim mdLimits) bool {
	if f.Unavailable != "" {
		fmt.Fprintf(b, "_No fit: %s._\n\n", mdSentence(f.Unavailable, lim.text))
		return false
	}
	if !f.Converged {
		b.WriteString("**The fit did not converge: its rules are inconclusive** (see Diagnostics).\n\n")
	}
	return true
}

// mdBRisk writes, for each BRisk fit, each challenger's difference to the
// champion in the risk-adjusted pool with P(riskier), and its topics at risk.
func mdBRisk(b *strings.Builder, r *result.Result, lim mdLimits) {
	for _, f := range r.BRisk {
		fmt.Fprintf(b, "**Losses count %s times**\n\n", numfmt.G(f.LossWeight))
		if !mdFitStatus(b, f, lim) {
			continue
		}
		atRisk := map[string]result.TopicsAtRisk{}
		for _, tr := range f.TopicsAtRisk {
			if tr.Level == result.PredictiveLevel {
				atRisk[tr.Challenger] = tr
			}
		}
		rows := [][]string{{"Challenger", "P(riskier than champion)", "Difference δ", "95% interval", "Topics at risk"}}
		for i, c := range f.Comparisons {
			if i >= lim.challengers {
				break
			}
			lo, hi := c.Interval(0.95)
			n := "–"
			if tr, ok := atRisk[c.Challenger]; ok {
				n = fmt.Sprint(len(tr.Topics))
			}
			rows = append(rows, []string{mdName(c.Challenger), numfmt.Dash.P(float64(c.PWorse)), num(c.Diff.Mean, 4),
				fmt.Sprintf("[%s, %s]", num(jsonfloat.Float(lo), 4), num(jsonfloat.Float(hi), 4)), n})
		}
		reportfmt.PipeTable(b, mdAlign("lrrrr", rows), rows)
		cutNote(b, len(f.Comparisons)-(len(rows)-1), "challengers")
		b.WriteString("δ is the challenger's system effect minus the champion's in the risk-adjusted pool; a topic is at risk when its risk-adjusted difference falls below its 95% posterior predictive interval.\n\n")

		shown := 0
		for _, c := range f.Comparisons {
			tr, ok := atRisk[c.Challenger]
			if !ok || len(tr.Topics) == 0 {
				continue
			}
			if shown >= lim.challengers {
				break
			}
			shown++
			fmt.Fprintf(b, "Topics at risk of **%s**:\n\n", mdName(tr.Challenger))
			trows := [][]string{{"Topic", "Risk-adjusted difference", "Predictive interval"}}
			for _, t := range tr.Topics[:min(len(tr.Topics), lim.topicsAtRisk)] {
				trows = append(trows, []string{mdName(t.Topic), num(t.Observed, 3), fmt.Sprintf("[%s, %s]", num(t.Lo, 3), num(t.Hi, 3))})
			}
			reportfmt.PipeTable(b, mdAlign("lrr", trows), trows)
			cutNote(b, len(tr.Topics)-(len(trows)-1), "topics")
		}
	}
}

func mdDiagnostics(b *strings.Builder, r *result.Result, lim mdLimits) {
	b.WriteString("<details>\n<summary>Diagnostics</summary>\n\n")
	rows := [][]string{{"Analysis", "Needed", "Computed", "Note"}}
	for _, a := range r.Analyses {
		rows = append(rows, []string{string(a.Name), yesNo(a.Needed), yesNo(a.Computed), mdSentence(a.Reason, lim.text)})
	}
	reportfmt.PipeTable(b, mdAlign("llll", rows), rows)

	rows = [][]string{{"Fit", "Converged", "Chains × draws", "Worst R-hat", "Worst bulk-ESS", "Worst tail-ESS", "Divergences", "Max-depth hits", "Lowest E-BFMI"}}
	for _, f := range r.Fits() {
		if f.Diagnostics == nil {
			continue
		}
		dg := f.Diagnostics
		name := f.Label()
		ebfmi := math.Inf(1)
		for _, e := range dg.EBFMI {
			ebfmi = math.Min(ebfmi, float64(e))
		}
		rows = append(rows, []string{name, yesNo(f.Converged), fmt.Sprintf("%d × %d", dg.Chains, dg.Draws),
			fmt.Sprintf("%s (≤ %s)", num(dg.WorstRhat, 4), numfmt.G(dg.MaxRhat)),
			fmt.Sprintf("%s (≥ %s)", num(dg.WorstESSBulk, 0), numfmt.G(dg.TargetESS)), num(dg.WorstESSTail, 0),
			fmt.Sprint(dg.Divergences), fmt.Sprint(dg.MaxDepthHits), num(jsonfloat.Float(ebfmi), 2)})
	}
	if len(rows) > 1 {
		reportfmt.PipeTable(b, mdAlign("llrrrrrrr", rows), rows)
	}
	if n := r.WarningsLabel(); n != "" {
		b.WriteString(n + ", those concerning a rule first:\n\n")
		labels, texts := r.WarningList()
		for i, w := range texts[:min(len(texts), lim.lines)] {
			label := ""
			if labels[i] != "" {
				label = "(" + mdSentence(labels[i], 200) + ") "
			}
			b.WriteString("- " + label + mdSentence(w, lim.text) + "\n")
		}
		b.WriteString("\n")
		cutNote(b, len(texts)-min(len(texts), lim.lines), "warnings")
	}
	b.WriteString("</details>\n\n")
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func mdProvenance(b *strings.Builder, r *result.Result, lim mdLimits) {
	p := r.Provenance
	b.WriteString("<details>\n<summary>Provenance</summary>\n\n")
	rows := [][]string{{"Item", "Value"},
		{"riskgate", mdCode(r.Tool.Version, 80)},
		{"policy", fmt.Sprintf("%s (SHA-256 %s)", mdCode(r.Policy.File, 200), mdCode(r.Policy.SHA256, 64))},
		{"seed", fmt.Sprint(r.Policy.Seed)},
	}
	if s := p.Sampler; s != nil {
		rows = append(rows, []string{"sampler", fmt.Sprintf("NUTS, %s path, %s likelihood, %d chains, %d warmup, target ESS %d, max R-hat %s, adapt delta %s, max depth %d",
			mdSentence(s.Method, 40), mdSentence(s.Family, 40), s.Chains, s.Warmup, s.TargetESS, numfmt.G(s.MaxRhat), numfmt.G(s.AdaptDelta), s.MaxDepth)})
	}
	if p.BootstrapSamples > 0 {
		rows = append(rows, []string{"bootstrap", fmt.Sprintf("B = %d", p.BootstrapSamples)})
	}
	for i, in := range p.Inputs {
		if i >= lim.lines {
			rows = append(rows, []string{"", fmt.Sprintf("… and %d more inputs", len(p.Inputs)-i)})
			break
		}
		rows = append(rows, []string{mdSentence(in.Role, 20), fmt.Sprintf("%s (%d bytes, SHA-256 %s)", mdCode(in.Path, 200), in.Bytes, mdCode(in.SHA256, 64))})
	}
	rows = append(rows, []string{"started", mdCode(p.StartedAt, 40)}, []string{"elapsed", fmt.Sprintf("%d ms", p.ElapsedMS)})
	reportfmt.PipeTable(b, mdAlign("ll", rows), rows)
	b.WriteString("Replay:\n\n<pre>\n" + escape.HTMLText(escape.Clip(p.Command, 4000)) + "\n</pre>\n\n</details>\n")
}

// mdJudgments says which rules need judgments and how many judgments would
// decide them, naming the worklist file.
func mdJudgments(b *strings.Builder, r *result.Result) {
	if text := CoverageText(r); text != "" {
		b.WriteString(mdSentence(strings.ToUpper(text[:1])+text[1:], 2000) + "\n\n")
	}
	if j := r.Judgments; j != nil {
		b.WriteString("**" + verdictEmoji("needs judgments") + " Needs judgments:** " + mdSentence(JudgmentsText(j), 2000) + "\n\n")
	}
}
