package bayes

// DayOnePriors are the priors of a fit to a pool with fewer artifacts than
// a policy's requirements.min_artifacts, too few for the system spread to be
// learnt from the pool: the family's reference priors on t (DefaultPriors)
// with the system spread's replaced by IRPools, on τ_system = SD_system/σ.
// Where the reference priors give the group SDs priors of their own (brms's,
// for any family but the Gaussian), both group SDs become relative to σ,
// the topic spread with rstanarm's τ_topic ~ gamma(1, 1): IRPools is a prior
// on the ratio, which is what published pools agree on across measures and
// loss weights (rb04's τ_system is 0.151 on AP and 0.157 in its BRisk pool
// at w = 5, where σ is three times larger).
func DayOnePriors(t *Table, fam Family) HierPriors {
	p := DefaultPriors(t, fam)
	if !p.Relative {
		p.SDTopic, p.Relative = Gamma{1, 1}, true
	}
	p.SDSystem = IRPools
	return p
}
