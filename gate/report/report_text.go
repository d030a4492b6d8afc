package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/internal/escape"
)

// Text writes the terminal report: the verdict, why, one row per
// rule per challenger, each challenger's verdict, and counts of notes and
// warnings. color adds ANSI colours to verdicts and outcomes.
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
	head := fmt.Sprintf("riskgate gate: %s", strings.ToUpper(string(r.Verdict)))
	if r.DryRun {
		head += fmt.Sprintf(" (dry run: would exit %d)", r.ExitStatus)
	}
	fmt.Fprintf(w, "%s  policy %s; champion %s; %d challenger(s), %d artifact(s), %d topic(s)\n",
		paint(bold(head), string(r.Verdict)), escape.PlainName(r.Policy.Name), escape.PlainName(r.Data.Champion),
		len(r.Data.Challengers), len(r.Data.Artifacts), len(r.Data.Topics))
	fmt.Fprintf(w, "%s\n", plainSentence(d.Reason))
	if len(d.Selected) > 0 {
		names := make([]string, len(d.Selected))
		for i, s := range d.Selected {
			names[i] = escape.PlainName(s)
		}
		fmt.Fprintf(w, "ship: %s\n", strings.Join(names, ", "))
	}

	// The outcome is the last column, so that its colour codes do not
	// count in any padding.
	rows := [][]string{{"challenger", "rule", "quantity", "observed", "bound", "outcome"}}
	for _, c := range d.Challengers {
		for i, rr := range c.Rules {
			name := ""
			if i == 0 {
				name = escape.PlainName(c.Name)
			}
			rows = append(rows, []string{name, escape.PlainName(rr.Rule), rr.Quantity, observedText(rr.Observed, rr.Bound), rr.Bound.String(),
				paint(string(rr.Outcome), string(rr.Outcome))})
		}
	}
	fmt.Fprintln(w)
	reportfmt.Table(w, false, "", rows)

	fmt.Fprintln(w)
	for _, c := range d.Challengers {
		mark := ""
		if c.Selected {
			mark = " (ship)"
		}
		fmt.Fprintf(w, "%s: %s%s — %s\n", escape.PlainName(c.Name), paint(string(c.Verdict), string(c.Verdict)), mark, plainSentence(c.Reason))
		for _, rr := range c.Rules {
			if e := evidenceOf(r, c.Name, rr.Rule); e != nil {
				fmt.Fprintf(w, "  %s %s: %s; %s\n", escape.PlainName(rr.Rule), rr.Outcome, plainSentence(rr.Reason), plainSentence(decideText(e)))
			}
		}
	}
	for _, u := range d.Unmet {
		fmt.Fprintf(w, "requirement %s not met: %s\n", u.Requirement, plainSentence(u.Reason))
	}
	for _, n := range d.Notes {
		fmt.Fprintf(w, "note: %s\n", plainSentence(n))
	}
	if n := len(r.Warnings); n > 0 {
		fmt.Fprintf(w, "%d warning(s); the markdown report (--format md) and result.json list them\n", n)
	}
}

// plainSentence prepares a sentence for a terminal (escape.Printable), cut
// at a paragraph's length rather than a name's.
func plainSentence(s string) string { return escape.Printable(escape.Clip(s, 2000)) }
