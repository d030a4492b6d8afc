package calibrate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/buildinfo"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/policies"
)

// riskgate calibrate's work: estimate the generating model from the pool,
// simulate pools with one challenger for each cell of a grid of true effects
// × risk scales, run the gate's decision on each (engine.Decide) and count
// the verdicts, beside each cell's truth and the class the policy's own
// definition gives it.

// Settings are what calibrate needs beyond the policy and the pool.
type Settings struct {
	Reps    int
	Effects []float64 // true mean effects (score scale)
	// Risks are the scales of the challenger's per-topic differences
	// relative to the pool's (bayes.PoolModel.WithRisk); [1] when empty.
	Risks     []float64
	MinEffect float64
	Seed      uint64
	Now       time.Time // waiver expiry in every simulated run
	Workers   int       // 0: GOMAXPROCS
	// Artifacts, when set, is the number of artifacts in every simulated
	// pool (the pool's own first, then more under names of their own);
	// nil: as many as the pool has.
	Artifacts *int
	// SDSystem, when set, is the system spread of the simulated pools,
	// instead of the pool's estimate (or, for a pool with fewer artifacts
	// than the policy's min_artifacts, the day-one prior's posterior median).
	SDSystem *float64
	// GuardrailEffect is, for a policy of several measures, the true effect
	// on every measure but the primary in the cells of Effects (each in its
	// units and improving direction); 0: unchanged.
	GuardrailEffect float64
	// Progress, when set, is told each time a pool has been decided.
	Progress func(done, total int)
	// Attributes are the topics file's segments of the pool's topics: a
	// policy with by: rules is calibrated on pools of the segment model
	// (runSegments), with a regression of each of SegmentDeltas in one
	// segment of each of SegmentSizes topics (the dimension's mean segment
	// size when empty), beside the uniform difference, at every overall
	// effect of Effects.
	Attributes    *scores.TopicAttributes
	SegmentDeltas []float64
	SegmentSizes  []int
}

// Stream is the random stream of replicate rep of grid cell cell (effect
// index × number of risks + risk index): PCG(seed, cell·2³² + rep), so that
// every pool is the same whichever goroutine draws it and in whatever
// order. With one risk scale the cell is the effect index.
func Stream(seed uint64, cell, rep int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(cell)<<32|uint64(rep)))
}

// PilotStream is the random stream of the pilot pool whose fits warm-start
// every simulated pool's: PCG(seed, 2⁶³), apart from every Stream (whose
// cell·2³² + rep stays below 2⁶³).
func PilotStream(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 1<<63))
}

// Run estimates the generating model from t (with the policy's roles),
// simulates c.Reps pools per cell of c.Effects × c.Risks, runs the policy's
// decision on each and returns the report. The simulated pools have the
// champion, the first challenger (the only one: each pool judges one
// challenger) and every artifact of t, under their names, and t's topics.
// Cancelling ctx stops the simulation; Run then returns its error.
//
// A policy whose rules use several measures is given one table per measure
// (engine.Tables, the default measure's first, as the gate reads them) and
// is calibrated on pools resampled from them (runMeasures); a one-measure
// policy on ts[0], on pools of the parametric model.
func Run(ctx context.Context, p *policies.Policy, ts engine.Tables, c Settings) (*Report, error) {
	if len(c.Risks) == 0 {
		c.Risks = []float64{1}
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("calibrate: no score table")
	}
	dim, err := segmentDimension(p)
	if err != nil {
		return nil, err
	}
	switch {
	case dim != "" && len(ts) > 1:
		return nil, fmt.Errorf("a policy with by: rules on several measures (%s): calibrate simulates the segments of one measure", strings.Join(ts.Measures(), ", "))
	case dim != "":
		return runSegments(ctx, p, ts[0], dim, c)
	case len(ts) > 1:
		return runMeasures(ctx, p, ts, c)
	}
	return runOne(ctx, p, ts[0], c)
}

