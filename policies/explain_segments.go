package policies

import (
	"fmt"
	"strings"
)

// segmentWords says in words how a by: rule is judged: where its quantity
// comes from in each segment, how the segments combine (the rule's
// semantics, with its error control) and what a small segment does.
func (p *Policy) segmentWords(r *Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "In every segment of %s (a dimension of the topics file): ", r.By)
	switch r.Quantity.Analysis {
	case AnalysisBayes:
		b.WriteString("the value is read off the segment's difference δ_g in the partially pooled segment model, fitted once on the whole table " +
			"(score ~ 1 + (1 | topic) + (1 | system) + (1 | system:segment)), so that a small segment's difference shrinks toward the system's overall effect. ")
	case AnalysisBRisk:
		b.WriteString("the value is read off the segment's difference in the partially pooled segment model of the risk-adjusted pool (BRisk form), " +
			"fitted once on the whole table, so that a small segment's difference shrinks toward the system's overall effect. ")
	default:
		b.WriteString("the value is computed on the segment's topics alone. ")
	}
	switch {
	case r.BySemantics == SegmentsNoHarm && r.Quantity.isTest():
		control := "Holm's step-down adjustment controls the family-wise error: the chance of blocking a challenger that harms no segment is at most the bound (Holm 1979)"
		if r.Correction == CorrectBH {
			control = "the Benjamini–Hochberg adjustment controls the false discovery rate: among the segments found harmed, the expected share that are not is at most the bound (Benjamini & Hochberg 1995), which blocks more readily than Holm"
		}
		fmt.Fprintf(&b, "With segments: no_harm each segment's one-sided test asks whether the challenger is worse there by more than the margin; "+
			"the p-values are adjusted over the segments and the challengers together, and %s. The rule fails when some segment's adjusted p-value is below %s.",
			control, formatNumber(r.Bound.Value))
	case r.BySemantics == SegmentsNoHarm:
		fmt.Fprintf(&b, "With segments: no_harm the rule fails when the posterior probability of harm beyond the margin in some segment is above %s. "+
			"No correction across segments: partial pooling is the remedy for multiplicity, each segment's estimate drawing on the others (Gelman, Hill & Yajima 2012).",
			formatNumber(r.Bound.Value))
	default:
		b.WriteString("With segments: all_pass the bound must hold in every segment: an intersection–union test, which needs no correction across segments, " +
			"since a challenger that is worse in some segment passes only if that segment's own test wrongly passes (Berger 1982). The rule fails when a segment fails.")
		if r.Quantity.isTest() && r.Correction != "" && r.Correction != CorrectNone {
			b.WriteString(" The correction is over the segments and the challengers together.")
		}
	}
	b.WriteString(" Otherwise it is inconclusive when a segment is")
	if n := p.Requirements.MinTopicsPerSegment; n > 0 {
		fmt.Fprintf(&b, " (a segment of fewer than %d topics always is: requirements.min_topics_per_segment)", n)
	}
	b.WriteString(", and passes when every segment passes; its reported value is the worst segment's.")
	return b.String()
}
