package policies

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/suggest"
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

// segmentSemantics are the values segments: accepts, the default first.
var segmentSemantics = []SegmentSemantics{SegmentsAllPass, SegmentsNoHarm}

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
	// Assumed are the segment's value and outcome under the other
	// assumptions about unjudged documents, as RuleResult's.
	Assumed []AssumedOutcome `json:"assumed,omitempty"`
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

// pFamily is the family of p-values one corrected test rule adjusts
// together: for each challenger (ci) and each of the rule's queries (gi) —
// its query, or its query in each segment of its dimension — the adjusted
// p-value adj[ci][gi], adjusted over n = challengers × queries comparisons
// (over says which, for a reason).
type pFamily struct {
	queries []Query
	adj     [][]float64
	n       int
	over    string
}

// correctedFamily adjusts rule r's p-values, read with get, over the
// challengers and, for a by: rule, its segments: R's p.adjust(p, method, n)
// with n = challengers × segments (AdjustPValues), a missing or invalid
// p-value counting as a comparison. ok is false when r is not a test with a
// correction.
func (p *Policy) correctedFamily(r *Rule, ev Evidence, get func(c string, q Query) Observation) (f pFamily, ok bool) {
	if !r.Quantity.isTest() || r.Correction == "" || r.Correction == CorrectNone {
		return pFamily{}, false
	}
	q := p.Query(r)
	f.queries = []Query{q}
	f.over = plural(len(ev.Challengers), "challenger")
	if r.By != "" {
		segs := ev.Segments[r.By]
		f.queries = make([]Query, len(segs))
		for gi, g := range segs {
			f.queries[gi] = q.InSegment(g.Name)
		}
		f.over = plural(len(segs), "segment")
		if len(ev.Challengers) > 1 {
			f.over += " × " + plural(len(ev.Challengers), "challenger")
		}
	}
	k := len(f.queries)
	f.n = len(ev.Challengers) * k
	raw := make([]float64, 0, f.n)
	for _, c := range ev.Challengers {
		for _, sq := range f.queries {
			v, isNum := get(c, sq).Number()
			if !isNum || !(v >= 0 && v <= 1) {
				v = math.NaN()
			}
			raw = append(raw, v)
		}
	}
	adj := AdjustPValues(raw, r.Correction, f.n)
	f.adj = make([][]float64, len(ev.Challengers))
	for ci := range f.adj {
		f.adj[ci] = adj[ci*k : (ci+1)*k]
	}
	return f, true
}

// judgeSegments judges by: rule r for one challenger (index ci) in every
// segment of its dimension: each segment as a rule of its own on the
// rule's query there (Query.InSegment), its p-value adjusted in the
// family f, inconclusive when it has fewer topics than
// requirements.min_topics_per_segment, judged again under the assumptions
// about unjudged documents. The rule fails (or warns, by severity) when a
// segment does; else it needs judgments when a segment does; else it is
// inconclusive when a segment is; else it passes. Its observed value is
// the worst segment's (combineSegments). The unmet requirements its analysis
// depends on are returned for capUnmet, which applies them to the rule.
func (p *Policy) judgeSegments(r *Rule, c string, ci int, ev Evidence, unmet []Unmet, f pFamily, assumed []assumed) (RuleResult, []Unmet) {
	q := p.Query(r)
	rr, affecting := newRuleResult(r, q), affectingUnmet(q, unmet)
	rr.By, rr.BySemantics = r.By, r.BySemantics
	segs := ev.Segments[r.By]
	if len(segs) == 0 {
		rr.Outcome = OutcomeInconclusive
		rr.Reason = fmt.Sprintf("the gate supplied no segments of %s, the dimension the rule is judged by", r.By)
		return rr, affecting
	}
	rr.Segments = make([]SegmentResult, len(segs))
	for gi, g := range segs {
		sr, _ := p.judge(r, q.InSegment(g.Name), c, ev, unmet)
		if f.adj != nil && sr.Outcome == "" {
			p.applyCorrection(&sr, r, f.adj[ci][gi], f.n, f.over)
		}
		if sr.Outcome == "" {
			sr.decide(r)
		}
		if min := p.Requirements.MinTopicsPerSegment; g.Topics < min {
			sr.Outcome = OutcomeInconclusive
			sr.Reason = fmt.Sprintf("segment %s has %s; the policy requires %d (requirements.min_topics_per_segment)", g.Name, plural(g.Topics, "topic"), min)
			if sr.Observed.Present() {
				sr.Reason += "; observed " + observedWords(sr.Query, sr.Observed, r.Bound) + " there"
			}
		}
		p.checkJudgments(&sr, r, c, assumed)
		rr.Segments[gi] = SegmentResult{Segment: g.Name, Topics: g.Topics, Observed: sr.Observed, BeforeMargin: sr.BeforeMargin,
			Unadjusted: sr.Unadjusted, Outcome: sr.Outcome, Reason: sr.Reason, Assumed: sr.Assumed}
	}
	w, outcome := combineSegments(rr.Segments, r.Bound)
	worst := rr.Segments[w]
	rr.Outcome, rr.Segment = outcome, worst.Segment
	rr.Observed, rr.BeforeMargin, rr.Unadjusted = worst.Observed, worst.BeforeMargin, worst.Unadjusted
	if f.adj != nil { // the correction of every segment's p-value
		rr.Correction = r.Correction
	}
	rr.Reason = segmentsReason(rr.Segments, w, p.Requirements.MinTopicsPerSegment)
	return rr, affecting
}

