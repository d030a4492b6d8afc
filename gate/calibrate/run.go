package calibrate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riskgate/riskgate/gate/engine"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/buildinfo"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// riskgate calibrate's work: estimate the generating model from the pool,
// simulate pools with one challenger of each true effect, run the gate's
// decision on each (engine.Decide) and count the verdicts.

// calibration is what calibrate needs beyond the policy and the pool.
type Settings struct {
	Reps      int
	Effects   []float64
	MinEffect float64
	Seed      uint64
	Now       time.Time // waiver expiry in every simulated run
	Workers   int       // 0: GOMAXPROCS
	// Progress, when set, is told each time a pool has been decided.
	Progress func(done, total int)
}

// calibrationStream is the random stream of replicate rep at effect index
// e: PCG(seed, e·2³² + rep), so that every pool is the same whichever
// goroutine draws it and in whatever order.
func Stream(seed uint64, e, rep int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(e)<<32|uint64(rep)))
}

// Run estimates the generating model from t (with the policy's
// roles), simulates c.Reps pools per effect, runs the policy's decision on
// each and returns the report. The simulated pools have the champion, the
// first challenger (the only one: each pool judges one challenger) and every
// artifact of t, under their names, and t's topics. Cancelling ctx stops
// the simulation; Run then returns its error.
func Run(ctx context.Context, p *policies.Policy, t *scores.Table, c Settings) (*Report, error) {
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
	for _, e := range c.Effects {
		if _, err := model.LatentShift(e, model.Intercept); err != nil {
			return nil, fmt.Errorf("--effects %g: %w", e, err)
		}
	}
	// The pools' systems: the champion, one challenger, the artifacts. The
	// policy judges that challenger: its challenger patterns are replaced
	// by the name, so patterns naming other challengers do not fail to match.
	challenger := roles.Challengers[0]
	systems := append([]string{roles.Champion, challenger}, roles.Artifacts...)
	sim := *p
	sim.Challengers = []policies.Pattern{{Text: challenger}}

	w := 1.0 // the policy's loss weight, 1 when it has none (the gate's risk table's)
	if p.LossWeight > 0 {
		w = p.LossWeight
	}
	n := len(c.Effects) * c.Reps
	outcomes := make([]calibrationOutcome, n)
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
			if err := ctx.Err(); err != nil {
				errOnce.Do(func() { firstErr = err })
				failed.Store(true)
				return
			}
			e, rep := job/c.Reps, job%c.Reps
			pool, truth, err := model.Simulate(Stream(c.Seed, e, rep), c.Effects[e], systems, t.Topics)
			var d *policies.Decision
			if err == nil {
				st := &scores.Table{Measure: t.Measure, Systems: pool.Systems, Topics: pool.Topics, Scores: pool.Scores}
				d, err = engine.Decide(ctx, &sim, st, c.Now)
			}
			if err != nil {
				errOnce.Do(func() { firstErr = fmt.Errorf("simulated pool %d at effect %g: %w", rep+1, c.Effects[e], err) })
				failed.Store(true)
				return
			}
			// The challenger's URisk against the champion at the policy's loss
			// weight: what a risk rule sees of this effect.
			u, _ := risk.Pair{X: pool.Scores[1], Base: pool.Scores[0]}.URisk(w)
			outcomes[job] = calibrationOutcome{verdict: d.Verdict, raw: d.Raw, meanDiff: truth.MeanDiff, urisk: u.Value}
			if c.Progress != nil {
				c.Progress(int(done.Add(1)), n)
			}
		}
	})
	if firstErr != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err() // interrupted: not a pool's fault
		}
		return nil, firstErr
	}
	rep := &Report{SchemaVersion: 1, Tool: buildinfo.Version(), Reps: c.Reps, Seed: c.Seed, MinEffect: jsonfloat.Float(c.MinEffect), LossWeight: jsonfloat.Float(w),
		Policy: Policy{Name: p.Name, File: p.File, SHA256: p.Digest, Seed: p.Seed, OnInconclusive: string(p.OnInconclusive)},
		Pools: Pools{Measure: t.Measure, Champion: roles.Champion, Challenger: challenger, Artifacts: len(roles.Artifacts), Topics: len(t.Topics),
			EstimatedFrom: len(roles.Challengers)},
		Model:    calibrateModel(model),
		Warnings: slices.Clone(model.Warnings),
	}
	for e, effect := range c.Effects {
		rep.Effects = append(rep.Effects, summarizeEffect(effect, c.MinEffect, outcomes[e*c.Reps:(e+1)*c.Reps]))
	}
	rep.summarize()
	if len(roles.Challengers) > 1 {
		rep.Warnings = append(rep.Warnings, fmt.Sprintf("your pool has %d challengers; each simulated pool has one (%s), judged alone: a policy's corrections over several challengers, and select: best among them, are not exercised", len(roles.Challengers), challenger))
	}
	if !t.Complete() {
		rep.Warnings = append(rep.Warnings, "your pool has missing cells; the simulated pools are complete")
	}
	return rep, nil
}

