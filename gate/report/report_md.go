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
	"github.com/riskgate/riskgate/policies"
)

// The markdown report (report.md): GitHub-flavoured markdown sized for a
// pull-request comment. Every name and sentence that comes from the inputs
// or the result is escaped (escape.Markdown in markdown, htmlText inside
// <pre>), so that no run or topic name can inject markdown, HTML or an
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
}

var mdDefaultLimits = mdLimits{ruleRows: 200, challengers: 50, chartArtifacts: 10, topicsAtRisk: 15, lines: 30, text: 600}

func (l mdLimits) halved() mdLimits {
	return mdLimits{ruleRows: max(l.ruleRows/2, 10), challengers: max(l.challengers/2, 5), chartArtifacts: l.chartArtifacts / 2,
		topicsAtRisk: max(l.topicsAtRisk/2, 3), lines: max(l.lines/2, 5), text: max(l.text/2, 120)}
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
func mdName(s string) string { return escape.Markdown(escape.Clip(s, escape.MaxNameRunes)) }

// mdSentence escapes a sentence (a reason, a warning), cut to n runes.
func mdSentence(s string, n int) string { return escape.Markdown(escape.Clip(s, n)) }

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

// htmlText escapes s inside an HTML block such as <pre>: markup characters
// become entities (and so do ` and |, which mean nothing there but would if
// the block were ever read as markdown), and @ and # get a zero-width space
// so that GitHub links no mention or reference. Control characters are dropped.
func htmlText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '`':
			b.WriteString("&#96;")
		case r == '|':
			b.WriteString("&#124;")
		case r == '@' || r == '#':
			b.WriteRune(r)
			b.WriteString("&#8203;")
		case r < 0x20 || r == 0x7f:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// mdTable writes a GitHub pipe table; align holds 'l' or 'r' per column.
// Cells must already be escaped.
func mdTable(b *strings.Builder, align string, rows [][]string) {
	for i, row := range rows {
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
		if i == 0 {
			seps := make([]string, len(row))
			for k := range seps {
				seps[k] = ":---"
				if k < len(align) && align[k] == 'r' {
					seps[k] = "---:"
				}
			}
			b.WriteString("|" + strings.Join(seps, "|") + "|\n")
		}
	}
	b.WriteString("\n")
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
	fmt.Fprintf(b, "## %s riskgate: **%s**", verdictEmoji(string(r.Verdict)), r.Verdict)
	if len(d.Selected) > 0 {
		names := make([]string, len(d.Selected))
		for i, s := range d.Selected {
			names[i] = mdName(s)
		}
		b.WriteString(" — ship " + strings.Join(names, ", "))
	}
	if r.DryRun {
		fmt.Fprintf(b, " (dry run: would exit %d)", r.ExitStatus)
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
	fmt.Fprintf(b, "Policy **%s** · champion **%s** · %d challenger(s) · %d artifact(s) · %d topic(s)%s%s\n\n",
		mdName(r.Policy.Name), mdName(r.Data.Champion), len(r.Data.Challengers), len(r.Data.Artifacts), len(r.Data.Topics), measure, example)
	b.WriteString(mdSentence(d.Reason, lim.text*2) + "\n\n")
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

	mdRules(b, r, lim)
	mdRiskTable(b, r, lim)
	mdBayes(b, r, lim)
	mdBRisk(b, r, lim)
	mdDiagnostics(b, r, lim)
	mdProvenance(b, r, lim)
}

func mdRules(b *strings.Builder, r *result.Result, lim mdLimits) {
	d := r.Decision
	b.WriteString("### Rules\n\n")
	rows := [][]string{{"Challenger", "Verdict", "Rule", "Quantity", "Observed", "Bound", "Outcome", "Why"}}
	total := 0
	for _, c := range d.Challengers {
		for i, rr := range c.Rules {
			total++
			if len(rows)-1 >= lim.ruleRows {
				continue
			}
			name, verdict := "", ""
			if i == 0 {
				name = mdName(c.Name)
				if c.Selected {
					name = "**" + name + "**"
				}
				verdict = verdictEmoji(string(c.Verdict)) + " " + string(c.Verdict)
			}
			why := ""
			if rr.Outcome != policies.OutcomePass {
				why = mdSentence(rr.Reason, lim.text/2)
				if e := evidenceOf(r, c.Name, rr.Rule); e != nil {
					why += "; " + mdSentence(decideText(e), lim.text/2)
				}
				if rr.Waiver != nil && rr.Waiver.Note != "" {
					why += "; " + mdSentence(rr.Waiver.Note, lim.text/2)
				}
			}
			rows = append(rows, []string{name, verdict, mdName(rr.Rule), mdCode(rr.Query.String(), 120),
				mdSentence(observedText(rr.Observed, rr.Bound), 40), mdCode(rr.Bound.String(), 80),
				verdictEmoji(string(rr.Outcome)) + " " + string(rr.Outcome), why})
		}
	}
	mdTable(b, "llllrlll", rows)
	cutNote(b, total-(len(rows)-1), "rule results")
}

func mdRiskTable(b *strings.Builder, r *result.Result, lim mdLimits) {
	rt := r.RiskTable
	fmt.Fprintf(b, "### Risk measures (Table 3 view: losses count %s times; higher is better)\n\n", numfmt.G(rt.LossWeight))
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
	mdTable(b, "lrrrrrrrr", rows)
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
	b.WriteString("### System effects (hierarchical model, 95% credible intervals)\n\n")
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
	b.WriteString("<pre>\n" + drawChart(rows, htmlText) + "</pre>\n\n")
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
	mdTable(b, "lrrrl", rowsT)
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

// mdBRisk writes, for each BRisk fit, each challenger's difference to the
// champion in the risk-adjusted pool with P(riskier), and its topics at risk.
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

func mdBRisk(b *strings.Builder, r *result.Result, lim mdLimits) {
	for _, f := range r.BRisk {
		fmt.Fprintf(b, "### BRisk: losses count %s times\n\n", numfmt.G(f.LossWeight))
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
		mdTable(b, "lrrrr", rows)
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
			mdTable(b, "lrr", trows)
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
	mdTable(b, "llll", rows)

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
		mdTable(b, "llrrrrrrr", rows)
	}
	if len(r.Warnings) > 0 {
		b.WriteString("Warnings:\n\n")
		for _, w := range r.Warnings[:min(len(r.Warnings), lim.lines)] {
			b.WriteString("- " + mdSentence(w, lim.text) + "\n")
		}
		b.WriteString("\n")
		cutNote(b, len(r.Warnings)-min(len(r.Warnings), lim.lines), "warnings")
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
		{"riskgate", mdCode(p.ToolVersion, 80)},
		{"policy", fmt.Sprintf("%s (SHA-256 %s)", mdCode(p.PolicyFile, 200), mdCode(p.PolicySHA256, 64))},
		{"seed", fmt.Sprint(p.Seed)},
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
	mdTable(b, "ll", rows)
	b.WriteString("Replay:\n\n<pre>\n" + htmlText(escape.Clip(p.Command, 4000)) + "\n</pre>\n\n</details>\n")
}
