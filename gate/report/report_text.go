package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// Text writes the terminal report: the verdict, the summary (one row per
// challenger), each challenger's reasons, its worst regressions, one row per
// rule per challenger, and counts of notes and warnings. color adds ANSI colours to verdicts and outcomes.
func Text(w io.Writer, r *result.Result, color bool) {
	paint := func(s, word string) string {
		if c := verdictColor(word); color && c != "" {
			return "\x1b[" + c + "m" + s + "\x1b[0m"
		}
		return s
	}
	bold := func(s string) string {
		if color {
			return "\x1b[1m" + s + "\x1b[0m"
		}
		return s
	}
	d := r.Decision
	head := fmt.Sprintf("riskgate gate: %s", strings.ToUpper(string(r.Verdict())))
	if r.DryRun {
		head += fmt.Sprintf(" (dry run: would exit %d)", r.ExitStatus())
	}
	fmt.Fprintf(w, "%s  policy %s; champion %s; %d challenger(s), %d artifact(s)%s, %d topic(s)\n",
		paint(bold(head), string(r.Verdict())), escape.PlainName(r.Policy.Name), escape.PlainName(r.Data.Champion),
		len(r.Data.Challengers), len(r.Data.Artifacts), poolNote(r, escape.PlainName), len(r.Data.Topics))
	if wt := r.WeightingText(); wt != "" {
		fmt.Fprintf(w, "weighted: %s\n", plainSentence(wt))
	}
	fmt.Fprintf(w, "%s\n", plainSentence(shortReason(r, d.Reason)))
	if len(d.Selected) > 0 {
		names := make([]string, len(d.Selected))
		for i, s := range d.Selected {
			names[i] = escape.PlainName(s)
		}
		fmt.Fprintf(w, "ship: %s\n", strings.Join(names, ", "))
	}
	if text := CoverageText(r); text != "" {
		fmt.Fprintf(w, "%s\n", plainSentence(text))
	}
	if r.Judgments != nil {
		fmt.Fprintf(w, "needs judgments: %s\n", plainSentence(JudgmentsText(r.Judgments)))
	}

	// The summary first; the verdict is the last column, so that its
	// colour codes do not count in any padding.
	sum := newSummary(r)
	rows := [][]string{{"challenger", "champion mean", "mean", "Δ", "Δ%", "W/T/L", sum.PBetterHead, sum.RiskHead, "verdict"}}
	for _, row := range sum.Rows {
		verdict := paint(string(row.Verdict), string(row.Verdict))
		if row.Selected {
			verdict += " (ship)"
		}
		rows = append(rows, []string{escape.PlainName(row.Challenger), meanText(row.ChampionMean), meanText(row.Mean), numfmt.Signed(float64(row.Diff)),
			signedPct(float64(row.DiffPercent)), wtlText(row), pBetterText(row), sum.riskText(row), verdict})
		for _, m := range row.Measures {
			rows = append(rows, []string{"  " + escape.PlainName(measureLabel(m)), meanText(m.ChampionMean), meanText(m.Mean), numfmt.Signed(float64(m.Diff)),
				signedPct(float64(m.DiffPercent)), measureWTL(m), "–", "–", ""})
		}
	}
	fmt.Fprintln(w)
	reportfmt.Table(w, false, "lrrrrrrr", rows)

	fmt.Fprintln(w)
	worst := map[string]string{}
	for _, row := range sum.Rows {
		worst[row.Challenger] = worstSegmentText(row)
	}
	for _, c := range reasons(r) {
		mark := ""
		if c.Selected {
			mark = " (ship)"
		}
		fmt.Fprintf(w, "%s: %s%s — %s\n", escape.PlainName(c.Name), paint(string(c.Verdict), string(c.Verdict)), mark, plainSentence(c.Reason))
		if ws := worst[c.Name]; ws != "" {
			fmt.Fprintf(w, "  %s\n", plainSentence(ws))
		}
		for _, rw := range c.Rules {
			text := plainSentence(rw.Text)
			if rw.SameAs != nil {
				text = "as for " + escape.PlainName(rw.SameAs[0]) + "'s " + escape.PlainName(rw.SameAs[1])
			}
			fmt.Fprintf(w, "  %s %s: %s\n", escape.PlainName(rw.Rule), rw.Outcome, text)
		}
	}

	if regs := r.Regressions; len(regs) > 0 {
		fmt.Fprintf(w, "\nworst regressions (Δ = challenger − champion)%s\n", atRiskNote(regs))
		rows = [][]string{{"challenger", "topic", "champion", "challenger", "Δ", "at risk"}}
		for _, g := range regs {
			for i, t := range g.Topics {
				name := ""
				if i == 0 {
					name = escape.PlainName(g.Challenger)
				}
				rows = append(rows, []string{name, escape.PlainName(t.Topic), num(t.Champion, 3), num(t.Challenger, 3), num(t.Diff, 3), atRiskText(t.AtRisk)})
			}
			if len(g.Topics) == 0 {
				rows = append(rows, []string{escape.PlainName(g.Challenger), "none lost", "", "", "", ""})
			}
		}
		reportfmt.Table(w, false, "llrrrl", rows)
	}

	textSegments(w, r)

	rows = [][]string{{"challenger", "rule", "quantity", "observed", "bound", "outcome"}}
	for _, c := range d.Challengers {
		for i, rr := range c.Rules {
			name := ""
			if i == 0 {
				name = escape.PlainName(c.Name)
			}
			quantity := escape.PlainName(r.RuleLabel(rr))
			if seg := ruleSegmentsText(rr); seg != "" {
				quantity += " " + plainSentence(seg)
			}
			rows = append(rows, []string{name, escape.PlainName(rr.Rule), quantity, result.RuleObserved(rr), rr.Bound.String(),
				paint(string(rr.Outcome), string(rr.Outcome))})
		}
	}
	fmt.Fprintln(w, "\nrules")
	reportfmt.Table(w, false, "", rows)
	for _, u := range d.Unmet {
		fmt.Fprintf(w, "requirement %s not met: %s\n", u.Requirement, plainSentence(u.Reason))
	}
	for _, n := range d.Notes {
		fmt.Fprintf(w, "note: %s\n", plainSentence(n))
	}
	if n := r.WarningsLabel(); n != "" {
		fmt.Fprintf(w, "%s; the markdown report (--format md) and result.json list them\n", n)
	}
}

