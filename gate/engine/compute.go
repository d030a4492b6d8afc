package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// The analyses of a gate run and the observations they give the policy.
// gateRun computes lazily and caches: each analysis runs at most once per
// setting (loss weight, level), only when a query asks for it, and never
// when the policy does not need it — except the cheap descriptive and
// closed-form risk measures, which the risk table of every report shows.

// gateBootstrapSamples is B of the BCa bootstrap and of the permutation and
// bootstrap tests, as riskgate compare's default.
const gateBootstrapSamples = 100_000

// gateRun holds one run's data, settings and computed analyses.
type gateRun struct {
	ctx   context.Context // cancels the fits
	p     *policies.Policy
	t     *scores.Table
	roles policies.Roles
	champ int       // index of the champion in t
	chals []int     // indexes of the challengers in t, in roles order
	prog  Progress  // nil: no progress shown
	now   time.Time // of the run: waiver expiry

	// sweep are extra loss weights at which BRisk is fitted for the report's
	// risk-against-loss-weight plot when a rule needs BRisk anyway (--risk-sweep).
	sweep []float64

	needs map[policies.Analysis]bool
	// unmet maps an analysis to the requirements it fails. It still runs: a
	// rule it fails fails, one it passes cannot pass (policies.Evaluate).
	unmet map[policies.Analysis]string
	// smallPool says why the Bayesian models are fitted over the champion
	// and the challengers alone (requirements.min_artifacts unmet); "" when
	// they learn from the whole pool.
	smallPool string

	warnings []string
	timings  map[string]int64

	pairs  map[int]risk.Pair                 // champion and challenger on their common topics
	riskAt map[float64]*riskMeasures         // closed-form risk measures per loss weight
	bcaAt  map[[2]float64]map[int]bcaOutcome // (w, level) → challenger → BCa
	// bcaEnds are the ends of BCa intervals decided sequentially against a
	// rule's threshold (decisionOnly with earlyStop: calibrate).
	bcaEnds map[bcaEndKey]bcaEnd
	tests   map[testKey]testOutcome      // per test, alternative and challenger
	bayes   *fitted                      // the raw-score fit
	brisk   map[float64]*fitted          // the risk-adjusted fits per loss weight
	ran     map[policies.Analysis]bool   // analyses that ran
	failed  map[policies.Analysis]string // why an analysis that was tried gave nothing

	// decisionOnly skips what only the reports show (the fits' summaries of
	// every quantity, predictive intervals, densities): riskgate calibrate
	// needs the decision alone (Decide).
	decisionOnly bool
	// computeOnly, when set, limits values to these analyses: the queries of
	// any other are left unavailable (Decide's stages).
	computeOnly map[policies.Analysis]bool
	// earlyStop makes the decision-only fits sequential (sequential.go);
	// warm starts them from pilot fits; workers are each fit's diagnostics'
	// goroutines [GOMAXPROCS].
	earlyStop bool
	warm      *WarmStarts
	workers   int
}

type riskMeasures struct {
	w       float64
	urisk   map[int]risk.URisk
	trisk   map[int]risk.TRisk
	errs    map[int]error
	pool    []int // systems of ZRisk/GeoRisk: champion and challengers
	zrisk   map[int]float64
	georisk map[int]float64
	poolErr error
}

type bcaOutcome struct {
	r   risk.BCa
	err error
}

type testKey struct {
	name string
	alt  policies.Alternative
	c    int
}

type testOutcome struct {
	p   float64
	err error
}

func newGateRun(ctx context.Context, p *policies.Policy, t *scores.Table, roles policies.Roles, unmet []policies.Unmet, now time.Time, prog Progress) *gateRun {
	g := &gateRun{
		ctx: ctx, p: p, t: t, roles: roles, champ: t.SystemIndex(roles.Champion), prog: prog, now: now,
		needs: map[policies.Analysis]bool{}, unmet: map[policies.Analysis]string{},
		timings: map[string]int64{}, pairs: map[int]risk.Pair{}, riskAt: map[float64]*riskMeasures{},
		bcaAt: map[[2]float64]map[int]bcaOutcome{}, tests: map[testKey]testOutcome{}, brisk: map[float64]*fitted{},
		ran: map[policies.Analysis]bool{}, failed: map[policies.Analysis]string{},
	}
	for _, c := range roles.Challengers {
		g.chals = append(g.chals, t.SystemIndex(c))
	}
	for _, a := range p.Needs() {
		g.needs[a] = true
	}
	for _, u := range unmet {
		if u.Requirement == "min_artifacts" {
			g.smallPool = u.Reason
		}
		for _, a := range u.Affects {
			if g.unmet[a] != "" {
				g.unmet[a] += "; "
			}
			g.unmet[a] += u.Reason
		}
	}
	return g
}

