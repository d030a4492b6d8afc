package risk

import (
	"fmt"
	"math"
	"slices"
)

// Critical values of the resampling tests: the smallest statistic a test
// calls significant at level α, from the same replicates (the same streams)
// as the test's achieved significance level. A difference of means that
// reaches it is detectable with the pool at hand: Sakai (SIGIR 2006,
// "Evaluating evaluation metrics based on the bootstrap") estimates the
// difference a measure needs for significance so.

// tailIndex returns m = ⌈α·B⌉ (at least 1): a replicate statistic is
// significant at α exactly when fewer than m replicates reach it, so the
// critical value is the m-th largest replicate.
func tailIndex(alpha float64, b int) (int, error) {
	if !(alpha > 0 && alpha < 1) {
		return 0, fmt.Errorf("risk: significance level %v must be in (0, 1)", alpha)
	}
	return max(1, int(math.Ceil(alpha*float64(b)-1e-9))), nil
}

// StudentizedBootstrapCritical is StudentizedBootstrap (the same P, bit for
// bit) with the bootstrap's critical value at α: c = the m-th largest of the
// B values |t(w*_b)|, m = ⌈α·B⌉. The pair's ASL is below α exactly when
// |t(z)| > c (barring ties with c), so the smallest mean difference the
// test detects for this pair is c·σ̂/√n (σ̂ the pair's standard deviation):
// Sakai's (SIGIR 2006) per-pair difference required. c is NaN when the
// differences are constant.
func (p Pair) StudentizedBootstrapCritical(b int, seed uint64, alpha float64) (StudentizedBootstrap, float64, error) {
	m, err := tailIndex(alpha, b)
	if err != nil {
		return StudentizedBootstrap{}, 0, err
	}
	r, tstars, err := p.studentizedBootstrap(b, seed, true)
	if err != nil || tstars == nil {
		return r, math.NaN(), err
	}
	slices.Sort(tstars)
	return r, tstars[b-m], nil
}

// RandomizedTukeyHSDCritical is RandomizedTukeyHSD (the same P, bit for
// bit) with its critical range at α: c = the m-th largest of the B ranges
// max_i x̄*_i − min_i x̄*_i, m = ⌈α·B⌉. A pair's P is below α exactly when
// |x̄_B − x̄_A| − tol > c, so c is the smallest difference of means the test
// detects, the same for every pair.
func (s Systems) RandomizedTukeyHSDCritical(b int, seed uint64, alpha float64) (RandomizedTukeyHSD, float64, error) {
	m, err := tailIndex(alpha, b)
	if err != nil {
		return RandomizedTukeyHSD{}, 0, err
	}
	r, ranges, err := s.randomizedTukeyHSD(b, seed)
	if err != nil {
		return r, 0, err
	}
	return r, ranges[b-m], nil
}
