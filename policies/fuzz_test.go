package policies

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// FuzzParse feeds arbitrary bytes to the parser. It must never panic; a
// rejected input gets one positioned *inputerr.Error per line; an accepted
// one must be usable end to end (queries, explain, evaluation, which with no
// observations can never pass).
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/errors/*.yaml")
	seeds = append(seeds, examplePolicies...)
	seeds = append(seeds, "testdata/full.yaml")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	// The keys of the run history and of the needs-judgments check.
	f.Add([]byte("version: 1\nname: r\nchampion: a\nchallengers: [b]\ninputs: {pool: p, pool_mismatch: exclude}\n" +
		"rules:\n  - id: x\n    quantity: mean_diff\n    at_least: 0\n    judgments: ignore\n"))
	// The keys of rules per segment.
	f.Add([]byte("version: 1\nname: s\ninputs: {topics_file: t.csv}\nrequirements: {min_topics_per_segment: 5}\n" +
		"rules:\n  - {id: a, by: origin, quantity: bca.lo, loss_weight: 1, margin: 0.05, at_least: 0}\n" +
		"  - {id: h, by: origin, segments: no_harm, quantity: tests.paired_t.p, alternative: less, margin: 0.02, correction: bh, at_least: 0.05}\n" +
		"  - {id: p, by: locale, segments: no_harm, quantity: brisk.p_riskier, margin: 0.02, at_most: 0.9}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse("f.yaml", data)
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "f.yaml") || !errorLine.MatchString(line) {
					t.Fatalf("bad error line %q", line)
				}
			}
			for _, e := range unwrapAll(err) {
				var ie *inputerr.Error
				if !errors.As(e, &ie) {
					t.Fatalf("error %v is %T, not *inputerr.Error", e, e)
				}
				// Issue 23, defect 11: a problem in the text has a line and a
				// column (a NUL, invalid UTF-8, a tab); only whole-file ones
				// (the size, the count of problems not shown) have neither.
				if (ie.Line < 1 || ie.Column < 1) && !unpositioned(ie.Msg) {
					t.Fatalf("error %q has no line:column", ie)
				}
			}
			return
		}
		if len(p.Rules) == 0 || len(p.Queries()) == 0 || len(p.Needs()) == 0 {
			t.Fatalf("accepted a policy with nothing to do: %+v", p)
		}
		for _, r := range p.Rules {
			if r.Quantity == nil || r.ID == "" || r.Bound.Op == "" {
				t.Fatalf("incomplete rule %+v", r)
			}
			if q := p.Query(r); r.Quantity.Weighted() && q.LossWeight < 1 {
				t.Fatalf("rule %s weighs losses with weight %v", r.ID, q.LossWeight)
			}
		}
		_ = p.Explain(explainNow)
		_ = p.Warnings(explainNow)
		d := p.Evaluate(Evidence{Challengers: []string{"a", "b"}, Values: NewValues(), Facts: goodFacts, Now: explainNow})
		// Without observations nothing passes; a warning is the most a policy
		// of warn rules only can say.
		allWarn := !slices.ContainsFunc(p.Rules, func(r *Rule) bool { return r.Severity == SeverityFail })
		if d.Raw == Pass || (d.Raw == Warn && !allWarn) {
			t.Fatalf("a run with no observations was decided %s", d.Raw)
		}
		// With a value for every query, in every segment of every dimension
		// (one below any min_topics_per_segment), the decision rechecks clean.
		segs := map[string][]Segment{}
		for _, dim := range p.Dimensions() {
			segs[dim] = []Segment{{"big", 50}, {"small", 1}}
		}
		v := NewValues()
		for i, c := range []string{"a", "b"} {
			for _, q := range p.Queries() {
				obs := Number(0.01 * float64(i+1))
				if q.Quantity == "rope.decision" {
					obs = Category("better")
				}
				v.Set(c, q, obs)
				for gi, g := range segs[q.By] {
					v.Set(c, q.InSegment(g.Name), Number(0.02*float64(i+gi)))
				}
			}
		}
		d = p.Evaluate(Evidence{Challengers: []string{"a", "b"}, Values: v, Facts: goodFacts, Now: explainNow, Segments: segs})
		if err := d.Recheck(p.RecheckSpec(explainNow)); err != nil {
			t.Fatalf("a decision Evaluate made does not recheck: %v", err)
		}
	})
}

// unpositioned reports whether msg is about the whole policy file, so that it
// has no line and column.
func unpositioned(msg string) bool {
	return strings.HasPrefix(msg, "policy file is larger than") || strings.HasSuffix(msg, "more problems not shown; fix the ones above first")
}
