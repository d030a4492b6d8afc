package engine

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/riskgate/riskgate/gate/judgments"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/policies"
)

// The analysis core: Run, Decide and Pilot resolve their settings, build one
// core (roles → facts → requirements → slices) and invoke its steps — decide
// for a verdict, fit for the pilot adaptations, and for Run the describe
// step and the result (run.go) that decisions never call. The analyses live
// on slices (slice.go): each computed lazily, once, and only when a query
// asks for it.

// settings are everything a run of the core is set by, resolved once from
// the caller's options and the policy: Run, Decide and Pilot differ here and
// in the steps they invoke, never by a mode checked deep inside.
type settings struct {
	now time.Time // the run's date: waiver expiry
	// progress is told each analysis as it starts; nil for none.
	progress Progress
	// stages are the analyses evaluated in turn: the run stops after a
	// stage that fails every challenger. Decide's are the needed analyses
	// one by one, cheapest first (policies.Needs), so that a challenger
	// failed by a closed-form rule costs no MCMC fit; Run's are one stage
	// of all of them, computed in the rules' order.
	stages [][]policies.Analysis
	// sequential: each fit stops sampling once the rules on it are decided
	// (sequential.go) and each BCa end a rule bounds is settled from as few
	// bootstrap replicates as decide it (bca_sequential.go). Only a run
	// whose fits no report shows sets it (Decide with model.early_stop).
	sequential bool
	// warm, when set, starts the fits from pilot fits' adaptations.
	warm *WarmStarts
	// workers are each fit's diagnostics' goroutines [GOMAXPROCS]; the
	// results do not depend on it.
	workers int
	// sweep are the extra loss weights of Run's risk-against-loss-weight
	// plot (BRisk fits, when a rule needs BRisk) and of the evidence's
	// "passes at loss weight".
	sweep []float64
	// rankings are the runs' rankings against the qrels, when the inputs
	// are runs + qrels: each rule is then also judged under the other
	// assumptions about unjudged documents (judged.go).
	rankings *scores.Rankings
	// attributes are the topics file's: the segments of every topic the
	// by: rules read (segments.go); nil without a topics file.
	attributes *scores.TopicAttributes
}

// core is one policy applied to one score table: the roles, the facts and
// the requirements resolved once, the readers of the policy's queries, the
// slices the analyses run on, and the ledger of what ran.
type core struct {
	ctx   context.Context // cancels the fits
	p     *policies.Policy
	roles policies.Roles
	facts policies.Facts
	set   settings

	// needs are the analyses the policy's queries use.
	needs map[policies.Analysis]bool
	// unmet maps an analysis to the requirements it fails. It still runs: a
	// rule it fails fails, one it passes cannot pass (policies.Evaluate).
	unmet map[policies.Analysis]string
	// smallPool says why the Bayesian models take the system spread from
	// the day-one prior (requirements.min_artifacts unmet); "" when they
	// learn it from the pool.
	smallPool string

	// readers say how each query is computed, resolved from the settings
	// (read.go).
	readers map[policies.Query]reader
	// table is the default measure's score table (the rules that name no
	// measure), tables every measure's by name; slices are the data the
	// analyses run on, by key, each built when first needed (slice.go);
	// whole is the default measure's whole table's, which the result's
	// tables show.
	table  *scores.Table
	tables map[string]*scores.Table
	slices map[sliceKey]*slice
	whole  *slice
	// variants are each measure's scores under the assumptions about
	// unjudged documents, computed once (judged.go).
	variants map[string]*variants
	// segs are the table's topics in the segments of the by: rules'
	// dimensions (segments.go).
	segs segmentation

	ledger
}

// ledger is what a run did, for the result: the analyses that ran, why
// any that was tried gave nothing, the warnings of the analyses, and the
// time each took.
type ledger struct {
	ran      map[policies.Analysis]bool
	failed   map[policies.Analysis]string
	warnings []warning
	timings  map[string]int64
}

