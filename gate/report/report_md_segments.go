package report

import (
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/reportfmt"
)

// The markdown report's segments (rules per segment): above the fold, in
// six columns, each challenger's segments that did not pass (at most
// maxWorstSegments); every segment under <details>, one section per
// dimension.

// mdWorstSegments is the table, above the fold, of the segments that did
// not pass.
func mdWorstSegments(b *strings.Builder, r *result.Result, lim mdLimits) {
	views := segmentViews(r, mdName)
	rows := [][]string{{"Challenger", "Segment", "Topics", "Δ", "Interval", "Outcome"}}
	var notes []string
	shown := 0
	for _, v := range views {
		idx, left := v.worstRows(maxWorstSegments)
		if len(idx) == 0 {
			continue
		}
		if shown >= lim.challengers {
			notes = append(notes, fmt.Sprintf("%s: %d more", v.title(mdName), len(idx)+left))
			continue
		}
		shown++
		for k, i := range idx {
			name := ""
			if k == 0 {
				name = mdName(v.Challenger)
			}
			row := v.Rows[i]
			rows = append(rows, []string{name, mdName(v.Dimension) + "=" + row[0], row[1], row[v.DeltaCol], row[v.DeltaCol+1],
				verdictEmoji(string(v.Outcomes[i])) + " " + string(v.Outcomes[i]) + " (" + mdRuleNames(v.OutcomeRules[i]) + ")"})
		}
		if left > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d more", v.title(mdName), left))
		}
	}
	if len(rows) == 1 {
		return
	}
	b.WriteString("**Worst segments**, those that did not pass (Δ = challenger − champion; interval: " + views[0].IntervalHead + "):\n\n")
	reportfmt.PipeTable(b, mdAlign("llrrrl", rows), rows)
	if len(notes) > 0 {
		b.WriteString("_Segments that did not pass, not shown: " + strings.Join(notes, "; ") + " (below, and in result.json)._\n\n")
	}
}

// mdSegments is every segment table, under <details>, one per dimension.
func mdSegments(b *strings.Builder, r *result.Result, lim mdLimits) {
	views := segmentViews(r, mdName)
	for _, t := range r.Segments {
		mdDetails(b, "Segments by "+t.Dimension, func() {
			shown := 0
			for _, v := range views {
				if v.Dimension != t.Dimension {
					continue
				}
				if shown >= lim.challengers {
					continue
				}
				shown++
				fmt.Fprintf(b, "**%s** − champion by %s:\n\n", mdName(v.Challenger), mdName(v.Dimension))
				head := make([]string, len(v.Head))
				for i, h := range v.Head {
					head[i] = mdSentence(h, 200)
				}
				rows := [][]string{head}
				for i, row := range v.Rows {
					if i >= lim.segmentRows {
						break
					}
					cells := append([]string(nil), row...)
					cells[len(cells)-2] = verdictEmoji(string(v.Outcomes[i])) + " " + cells[len(cells)-2]
					rows = append(rows, cells)
				}
				reportfmt.PipeTable(b, mdAlign(v.Align, rows), rows)
				cutNote(b, len(v.Rows)-(len(rows)-1), "segments")
			}
			cutNote(b, countDimension(views, t.Dimension)-shown, "challengers")
			for _, v := range views {
				if v.Dimension == t.Dimension {
					b.WriteString(mdSentence(v.Note, 2000) + "\n\n")
					break
				}
			}
		})
	}
}

// countDimension is how many views are of dimension.
func countDimension(views []segmentView, dimension string) int {
	n := 0
	for _, v := range views {
		if v.Dimension == dimension {
			n++
		}
	}
	return n
}

// mdRuleNames lists rule names for a cell.
func mdRuleNames(rules []string) string {
	names := make([]string, len(rules))
	for i, rule := range rules {
		names[i] = mdName(rule)
	}
	return strings.Join(names, ", ")
}
