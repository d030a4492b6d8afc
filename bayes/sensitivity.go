package bayes

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/riskgate/riskgate/internal/stats"
)

// PoolSweepStep is the BRisk fit with the champion, the challengers and the
// M best artifacts.
type PoolSweepStep struct {
	M           int      // artifacts in the pool
	Artifacts   []string // their names, best first
	Champion    Estimate // S_champion
	Challengers []Separation
	Converged   bool
	Warnings    []string
}

// Separation is how far a challenger's system effect lies from the champion's.
type Separation struct {
	System   int // index in the full table
	Name     string
	Effect   Estimate // S_challenger
	Diff     Estimate // S_challenger − S_champion
	PRiskier float64  // P(S_challenger < S_champion)
	// Gap is the distance between the two credible intervals, positive when
	// they do not overlap (Benham et al.'s Figure 5 reading: "barely
	// separable", "more distinguishable"), negative by the overlap otherwise.
	Gap float64
}

// PoolSweep is the pool-size sensitivity of Benham et al.'s Figure 5: for
// each m in ms it refits BRisk (loss weight w; 1 for plain scores) on the
// champion, the challengers and the m artifacts with the highest mean score
// (every system that is neither is an artifact; ties keep table order), and
// reports each challenger's separation from the champion. An m above the
// number of artifacts uses them all. opt.Challengers must be set.
func PoolSweep(t *Table, champion int, w float64, ms []int, opt BRiskOptions) ([]PoolSweepStep, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if len(opt.Challengers) == 0 {
		return nil, fmt.Errorf("the pool sweep needs at least one challenger")
	}
	compared := append([]int{champion}, opt.Challengers...)
	var artifacts []int
	for s := range t.Systems {
		if !slices.Contains(compared, s) {
			artifacts = append(artifacts, s)
		}
	}
	means := make([]float64, len(t.Systems))
	for s, row := range t.Scores {
		means[s] = stats.MeanDefined(row)
	}
	slices.SortStableFunc(artifacts, func(a, b int) int { return cmp.Compare(means[b], means[a]) })
	level := opt.Level
	if level == 0 {
		level = 0.95
	}
	var out []PoolSweepStep
	for _, m := range ms {
		if m < 0 {
			return nil, fmt.Errorf("pool size %d: expected 0 or more artifacts", m)
		}
		m = min(m, len(artifacts))
		keep := append(slices.Clone(compared), artifacts[:m]...)
		slices.Sort(keep) // table order
		sub := &Table{Topics: t.Topics}
		pos := map[int]int{}
		for i, s := range keep {
			pos[s] = i
			sub.Systems = append(sub.Systems, t.Systems[s])
			sub.Scores = append(sub.Scores, t.Scores[s])
		}
		o := opt
		o.Challengers = nil
		for _, c := range opt.Challengers {
			o.Challengers = append(o.Challengers, pos[c])
		}
		r, err := BRisk(sub, pos[champion], w, o)
		if err != nil {
			return nil, fmt.Errorf("pool with %d artifacts: %w", m, err)
		}
		effect := func(s int) Estimate { return r.Fit.Interval(r.Fit.SystemIndex(s), r.Level) }
		step := PoolSweepStep{M: m, Champion: effect(pos[champion]), Converged: r.Converged, Warnings: r.Warnings}
		for _, a := range artifacts[:m] {
			step.Artifacts = append(step.Artifacts, t.Systems[a])
		}
		for i, c := range r.Challengers {
			e := effect(c.System)
			step.Challengers = append(step.Challengers, Separation{
				System: opt.Challengers[i], Name: c.Name, Effect: e, Diff: c.Diff, PRiskier: c.PRiskier,
				Gap: math.Max(e.Lo-step.Champion.Hi, step.Champion.Lo-e.Hi),
			})
		}
		out = append(out, step)
	}
	return out, nil
}

// PriorSet is a named set of priors for a sensitivity analysis.
type PriorSet struct {
	Name   string
	Priors HierPriors
}

