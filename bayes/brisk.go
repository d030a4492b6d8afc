package bayes

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/risk"
)

// BRiskPool returns Benham et al.'s risk-adjusted pool (SIGIR 2020, "Bayesian
// Risk (One-Versus-Many)"): the champion's scores unchanged, and every other
// system's score on a topic replaced by the champion's score plus the
// risk-adjusted difference d_w = Δ if Δ ≥ 0 else w·Δ (Δ = score − champion's;
// risk.Pair.Adjusted, losses count w times). The paper's example: champion
// 0.50, challenger 0.45, w = 2 gives 0.40. A cell is missing in the pool when
// it or the champion's cell on that topic is missing. w = 1 returns a copy of
// the table itself, the plain model: every cell kept, and each score exactly
// as given (champion + (x − champion) could differ from x in the last bit).
func BRiskPool(t *Table, champion int, w float64) (*Table, error) {
	if champion < 0 || champion >= len(t.Systems) {
		return nil, fmt.Errorf("champion index %d out of range (%d systems)", champion, len(t.Systems))
	}
	if !(w > 0) || math.IsInf(w, 0) {
		return nil, fmt.Errorf("loss weight %v: expected a positive number (losses count w times)", w)
	}
	base := t.Scores[champion]
	p := &Table{Systems: t.Systems, Topics: t.Topics, Scores: make([][]float64, len(t.Scores))}
	for s, row := range t.Scores {
		if len(row) != len(base) {
			return nil, fmt.Errorf("system %q has %d scores for %d topics", t.Systems[s], len(row), len(base))
		}
		if s == champion || w == 1 {
			p.Scores[s] = append([]float64(nil), row...)
			continue
		}
		d := risk.Pair{X: row, Base: base}.Adjusted(w) // NaN where either cell is missing
		out := make([]float64, len(row))
		for j := range out {
			out[j] = base[j] + d[j]
		}
		p.Scores[s] = out
	}
	return p, nil
}

// Estimate is a posterior summary: the mean and a central credible (or
// predictive) interval.
type Estimate struct {
	Mean, Lo, Hi float64
}

// BRiskOptions configure BRisk.
type BRiskOptions struct {
	// Hier configures the fit. Its Family selects the likelihood (Gaussian
	// when nil; SkewNormal{} for brms's skew normal). Priors nil means the
	// family's reference defaults on the pool: rstanarm's for the Gaussian
	// (RstanarmPriors), brms's for any other family (BrmsPriors).
	Hier HierOptions
	// Challengers are the systems reported against the champion [every
	// system but the champion]; the others are artifacts.
	Challengers []int
	Level       float64 // credible and predictive interval level [0.95]
}

// BRiskResult is the BRisk fit of a champion against its challengers.
type BRiskResult struct {
	W        float64 // loss weight: losses count W times
	Level    float64
	Champion int
	Pool     *Table   // the risk-adjusted pool that was fitted
	Fit      *HierFit // the hierarchical model on Pool
	// Challengers are each challenger's difference to the champion.
	Challengers []BRiskChallenger
	// Converged is Fit.Converged; Warnings are the fit's. A result that has
	// not converged is no evidence.
	Converged bool
	Warnings  []string

	describeOnce sync.Once
	description  *BRiskDescription
	describeErr  error
}

// BRiskChallenger is one challenger against the champion in the pool.
type BRiskChallenger struct {
	System int
	Name   string
	// Diff is the posterior of S_challenger − S_champion (negative: riskier
	// than the champion), with its central credible interval at Level.
	Diff Estimate
	// PRiskier is P(S_challenger < S_champion | pool).
	PRiskier float64
}

// BRiskDescription is what reports show of a BRisk fit beyond the
// challengers' differences (BRiskResult.Describe).
type BRiskDescription struct {
	// Systems are the system effects S_s in the pool, in table order, with
	// central credible intervals at the result's Level. Benham et al.'s
	// BRisk⁻ is their negation (−Mean [−Hi, −Lo]): higher is riskier.
	Systems []Estimate
	// Challengers are each challenger's topics, in BRiskResult.Challengers'
	// order.
	Challengers []BRiskTopics
}

