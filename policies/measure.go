package policies

import (
	"errors"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/suggest"
)

// Measures of a policy: each rule is judged on one measure (its own
// measure: key, or the policy's default), and a measure's direction is
// declared once, in inputs.lower_is_better.

// measureName reads a measure name as a rule or inputs.lower_is_better
// gives it: in its canonical spelling when one of trec_eval's, ir_measures'
// or NTCIREVAL's spellings knows it, else as written (a score file's own
// column, such as latency_ms); a known measure spelt with a parameter it
// cannot take is an error at the value.
func (ps *parser) measureName(e entry, path, name string) string {
	if err := trec.CheckMeasureSyntax(name); err != nil {
		ps.errorf(deref(e.val), path, "%v", err)
		return name
	}
	return CanonicalMeasure(name)
}

// CanonicalMeasure is name in its one printed spelling when a measure
// registry knows it, else name itself (a score file's own measure).
func CanonicalMeasure(name string) string {
	if c, err := trec.CanonicalMeasure(name); err == nil {
		return c
	}
	return name
}

// RuleMeasures lists, without repeats and in rule order, the measures the
// rules name themselves; a rule that names none is judged on the default
// measure and adds nothing here.
func (p *Policy) RuleMeasures() []string {
	var out []string
	for _, r := range p.Rules {
		if r.Measure != "" && !slices.Contains(out, r.Measure) {
			out = append(out, r.Measure)
		}
	}
	return out
}

// LowerIsBetter reports whether the policy declares measure (in any
// spelling) one of which a lower score is better.
func (p *Policy) LowerIsBetter(measure string) bool {
	return slices.Contains(p.Inputs.LowerIsBetter, CanonicalMeasure(measure))
}

// CheckMeasures checks that every measure a rule names is one the inputs
// hold (present, in canonical spellings): a rule naming another is a policy
// error at its measure: key, listing the measures present with did-you-mean.
func (p *Policy) CheckMeasures(present []string) error {
	var errs []error
	for i, r := range p.Rules {
		if r.Measure == "" || slices.Contains(present, r.Measure) {
			continue
		}
		errs = append(errs, inputerr.AtCol(p.File, r.MeasurePos.Line, r.MeasurePos.Column,
			"rules[%d].measure: no input holds measure %q%s (measures present: %s)", i, clip(r.Measure),
			suggest.DidYouMean(r.Measure, present), strings.Join(present, ", ")))
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...) // nil when there is none
}
