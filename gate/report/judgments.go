package report

import (
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
)

// JudgmentsText says in words what the worklist of the rules that need
// judgments holds: which rules, how many unjudged documents could change
// them (judging them would decide those rules), and the file.
func JudgmentsText(j *result.JudgmentsNeeded) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d rule outcome(s) depend on documents the qrels have not judged (%s). ", len(j.Rules), strings.Join(j.Rules, ", "))
	fmt.Fprintf(&b, "At most %d judgments would decide them: the unjudged documents the champion or these challengers rank within the depth %s reads whose label can move a score (%d unjudged there in all).",
		j.Movable, strings.Join(j.Measures, " and "), j.Unjudged)
	if j.File != "" {
		fmt.Fprintf(&b, " %s lists the %d most influential first: fill in their label and run the gate again with --judgments %s.", j.File, j.Listed, j.File)
	} else {
		b.WriteString(" With --out, the gate writes them to judgments-needed.tsv, the most influential first.")
	}
	return b.String()
}
