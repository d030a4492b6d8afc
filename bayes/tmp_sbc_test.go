package bayes

import "testing"

func TestTmpSBCGeneral(t *testing.T) {
	const L = 99
	old := sbcPriors
	defer func() { sbcPriors = old }()
	sbcPriors.Sigma = Gamma{4, 40}
	r := sbcRanks(t, 400, 6, 8, L, 5, 0.1, HierOptions{Method: MethodGeneral, Sampler: NUTSOptions{Warmup: 1000}})
	checkUniformRanks(t, r, L)
}