// newCore assigns the roles of policy p on the tables ts (the default
// measure's first), with the facts and data requirements they give (the
// topic coverage from the alignment a), and resolves the readers of the
// policy's queries under the settings s. A rule naming a measure ts do not
// hold is an error (policies.CheckMeasures), as are tables of other
// systems or topics than the default's.
func newCore(ctx context.Context, p *policies.Policy, ts Tables, a scores.Alignment, s settings) (*core, error) {
	if len(ts) == 0 {
		return nil, fmt.Errorf("no score table")
	}
	t := ts[0]
	roles, err := p.Roles(t.Systems)
	if err != nil {
		return nil, err
	}
	tables, err := ts.byMeasure()
	if err != nil {
		return nil, err
	}
	if err := p.CheckMeasures(ts.Measures()); err != nil {
		return nil, err
	}
	c := &core{
		ctx: ctx, p: p, roles: roles, set: s, table: t, tables: tables, slices: map[sliceKey]*slice{}, variants: map[string]*variants{},
		facts: policies.Facts{Topics: len(t.Topics), Artifacts: len(roles.Artifacts), TopicCoverage: topicCoverage(t, a)},
		needs: map[policies.Analysis]bool{}, unmet: map[policies.Analysis]string{},
		ledger: ledger{ran: map[policies.Analysis]bool{}, failed: map[policies.Analysis]string{}, timings: map[string]int64{}},
	}
	for _, a := range p.Needs() {
		c.needs[a] = true
	}
	c.segs = newSegmentation(p, t, s.attributes)
	for _, u := range p.CheckRequirements(c.facts) {
		if u.Requirement == "min_artifacts" {
			c.smallPool = u.Reason
		}
		for _, a := range u.Affects {
			if c.unmet[a] != "" {
				c.unmet[a] += "; "
			}
			c.unmet[a] += u.Reason
		}
	}
	c.whole = c.slice(sliceKey{measure: t.Measure})
	c.readers = map[policies.Query]reader{}
	for _, q := range p.Queries() {
		c.readers[q] = c.resolveReader(q)
	}
	return c, nil
}

// sliceOf is the slice query q is computed on.
func (c *core) sliceOf(q policies.Query) *slice { return c.slice(c.keyOf(q)) }

// keyOf names the data query q reads: the table of the query's measure
// (the default measure's when it names none) — for a classical query in a
// segment (q.Segment), the segment's topics; a Bayesian one reads the
// segment model of the whole table (segments.go). The judgment variant is
// set by the caller that reads one (judged.go).
func (c *core) keyOf(q policies.Query) sliceKey {
	k := sliceKey{measure: q.Measure}
	if q.Measure == "" {
		k.measure = c.table.Measure
	}
	if q.Segment != "" && !pooled(q) {
		k.dimension, k.segment = q.By, q.Segment
	}
	return k
}

// slice returns the slice of key, built once: its table (tableOf) with
// empty caches.
func (c *core) slice(key sliceKey) *slice {
	if s, ok := c.slices[key]; ok {
		return s
	}
	s := newSlice(c, key, c.tableOf(key))
	c.slices[key] = s
	return s
}

// tableOf is the score table of the slice key names: its measure's table,
// in the improvement orientation — the scores of a measure of which lower
// is better (policy inputs.lower_is_better) negated, so that every
// analysis, quantity and margin on it reads "higher is better" and a
// difference challenger − champion of the oriented scores is the natural
// champion − challenger (docs/policies.md, "Direction"). A segment's table
// is its topics' columns (segmentTable).
func (c *core) tableOf(key sliceKey) *scores.Table {
	t := c.tables[key.measure]
	if key.variant != judgments.Standard {
		t = c.variantTable(key.measure, key.variant)
	}
	if key.segment != "" {
		t = c.segmentTable(t, key.dimension, key.segment)
	}
	if !c.p.LowerIsBetter(key.measure) {
		return t
	}
	return negated(t)
}

