package fit

import (
	"fmt"
	"io"
	"time"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
)

// Settings are what riskgate fit fits, beyond the table and the roles.
type Settings struct {
	// Hier are the model's and the sampler's settings; its priors come
	// from Priors.
	Hier   bayes.HierOptions
	Priors PriorFlags
	// LossWeight is the pool's: 1 fits the scores, any other w BRisk's
	// risk-adjusted pool (the champion's scores kept, every other system's
	// replaced by champion + d with losses counted w times).
	LossWeight float64
	// Forecast adds every cell's posterior predictive interval.
	Forecast bool
	// PoolSweep refits with the top-m artifacts by mean score for each m.
	PoolSweep []int
	// PriorSensitivity refits under two alternative prior sets.
	PriorSensitivity bool
}

// Build fits the hierarchical model to table t, the systems' roles
// (result.Role*) in role, as s says, and returns its report. align is what
// aligning the inputs changed, for the report's warnings.
func Build(t *scores.Table, role []string, align scores.Alignment, s Settings) (*Report, error) {
	bt := &bayes.Table{Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}
	if err := bt.Validate(); err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	champ, chals := -1, []int{}
	for i, r := range role {
		switch r {
		case result.RoleChampion:
			champ = i
		case result.RoleChallenger:
			chals = append(chals, i)
		}
	}
	pool, err := bayes.BRiskPool(bt, champ, s.LossWeight)
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	fam := s.Hier.Family
	priors, err := s.Priors.Priors(pool, fam)
	if err != nil {
		return nil, err
	}
	opt := s.Hier
	opt.Priors = priors
	start := time.Now()
	br, err := bayes.BRisk(bt, champ, s.LossWeight, bayes.BRiskOptions{Hier: opt, Challengers: chals})
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	desc, err := br.Describe() // what the report shows, timed with the fit
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	hf := br.Fit
	hf.Marginals()
	rep := NewReport(hf, t.Measure, role, time.Since(start), align)
	rep.LossWeight = s.LossWeight
	rep.BRisk = NewBRisk(br, desc)
	if s.Forecast {
		fc, err := hf.Forecast(pool, nil, br.Level, opt.Sampler.Seed)
		if err != nil {
			return nil, fmt.Errorf("fit: %w", err)
		}
		rep.Forecasts = NewForecasts(fc, pool)
	}
	if s.PoolSweep != nil {
		// Each pool's own default priors, unless the priors were given.
		steps, err := bayes.PoolSweep(bt, champ, s.LossWeight, s.PoolSweep, bayes.BRiskOptions{Hier: opt, Challengers: chals})
		if err != nil {
			return nil, fmt.Errorf("fit: --pool-sweep: %w", err)
		}
		rep.PoolSweep = NewSweep(steps)
	}
	if s.PriorSensitivity {
		var sets []bayes.PriorSet
		if priors != nil {
			sets = append([]bayes.PriorSet{{Name: "given", Priors: *priors}}, bayes.AlternativePriors(pool, fam)[1:]...)
		}
		ps, err := bayes.PriorSensitivityOf(bt, champ, s.LossWeight, bayes.BRiskOptions{Hier: opt, Challengers: chals}, sets)
		if err != nil {
			return nil, fmt.Errorf("fit: --prior-sensitivity: %w", err)
		}
		rep.PriorSensitivity = NewPriorSensitivity(ps)
	}
	return rep, nil
}

// Fit is the fit the report describes.
func (r *Report) Fit() *bayes.HierFit { return r.fit }

// WriteDraws writes the report's draws (WriteDraws).
func (r *Report) WriteDraws(w io.Writer) error { return WriteDraws(w, r.fit) }
