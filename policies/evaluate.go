package policies

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Verdict is the gate's answer for a challenger or for the whole run. The
// gate maps it to an exit status (pass and warn 0, fail 1, inconclusive 3).
type Verdict string

const (
	Pass         Verdict = "pass"
	Warn         Verdict = "warn" // passes, with warnings
	Fail         Verdict = "fail"
	Inconclusive Verdict = "inconclusive"
)

// Outcome is what one rule says about one challenger.
type Outcome string

const (
	OutcomePass         Outcome = "pass"
	OutcomeFail         Outcome = "fail" // a fail-severity rule is not met
	OutcomeWarn         Outcome = "warn" // a warn-severity rule is not met
	OutcomeInconclusive Outcome = "inconclusive"
	OutcomeWaived       Outcome = "waived" // not met (or inconclusive), but an active waiver covers it
)

// Facts are what the gate knows about the data, for the policy's requirements.
type Facts struct {
	Topics        int     // topics in the aligned table the analyses use
	Artifacts     int     // systems that are neither the champion nor a challenger
	TopicCoverage float64 // share of the inputs' topics that every system scored (kept / all), in [0, 1]; NaN if unknown
}

// Unmet is a data requirement the facts do not meet.
type Unmet struct {
	Requirement string     `json:"requirement"` // the key, e.g. "min_topics"
	Reason      string     `json:"reason"`      // in words, with the numbers
	Affects     []Analysis `json:"affects"`     // the analyses whose rules it makes inconclusive
}

