package policies

import (
	"path/filepath"
	"slices"
)

// Rules per segment (docs/policies.md, "Segments"). A rule with by:
// DIMENSION is evaluated within every segment of that dimension of the
// topics file: the gate supplies the rule's query in each segment
// (Query.InSegment) and Evaluate applies the bound in each, then combines
// the segments' outcomes by the rule's semantics.

// SegmentSemantics is how a by: rule's outcomes in the segments combine
// (the rule's segments: key).
type SegmentSemantics string

const (
	// SegmentsAllPass: the rule must hold in every segment — a
	// non-inferiority shown in each, an intersection–union test, which
	// needs no multiplicity correction (Berger 1982).
	SegmentsAllPass SegmentSemantics = "all_pass"
	// SegmentsNoHarm: the challenger fails when some segment shows harm
	// beyond the margin; the harm tests' p-values are adjusted across the
	// segments and the challengers (Holm or Benjamini–Hochberg).
	SegmentsNoHarm SegmentSemantics = "no_harm"
)

// Segment is one segment of a dimension in the gate's data: its name and
// the number of topics of the aligned table in it.
type Segment struct {
	Name   string `json:"name"`
	Topics int    `json:"topics"`
}

// SegmentResult is a by: rule applied to one challenger in one segment.
type SegmentResult struct {
	Segment string `json:"segment"`
	Topics  int    `json:"topics"`
	// Observed, BeforeMargin and Unadjusted are as RuleResult's, in the segment.
	Observed     Observation  `json:"observed"`
	BeforeMargin *Observation `json:"before_margin,omitempty"`
	Unadjusted   *Observation `json:"unadjusted,omitempty"`
	Outcome      Outcome      `json:"outcome"`
	Reason       string       `json:"reason"`
}

// InSegment is the query q computed in segment g of its dimension q.By.
func (q Query) InSegment(g string) Query {
	q.Segment = g
	return q
}

// TopicsFilePath is inputs.topics_file as a path: relative to the policy
// file's folder (as InputPaths); "" when the policy names none.
func (p *Policy) TopicsFilePath() string {
	path := p.Inputs.TopicsFile
	if path == "" || filepath.IsAbs(path) || p.File == "" || p.File == StarterName {
		return path
	}
	return filepath.Join(filepath.Dir(p.File), path)
}

// Dimensions are the dimensions the policy's by: rules name, in rule order.
func (p *Policy) Dimensions() []string {
	var ds []string
	for _, r := range p.Rules {
		if r.By != "" && !slices.Contains(ds, r.By) {
			ds = append(ds, r.By)
		}
	}
	return ds
}