// tableLossWeight is the w of the risk table: the policy's, 1 when it has none.
func (g *gateRun) tableLossWeight() float64 {
	if g.p.LossWeight > 0 {
		return g.p.LossWeight
	}
	return 1
}

// phase says what the run is computing now.
func (g *gateRun) phase(what string) {
	if g.prog != nil {
		g.prog.Phase(what)
	}
}

// timed runs f and records its wall time under name.
func (g *gateRun) timed(name string, f func()) {
	start := time.Now()
	f()
	g.timings[name] += time.Since(start).Milliseconds()
}

// values computes every query of the policy for every challenger.
func (g *gateRun) values() *policies.Values {
	v := policies.NewValues()
	for _, q := range g.p.Queries() {
		a := q.Analysis()
		for i, name := range g.roles.Challengers {
			if g.computeOnly != nil && !g.computeOnly[a] {
				v.Set(name, q, policies.Unavailable("not computed yet"))
				continue
			}
			v.Set(name, q, g.observe(g.chals[i], q))
		}
	}
	return v
}

// pair returns the champion's and challenger c's scores on the topics both
// were scored on (every topic unless --topics keep left cells missing).
func (g *gateRun) pair(c int) risk.Pair {
	if p, ok := g.pairs[c]; ok {
		return p
	}
	var p risk.Pair
	x, base := g.t.Scores[c], g.t.Scores[g.champ]
	for j := range x {
		if !math.IsNaN(x[j]) && !math.IsNaN(base[j]) {
			p.X = append(p.X, x[j])
			p.Base = append(p.Base, base[j])
		}
	}
	g.pairs[c] = p
	return p
}

// descriptive reads a statistic off the score table: the challenger's mean,
// its mean difference to the champion, or its wins, losses or ties.
func (g *gateRun) descriptive(c int, stat policies.Statistic) (float64, error) {
	g.ran[policies.AnalysisDescriptive] = true
	p := g.pair(c)
	switch stat {
	case policies.StatMean:
		return stats.MeanDefined(g.t.Scores[c]), nil
	case policies.StatMeanDiff:
		if len(p.X) == 0 {
			return math.NaN(), fmt.Errorf("the challenger and the champion have no topic in common")
		}
		return stats.MeanDefined(p.X) - stats.MeanDefined(p.Base), nil
	}
	o, err := p.Outcomes()
	if err != nil {
		return math.NaN(), err
	}
	switch stat {
	case policies.StatWins:
		return float64(o.Wins), nil
	case policies.StatLosses:
		return float64(o.Losses), nil
	case policies.StatTies:
		return float64(o.Ties), nil
	}
	return math.NaN(), fmt.Errorf("the score table gives no %s", stat)
}

// risk returns the closed-form risk measures at loss weight w.
func (g *gateRun) risk(w float64) *riskMeasures {
	if m, ok := g.riskAt[w]; ok {
		return m
	}
	g.ran[policies.AnalysisRisk] = true
	m := &riskMeasures{w: w, urisk: map[int]risk.URisk{}, trisk: map[int]risk.TRisk{}, errs: map[int]error{},
		zrisk: map[int]float64{}, georisk: map[int]float64{}}
	g.timed("risk", func() {
		for _, c := range g.chals {
			p := g.pair(c)
			u, err := p.URisk(w)
			if err != nil {
				m.errs[c] = err
				continue
			}
			t, err := p.TRisk(w)
			if err != nil {
				m.errs[c] = err
				continue
			}
			m.urisk[c], m.trisk[c] = u, t
			g.warn(c, "TRisk", t.Warnings)
		}
		// ZRisk and GeoRisk over the champion and the challengers, on the
		// topics every one of them was scored on.
		m.pool = append([]int{g.champ}, g.chals...)
		sys := completeRows(g.t, m.pool)
		geo, err := sys.GeoRisk(w)
		if err != nil {
			m.poolErr = err
			return
		}
		for i, s := range m.pool {
			m.zrisk[s], m.georisk[s] = geo.ZRisk.Values[i], geo.Values[i]
		}
		for _, msg := range geo.Warnings {
			g.warnings = append(g.warnings, fmt.Sprintf("ZRisk/GeoRisk at w = %s: %s", numfmt.G(w), msg))
		}
	})
	g.riskAt[w] = m
	return m
}