// CheckRequirements returns the requirements the facts do not meet, among
// those that matter to the analyses the policy needs. min_topics and
// min_topic_coverage affect every analysis; min_artifacts only the Bayesian
// ones, which learn from the artifact pool.
func (p *Policy) CheckRequirements(f Facts) []Unmet {
	needs := p.Needs()
	var all, pool []Analysis
	for _, a := range needs {
		all = append(all, a)
		if a.UsesArtifacts() {
			pool = append(pool, a)
		}
	}
	rq := p.Requirements
	var out []Unmet
	if f.Topics < rq.MinTopics {
		out = append(out, Unmet{Requirement: "min_topics", Affects: all,
			Reason: fmt.Sprintf("%s; the policy requires at least %d (requirements.min_topics)", plural(f.Topics, "topic"), rq.MinTopics)})
	}
	if f.Artifacts < rq.MinArtifacts && len(pool) > 0 {
		out = append(out, Unmet{Requirement: "min_artifacts", Affects: pool,
			Reason: fmt.Sprintf("%s; the Bayesian rules require at least %d (requirements.min_artifacts)", plural(f.Artifacts, "artifact system"), rq.MinArtifacts)})
	}
	if rq.MinTopicCoverage > 0 {
		switch {
		case math.IsNaN(f.TopicCoverage):
			out = append(out, Unmet{Requirement: "min_topic_coverage", Affects: all,
				Reason: fmt.Sprintf("topic coverage is unknown; the policy requires %s (requirements.min_topic_coverage)", share(rq.MinTopicCoverage))})
		case f.TopicCoverage < rq.MinTopicCoverage:
			out = append(out, Unmet{Requirement: "min_topic_coverage", Affects: all,
				Reason: fmt.Sprintf("%s of the topics are scored by every system; the policy requires %s (requirements.min_topic_coverage)", share(f.TopicCoverage), share(rq.MinTopicCoverage))})
		}
	}
	return out
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// share prints a fraction as a percentage, rounded down so that 0.899 never reads as 90%.
func share(f float64) string {
	pct := math.Floor(f*1000) / 10
	return strconv.FormatFloat(pct, 'f', -1, 64) + "%"
}

// Evidence is everything the gate hands to Evaluate.
type Evidence struct {
	Challengers []string  // the challengers of this run, in data order (ties in rank_by go to the earlier)
	Values      *Values   // the observations of every Query in Policy.Queries for every challenger
	Facts       Facts     // for the requirements
	Now         time.Time // for waiver expiry
	// Assumptions are the evidence under other assumptions about the
	// documents the qrels have not judged (runs + qrels inputs); each rule
	// is judged under them too (judgments.go). None for score tables.
	Assumptions []Assumption
	// Segments are, per dimension a by: rule names, the segments of the
	// gate's topics in that dimension, in the order the reports list them
	// (segments.go); the Values hold a by: rule's query for each segment
	// under Query.InSegment.
	Segments map[string][]Segment
}

// Decision is the policy's judgement of a run: everything a report needs.
type Decision struct {
	Policy string `json:"policy"`
	// Verdict is the final verdict, after on_inconclusive.
	Verdict Verdict `json:"verdict"`
	// Raw is the verdict before on_inconclusive mapped it (equal to Verdict
	// unless the run was inconclusive and on_inconclusive changed that).
	Raw Verdict `json:"raw_verdict"`
	// Reason says in one sentence why.
	Reason string `json:"reason"`
	Select Select `json:"select"`
	RankBy string `json:"rank_by,omitempty"`
	// Selected are the challengers cleared to ship: the best passing one for
	// select: best; all of them when select: all passes.
	Selected    []string             `json:"selected"`
	Challengers []ChallengerDecision `json:"challengers"`
	Unmet       []Unmet              `json:"unmet_requirements,omitempty"`
	// Notes are warnings as data: expired waivers, waivers that matched no
	// challenger, challengers that could not be ranked.
	Notes []string `json:"notes,omitempty"`
}

// ChallengerDecision is the judgement of one challenger.
type ChallengerDecision struct {
	Name     string       `json:"name"`
	Verdict  Verdict      `json:"verdict"`
	Reason   string       `json:"reason"`
	Rank     *Observation `json:"rank,omitempty"` // its rank_by value (select: best)
	Selected bool         `json:"selected"`
	Rules    []RuleResult `json:"rules"`
}

// RuleResult is one rule applied to one challenger.
type RuleResult struct {
	Rule        string `json:"rule"`
	Description string `json:"description,omitempty"`
	Quantity    string `json:"quantity"`
	// Measure is the measure the rule was judged on, as the gate resolved
	// it (the rule's own, else the default); empty when Evaluate's caller
	// does not say (an older result.json).
	Measure string `json:"measure,omitempty"`
	// LowerIsBetter: the measure's lower scores are better, and the rule's
	// quantity is of the improvement, champion − challenger.
	LowerIsBetter bool     `json:"lower_is_better,omitempty"`
	Query         Query    `json:"query"`
	Severity      Severity `json:"severity"`
	Bound         Bound    `json:"bound"`
	BoundWords    string   `json:"bound_words"` // "at least 0.95"
	// Observed is the value the bound was applied to (after a correction;
	// with a margin the query adds, the quantity's value plus the margin).
	Observed Observation `json:"observed"`
	// BeforeMargin is the quantity's own value when the query adds a margin
	// to it (Query.MarginAdded): Observed − margin, e.g. the BCa bound
	// itself; nil otherwise.
	BeforeMargin *Observation `json:"before_margin,omitempty"`
	// Unadjusted is the gate's value before a p-value correction; nil without one.
	Unadjusted *Observation `json:"unadjusted,omitempty"`
	Correction Correction   `json:"correction,omitempty"`
	Outcome    Outcome      `json:"outcome"`
	// Assumed are the rule's value and outcome under each other assumption
	// about unjudged documents that gave one (Evidence.Assumptions): present
	// when the challenger's scores on the rule's measure depend on them.
	Assumed []AssumedOutcome `json:"assumed,omitempty"`
	// WaivedOutcome is what the outcome would have been without the waiver.
	WaivedOutcome Outcome `json:"waived_outcome,omitempty"`
	// Reason explains the outcome in words, with the numbers.
	Reason string     `json:"reason"`
	Waiver *WaiverUse `json:"waiver,omitempty"`
	// By is a by: rule's dimension, BySemantics how its segments combine,
	// Segments its outcome in each segment and Segment the segment whose
	// value Observed is (the worst: segments.go); empty for other rules.
	By          string           `json:"by,omitempty"`
	BySemantics SegmentSemantics `json:"by_semantics,omitempty"`
	Segment     string           `json:"segment,omitempty"`
	Segments    []SegmentResult  `json:"segments,omitempty"`
}

// WaiverUse records a waiver that matched a rule and challenger.
type WaiverUse struct {
	Rule       string `json:"rule"`
	Challenger string `json:"challenger"` // the waiver's name or glob
	Reason     string `json:"reason"`
	Approver   string `json:"approver"`
	Expires    string `json:"expires"` // YYYY-MM-DD
	// Applied is false when the waiver had expired and no longer applies.
	Applied bool   `json:"applied"`
	Note    string `json:"note"`
}

// Evaluate applies the policy to what the gate observed. It never fails: a
// missing or malformed observation makes its rule inconclusive.
//
// A rule's outcome: inconclusive when a requirement its analysis depends on
// is unmet or its value is unavailable; otherwise pass when the bound holds,
// else fail or warn by severity; a non-passing outcome becomes waived when an
// active waiver covers it. A by: rule is judged so in every segment of its
// dimension and takes the worst segment's outcome (judgeSegments). A challenger fails when a fail rule fails; else is
// inconclusive when a fail rule is inconclusive; else warns when a warn rule
// fails or is inconclusive (the worst a warn rule can do is warn); else passes.
// The run: for select: all, the worst challenger verdict (fail, inconclusive,
// warn, pass in that order); for select: best, the verdict of the best
// passing (pass or warn) challenger by rank_by, or, when none passes,
// inconclusive if any challenger is, else fail. on_inconclusive then maps an
// inconclusive run.
func (p *Policy) Evaluate(ev Evidence) *Decision {
	d := &Decision{Policy: p.Name, Select: p.Select, Selected: []string{}, Challengers: []ChallengerDecision{}}
	if p.Select == SelectBest {
		d.RankBy = p.RankBy
	}
	d.Unmet = p.CheckRequirements(ev.Facts)
	n := len(ev.Challengers)

	// p-value corrections are per rule, over the challengers (and a by:
	// rule's segments).
	adjusted := map[*Rule]pFamily{}
	for _, r := range p.Rules {
		if f, ok := p.correctedFamily(r, ev, ev.Values.Get); ok {
			adjusted[r] = f
		}
	}
	assumed := p.assumedEvidence(ev)

	waiverMatched := make([]bool, len(p.Waivers))
	for ci, c := range ev.Challengers {
		cd := ChallengerDecision{Name: c, Rules: make([]RuleResult, 0, len(p.Rules))}
		for _, r := range p.Rules {
			var rr RuleResult
			var affecting []Unmet
			if r.By != "" {
				rr, affecting = p.judgeSegments(r, c, ci, ev, d.Unmet, adjusted[r], assumed)
			} else {
				rr, affecting = p.judge(r, p.Query(r), c, ev, d.Unmet)
				if f, ok := adjusted[r]; ok && rr.Outcome == "" {
					p.applyCorrection(&rr, r, f.adj[ci][0], f.n, f.over)
				}
				if rr.Outcome == "" {
					rr.decide(r)
				}
				p.checkJudgments(&rr, r, c, assumed)
			}
			p.capUnmet(&rr, affecting)
			p.applyWaivers(&rr, c, ev.Now, waiverMatched)
			cd.Rules = append(cd.Rules, rr)
		}
		cd.Verdict, cd.Reason = challengerVerdict(cd.Rules)
		d.Challengers = append(d.Challengers, cd)
	}

	p.decideRun(d, ev)

	for i, w := range p.Waivers {
		if !w.Active(ev.Now) {
			d.Notes = append(d.Notes, fmt.Sprintf("waiver of rule %s for %s (approved by %s) expired on %s and no longer applies", w.Rule, w.Challenger.Text, w.Approver, w.ExpiresText()))
		} else if !waiverMatched[i] && n > 0 {
			d.Notes = append(d.Notes, fmt.Sprintf("waiver of rule %s for %s matched no challenger in this run", w.Rule, w.Challenger.Text))
		}
	}
	// A lax policy is said beside the verdict it produced.
	for _, lax := range p.Lax(ev.Now) {
		d.Notes = append(d.Notes, "lax policy: "+lax)
	}
	return d
}

// judge fills a RuleResult of rule r's query q (p.Query(r), or that in one
// segment) up to the outcome; Outcome stays "" when the observation is
// usable and the bound still has to be applied. The unmet requirements the
// rule's analysis depends on are returned for capUnmet.
func (p *Policy) judge(r *Rule, q Query, challenger string, ev Evidence, unmet []Unmet) (RuleResult, []Unmet) {
	rr := newRuleResult(r, q)
	affecting := affectingUnmet(q, unmet)
	obs := ev.Values.Get(challenger, q)
	rr.Observed = obs
	switch {
	case !obs.Present() && len(affecting) > 0:
		rr.Outcome, rr.Reason = OutcomeInconclusive, "data requirements not met: "+unmetReasons(affecting)
	case !obs.Present():
		rr.Outcome, rr.Reason = OutcomeInconclusive, obs.Missing()
	default:
		if problem := checkObservation(r.Quantity, obs); problem != "" {
			rr.Outcome, rr.Reason = OutcomeInconclusive, problem
		}
	}
	return rr, affecting
}

// newRuleResult is rule r's result on query q before anything is observed.
func newRuleResult(r *Rule, q Query) RuleResult {
	return RuleResult{
		Rule: r.ID, Description: r.Description, Quantity: r.Quantity.Name, Query: q,
		Severity: r.Severity, Bound: r.Bound, BoundWords: r.Bound.Words(),
	}
}

// affectingUnmet are the unmet requirements the analysis of q depends on.
func affectingUnmet(q Query, unmet []Unmet) []Unmet {
	var out []Unmet
	for _, u := range unmet {
		if slices.Contains(u.Affects, q.Analysis()) {
			out = append(out, u)
		}
	}
	return out
}

func unmetReasons(us []Unmet) string {
	rs := make([]string, len(us))
	for i, u := range us {
		rs[i] = u.Reason
	}
	return strings.Join(rs, "; ")
}

// capUnmet applies the rule's unmet data requirements to its decided
// outcome: a requirement that is not met never lets a rule pass, but a rule
// the evidence available fails still fails (or warns, by severity). A pass
// becomes inconclusive, or — when the only requirement missing is
// min_artifacts, so that a Bayesian rule was judged on a model whose system
// spread has the day-one prior — whatever on_insufficient_pool says
// (warn by default).
func (p *Policy) capUnmet(rr *RuleResult, affecting []Unmet) {
	if len(affecting) == 0 || rr.Outcome == OutcomeInconclusive || rr.Outcome == OutcomeNeedsJudgments {
		return
	}
	reasons := unmetReasons(affecting)
	if rr.Outcome != OutcomePass {
		rr.Reason += "; decided on the evidence available although data requirements are not met (" + reasons + ")"
		return
	}
	onlyPool := !slices.ContainsFunc(affecting, func(u Unmet) bool { return u.Requirement != "min_artifacts" })
	if !onlyPool {
		rr.Outcome = OutcomeInconclusive
		rr.Reason += ", but it cannot pass: data requirements not met (" + reasons + ")"
		return
	}
	cap := p.InsufficientPool()
	switch cap {
	case Fail:
		rr.Outcome = OutcomeFail
	case Inconclusive:
		rr.Outcome = OutcomeInconclusive
	default:
		rr.Outcome = OutcomeWarn
	}
	rr.Reason += fmt.Sprintf(", on the model with the day-one prior on the system spread (%s); a pass on it counts as %s (on_insufficient_pool)", reasons, cap)
}

// checkObservation returns why an observation cannot be judged ("" if it can):
// the wrong kind for the quantity, or a value outside the quantity's range.
func checkObservation(q *Quantity, o Observation) string {
	if q.Kind == KindCategory {
		c, ok := o.Category()
		if !ok {
			return fmt.Sprintf("the gate supplied %s for %s, which takes one of %s", o, q.Name, strings.Join(q.Outcomes, ", "))
		}
		if !slices.Contains(q.Outcomes, c) {
			return fmt.Sprintf("the gate supplied unknown outcome %q for %s (valid: %s)", c, q.Name, strings.Join(q.Outcomes, ", "))
		}
		return ""
	}
	v, ok := o.Number()
	switch {
	case !ok:
		return fmt.Sprintf("the gate supplied category %q for %s, which is a number", o.cat, q.Name)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprintf("the value of %s is %s", q.Name, o)
	case q.Kind == KindProbability && (v < 0 || v > 1):
		return fmt.Sprintf("the value of %s is %s, which is not a probability", q.Name, o)
	case q.Kind == KindCount && (v < 0 || v != math.Trunc(v)):
		return fmt.Sprintf("the value of %s is %s, which is not a count", q.Name, o)
	}
	return ""
}

// applyCorrection puts the adjusted p-value adj in place of the observed
// one; n is the number of comparisons it was adjusted over and over says
// what they are ("4 challengers", "3 segments × 2 challengers").
func (p *Policy) applyCorrection(rr *RuleResult, r *Rule, adj float64, n int, over string) {
	raw := rr.Observed
	rr.Unadjusted = &raw
	rr.Correction = r.Correction
	rr.Observed = Number(adj)
	rr.decide(r)
	if n < 2 { // over one comparison the adjusted p is the unadjusted one: nothing to say
		return
	}
	rawV, _ := raw.Number()
	rr.Reason = fmt.Sprintf("observed %s (%s-adjusted over %s; unadjusted %s); needs %s",
		formatObserved(adj, r.Bound), correctionWords(r.Correction), over, formatObserved(rawV, r.Bound), r.Bound.Words())
}

// decide applies the bound to a usable observation.
func (rr *RuleResult) decide(r *Rule) {
	switch {
	case r.Bound.Holds(rr.Observed):
		rr.Outcome = OutcomePass
	case r.Severity == SeverityWarn:
		rr.Outcome = OutcomeWarn
	default:
		rr.Outcome = OutcomeFail
	}
	if v, _, ok := withoutMargin(rr.Query, rr.Observed, r.Bound); ok {
		before := Number(v)
		rr.BeforeMargin = &before
	}
	if rr.Reason == "" {
		rr.Reason = "observed " + observedWords(rr.Query, rr.Observed, r.Bound) + "; needs " + r.Bound.Words()
	}
}

func (p *Policy) applyWaivers(rr *RuleResult, challenger string, now time.Time, matched []bool) {
	for i, w := range p.Waivers {
		if w.Rule != rr.Rule || !w.Challenger.Match(challenger) {
			continue
		}
		matched[i] = true
		if rr.Outcome == OutcomePass {
			continue
		}
		use := &WaiverUse{Rule: w.Rule, Challenger: w.Challenger.Text, Reason: w.Reason, Approver: w.Approver, Expires: w.ExpiresText()}
		if w.Active(now) {
			use.Applied = true
			use.Note = fmt.Sprintf("waived through %s by %s: %s", w.ExpiresText(), w.Approver, w.Reason)
			rr.WaivedOutcome, rr.Outcome, rr.Waiver = rr.Outcome, OutcomeWaived, use
			return
		}
		if rr.Waiver == nil {
			use.Note = "waiver expired on " + w.ExpiresText() + " and no longer applies"
			rr.Waiver = use
		}
	}
}

// challengerVerdict combines rule outcomes; see Evaluate.
func challengerVerdict(rules []RuleResult) (Verdict, string) {
	var failed, inconclusive, warned []string
	waived := 0
	for _, r := range rules {
		switch {
		case r.Outcome == OutcomeFail:
			failed = append(failed, r.Rule)
		case (r.Outcome == OutcomeInconclusive || r.Outcome == OutcomeNeedsJudgments) && r.Severity == SeverityFail:
			inconclusive = append(inconclusive, r.Rule+" ("+r.Reason+")")
		case r.Outcome == OutcomeWarn, r.Outcome == OutcomeInconclusive, r.Outcome == OutcomeNeedsJudgments:
			warned = append(warned, r.Rule)
		case r.Outcome == OutcomeWaived:
			waived++
		}
	}
	suffix := ""
	if waived > 0 {
		suffix = fmt.Sprintf(" (%s waived)", plural(waived, "rule"))
	}
	switch {
	case len(failed) > 0:
		return Fail, "fails " + joinAnd(failed) + suffix
	case len(inconclusive) > 0:
		return Inconclusive, "inconclusive on " + joinAnd(inconclusive) + suffix
	case len(warned) > 0:
		return Warn, "passes with warnings on " + joinAnd(warned) + suffix
	}
	return Pass, "passes every rule" + suffix
}

// decideRun sets the run's verdict, selection and reason; see Evaluate.
func (p *Policy) decideRun(d *Decision, ev Evidence) {
	cs := d.Challengers
	var v Verdict
	switch {
	case len(cs) == 0:
		v, d.Reason = Inconclusive, "there are no challengers to judge"
	case p.Select == SelectAll:
		v = Pass
		for _, want := range []Verdict{Fail, Inconclusive, Warn} {
			var names []string
			for _, c := range cs {
				if c.Verdict == want {
					names = append(names, c.Name+" "+c.Reason)
				}
			}
			if len(names) > 0 {
				v, d.Reason = want, strings.Join(names, "; ")
				break
			}
		}
		if v == Pass || v == Warn {
			for i := range cs {
				cs[i].Selected = true
				d.Selected = append(d.Selected, cs[i].Name)
			}
		}
		if v == Pass {
			d.Reason = "every challenger passes every rule"
		}
	default:
		v = p.selectBest(d, ev)
	}
	d.Raw, d.Verdict = v, v
	if v == Inconclusive && p.OnInconclusive != Inconclusive && p.OnInconclusive != "" {
		d.Verdict = p.OnInconclusive
		d.Reason += fmt.Sprintf("; the gate is inconclusive, which this policy counts as %s (on_inconclusive: %s)", p.OnInconclusive, p.OnInconclusive)
	}
}

func (p *Policy) selectBest(d *Decision, ev Evidence) Verdict {
	q, _ := p.RankQuery()
	better := LookupQuantity(p.RankBy).Better
	type cand struct {
		i     int
		v     float64
		ranks bool
	}
	var cands []cand
	for i := range d.Challengers {
		c := &d.Challengers[i]
		obs := ev.Values.Get(c.Name, q)
		c.Rank = &obs
		if c.Verdict != Pass && c.Verdict != Warn {
			continue
		}
		v, ok := obs.Number()
		ok = ok && !math.IsNaN(v) && !math.IsInf(v, 0)
		if !ok {
			d.Notes = append(d.Notes, fmt.Sprintf("%s passes but has no %s value (%s); it ranks after the challengers that have one", c.Name, p.RankBy, obs.Missing()))
		}
		if better == Lower {
			v = -v
		}
		cands = append(cands, cand{i: i, v: v, ranks: ok})
	}
	if len(cands) == 0 {
		var inc, failed []string
		for _, c := range d.Challengers {
			if c.Verdict == Inconclusive {
				inc = append(inc, c.Name+" is "+c.Reason)
			} else {
				failed = append(failed, c.Name+" "+c.Reason)
			}
		}
		if len(inc) > 0 {
			d.Reason = "no challenger passes; " + strings.Join(append(inc, failed...), "; ")
			return Inconclusive
		}
		d.Reason = "no challenger passes; " + strings.Join(failed, "; ")
		return Fail
	}
	// Stable: equal values keep data order.
	slices.SortStableFunc(cands, func(a, b cand) int {
		switch {
		case a.ranks != b.ranks:
			if a.ranks {
				return -1
			}
			return 1
		case !a.ranks || a.v == b.v:
			return 0
		case a.v > b.v:
			return -1
		}
		return 1
	})
	best := &d.Challengers[cands[0].i]
	best.Selected = true
	d.Selected = []string{best.Name}
	verb := "passes every rule"
	if best.Verdict == Warn {
		verb = best.Reason
	}
	if len(cands) == 1 {
		d.Reason = fmt.Sprintf("%s %s and is the only challenger that passes", best.Name, verb)
	} else {
		rank := "no value"
		if best.Rank != nil && cands[0].ranks {
			v, _ := best.Rank.Number()
			rank = formatNumber(roundSig(v, 4))
		}
		d.Reason = fmt.Sprintf("%s %s and ranks first of %d passing challengers by %s (%s)", best.Name, verb, len(cands), p.RankBy, rank)
	}
	return best.Verdict
}

// roundSig rounds v to sig significant digits, for reasons meant to be read.
func roundSig(v float64, sig int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', sig, 64), 64)
	return r
}