// BRiskTopics are a challenger's per-topic differences to the champion in
// the pool with their posterior predictive intervals at the result's Level
// (see HierFit.TopicRisks); AtRisk are those below their interval, its
// topics at risk.
type BRiskTopics struct {
	System int
	Topics []TopicRisk
	AtRisk []TopicRisk
}

// Challenger returns the topics of system s, or nil if s is not a challenger.
func (d *BRiskDescription) Challenger(s int) *BRiskTopics {
	for i := range d.Challengers {
		if d.Challengers[i].System == s {
			return &d.Challengers[i]
		}
	}
	return nil
}

// BRisk fits the hierarchical system/topic model to the risk-adjusted pool of
// t (BRiskPool at loss weight w) and gives each challenger's difference to
// the champion with P(riskier). Its topics at risk — the challenger's topics
// whose risk-adjusted difference falls below the lower end of its posterior
// predictive interval — are TopicsAtRisk's at any level; Describe adds
// every system's effect and every topic's interval, for reports.
//
// On a complete table with a Gaussian likelihood and a normal intercept prior
// the fit takes FitHier's exact collapsed path. Posterior predictive draws
// use the source PCG(Hier.Sampler.Seed, forecastStream + system), so the
// result is bit-identical for a given seed.
func BRisk(t *Table, champion int, w float64, opt BRiskOptions) (*BRiskResult, error) {
	pool, level, challengers, err := briskInputs(t, champion, w, opt.Level, opt.Challengers)
	if err != nil {
		return nil, err
	}
	ho := opt.Hier
	if ho.Priors == nil {
		p := DefaultPriors(pool, ho.Family)
		ho.Priors = &p
	}
	fit, err := FitHier(pool, ho)
	if err != nil {
		return nil, err
	}
	r := &BRiskResult{W: w, Level: level, Champion: champion, Pool: pool, Fit: fit,
		Converged: fit.Converged, Warnings: append([]string(nil), fit.Warnings...)}
	for _, c := range challengers {
		diff := fit.SystemDiff(c, champion)
		r.Challengers = append(r.Challengers, BRiskChallenger{System: c, Name: t.Systems[c], Diff: intervalOf(diff, level), PRiskier: posterior.ProbLess(diff, 0)})
	}
	return r, nil
}

// Describe returns what reports show of r beyond the challengers'
// differences: every system's effect and each challenger's per-topic
// predictive intervals at r.Level, from the fit's draws and the
// predictive draws of its seed (HierFit.TopicRisks), so that its AtRisk
// are TopicsAtRisk's at r.Level. A decision never needs it: it is computed
// on the first call and kept.
func (r *BRiskResult) Describe() (*BRiskDescription, error) {
	r.describeOnce.Do(func() {
		f := r.Fit
		d := &BRiskDescription{}
		for s := range r.Pool.Systems {
			d.Systems = append(d.Systems, f.Interval(f.SystemIndex(s), r.Level))
		}
		champion, err := f.Replicates(r.Champion, f.Sampler.Options.Seed) // drawn once for every challenger
		if err != nil {
			r.describeErr = err
			return
		}
		for _, c := range r.Challengers {
			rep, err := f.Replicates(c.System, champion.Seed)
			if err != nil {
				r.describeErr = err
				return
			}
			topics, err := rep.TopicRisks(r.Pool, champion, []float64{r.Level})
			if err != nil {
				r.describeErr = err
				return
			}
			d.Challengers = append(d.Challengers, BRiskTopics{System: c.System, Topics: topics[0], AtRisk: AtRisk(topics[0])})
		}
		r.description = d
	})
	return r.description, r.describeErr
}

// AtRisk are the topics at risk among topics.
func AtRisk(topics []TopicRisk) []TopicRisk {
	var out []TopicRisk
	for _, t := range topics {
		if t.AtRisk {
			out = append(out, t)
		}
	}
	return out
}