// completeRows returns the rows of the systems idx on the topics every one
// of them was scored on.
func completeRows(t *scores.Table, idx []int) risk.Systems {
	var keep []int
	for j := range t.Topics {
		ok := true
		for _, s := range idx {
			if math.IsNaN(t.Scores[s][j]) {
				ok = false
				break
			}
		}
		if ok {
			keep = append(keep, j)
		}
	}
	out := make(risk.Systems, len(idx))
	for i, s := range idx {
		for _, j := range keep {
			out[i] = append(out[i], t.Scores[s][j])
		}
	}
	return out
}

// riskValue reads a closed-form risk measure of challenger c at loss weight
// w; URisk and TRisk with a non-inferiority margin δ are those of d_w + δ:
// URisk + δ, and (URisk + δ)/SE.
func (g *gateRun) riskValue(c int, stat policies.Statistic, w, margin float64) (float64, error) {
	m := g.risk(w)
	switch stat {
	case policies.StatZRisk, policies.StatGeoRisk:
		if m.poolErr != nil {
			return math.NaN(), m.poolErr
		}
		if stat == policies.StatZRisk {
			return m.zrisk[c], nil
		}
		return m.georisk[c], nil
	}
	if err := m.errs[c]; err != nil {
		return math.NaN(), err
	}
	switch stat {
	case policies.StatURisk:
		return m.urisk[c].Value + margin, nil
	case policies.StatTRisk:
		if margin == 0 {
			return m.trisk[c].T, nil
		}
		return (m.trisk[c].URisk + margin) / m.trisk[c].SE, nil
	case policies.StatTRiskP:
		return m.trisk[c].P, nil
	}
	return math.NaN(), fmt.Errorf("the risk measures give no %s", stat)
}

// bca returns the BCa intervals of URisk at loss weight w and level for
// every challenger (the risk table's column).
func (g *gateRun) bca(w, level float64) map[int]bcaOutcome {
	m := map[int]bcaOutcome{}
	for _, c := range g.chals {
		m[c] = g.bcaFor(c, w, level)
	}
	return m
}

// bcaFor returns challenger c's BCa interval of URisk at loss weight w and
// level, bootstrapped once: a rule's evidence at the risk sweep's weights
// asks for the challengers that did not pass it only.
func (g *gateRun) bcaFor(c int, w, level float64) bcaOutcome {
	key := [2]float64{w, level}
	if o, ok := g.bcaAt[key][c]; ok {
		return o
	}
	if g.bcaAt[key] == nil {
		g.bcaAt[key] = map[int]bcaOutcome{}
		g.phase(fmt.Sprintf("bootstrapping URisk at loss weight %s", numfmt.G(w)))
	}
	g.ran[policies.AnalysisBCa] = true
	var o bcaOutcome
	g.timed("bca", func() {
		r, err := g.pair(c).BCa(w, risk.BootstrapOptions{B: gateBootstrapSamples, Level: level, Seed: g.p.Seed})
		o = bcaOutcome{r, err}
		if err == nil {
			g.warn(c, "BCa", r.Warnings)
		}
	})
	g.bcaAt[key][c] = o
	return o
}

func (g *gateRun) test(name string, alt policies.Alternative, c int) testOutcome {
	key := testKey{name, alt, c}
	if t, ok := g.tests[key]; ok {
		return t
	}
	g.ran[policies.AnalysisTests] = true
	g.phase("running the significance tests")
	var t testOutcome
	g.timed("tests", func() {
		var warns []string
		t.p, warns, t.err = testPValue(g.pair(c), name, alt, gateBootstrapSamples, g.p.Seed)
		g.warn(c, strings.ReplaceAll(name, "_", " ")+" test", warns)
	})
	g.tests[key] = t
	return t
}

// warn records the warnings of an analysis of challenger c, once each.
func (g *gateRun) warn(c int, what string, warnings []string) {
	for _, w := range warnings {
		msg := fmt.Sprintf("%s, %s: %s", g.t.Systems[c], what, w)
		if !slices.Contains(g.warnings, msg) {
			g.warnings = append(g.warnings, msg)
		}
	}
}

// bayesFit fits the hierarchical model to the raw scores, once.
func (g *gateRun) bayesFit() *fitted {
	if g.bayes != nil {
		return g.bayes
	}
	g.phase(fmt.Sprintf("fitting the hierarchical model (%d systems × %d topics)", len(g.t.Systems), len(g.t.Topics)))
	g.timed("bayes", func() {
		g.bayes = g.fitRaw()
	})
	g.record(policies.AnalysisBayes, g.bayes)
	return g.bayes
}