// atRiskNote says where the at-risk flags of regressions come from.
func atRiskNote(regs []result.Regressions) string {
	for _, g := range regs {
		if g.LossWeight > 0 {
			return "; at risk: among the model's topics at risk at w = " + numfmt.G(g.LossWeight)
		}
	}
	return ""
}

// atRiskText prints an at-risk flag: yes, no, or – when no model flags topics.
func atRiskText(b *bool) string {
	switch {
	case b == nil:
		return "–"
	case *b:
		return "yes"
	}
	return "no"
}

// plainSentence prepares a sentence for a terminal (escape.Printable), cut
// at a paragraph's length rather than a name's.
func plainSentence(s string) string { return escape.Printable(escape.Clip(s, 2000)) }

// textSegments writes each challenger's segment table, per dimension.
// The outcomes are not coloured: colour codes would count in the padding
// of the rules column after them.
func textSegments(w io.Writer, r *result.Result) {
	views := segmentViews(r, escape.PlainName)
	for i, v := range views {
		if i == 0 || views[i-1].Dimension != v.Dimension {
			fmt.Fprintf(w, "\nsegments by %s\n", escape.PlainName(v.Dimension))
		}
		fmt.Fprintf(w, "%s − champion:\n", escape.PlainName(v.Challenger))
		rows := append([][]string{v.Head}, v.Rows...)
		reportfmt.Table(w, false, v.Align, rows)
		if i == len(views)-1 || views[i+1].Dimension != v.Dimension {
			fmt.Fprintln(w, plainSentence(v.Note))
		}
	}
}