// calibrationOutcome is one simulated pool's decision.
type calibrationOutcome struct {
	verdict, raw policies.Verdict
	meanDiff     float64
	urisk        float64
}

// summarizeEffect counts the verdicts of one effect's pools.
func summarizeEffect(effect, minEffect float64, out []calibrationOutcome) Effect {
	n := float64(len(out))
	counts := map[policies.Verdict]int{}
	rawInconclusive := 0
	diffs, urisks := make([]float64, len(out)), make([]float64, len(out))
	for i, o := range out {
		counts[o.verdict]++
		if o.raw == policies.Inconclusive {
			rawInconclusive++
		}
		diffs[i], urisks[i] = o.meanDiff, o.urisk
	}
	rate := func(v policies.Verdict) float64 { return float64(counts[v]) / n }
	se := func(p float64) jsonfloat.Float { return jsonfloat.Float(math.Sqrt(p * (1 - p) / n)) }
	ship := rate(policies.Pass) + rate(policies.Warn)
	lo, hi := wilson(ship, n)
	ce := Effect{
		Effect: jsonfloat.Float(effect), Reps: len(out),
		PassRate: jsonfloat.Float(rate(policies.Pass)), WarnRate: jsonfloat.Float(rate(policies.Warn)),
		FailRate: jsonfloat.Float(rate(policies.Fail)), InconclusiveRate: jsonfloat.Float(rate(policies.Inconclusive)),
		ShipRate: jsonfloat.Float(ship), SE: se(ship), ShipCI95: [2]jsonfloat.Float{jsonfloat.Float(lo), jsonfloat.Float(hi)},
		RawInconclusiveRate: jsonfloat.Float(float64(rawInconclusive) / n),
		MeanDiff:            jsonfloat.Float(bayes.Mean(diffs)),
		MeanURisk:           jsonfloat.Float(bayes.Mean(urisks)),
	}
	ce.SERates.Pass, ce.SERates.Warn = se(rate(policies.Pass)), se(rate(policies.Warn))
	ce.SERates.Fail, ce.SERates.Inconclusive = se(rate(policies.Fail)), se(rate(policies.Inconclusive))
	switch {
	case effect < 0:
		ce.ReadsAs = ReadsFalseShip
	case effect >= minEffect && effect > 0:
		ce.ReadsAs = ReadsPower
	}
	return ce
}

const (
	ReadsFalseShip = "false-ship rate"
	ReadsPower     = "power"
)

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

// summarize fills the headline figures: the largest false-ship rate over
// the negative effects and the smallest power over the effects that matter,
// ties going to the effect nearest 0 (the hardest one to judge).
func (r *Report) summarize() {
	for i := range r.Effects {
		e := &r.Effects[i]
		fig := &Figure{Effect: e.Effect, Rate: e.ShipRate, SE: e.SE}
		switch e.ReadsAs {
		case ReadsFalseShip:
			if f := r.FalseShip; f == nil || e.ShipRate > f.Rate || (e.ShipRate == f.Rate && e.Effect > f.Effect) {
				r.FalseShip = fig
			}
		case ReadsPower:
			if p := r.Power; p == nil || e.ShipRate < p.Rate || (e.ShipRate == p.Rate && e.Effect < p.Effect) {
				r.Power = fig
			}
		}
	}
}

// calibrateModel is the estimated model as the report shows it.
func calibrateModel(m bayes.PoolModel) Model {
	return Model{Intercept: jsonfloat.Float(m.Intercept), Sigma: jsonfloat.Float(m.Sigma), SDTopic: jsonfloat.Float(m.SDTopic), SDSystem: jsonfloat.Float(m.SDSystem),
		DiffSD: jsonfloat.Float(m.DiffSD), DiffSkew: jsonfloat.Float(m.DiffSkew)}
}

// bayesToScores is a simulated pool as the gate's score table (no copy).
func BayesToScores(t *bayes.Table) *scores.Table {
	return &scores.Table{Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}
}
