package calibrate

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/internal/buildinfo"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
)

// Calibrating a policy of several measures (a primary measure that must
// improve, guardrails that must not regress): pools resampled from the
// data (resample.go), a grid of effects on the primary measure with the
// guardrails unchanged, and a cell at the null edge of every fail rule with
// the other measures clearly passing — where that rule's false-ship rate is
// largest (an intersection–union test ships at a rule's null edge at most
// as often as that rule passes there, docs/policies.md).

// passingSEs is how far beyond its null edge, in standard errors of its
// statistic's mean over the topics, a measure is put in the cells at
// another rule's null edge: a level-2.5% one-sided rule passes at 5 SEs
// with probability Φ(5 − 1.96) ≈ 0.9988, so the cell's false-ship rate is
// that of the rule at its edge alone, up to 0.12%.
const passingSEs = 5

// tolerance of a cell's class: the bisection solves a null edge to ~1e-15.
const classTolerance = 1e-9

// multiCell is one cell of a calibration of several measures.
type multiCell struct {
	edge   []string // the rules at whose null edge it is; nil for a cell of --effects
	effect float64  // the primary measure's true effect (--effects) for a cell of the axis
	risk   float64
	shifts []float64 // per measure
}

// poolOutcome is one simulated pool's decision in a calibration of several
// measures: its verdicts, whether the policy's rules on the primary measure
// alone ship it, and the fail rules that blocked it (bit i: w.rules[i]).
type poolOutcome struct {
	outcome
	primaryShips bool
	blocked      uint64
}

// blockedRules are the fail rules (bit i: ids[i]) that blocked the
// decision's challengers: failed, or were inconclusive where the challenger
// is.
func blockedRules(d *policies.Decision, ids []string) uint64 {
	var b uint64
	for _, cd := range d.Challengers {
		for _, rr := range cd.Rules {
			if rr.Outcome == policies.OutcomeFail || (cd.Verdict == policies.Inconclusive && rr.Outcome == policies.OutcomeInconclusive && rr.Severity == policies.SeverityFail) {
				if i := slices.Index(ids, rr.Rule); i >= 0 {
					b |= 1 << i
				}
			}
		}
	}
	return b
}

// tallyPools counts the cell's pools (Cell.count) and, for each fail rule
// (bit k of their blocked: rules[k], judged on measure(k)), the pools it
// blocked.
func (c *Cell) tallyPools(out []poolOutcome, rules []string, measure func(k int) string) {
	plain := make([]outcome, len(out))
	counts := make([]int, len(rules))
	for j, o := range out {
		plain[j] = o.outcome
		for b := o.blocked; b != 0; b &= b - 1 {
			counts[bits.TrailingZeros64(b)]++
		}
	}
	c.count(plain)
	c.BlockedBy = []RuleCount{}
	for k, id := range rules {
		c.BlockedBy = append(c.BlockedBy, RuleCount{Rule: id, Measure: measure(k), Count: counts[k], Rate: jsonfloat.Float(float64(counts[k]) / float64(len(out)))})
	}
}

// maxFailRules bounds the fail rules a calibration of several measures
// counts (one bit each per pool).
const maxFailRules = 64