// runOne is Run for a policy of one measure, on table t.
func runOne(ctx context.Context, p *policies.Policy, t *scores.Table, c Settings) (*Report, error) {
	if ms := p.RuleMeasures(); len(ms) > 1 || (len(ms) == 1 && policies.CanonicalMeasure(t.Measure) != ms[0] && t.Measure != ms[0]) {
		return nil, fmt.Errorf("the policy's rules use measures (%s) the inputs were not read for: give calibrate one table per measure", strings.Join(ms, ", "))
	}
	roles, err := p.Roles(t.Systems)
	if err != nil {
		return nil, err
	}
	champ := t.SystemIndex(roles.Champion)
	var chals []int
	for _, name := range roles.Challengers {
		chals = append(chals, t.SystemIndex(name))
	}
	model, err := bayes.EstimatePoolModel(&bayes.Table{Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}, champ, chals)
	if err != nil {
		return nil, fmt.Errorf("estimating the pool's parameters: %w", err)
	}
	sdSystemFrom, smallPool := "", ""
	switch n := len(roles.Artifacts); {
	case c.SDSystem != nil:
		model.SDSystem, sdSystemFrom = *c.SDSystem, "given (--sd-system)"
	case n == 0 || n < p.Requirements.MinArtifacts:
		// Too few systems to estimate the spread by moments (one artifact
		// gives one difference of two means): the day-one prior the gate's
		// Bayesian rules use on such a pool, updated by what the pool says.
		moments := model.SDSystem
		model = model.WithPriorSystemSpread(bayes.IRPools)
		sdSystemFrom = fmt.Sprintf("the posterior median under the day-one prior τ_system ~ %s given %s", bayes.IRPools.Definition(), numfmt.Plural(n, "artifact"))
		smallPool = fmt.Sprintf("your pool has %s, fewer than the %d of requirements.min_artifacts", numfmt.Plural(n, "artifact"), max(1, p.Requirements.MinArtifacts))
		model.Warnings = append(model.Warnings, fmt.Sprintf("%s: its system spread is not estimated by moments (they give %s) but is %s (sd_system %s, as the gate's Bayesian rules on such a pool; docs/fit.md); with more artifacts (riskgate pool) it is your own systems'",
			smallPool, numfmt.G4(moments), sdSystemFrom, numfmt.G4(model.SDSystem)))
	}
	// fix adds to an error about the simulated champions what a small pool
	// has to do with it, and how to give calibrate a spread to work with.
	fix := func(err error) error {
		if smallPool == "" {
			return err
		}
		return fmt.Errorf("%w — %s, too few to estimate the spread of systems like yours (sd_system %s is the day-one prior's posterior median given them): calibrate on a pool with more artifacts (riskgate pool), or give the spread with --sd-system (rb04's 45 systems: %s)",
			err, smallPool, numfmt.G4(model.SDSystem), numfmt.G4(rb04SDSystem))
	}
	def := riskDefinition(p)
	// Each cell's truth, computed once: its model, true mean and
	// risk-adjusted differences, and class.
	// (Truth's quadrature takes about 0.1 CPU-s a cell: the cells are
	// computed in parallel, each on its own.)
	nr := len(c.Risks)
	cells := make([]Cell, len(c.Effects)*nr)
	models := make([]bayes.PoolModel, len(cells))
	cellErrs := make([]error, len(cells))
	parallel.Each(len(cells), func(i int) {
		if ctx.Err() != nil {
			return
		}
		e, k := c.Effects[i/nr], c.Risks[i%nr]
		m := model.WithRisk(k)
		if _, err := m.LatentShift(e, m.Intercept); err != nil {
			cellErrs[i] = fmt.Errorf("--effects %g at risk %g: %w (the pool's mean system; your champion's mean score is %.3g)", e, k, err, m.ChampionMean)
			return
		}
		md, rd, err := m.Truth(ctx, e, def.w)
		if err != nil {
			cellErrs[i] = fix(fmt.Errorf("effect %g at risk %g: %w", e, k, err))
			return
		}
		cells[i] = Cell{Effect: jsonfloat.Float(e), Risk: jsonfloat.Float(k), TrueMeanDiff: jsonfloat.Float(md), TrueRiskDiff: jsonfloat.Float(rd)}
		cells[i].Class = def.class(e, rd, c.MinEffect)
		models[i] = m
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range cellErrs {
		if err != nil {
			return nil, err
		}
	}
	// The pools' systems: the champion, one challenger, the artifacts. The
	// policy judges that challenger: its challenger patterns are replaced
	// by the name, so patterns naming other challengers do not fail to match.
	challenger := roles.Challengers[0]
	systems := append([]string{roles.Champion, challenger}, simulatedArtifacts(t.Systems, roles.Artifacts, c.Artifacts)...)
	sim := *p
	sim.Challengers = []policies.Pattern{{Text: challenger}}

	// Early stopping (policy model.early_stop, on by default): every fit
	// stops once its rules are decided, warm-started from pilot fits of one
	// pool of the grid's middle cell drawn from its own stream
	// (PilotStream), so that no pool re-learns the sampler's metric. Each
	// fit runs its diagnostics on one goroutine: the pools run in parallel.
	dopt := engine.DecideOptions{Now: c.Now, EarlyStop: p.Model.EarlyStop, Workers: 1}
	if dopt.EarlyStop && c.Reps > 0 && len(cells) > 0 {
		mid := len(cells) / 2
		pool, _, err := models[mid].Simulate(PilotStream(c.Seed), float64(cells[mid].Effect), systems, t.Topics)
		if err != nil {
			return nil, fmt.Errorf("the pilot pool: %w", err)
		}
		if dopt.WarmStarts, err = engine.Pilot(ctx, &sim, engine.Tables{BayesToScores(pool)}, c.Workers); err != nil {
			return nil, fmt.Errorf("the pilot fits: %w", err)
		}
	}

	outcomes := make([]outcome, len(cells)*c.Reps)
	err = decidePools(ctx, c, len(outcomes), func(job int) error {
		cell, rep := job/c.Reps, job%c.Reps
		pool, _, err := models[cell].Simulate(Stream(c.Seed, cell, rep), float64(cells[cell].Effect), systems, t.Topics)
		var d *policies.Decision
		if err == nil {
			st := &scores.Table{Measure: t.Measure, Systems: pool.Systems, Topics: pool.Topics, Scores: pool.Scores}
			d, err = engine.DecideWith(ctx, &sim, engine.Tables{st}, dopt)
		}
		if err != nil {
			return fix(fmt.Errorf("simulated pool %d at effect %g, risk %g: %w", rep+1, float64(cells[cell].Effect), float64(cells[cell].Risk), err))
		}
		outcomes[job] = outcome{verdict: d.Verdict, raw: d.Raw}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep := &Report{SchemaVersion: SchemaVersion, Tool: buildinfo.Version(), Reps: c.Reps, Seed: c.Seed, MinEffect: jsonfloat.Float(c.MinEffect),
		Effects: jsonfloat.Floats(c.Effects), Risks: jsonfloat.Floats(c.Risks),
		Policy: Policy{Name: p.Name, File: p.File, SHA256: p.Digest, Seed: p.Seed, OnInconclusive: string(p.OnInconclusive)},
		Harm:   def.harm(),
		Pools: Pools{Measure: t.Measure, Champion: roles.Champion, Challenger: challenger, Artifacts: len(systems) - 2, Topics: len(t.Topics),
			EstimatedFrom: len(roles.Challengers)},
		Model:    calibrateModel(model, sdSystemFrom),
		Warnings: slices.Clone(model.Warnings),
	}
	for i := range cells {
		cells[i].count(outcomes[i*c.Reps : (i+1)*c.Reps])
	}
	rep.Cells = cells
	rep.summarize()
	if len(roles.Challengers) > 1 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("your pool has %d challengers; each simulated pool has one (%s), judged alone: a policy's corrections over several challengers, and select: best among them, are not exercised", len(roles.Challengers), challenger))
	}
	if !t.Complete() {
		rep.Warnings = append(rep.Warnings, "your pool has missing cells; the simulated pools are complete")
	}
	return rep, nil
}

// decidePools runs decide(job) for every job of n — a simulated pool each —
// on c.Workers goroutines, telling c.Progress as each is done. It stops at
// the first error (or when ctx is cancelled) and returns it; a cancelled
// context's error wins over a pool's, which it may have caused.
func decidePools(ctx context.Context, c Settings, n int, decide func(job int) error) error {
	var (
		done     atomic.Int64
		failed   atomic.Bool
		errOnce  sync.Once
		firstErr error
	)
	parallel.For(n, c.Workers, func() func(int) {
		return func(job int) {
			if failed.Load() {
				return
			}
			err := ctx.Err()
			if err == nil {
				err = decide(job)
			}
			if err != nil {
				errOnce.Do(func() { firstErr = err })
				failed.Store(true)
				return
			}
			if c.Progress != nil {
				c.Progress(int(done.Add(1)), n)
			}
		}
	})
	if firstErr != nil && ctx.Err() != nil {
		return ctx.Err() // interrupted: not a pool's fault
	}
	return firstErr
}

// rb04SDSystem is the system spread of rb04's 45 systems by moments
// (bayes.EstimatePoolModel; R's aov in bayes' rb04Model), quoted to a user
// whose pool is too small to estimate its own.
const rb04SDSystem = 0.010376014289387595

// outcome is one simulated pool's decision.
type outcome struct {
	verdict, raw policies.Verdict
}

// definition is the policy's own definition of a harmful challenger: one no
// better on average, or — when the policy judges risk — one whose
// risk-adjusted difference at loss weight w is below −margin.
type definition struct {
	w, margin float64
	rule      string // the rule that judges risk, "" for none
	query     string
}

func riskDefinition(p *policies.Policy) definition {
	r, q, ok := p.RiskDefinition()
	if !ok {
		w := p.LossWeight
		if w == 0 {
			w = 1
		}
		return definition{w: w}
	}
	return definition{w: q.LossWeight, margin: q.Margin, rule: r.ID, query: q.String()}
}

// class is the class of a cell: harmful (no better on average, or riskier
// beyond the margin), beneficial (at least minEffect better and not
// harmful), or neutral. The mean criterion uses the effect the pools were
// drawn with (exact by construction; Truth's mean difference agrees to 1e-6).
func (d definition) class(effect, riskDiff, minEffect float64) string {
	switch {
	case effect <= 0 || (d.rule != "" && riskDiff < -d.margin):
		return ClassHarmful
	case effect >= minEffect:
		return ClassBeneficial
	}
	return ClassNeutral
}

// harm says in words what harmful means for this policy.
func (d definition) harm() Harm {
	h := Harm{LossWeight: jsonfloat.Float(d.w), Margin: jsonfloat.Float(d.margin), Rule: d.rule, Query: d.query}
	if d.rule == "" {
		h.Words = "harmful: a true mean effect of 0 or less (the policy has no fail rule on risk)"
	} else {
		below := "0"
		if d.margin != 0 {
			below = "−" + numfmt.G(d.margin)
		}
		h.Words = fmt.Sprintf("harmful: a true mean effect of 0 or less, or a true risk-adjusted difference (losses counted %s times) below %s — the definition of rule %s (%s)",
			numfmt.G(d.w), below, d.rule, d.query)
	}
	return h
}

// Classes of a cell.
const (
	ClassHarmful    = "harmful"
	ClassNeutral    = "neutral"
	ClassBeneficial = "beneficial"
)

// count fills a cell's rates from its pools' verdicts.
func (c *Cell) count(out []outcome) {
	n := float64(len(out))
	counts := map[policies.Verdict]int{}
	rawInconclusive := 0
	for _, o := range out {
		counts[o.verdict]++
		if o.raw == policies.Inconclusive {
			rawInconclusive++
		}
	}
	rate := func(v policies.Verdict) float64 { return float64(counts[v]) / n }
	se := func(p float64) jsonfloat.Float { return jsonfloat.Float(math.Sqrt(p * (1 - p) / n)) }
	ship := rate(policies.Pass) + rate(policies.Warn)
	lo, hi := wilson(ship, n)
	c.Reps = len(out)
	c.PassRate, c.WarnRate = jsonfloat.Float(rate(policies.Pass)), jsonfloat.Float(rate(policies.Warn))
	c.FailRate, c.InconclusiveRate = jsonfloat.Float(rate(policies.Fail)), jsonfloat.Float(rate(policies.Inconclusive))
	c.ShipRate, c.SE = jsonfloat.Float(ship), se(ship)
	c.ShipCI95 = [2]jsonfloat.Float{jsonfloat.Float(lo), jsonfloat.Float(hi)}
	c.RawInconclusiveRate = jsonfloat.Float(float64(rawInconclusive) / n)
	c.SERates.Pass, c.SERates.Warn = se(rate(policies.Pass)), se(rate(policies.Warn))
	c.SERates.Fail, c.SERates.Inconclusive = se(rate(policies.Fail)), se(rate(policies.Inconclusive))
}

// wilson is Wilson's 95% score interval for a proportion p of n trials
// (Wilson 1927): (p + z²/2n ± z√(p(1 − p)/n + z²/4n²))/(1 + z²/n), z = 1.96.
// Unlike p ± 1.96·SE it is not degenerate at p = 0 or 1: with no ship in
// 500 pools it reads [0, 0.0076].
func wilson(p, n float64) (lo, hi float64) {
	const z = 1.959963984540054
	d := 1 + z*z/n
	c := p + z*z/(2*n)
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return max(0, (c-h)/d), min(1, (c+h)/d)
}

// summarize fills the headline figures: the largest ship rate over the
// harmful cells (the worst false-ship rate) and the smallest over the
// beneficial cells (the worst power); ties go to the cell nearest the
// boundary (the smaller |effect|, then the smaller risk).
func (r *Report) summarize() {
	nearer := func(a, b Cell) bool {
		if math.Abs(float64(a.Effect)) != math.Abs(float64(b.Effect)) {
			return math.Abs(float64(a.Effect)) < math.Abs(float64(b.Effect))
		}
		return a.Risk < b.Risk
	}
	var fs, pw *Cell
	for i := range r.Cells {
		c := &r.Cells[i]
		switch c.Class {
		case ClassHarmful:
			if fs == nil || c.ShipRate > fs.ShipRate || (c.ShipRate == fs.ShipRate && nearer(*c, *fs)) {
				fs = c
			}
		case ClassBeneficial:
			if pw == nil || c.ShipRate < pw.ShipRate || (c.ShipRate == pw.ShipRate && nearer(*c, *pw)) {
				pw = c
			}
		}
	}
	if fs != nil {
		r.FalseShip = &Figure{Effect: fs.Effect, Edge: fs.Edge, Risk: fs.Risk, Rate: fs.ShipRate, SE: fs.SE}
	}
	if pw != nil {
		r.Power = &Figure{Effect: pw.Effect, Edge: pw.Edge, Risk: pw.Risk, Rate: pw.ShipRate, SE: pw.SE}
	}
}

// calibrateModel is the estimated model as the report shows it; sdSystemFrom
// says where SD_system came from when not from the moments.
func calibrateModel(m bayes.PoolModel, sdSystemFrom string) *Model {
	return &Model{Intercept: jsonfloat.Float(m.Intercept), Sigma: jsonfloat.Float(m.Sigma), SDTopic: jsonfloat.Float(m.SDTopic), SDSystem: jsonfloat.Float(m.SDSystem),
		SDSystemFrom: sdSystemFrom, DiffSD: jsonfloat.Float(m.DiffSD), DiffSkew: jsonfloat.Float(m.DiffSkew)}
}

// simulatedArtifacts are the names of the artifacts of every simulated pool:
// the pool's own (artifacts), or the first n of them and, beyond, names of
// their own ("artifact 1", … — none a name of the pool's systems).
func simulatedArtifacts(systems, artifacts []string, n *int) []string {
	if n == nil {
		return artifacts
	}
	out := slices.Clone(artifacts[:min(*n, len(artifacts))])
	for k := 1; len(out) < *n; k++ {
		if name := fmt.Sprintf("artifact %d", k); !slices.Contains(systems, name) {
			out = append(out, name)
		}
	}
	return out
}

// BayesToScores is a simulated pool as the gate's score table (no copy).
func BayesToScores(t *bayes.Table) *scores.Table {
	return &scores.Table{Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}
}
