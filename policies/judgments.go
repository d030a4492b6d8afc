package policies

import (
	"fmt"
	"math"
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

// assumedEvidence returns the assumptions of ev with the p-values of the
// corrected rules adjusted over the n challengers, as the standard ones
// are: a challenger without a value under an assumption (not affected by
// it) takes part in the correction with its standard value.
func (p *Policy) assumedEvidence(ev Evidence, n int) []Assumption {
	out := make([]Assumption, 0, len(ev.Assumptions))
	for _, a := range ev.Assumptions {
		if a.Values == nil {
			continue
		}
		a.Values = a.Values.clone() // the caller's stay as given
		for _, r := range p.Rules {
			if !r.Quantity.isTest() || r.Correction == "" || r.Correction == CorrectNone {
				continue
			}
			q := p.Query(r)
			raw := make([]float64, n)
			affected := false
			for i, c := range ev.Challengers {
				raw[i] = math.NaN()
				obs := a.Values.Get(c, q)
				if obs.Present() {
					affected = true
				} else {
					obs = ev.Values.Get(c, q)
				}
				if v, ok := obs.Number(); ok && v >= 0 && v <= 1 {
					raw[i] = v
				}
			}
			if !affected {
				continue
			}
			adj := AdjustPValues(raw, r.Correction, n)
			for i, c := range ev.Challengers {
				if a.Values.Get(c, q).Present() {
					a.Values.Set(c, q, Number(adj[i]))
				}
			}
		}
		out = append(out, a)
	}
	return out
}

// checkJudgments judges a decided rule (pass, fail or warn) again under each
// assumption that has a value for it (assumedEvidence's: p-values
// corrected) and records each outcome; when one differs from the standard
// outcome the rule needs judgments, and its reason names the values. A rule
// with judgments: ignore keeps its outcome, and so does one without a
// usable value under any assumption.
func (p *Policy) checkJudgments(rr *RuleResult, r *Rule, challenger string, assumptions []Assumption) {
	if r.Judgments == JudgmentsIgnore || len(assumptions) == 0 {
		return
	}
	switch rr.Outcome {
	case OutcomePass, OutcomeFail, OutcomeWarn:
	default:
		return
	}
	q := p.Query(r)
	differs := false
	var parts []string
	for _, a := range assumptions {
		obs := a.Values.Get(challenger, q)
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