// DefaultPriors are the reference priors of a family on table t: rstanarm's
// (TableRstanarmPriors) for the Gaussian family (nil or Gaussian{}), brms's
// (TableBrmsPriors) for any other.
func DefaultPriors(t *Table, fam Family) HierPriors {
	if _, gaussian := fam.(Gaussian); fam == nil || gaussian {
		return TableRstanarmPriors(t)
	}
	return TableBrmsPriors(t)
}

// Challenger returns the result of system s, or nil if s is not a challenger.
func (r *BRiskResult) Challenger(s int) *BRiskChallenger {
	for i := range r.Challengers {
		if r.Challengers[i].System == s {
			return &r.Challengers[i]
		}
	}
	return nil
}

// checkLevel rejects a credible level outside (0, 1).
func checkLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("level %v: expected a probability strictly between 0 and 1", level)
	}
	return nil
}

// credibleLevel is level, 0.95 when it is unset (0), checked.
func credibleLevel(level float64) (float64, error) {
	if level == 0 {
		level = 0.95
	}
	return level, checkLevel(level)
}

// DiffInterval is the central credible interval of S_s − S_champion at any
// level, for rules that ask for another level than the result's.
func (r *BRiskResult) DiffInterval(s int, level float64) (Estimate, error) {
	if err := checkLevel(level); err != nil {
		return Estimate{}, err
	}
	if s < 0 || s >= len(r.Pool.Systems) || s == r.Champion {
		return Estimate{}, errors.New("not a system other than the champion")
	}
	return intervalOf(r.Fit.SystemDiff(s, r.Champion), level), nil
}

// TopicsAtRisk are system s's topics at risk at any level: those whose
// difference to the champion in the pool falls below the lower end of the
// central posterior predictive interval at level. The predictive draws are
// Describe's (same seed), so at the result's own level these are the
// description's AtRisk. This is the entry point of the policy quantity
// topics_at_risk.count.
func (r *BRiskResult) TopicsAtRisk(s int, level float64) ([]TopicRisk, error) {
	if err := checkLevel(level); err != nil {
		return nil, err
	}
	if s < 0 || s >= len(r.Pool.Systems) || s == r.Champion {
		return nil, errors.New("not a system other than the champion")
	}
	topics, err := r.Fit.TopicRisks(r.Pool, r.Champion, s, level, r.Fit.Sampler.Options.Seed)
	if err != nil {
		return nil, err
	}
	return AtRisk(topics), nil
}

// TopicsAtRiskFrom are TopicsAtRisk of a challenger at each of levels
// (out[l] at levels[l]) from its replicates rep and the champion's,
// drawn by r.Fit at its seed (HierFit.Replicates): for a caller that
// reads several levels, or the challenger's forecast too, from replicates
// drawn once. The same topics as TopicsAtRisk's.
func (r *BRiskResult) TopicsAtRiskFrom(rep, champion *Replicates, levels []float64) ([][]TopicRisk, error) {
	if rep.fit != r.Fit || rep.Seed != r.Fit.Sampler.Options.Seed || champion.System != r.Champion {
		return nil, errors.New("not replicates of a challenger and the champion drawn by the fit at its seed")
	}
	topics, err := rep.TopicRisks(r.Pool, champion, levels)
	if err != nil {
		return nil, err
	}
	for l := range topics {
		topics[l] = AtRisk(topics[l])
	}
	return topics, nil
}

// SystemDiff returns the pooled draws (chains in order) of S_a − S_b.
func (f *HierFit) SystemDiff(a, b int) []float64 { return PoolChains(f.SystemDiffChains(a, b)) }

// Pooled returns quantity v's draws, all chains in order.
func (f *HierFit) Pooled(v int) []float64 { return PoolChains(f.Sampler.Draws[v]) }

// Interval is quantity v's posterior mean and central credible interval at
// level (type-7 quantiles (1 − level)/2 and (1 + level)/2 of the draws).
func (f *HierFit) Interval(v int, level float64) Estimate {
	return intervalOf(f.Pooled(v), level)
}

