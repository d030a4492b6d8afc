package policies

import (
	"fmt"
	"strings"
)

// JudgmentsMode is a rule's judgments: key.
type JudgmentsMode string

const (
	// JudgmentsCheck (the default, also when not given) judges the rule
	// under every assumption the evidence carries about unjudged documents;
	// an outcome that changes with the assumption needs judgments.
	JudgmentsCheck JudgmentsMode = "check"
	// JudgmentsIgnore judges the rule on the standard scores alone.
	JudgmentsIgnore JudgmentsMode = "ignore"
)

// OutcomeNeedsJudgments is the outcome of a rule whose outcome depends on
// documents the qrels have not judged: it passes under one assumption
// about them and not under another. It counts as inconclusive: it never
// passes (a fail rule's challenger is inconclusive, a warn rule's warns).
const OutcomeNeedsJudgments Outcome = "needs judgments"

// Assumption is the evidence under another assumption about the documents
// the qrels have not judged than the standard one (unjudged = not
// relevant), for runs scored against qrels: the values of the queries on
// the measures the challenger has unjudged documents in (within the depth
// the measure reads), computed with the scores under that assumption.
// A (challenger, query) without a value is not affected by it.
type Assumption struct {
	// Name is the assumption's name (condensed, optimistic) and Words what
	// it assumes ("if the unjudged documents are left out").
	Name, Words string
	Values      *Values
}

// AssumedOutcome is a rule's value and outcome under one assumption.
type AssumedOutcome struct {
	Assumption string      `json:"assumption"`
	Observed   Observation `json:"observed"`
	Outcome    Outcome     `json:"outcome"` // pass, fail or warn: the bound applied to Observed
}

// assumed is the evidence under one assumption about unjudged documents
// as the rules read it: the p-values of each corrected test rule adjusted
// in the rule's own family, as the standard ones are (two rules may share
// a query but not a correction).
type assumed struct {
	Assumption
	corrected map[*Rule]*Values
}

// get is rule r's observation of q for a challenger under the assumption;
// the zero Observation when the assumption does not affect it.
func (a assumed) get(r *Rule, challenger string, q Query) Observation {
	if v, ok := a.corrected[r]; ok {
		return v.Get(challenger, q)
	}
	return a.Values.Get(challenger, q)
}

// assumedEvidence returns the assumptions of ev with the p-values of the
// corrected rules adjusted as the standard ones are (over the challengers,
// and a by: rule's segments): a challenger (or segment) without a value
// under an assumption (not affected by it) takes part in the correction
// with its standard value.
func (p *Policy) assumedEvidence(ev Evidence) []assumed {
	out := make([]assumed, 0, len(ev.Assumptions))
	for _, a := range ev.Assumptions {
		if a.Values == nil {
			continue
		}
		as := assumed{Assumption: a, corrected: map[*Rule]*Values{}}
		for _, r := range p.Rules {
			get := func(c string, q Query) Observation {
				if obs := a.Values.Get(c, q); obs.Present() {
					return obs
				}
				return ev.Values.Get(c, q)
			}
			f, ok := p.correctedFamily(r, ev, get)
			if !ok {
				continue
			}
			adjusted := NewValues()
			for ci, c := range ev.Challengers {
				for gi, q := range f.queries {
					if a.Values.Get(c, q).Present() {
						adjusted.Set(c, q, Number(f.adj[ci][gi]))
					}
				}
			}
			as.corrected[r] = adjusted
		}
		out = append(out, as)
	}
	return out
}

// checkJudgments judges a decided rule (pass, fail or warn) again under each
// assumption that has a value for its query rr.Query (assumedEvidence's:
// p-values corrected) and records each outcome; when one differs from the standard
// outcome the rule needs judgments, and its reason names the values. A rule
// with judgments: ignore keeps its outcome, and so does one without a
// usable value under any assumption.
func (p *Policy) checkJudgments(rr *RuleResult, r *Rule, challenger string, assumptions []assumed) {
	if r.Judgments == JudgmentsIgnore || len(assumptions) == 0 {
		return
	}
	switch rr.Outcome {
	case OutcomePass, OutcomeFail, OutcomeWarn:
	default:
		return
	}
	q := rr.Query
	differs := false
	var parts []string
	for _, a := range assumptions {
		obs := a.get(r, challenger, q)
		if !obs.Present() || checkObservation(r.Quantity, obs) != "" {
			continue
		}
		ao := AssumedOutcome{Assumption: a.Name, Observed: obs, Outcome: boundOutcome(r, obs)}
		rr.Assumed = append(rr.Assumed, ao)
		if ao.Outcome != rr.Outcome {
			differs = true
		}
		parts = append(parts, fmt.Sprintf("%s %s (%s: %s)", observedWords(q, obs, r.Bound), a.Words, a.Name, ao.Outcome))
	}
	if !differs {
		return
	}
	std, _ := rr.Observed.Number()
	rr.Reason = fmt.Sprintf("observed %s if the unjudged documents are not relevant (standard: %s), %s; needs %s: the outcome depends on documents the qrels have not judged",
		formatObserved(std, r.Bound), rr.Outcome, strings.Join(parts, ", "), r.Bound.Words())
	rr.Outcome = OutcomeNeedsJudgments
}

// boundOutcome is the outcome of rule r's bound on a usable observation.
func boundOutcome(r *Rule, obs Observation) Outcome {
	switch {
	case r.Bound.Holds(obs):
		return OutcomePass
	case r.Severity == SeverityWarn:
		return OutcomeWarn
	}
	return OutcomeFail
}