// decide evaluates the policy stage by stage (settings.stages): after each
// stage, the queries of every analysis of the stages so far have values,
// the others are not computed yet; it stops after a stage that fails every
// challenger — a failed fail-severity rule fails its challenger whatever
// the other rules say, and a run whose challengers all fail fails — and
// after the last. Cancelling the context stops it with the context's error.
func (c *core) decide() (*policies.Decision, error) {
	var computed []policies.Analysis
	for i, stage := range c.set.stages {
		computed = append(computed, stage...)
		d := c.evaluate(computed)
		if err := c.ctx.Err(); err != nil {
			return nil, err
		}
		if i == len(c.set.stages)-1 || allFail(d) {
			return d, nil
		}
	}
	return c.evaluate(computed), nil // no stage: a policy without rules
}

// evaluate decides the policy on the values of the computed analyses.
// Each rule result names the measure it was judged on; in a gate of several
// measures its query names it too, so that every report's quantity column
// does (a one-measure gate's queries stay as the policy wrote them).
func (c *core) evaluate(computed []policies.Analysis) *policies.Decision {
	d := c.p.Evaluate(policies.Evidence{Challengers: c.roles.Challengers, Values: c.values(computed), Facts: c.facts, Now: c.set.now,
		Assumptions: c.assumptions(computed), Segments: c.segs.order})
	for ci := range d.Challengers {
		for ri := range d.Challengers[ci].Rules {
			rr := &d.Challengers[ci].Rules[ri]
			rr.Measure = c.measureOf(rr.Query)
			rr.LowerIsBetter = c.p.LowerIsBetter(rr.Measure)
			if len(c.tables) > 1 {
				rr.Query.Measure = rr.Measure
			}
		}
	}
	return d
}

// values computes every query of the policy, for every challenger, whose
// analysis is computed — a by: rule's in every segment of its dimension
// (inSegments); the others are unavailable, not computed yet.
func (c *core) values(computed []policies.Analysis) *policies.Values {
	v := policies.NewValues()
	for _, q := range c.p.Queries() {
		if q.By != "" && len(c.segs.order[q.By]) == 0 {
			for _, name := range c.roles.Challengers {
				v.Set(name, q, policies.Unavailable("no topics file gives dimension "+q.By))
			}
			continue
		}
		for _, qg := range c.inSegments(q) {
			s := c.sliceOf(qg)
			for i, name := range c.roles.Challengers {
				if !slices.Contains(computed, qg.Analysis()) {
					v.Set(name, qg, policies.Unavailable("not computed yet"))
					continue
				}
				v.Set(name, qg, s.observe(s.chals[i], qg))
			}
		}
	}
	return v
}

// allFail reports whether every challenger of d fails.
func allFail(d *policies.Decision) bool {
	for _, c := range d.Challengers {
		if c.Verdict != policies.Fail {
			return false
		}
	}
	return len(d.Challengers) > 0
}

// eachNeed is Decide's stages: every needed analysis alone, cheapest first.
func eachNeed(p *policies.Policy) [][]policies.Analysis {
	var stages [][]policies.Analysis
	for _, a := range p.Needs() {
		stages = append(stages, []policies.Analysis{a})
	}
	return stages
}

// allNeeds is Run's stages: every needed analysis at once.
func allNeeds(p *policies.Policy) [][]policies.Analysis {
	if needs := p.Needs(); len(needs) > 0 {
		return [][]policies.Analysis{needs}
	}
	return nil
}

// phase says what the run is computing now.
func (c *core) phase(what string) {
	if c.set.progress != nil {
		c.set.progress.Phase(what)
	}
}

// timed runs f and records its wall time under name.
func (c *core) timed(name string, f func()) {
	start := time.Now()
	f()
	c.timings[name] += time.Since(start).Milliseconds()
}

// tableLossWeight is the w of the risk table: the policy's, 1 when it has none.
func (c *core) tableLossWeight() float64 {
	if c.p.LossWeight > 0 {
		return c.p.LossWeight
	}
	return 1
}
