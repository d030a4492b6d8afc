package fit

import (
	"fmt"

	"github.com/riskgate/riskgate/bayes"
)

// PriorFlags are riskgate fit's --prior-* settings: each a distribution as
// bayes.ParsePrior reads it, "" for the family's default.
type PriorFlags struct {
	Intercept, Sigma, Tau, SD string
}

// Check refuses flags that exclude each other: the group SD is either τ·σ
// (--prior-tau) or has its own prior (--prior-sd).
func (f PriorFlags) Check() error {
	if f.Tau != "" && f.SD != "" {
		return fmt.Errorf("--prior-tau and --prior-sd exclude each other: the group SD is either τ·σ or has its own prior")
	}
	return nil
}

// Priors returns the priors for a fit of t: the family's defaults on t
// (rstanarm's for the Gaussian, brms's for the skew normal), overridden by
// the flags; nil when no flag is given (the fit then uses the defaults).
func (f PriorFlags) Priors(t *bayes.Table, fam bayes.Family) (*bayes.HierPriors, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	if f == (PriorFlags{}) {
		return nil, nil
	}
	p := bayes.DefaultPriors(t, fam)
	var err error
	if f.Intercept != "" {
		if p.Intercept, err = parsePrior("prior-intercept", f.Intercept); err != nil {
			return nil, err
		}
	}
	if f.Sigma != "" {
		if p.Sigma, err = parsePrior("prior-sigma", f.Sigma); err != nil {
			return nil, err
		}
	}
	if f.Tau != "" {
		if p.SDTopic, err = parsePrior("prior-tau", f.Tau); err != nil {
			return nil, err
		}
		p.SDSystem = p.SDTopic
	}
	if f.SD != "" {
		if p.SDTopic, err = parsePrior("prior-sd", f.SD); err != nil {
			return nil, err
		}
		p.SDSystem, p.Relative = p.SDTopic, false
	}
	return &p, nil
}

func parsePrior(flag, s string) (bayes.Prior, error) {
	p, err := bayes.ParsePrior(s)
	if err != nil {
		return nil, fmt.Errorf("--%s: %v", flag, err)
	}
	return p, nil
}
