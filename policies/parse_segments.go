package policies

import (
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// Parsing of a rule's by: and segments: keys (docs/policies.md, "Segments"):
// which quantities may be judged per segment, and what segments: no_harm
// asks of the rule.

// unsegmentable are the quantities a by: rule cannot bound, each with why
// and what to bound in each segment instead.
var unsegmentable = map[string]string{
	"rope.decision":        "it is an HDI+ROPE decision on the whole fit's difference; bound bayes.p_worse or bayes.diff.lo in each segment instead",
	"topics_at_risk.count": "it counts the topics at risk in the whole table's BRisk fit; bound brisk.p_riskier or brisk.diff.lo in each segment instead",
	"zrisk":                "it standardises each topic against the scores expected from the whole champion-and-challengers table; bound urisk, trisk or bca.lo in each segment instead",
	"georisk":              "it is built on ZRisk, which standardises each topic against the whole champion-and-challengers table; bound urisk, trisk or bca.lo in each segment instead",
}

// Segmentable reports whether a by: rule may bound q in each segment.
func (q *Quantity) Segmentable() bool { return unsegmentable[q.Name] == "" }

// harmProbability reports whether q is a posterior probability of harm
// (lower is better: bayes.p_worse, brisk.p_riskier), which a segments:
// no_harm rule bounds at_most.
func (q *Quantity) harmProbability() bool {
	return q.Kind == KindProbability && q.Better == Lower && (q.Analysis == AnalysisBayes || q.Analysis == AnalysisBRisk)
}

// harmTests are the tests a segments: no_harm rule may use: those with a
// one-sided p-value against alternative less.
func harmTests() []string {
	var out []string
	for _, q := range registry {
		if q.isTest() && slices.Contains(q.Alternatives, Less) {
			out = append(out, q.Name)
		}
	}
	return out
}

// harmProbabilities are the quantities harmProbability accepts.
func harmProbabilities() []string {
	var out []string
	for _, q := range registry {
		if q.harmProbability() {
			out = append(out, q.Name)
		}
	}
	return out
}

// segmentRule checks rule r's by: and segments: keys once the rest of the
// rule is read: segments: needs by:; by: refuses the quantities that have
// no value per segment; no_harm needs a harm test (alternative: less,
// at_least, correction holm — the default — or bh) or a harm probability
// (at_most). It fills in the defaults: segments all_pass, and holm for a
// no_harm test.
func (ps *parser) segmentRule(r *Rule, m *mapping, path string) {
	segE, hasSeg := m.get("segments")
	byE, hasBy := m.get("by")
	if hasSeg && !hasBy {
		ps.errorf(segE.key, path+".segments", "says how a by: rule's segments combine, but the rule has no by:; add by: DIMENSION (a column of the topics file) or remove segments:")
		return
	}
	if r.By == "" {
		return
	}
	if r.BySemantics == "" {
		if hasSeg {
			return // an invalid value, already reported
		}
		r.BySemantics = SegmentsAllPass
	}
	q := r.Quantity
	if q == nil {
		return
	}
	if why := unsegmentable[q.Name]; why != "" {
		ps.errorf(deref(byE.val), path+".by", "%s cannot be judged per segment: %s", q.Name, why)
		return
	}
	if r.BySemantics != SegmentsNoHarm {
		return
	}
	at := func(key string) *yaml.Node {
		if e, ok := m.get(key); ok {
			return e.key
		}
		return segE.key
	}
	switch {
	case q.isTest():
		if !slices.Contains(q.Alternatives, Less) {
			ps.errorf(deref(segE.val), path+".segments", "no_harm tests each segment for harm, one-sided, but %s is two_sided only in this build (valid: %s with alternative: less)",
				q.Name, strings.Join(harmTests(), ", "))
			return
		}
		altE, hasAlt := m.get(string(ParamAlternative))
		switch {
		case !hasAlt:
			ps.errorf(segE.key, path, "segments: no_harm tests each segment for harm: add alternative: less (H0: the challenger is not worse than the champion by more than the margin in the segment)")
		case r.Alternative != "" && r.Alternative != Less:
			ps.errorf(deref(altE.val), path+".alternative", "segments: no_harm tests each segment for harm: expected alternative: less (H0: the challenger is not worse than the champion by more than the margin in the segment), got %s", r.Alternative)
		}
		if corrE, ok := m.get(string(ParamCorrection)); ok {
			if r.Correction == CorrectNone || r.Correction == CorrectBonferroni {
				ps.errorf(deref(corrE.val), path+".correction", "segments: no_harm adjusts the harm tests' p-values across the segments and the challengers: expected holm (the default; family-wise error) or bh (false discovery rate), got %s", r.Correction)
			}
		} else {
			r.Correction = CorrectHolm
		}
		if r.Bound.Op != "" && r.Bound.Op != AtLeast {
			ps.errorf(at(string(r.Bound.Op)), path+"."+string(r.Bound.Op), "segments: no_harm fails a segment whose adjusted harm p-value is below the bound: expected at_least (e.g. at_least: 0.05), got %s", r.Bound.Op)
		}
	case q.harmProbability():
		if r.Bound.Op != "" && r.Bound.Op != AtMost {
			ps.errorf(at(string(r.Bound.Op)), path+"."+string(r.Bound.Op), "segments: no_harm fails a segment whose probability of harm is above the bound: expected at_most (e.g. at_most: 0.9), got %s", r.Bound.Op)
		}
	default:
		ps.errorf(deref(segE.val), path+".segments", "no_harm needs a harm test (%s with alternative: less, bounded at_least) or a probability of harm (%s, bounded at_most), not %s; for another quantity use segments: all_pass",
			strings.Join(harmTests(), ", "), strings.Join(harmProbabilities(), ", "), q.Name)
	}
}