// combineSegments is a by: rule's outcome from its segments' and the
// index of the segment its observed value is: the first failing (or
// warning) segment, in segment order, else the first that needs
// judgments, else the first inconclusive one, else the passing one
// closest to its bound (the first of equals).
func combineSegments(srs []SegmentResult, b Bound) (worst int, outcome Outcome) {
	for _, want := range []Outcome{OutcomeFail, OutcomeWarn, OutcomeNeedsJudgments, OutcomeInconclusive} {
		if i := slices.IndexFunc(srs, func(sr SegmentResult) bool { return sr.Outcome == want }); i >= 0 {
			return i, want
		}
	}
	worst = 0
	for i, sr := range srs {
		if slack(sr.Observed, b) < slack(srs[worst].Observed, b) {
			worst = i
		}
	}
	return worst, OutcomePass
}

// slack is how far a passing observation is inside its bound (0 for a
// category or a value that is not a number).
func slack(o Observation, b Bound) float64 {
	v, ok := o.Number()
	if !ok {
		return 0
	}
	switch b.Op {
	case AtLeast:
		return v - b.Value
	case AtMost:
		return b.Value - v
	case In:
		if b.Outcomes == nil {
			return min(v-b.Lo, b.Hi-v)
		}
	}
	return 0
}

// segmentsReason is a by: rule's reason: the worst segment's, named with
// its topics (a segment below the minimum of topics, minTopics, names
// itself), and how many segments pass: "in segment robust04 (10 topics):
// observed …; needs …; 2 of 3 segments pass".
func segmentsReason(srs []SegmentResult, worst, minTopics int) string {
	passing := 0
	for _, sr := range srs {
		if sr.Outcome == OutcomePass {
			passing++
		}
	}
	w := srs[worst]
	reason := w.Reason
	if w.Topics >= minTopics {
		reason = fmt.Sprintf("in segment %s (%s): %s", w.Segment, plural(w.Topics, "topic"), reason)
	}
	return fmt.Sprintf("%s; %d of %d segments pass", reason, passing, len(srs))
}

// CheckDimensions checks that every dimension a by: rule names is one of
// the topics file's dims: a rule naming another is a policy error at its
// by: key, listing the file's dimensions with did-you-mean. dims nil means
// the gate has no topics file, and every by: rule is an error saying how
// to give one.
func (p *Policy) CheckDimensions(dims []string) error {
	var errs []error
	for i, r := range p.Rules {
		switch {
		case r.By == "" || slices.Contains(dims, r.By):
			continue
		case dims == nil:
			errs = append(errs, inputerr.AtCol(p.File, r.ByPos.Line, r.ByPos.Column,
				"rules[%d].by: rule %s has by: %s but no topics file: give --topics-file or inputs.topics_file", i, r.ID, clip(r.By)))
		default:
			have := "none"
			if len(dims) > 0 {
				have = strings.Join(dims, ", ")
			}
			errs = append(errs, inputerr.AtCol(p.File, r.ByPos.Line, r.ByPos.Column,
				"rules[%d].by: the topics file has no dimension %q%s (its dimensions: %s)", i, clip(r.By), suggest.DidYouMean(r.By, dims), have))
		}
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...) // nil when there is none
}