// AlternativePriors returns the reference priors of the family on t
// (DefaultPriors) followed by two alternatives that move every prior in
// opposite directions, with m and s the mean and standard deviation of the
// observed scores:
//
//	half_normal: intercept normal(m, s); σ and both group SDs half_normal(s) on the SDs
//	             themselves — lighter tails, pulling the SDs towards 0 (for the skew
//	             normal also α ~ normal(0, 2), pulling towards symmetry);
//	half_cauchy: intercept normal(m, 10·s); σ and both group SDs half_cauchy(s) —
//	             heavy tails, nearly flat over plausible SDs (skew normal: α ~ normal(0, 10)).
//
// With the Gaussian family all three have a normal intercept, so a complete
// table is fitted on the exact collapsed path.
func AlternativePriors(t *Table, fam Family) []PriorSet {
	m, s := t.meanSD()
	base := PriorSet{"rstanarm", DefaultPriors(t, fam)}
	if _, g := fam.(Gaussian); fam != nil && !g {
		base.Name = "brms"
	}
	return []PriorSet{base,
		{"half_normal", HierPriors{Intercept: Normal{m, s}, Sigma: HalfNormal{s}, SDTopic: HalfNormal{s}, SDSystem: HalfNormal{s}}},
		{"half_cauchy", HierPriors{Intercept: Normal{m, 10 * s}, Sigma: HalfStudentT{1, s}, SDTopic: HalfStudentT{1, s}, SDSystem: HalfStudentT{1, s}}},
	}
}

// alternativeAlpha are the skew normal's α priors of AlternativePriors' alternative sets.
var alternativeAlpha = map[string]Prior{"half_normal": Normal{0, 2}, "half_cauchy": Normal{0, 10}}

// PriorFit is the BRisk fit under one prior set.
type PriorFit struct {
	Name        string
	Priors      HierPriors
	Family      Family
	Challengers []BRiskChallenger
	Converged   bool
	Warnings    []string
}

// PriorChange is a decision-relevant quantity that moved under a prior set.
type PriorChange struct {
	Set        string // the prior set
	Challenger string
	Quantity   string // "interval sign" or "p_riskier ≥ 0.95"
	Base, Alt  string // the reading under the reference priors and under Set
}

// PriorSensitivity is BRisk refitted under several prior sets.
type PriorSensitivity struct {
	Fits    []PriorFit    // the reference set first
	Changes []PriorChange // empty when every decision-relevant reading holds
	// Robust is true when nothing changed and every fit converged.
	Robust bool
}

// PriorSensitivityOf refits BRisk on t (loss weight w, options opt) under
// every prior set in sets (AlternativePriors when nil; the first is the
// reference) and reports whether any challenger's decision-relevant reading
// changes from the reference set's: the sign of its credible interval of
// S_challenger − S_champion (above 0, below 0 or straddling it), or whether
// P(riskier) reaches 0.95.
func PriorSensitivityOf(t *Table, champion int, w float64, opt BRiskOptions, sets []PriorSet) (*PriorSensitivity, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	pool, err := BRiskPool(t, champion, w)
	if err != nil {
		return nil, err
	}
	if sets == nil {
		sets = AlternativePriors(pool, opt.Hier.Family)
	}
	if len(sets) < 2 {
		return nil, fmt.Errorf("a prior sensitivity analysis needs a reference and at least one alternative prior set")
	}
	ps := &PriorSensitivity{Robust: true}
	for _, set := range sets {
		o := opt
		p := set.Priors
		o.Hier.Priors = &p
		if sn, ok := opt.Hier.Family.(SkewNormal); ok {
			if a, ok := alternativeAlpha[set.Name]; ok {
				sn.AlphaPrior = a
			}
			o.Hier.Family = sn
		}
		r, err := BRisk(t, champion, w, o)
		if err != nil {
			return nil, fmt.Errorf("prior set %s: %w", set.Name, err)
		}
		pf := PriorFit{Name: set.Name, Priors: p, Family: r.Fit.Family, Converged: r.Converged, Warnings: r.Warnings}
		pf.Challengers = r.Challengers
		ps.Fits = append(ps.Fits, pf)
		ps.Robust = ps.Robust && r.Converged
	}
	base := ps.Fits[0]
	for _, f := range ps.Fits[1:] {
		for i, c := range f.Challengers {
			b := base.Challengers[i]
			if sb, sa := intervalSign(b.Diff), intervalSign(c.Diff); sb != sa {
				ps.Changes = append(ps.Changes, PriorChange{f.Name, c.Name, "interval sign", sb, sa})
			}
			if pb, pa := b.PRiskier >= 0.95, c.PRiskier >= 0.95; pb != pa {
				ps.Changes = append(ps.Changes, PriorChange{f.Name, c.Name, "p_riskier ≥ 0.95",
					fmt.Sprintf("%.3f", b.PRiskier), fmt.Sprintf("%.3f", c.PRiskier)})
			}
		}
	}
	ps.Robust = ps.Robust && len(ps.Changes) == 0
	return ps, nil
}

// intervalSign reads a credible interval of a difference: "above 0",
// "below 0" or "contains 0".
func intervalSign(e Estimate) string {
	switch {
	case e.Lo > 0:
		return "above 0"
	case e.Hi < 0:
		return "below 0"
	}
	return "contains 0"
}
