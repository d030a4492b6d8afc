package report

import (
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// JudgmentsText says in words what the worklist of the rules that need
// judgments holds: which rules, how many unjudged documents could change
// them (judging them would decide those rules), and the file.
func JudgmentsText(j *result.JudgmentsNeeded) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d rule outcome(s) depend on documents the qrels have not judged (%s). ", len(j.Rules), strings.Join(j.Rules, ", "))
	fmt.Fprintf(&b, "At most %s judgments would decide them: the unjudged documents the champion or these challengers rank within the depth %s reads whose label can move a score (%s unjudged there in all).",
		numfmt.Thousands(j.Movable), strings.Join(j.Measures, " and "), numfmt.Thousands(j.Unjudged))
	if j.File != "" {
		fmt.Fprintf(&b, " %s lists the %s most influential first: fill in their label and run the gate again with --judgments %s.", j.File, numfmt.Thousands(j.Listed), j.File)
	} else {
		b.WriteString(" With --out, the gate writes them to judgments-needed.tsv, the most influential first.")
	}
	return b.String()
}

// CoverageText says, for each measure with a cutoff k, how much of the top
// k of the champion and of each challenger the qrels judge (judged@k), the
// challengers' difference from the champion beside theirs; "" without
// coverage.
func CoverageText(r *result.Result) string {
	var parts []string
	for _, c := range r.Coverage {
		var systems []string
		champ, ok := c.Judged[r.Data.Champion]
		if ok {
			systems = append(systems, fmt.Sprintf("%s (champion) %.3f", escape.PlainName(r.Data.Champion), float64(champ)))
		}
		for _, name := range r.Data.Challengers {
			v, has := c.Judged[name]
			if !has {
				continue
			}
			text := fmt.Sprintf("%s %.3f", escape.PlainName(name), float64(v))
			if ok {
				text += " (" + numfmt.Signed(float64(v-champ)) + ")"
			}
			systems = append(systems, text)
		}
		parts = append(parts, fmt.Sprintf("judged@%d of %s: %s", c.K, escape.PlainName(c.Measure), strings.Join(systems, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "coverage (the share of each top k the qrels judge): " + strings.Join(parts, "; ")
}