// record notes whether an analysis's fit ran, and why not.
func (g *gateRun) record(a policies.Analysis, f *fitted) {
	if f.res.Unavailable != "" {
		g.failed[a] = f.res.Unavailable
		return
	}
	g.ran[a] = true
}

// hierOptions are the policy's settings of a hierarchical fit: its family,
// chains, target ESS, R-hat limit and seed. With t, the priors are the
// family's reference priors on t (rstanarm's for the Gaussian, brms's for the
// skew normal); without, the caller's model chooses them on its own pool.
func (g *gateRun) hierOptions(t *bayes.Table) bayes.HierOptions {
	fam, err := bayes.FamilyNamed(string(g.p.Model.Family))
	if err != nil {
		panic("gate: a parsed policy holds an unknown family: " + err.Error()) // policies validates model.family
	}
	opt := bayes.HierOptions{
		Family:    fam,
		Sampler:   mcmc.NUTSOptions{Chains: g.p.Model.Chains, Seed: g.p.Seed, Context: g.ctx},
		TargetESS: float64(g.p.Model.TargetESS),
		MaxDraws:  g.p.Model.MaxDraws,
		RhatMax:   g.p.Model.MaxRhat,
		Workers:   g.workers,
	}
	if t != nil {
		p := bayes.DefaultPriors(t, fam)
		opt.Priors = &p
	}
	return opt
}

// modelTable is the table the Bayesian models are fitted to, with the
// champion's and the challengers' indexes in it: every system, or — when
// the pool has fewer artifacts than the policy requires — the champion and
// the challengers alone.
func (g *gateRun) modelTable() (t *bayes.Table, champ int, chals []int) {
	if g.smallPool == "" {
		return &bayes.Table{Systems: g.t.Systems, Topics: g.t.Topics, Scores: g.t.Scores}, g.champ, g.chals
	}
	t = &bayes.Table{Topics: g.t.Topics}
	for _, s := range append([]int{g.champ}, g.chals...) {
		t.Systems = append(t.Systems, g.t.Systems[s])
		t.Scores = append(t.Scores, g.t.Scores[s])
	}
	for i := range g.chals {
		chals = append(chals, 1+i)
	}
	return t, 0, chals
}

// fallback says, for a FitResult, that its model was fitted over the
// champion and the challengers alone, and why; "" when it was not.
func (g *gateRun) fallback() string {
	if g.smallPool == "" {
		return ""
	}
	return "fitted over the champion and the challengers alone: " + g.smallPool
}

// fitRaw fits the hierarchical model to the raw scores of every system (or
// of the champion and the challengers alone: modelTable).
func (g *gateRun) fitRaw() *fitted {
	res := &result.FitResult{Pool: result.PoolRaw, Fallback: g.fallback()}
	t, champ, chals := g.modelTable()
	opt := g.hierOptions(t)
	seq, where := g.sequential(policies.AnalysisBayes, 0, t, champ, chals)
	opt.Sequential = seq
	if g.warm != nil {
		opt.Sampler.WarmStart = g.warm.Raw
	}
	f, err := bayes.FitHier(t, opt)
	if err != nil {
		res.Unavailable = "the hierarchical model could not be fitted: " + err.Error()
		return &fitted{res: res}
	}
	out := summarizeFit(f, res, t, g.roles, g.ruleLevels(policies.AnalysisBayes), g.ropes(result.PoolRaw), g.p.Seed, g.p.Model.MaxRhat, !g.decisionOnly)
	out.targets = where
	return out
}

// ruleLevels are the credible levels the rules ask of the difference δ in
// the fit of analysis a (bayes.diff.lo|hi or brisk.diff.lo|hi).
func (g *gateRun) ruleLevels(a policies.Analysis) []float64 {
	var out []float64
	for _, q := range g.p.Queries() {
		quant := policies.LookupQuantity(q.Quantity)
		if quant.Analysis == a && (quant.Statistic == policies.StatLo || quant.Statistic == policies.StatHi) && q.Level > 0 && !slices.Contains(out, q.Level) {
			out = append(out, q.Level)
		}
	}
	return out
}

// ropes are the ROPE queries of the rules (raw-score fit only).
func (g *gateRun) ropes(pool string) []policies.Query {
	var out []policies.Query
	if pool != result.PoolRaw {
		return out
	}
	for _, q := range g.p.Queries() {
		if policies.LookupQuantity(q.Quantity).Statistic == policies.StatROPE {
			out = append(out, q)
		}
	}
	return out
}