// runMeasures is Run for a policy whose rules use several measures.
func runMeasures(ctx context.Context, p *policies.Policy, ts engine.Tables, c Settings) (*Report, error) {
	if c.Artifacts != nil || c.SDSystem != nil {
		return nil, fmt.Errorf("--artifacts and --sd-system set the parametric model of a one-measure calibration; a policy of several measures (%s) is calibrated on pools resampled from your own systems and topics", strings.Join(ts.Measures(), ", "))
	}
	roles, err := p.Roles(ts[0].Systems)
	if err != nil {
		return nil, err
	}
	w, err := newResampled(p, ts, roles)
	if err != nil {
		return nil, err
	}
	if len(w.rules) > maxFailRules {
		return nil, fmt.Errorf("the policy has %d fail rules; calibrate counts at most %d", len(w.rules), maxFailRules)
	}
	cells, grid, err := w.cells(c)
	if err != nil {
		return nil, err
	}
	challenger := roles.Challengers[0]
	systems := append([]string{roles.Champion, challenger}, roles.Artifacts...)
	topics := engine.NumberedNames("t", w.topics())
	sim := *p
	sim.Challengers = []policies.Pattern{{Text: challenger}}
	// The primary rules alone: the same pools decided without the rules on
	// other measures, for the power the guardrails cost.
	alone := sim
	alone.Rules = nil
	for _, r := range p.Rules {
		if measureIndex(ts, r.Measure) == w.primary {
			alone.Rules = append(alone.Rules, r)
		}
	}
	dopt := engine.DecideOptions{Now: c.Now, EarlyStop: p.Model.EarlyStop, Workers: 1}
	if dopt.EarlyStop && c.Reps > 0 && len(grid) > 0 {
		mid := grid[len(grid)/2]
		pool := w.simulate(PilotStream(c.Seed), mid.shifts, mid.risk, systems, topics)
		if dopt.WarmStarts, err = engine.Pilot(ctx, &sim, pool, c.Workers); err != nil {
			return nil, fmt.Errorf("the pilot fits: %w", err)
		}
	}
	ruleIDs := make([]string, len(w.rules))
	for i, r := range w.rules {
		ruleIDs[i] = r.id
	}
	outcomes := make([]poolOutcome, len(grid)*c.Reps)
	err = decidePools(ctx, c, len(outcomes), func(job int) error {
		cell, rep := job/c.Reps, job%c.Reps
		g := grid[cell]
		pool := w.simulate(Stream(c.Seed, cell, rep), g.shifts, g.risk, systems, topics)
		d, err := engine.DecideWith(ctx, &sim, pool, dopt)
		var a *policies.Decision
		if err == nil {
			a, err = engine.DecideWith(ctx, &alone, pool, dopt)
		}
		if err != nil {
			return fmt.Errorf("simulated pool %d of cell %s: %w", rep+1, g.name(), err)
		}
		outcomes[job] = poolOutcome{outcome: outcome{verdict: d.Verdict, raw: d.Raw}, primaryShips: ships(a.Verdict), blocked: blockedRules(d, ruleIDs)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range cells {
		out := outcomes[i*c.Reps : (i+1)*c.Reps]
		primary := 0
		for _, o := range out {
			if o.primaryShips {
				primary++
			}
		}
		cells[i].tallyPools(out, ruleIDs, func(k int) string { return w.measures[w.rules[k].m] })
		n := float64(len(out))
		pr := float64(primary) / n
		cells[i].PrimaryAlone = &Rate{Rate: jsonfloat.Float(pr), SE: jsonfloat.Float(math.Sqrt(pr * (1 - pr) / n))}
	}
	def := w.harm(p)
	rep := &Report{SchemaVersion: SchemaVersion, Tool: buildinfo.Version(), Reps: c.Reps, Seed: c.Seed, MinEffect: jsonfloat.Float(c.MinEffect),
		Effects: jsonfloat.Floats(c.Effects), Risks: jsonfloat.Floats(c.Risks),
		Policy: Policy{Name: p.Name, File: p.File, SHA256: p.Digest, Seed: p.Seed, OnInconclusive: string(p.OnInconclusive)},
		Harm:   def,
		Pools: Pools{Measure: w.measures[w.primary], Champion: roles.Champion, Challenger: challenger, Artifacts: len(roles.Artifacts), Topics: w.topics(),
			EstimatedFrom: len(roles.Challengers)},
		Resampling: w.describe(c.GuardrailEffect),
		Cells:      cells,
		Warnings:   []string{},
	}
	rep.summarize()
	if len(roles.Challengers) > 1 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("your pool has %d challengers; each simulated pool has one (%s), carrying the improvements of all of them, judged alone: a policy's corrections over several challengers, and select: best among them, are not exercised", len(roles.Challengers), challenger))
	}
	return rep, nil
}

// ships is whether a verdict ships the challenger: pass or warn.
func ships(v policies.Verdict) bool { return v == policies.Pass || v == policies.Warn }

// name is how messages name a cell.
func (g multiCell) name() string {
	if g.edge != nil {
		return fmt.Sprintf("at the null edge of %s, risk %s", strings.Join(g.edge, ", "), numfmt.G(g.risk))
	}
	return fmt.Sprintf("effect %s, risk %s", numfmt.G(g.effect), numfmt.G(g.risk))
}

// cells are the grid of a calibration of several measures and each cell's
// truth and class: first --effects × --risks on the primary measure with
// every other measure at GuardrailEffect (0: unchanged), effect-major; then, for
// each fail rule (rules of the same null edge together) and each risk
// scale, the cell at its null edge with every other measure clearly
// passing (passingSEs beyond each of its rules' edges).
func (w *resampled) cells(c Settings) ([]Cell, []multiCell, error) {
	var grid []multiCell
	unchanged := make(map[float64][]float64) // every measure but the primary at GuardrailEffect
	for _, r := range c.Risks {
		s := make([]float64, len(w.measures))
		for m := range s {
			if m == w.primary { // the axis's own, below
				continue
			}
			var err error
			if s[m], err = w.solve(m, r, 0, c.GuardrailEffect); err != nil {
				return nil, nil, fmt.Errorf("--guardrail-effect %g at risk %g: %w", c.GuardrailEffect, r, err)
			}
		}
		unchanged[r] = s
	}
	for _, e := range c.Effects {
		for _, r := range c.Risks {
			s := slices.Clone(unchanged[r])
			var err error
			if s[w.primary], err = w.solve(w.primary, r, 0, e); err != nil {
				return nil, nil, fmt.Errorf("--effects %g at risk %g: %w", e, r, err)
			}
			grid = append(grid, multiCell{effect: e, risk: r, shifts: s})
		}
	}
	// The rules' null edges, rules of one edge together.
	type edgeKey struct {
		m       int
		risk    bool
		w, edge float64
	}
	var keys []edgeKey
	ids := map[edgeKey][]string{}
	for _, fr := range w.rules {
		k := edgeKey{fr.m, fr.risk, fr.w, fr.edge()}
		if _, ok := ids[k]; !ok {
			keys = append(keys, k)
		}
		ids[k] = append(ids[k], fr.id)
	}
	for _, k := range keys {
		for _, r := range c.Risks {
			s, err := w.passing(r)
			if err != nil {
				return nil, nil, err
			}
			if s[k.m], err = w.solve(k.m, r, k.w, k.edge); err != nil {
				return nil, nil, fmt.Errorf("the null edge of %s: %w", strings.Join(ids[k], ", "), err)
			}
			grid = append(grid, multiCell{edge: ids[k], risk: r, shifts: s})
		}
	}
	cells := make([]Cell, len(grid))
	for i, g := range grid {
		cells[i] = w.cell(g, c.MinEffect)
	}
	return cells, grid, nil
}

// passing are the shifts at which every measure clearly passes its fail
// rules at risk scale r: each rule's statistic passingSEs standard errors
// (its SD over the population at the edge, over √topics) beyond its null
// edge, the largest shift of a measure's rules; a measure without a fail
// rule unchanged.
func (w *resampled) passing(r float64) ([]float64, error) {
	s := make([]float64, len(w.measures))
	sqrtN := math.Sqrt(float64(w.topics()))
	for m := range s {
		var err error
		if s[m], err = w.solve(m, r, 0, 0); err != nil {
			return nil, err
		}
		first := true
		for _, fr := range w.rules {
			if fr.m != m {
				continue
			}
			edge, err := w.solve(m, r, fr.w, fr.edge())
			if err != nil {
				return nil, err
			}
			_, sd := w.truth(m, edge, r, fr.w)
			shift, err := w.solve(m, r, fr.w, fr.edge()+passingSEs*sd/sqrtN)
			if err != nil {
				return nil, fmt.Errorf("a clearly passing effect for rule %s: %w", fr.id, err)
			}
			if first || shift > s[m] {
				s[m], first = shift, false
			}
		}
	}
	return s, nil
}

// cell is a grid cell's truth and class: on every measure the true mean
// effect and, where a non-inferiority rule judges it, the true
// risk-adjusted effect at that rule's loss weight; harmful when any fail
// rule's null hypothesis holds (or the primary measure does not improve),
// beneficial when not harmful and the primary measure improves by at least
// minEffect, neutral otherwise.
func (w *resampled) cell(g multiCell, minEffect float64) Cell {
	out := Cell{Risk: jsonfloat.Float(g.risk), Edge: g.edge}
	harmful := false
	for m := range w.measures {
		mean, _ := w.truth(m, g.shifts[m], g.risk, 0)
		mt := MeasureTruth{Measure: w.measures[m], Effect: jsonfloat.Float(mean), Shift: jsonfloat.Float(g.shifts[m])}
		if m == w.primary && mean <= classTolerance {
			harmful = true
		}
		for _, fr := range w.rules {
			if fr.m != m {
				continue
			}
			if !fr.risk {
				harmful = harmful || mean <= fr.mean+classTolerance
				continue
			}
			rd, _ := w.truth(m, g.shifts[m], g.risk, fr.w)
			harmful = harmful || rd <= -fr.delta+classTolerance
			if mt.TrueRiskDiff == nil {
				lw, v := jsonfloat.Float(fr.w), jsonfloat.Float(rd)
				mt.LossWeight, mt.TrueRiskDiff = &lw, &v
			}
		}
		out.Measures = append(out.Measures, mt)
	}
	p := out.Measures[w.primary]
	out.Effect, out.TrueMeanDiff, out.TrueRiskDiff = p.Effect, p.Effect, p.Effect
	if g.edge == nil {
		out.Effect = jsonfloat.Float(g.effect)
	}
	if p.TrueRiskDiff != nil {
		out.TrueRiskDiff = *p.TrueRiskDiff
	}
	switch {
	case harmful:
		out.Class = ClassHarmful
	case float64(p.Effect) >= minEffect-classTolerance:
		out.Class = ClassBeneficial
	default:
		out.Class = ClassNeutral
	}
	return out
}

// harm is the policy's definition of a harmful challenger over its
// measures: the union of its fail rules' null hypotheses, and no
// improvement of the primary measure.
func (w *resampled) harm(p *policies.Policy) Harm {
	h := Harm{LossWeight: 1}
	parts := []string{fmt.Sprintf("a true mean effect of 0 or less on %s (the primary measure)", w.measures[w.primary])}
	for _, fr := range w.rules {
		if fr.risk {
			if fr.m == w.primary && h.Rule == "" {
				q := p.Query(p.Rules[fr.index])
				h.LossWeight, h.Margin, h.Rule, h.Query = jsonfloat.Float(fr.w), jsonfloat.Float(fr.delta), fr.id, q.String()
			}
			what := fmt.Sprintf("a true risk-adjusted effect on %s (losses counted %s times)", w.measures[fr.m], numfmt.G(fr.w))
			if fr.w == 1 {
				what = "a true mean effect on " + w.measures[fr.m]
			}
			parts = append(parts, fmt.Sprintf("%s of %s or less (the null of rule %s)", what, minus(fr.delta), fr.id))
		} else if fr.m != w.primary || fr.mean > 0 {
			parts = append(parts, fmt.Sprintf("a true mean effect of %s or less on %s (the null of rule %s)", numfmt.G(fr.mean), w.measures[fr.m], fr.id))
		}
	}
	h.Words = "harmful: " + strings.Join(parts, "; or ")
	return h
}

// describe is the population as the report shows it.
func (w *resampled) describe(guardrailEffect float64) *Resampling {
	r := &Resampling{Topics: w.topics(), Challengers: w.challengers(), PassingSEs: passingSEs, GuardrailEffect: jsonfloat.Float(guardrailEffect)}
	for m, name := range w.measures {
		var rules []string
		for _, fr := range w.rules {
			if fr.m == m {
				rules = append(rules, fr.id)
			}
		}
		sd := math.Sqrt(stats.Variance(slices.Concat(w.u[m]...)))
		r.Measures = append(r.Measures, ResampledMeasure{Measure: name, Primary: m == w.primary, LowerIsBetter: w.lower[m], Bounded: w.bounded[m],
			FailRules: rules, DiffSD: jsonfloat.Float(sd)})
		r.Correlation = append(r.Correlation, jsonfloat.Floats(w.corr[m]))
	}
	return r
}

// minus is −δ as the reports print a negative margin.
func minus(delta float64) string {
	if delta == 0 {
		return "0"
	}
	return "−" + numfmt.G(delta)
}
