package engine

import (
	"slices"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// Rules per segment (docs/policies.md and docs/gate.md, "Segments"; issue
// 26). A by: rule's query is computed in every segment of its dimension of
// the topics file (Query.InSegment):
//
//   - a classical quantity (the descriptive ones, URisk, TRisk, BCa, the
//     tests) on the segment's slice: the slice key names the dimension and
//     the segment, and its table is the segment's topic columns (tableOf),
//     so every analysis and reader works on it unchanged;
//   - a Bayesian one (bayes.*, brisk.*) from the partially pooled segment
//     model fitted to the whole slice of the measure (segfit.go), never a
//     separate fit per segment.
//
// The segments of a dimension are those of the aligned table's topics, in
// the order of the topics file (a topic the file does not list, put in
// scores.Unsegmented by --unsegmented, after them); Evidence.Segments gives
// each with its number of topics.

// segmentation is the gate's topics in the segments of every dimension a
// by: rule names.
type segmentation struct {
	// order[dimension] are its segments with their topic counts, in the
	// topics file's order of first appearance.
	order map[string][]policies.Segment
	// label[dimension][j] is the segment of the table's topic j.
	label map[string][]string
}

// newSegmentation resolves the dimensions of p's by: rules over the topics
// of the default table t from the topic attributes a. A dimension a does
// not give (or no a) is left out: its rules' queries are unavailable
// (values), and Run and Decide refuse it up front (checkDimensions).
func newSegmentation(p *policies.Policy, t *scores.Table, a *scores.TopicAttributes) segmentation {
	sg := segmentation{order: map[string][]policies.Segment{}, label: map[string][]string{}}
	if a == nil {
		return sg
	}
	for _, d := range p.Dimensions() {
		of, ok := a.Segment[d]
		if !ok {
			continue
		}
		label := make([]string, len(t.Topics))
		count := map[string]int{}
		for j, topic := range t.Topics {
			g, ok := of[topic]
			if !ok {
				g = scores.Unsegmented // Cover puts every topic of the scores in a segment; a caller that skipped it
			}
			label[j] = g
			count[g]++
		}
		var order []policies.Segment
		seen := map[string]bool{}
		add := func(g string) {
			if !seen[g] && count[g] > 0 {
				seen[g] = true
				order = append(order, policies.Segment{Name: g, Topics: count[g]})
			}
		}
		for _, topic := range a.Topics {
			add(of[topic])
		}
		for _, g := range label {
			add(g)
		}
		sg.order[d], sg.label[d] = order, label
	}
	return sg
}

// checkDimensions refuses a policy whose by: rules name a dimension the
// topic attributes a lack, or that has by: rules and no a
// (policies.Policy.CheckDimensions: the gate's check, at the rule's by:
// key), so that no caller of Run or Decide evaluates rules that could
// never be computed.
func checkDimensions(p *policies.Policy, a *scores.TopicAttributes) error {
	if a == nil {
		return p.CheckDimensions(nil)
	}
	return p.CheckDimensions(a.Dimensions)
}

// pooled reports whether query q, under by:, is read off the partially
// pooled segment model of its whole slice (the Bayesian quantities) rather
// than computed on the segment's own slice.
func pooled(q policies.Query) bool {
	a := q.Analysis()
	return a == policies.AnalysisBayes || a == policies.AnalysisBRisk
}

// inSegments are the queries the evaluation reads for q: q itself, or for
// a by: query q in every segment of its dimension (nil when the gate has
// none).
func (c *core) inSegments(q policies.Query) []policies.Query {
	if q.By == "" || q.Segment != "" {
		return []policies.Query{q}
	}
	var out []policies.Query
	for _, g := range c.segs.order[q.By] {
		out = append(out, q.InSegment(g.Name))
	}
	return out
}

// segmentTopics is the table of t's topic columns in segment g of
// dimension d.
func (c *core) segmentTable(t *scores.Table, d, g string) *scores.Table {
	var topics []string
	var cols []int
	for j, l := range c.segs.label[d] {
		if l == g {
			topics, cols = append(topics, t.Topics[j]), append(cols, j)
		}
	}
	out := scores.NewTable(t.Measure, t.Systems, topics)
	for i, row := range t.Scores {
		for k, j := range cols {
			out.Scores[i][k] = row[j]
		}
	}
	return out
}

// wholeBayes reports whether a query of the whole table (not a by: rule's,
// which reads the segment model) needs the raw-score fit: the fit the
// result's Bayesian section describes and the pilot warm-starts.
func (c *core) wholeBayes() bool {
	return slices.ContainsFunc(c.p.Queries(), func(q policies.Query) bool { return q.By == "" && q.Analysis() == policies.AnalysisBayes })
}

// wholeBRiskWeights are the loss weights of the BRisk fits of the whole
// table the queries need (Policy.BRiskWeights without the by: rules',
// which read the segment model), ascending.
func (c *core) wholeBRiskWeights() []float64 {
	var ws []float64
	for _, q := range c.p.Queries() {
		if q.By == "" && q.Analysis() == policies.AnalysisBRisk && !slices.Contains(ws, q.LossWeight) {
			ws = append(ws, q.LossWeight)
		}
	}
	slices.Sort(ws)
	return ws
}