func intervalOf(x []float64, level float64) Estimate {
	lo, hi := tailProbs(level)
	q := posterior.Quantiles(x, lo, hi)
	return Estimate{Mean: stats.ExactMean(x), Lo: q[0], Hi: q[1]}
}

// tailProbs are the probabilities (1 − level)/2 and (1 + level)/2 of a
// central interval, rounded to 12 decimals so that level 0.95 gives exactly
// the 0.025 and 0.975 of VarSummary's quantiles ((1 − 0.95)/2 is
// 0.025000000000000022 in floating point).
func tailProbs(level float64) (lo, hi float64) {
	r := func(p float64) float64 { return math.Round(p*1e12) / 1e12 }
	return r((1 - level) / 2), r((1 + level) / 2)
}

// PairwiseProb returns P[i][j] = P(S_i > S_j | data) for the listed systems,
// from the joint draws (the diagonal is 0). This is the many-versus-many
// comparison of Benham et al.'s "academic evaluation": one model for all
// systems, whose partial pooling needs no multiple-comparison correction
// (Gelman, Hill and Yajima 2012).
func (f *HierFit) PairwiseProb(systems []int) [][]float64 {
	k := len(systems)
	d := make([][][]float64, k)
	for i, s := range systems {
		d[i] = f.Sampler.Draws[f.SystemIndex(s)]
	}
	cnt := make([][]int, k)
	for i := range cnt {
		cnt[i] = make([]int, k)
	}
	for m := range f.Chains {
		for it := range f.Draws {
			for i := range k {
				xi := d[i][m][it]
				for j := range k {
					if xi > d[j][m][it] {
						cnt[i][j]++
					}
				}
			}
		}
	}
	n := float64(f.Chains * f.Draws)
	p := make([][]float64, k)
	for i := range p {
		p[i] = make([]float64, k)
		for j := range p[i] {
			p[i][j] = float64(cnt[i][j]) / n
		}
	}
	return p
}

// ProbBest returns, for each listed system, the posterior probability that
// its effect is the largest among them (the first on an exact tie).
func (f *HierFit) ProbBest(systems []int) []float64 {
	k := len(systems)
	d := make([][][]float64, k)
	for i, s := range systems {
		d[i] = f.Sampler.Draws[f.SystemIndex(s)]
	}
	cnt := make([]int, k)
	for m := range f.Chains {
		for it := range f.Draws {
			best := 0
			for i := 1; i < k; i++ {
				if d[i][m][it] > d[best][m][it] {
					best = i
				}
			}
			cnt[best]++
		}
	}
	n := float64(f.Chains * f.Draws)
	p := make([]float64, k)
	for i, c := range cnt {
		p[i] = float64(c) / n
	}
	return p
}

// briskInputs checks and builds what BRisk and SegmentBRisk fit and report
// on: the valid table t's risk-adjusted pool at loss weight w (BRiskPool),
// the credible level (credibleLevel) and the challengers (briskChallengers).
func briskInputs(t *Table, champion int, w, level float64, given []int) (pool *Table, lvl float64, challengers []int, err error) {
	if err = t.Validate(); err != nil {
		return nil, 0, nil, err
	}
	if pool, err = BRiskPool(t, champion, w); err != nil {
		return nil, 0, nil, err
	}
	if lvl, err = credibleLevel(level); err != nil {
		return nil, 0, nil, err
	}
	if challengers, err = briskChallengers(t, champion, given); err != nil {
		return nil, 0, nil, err
	}
	return pool, lvl, challengers, nil
}

// briskChallengers are the challengers BRisk and SegmentBRisk compare with the
// champion: the given system indices, each checked to be a system other than
// the champion, or every other system when none are given.
func briskChallengers(t *Table, champion int, given []int) ([]int, error) {
	if given == nil {
		var all []int
		for s := range t.Systems {
			if s != champion {
				all = append(all, s)
			}
		}
		return all, nil
	}
	for _, c := range given {
		if c < 0 || c >= len(t.Systems) || c == champion {
			return nil, fmt.Errorf("challenger index %d: not a system other than the champion", c)
		}
	}
	return given, nil
}
