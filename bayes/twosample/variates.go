package twosample

import (
	"math"
	"math/rand/v2"
)

// Random variates for the exact (conjugate) samplers of the two-system models
// (twosample.go) and the classifier models (classifier.go). Each takes an
// injected *rand.Rand and draws from it in a fixed order, so a given seed gives
// the same draws on every platform and at any GOMAXPROCS.
//
// gonum's distuv.Gamma implements the same algorithm but allocates a new
// rand.Rand for every variate; the classifier models draw millions of them.

// NewStream returns the random source of one stream of a seeded computation:
// streams 0, 1, 2, … of one seed are independent PCG generators whose state is
// derived from (seed, stream) by SplitMix64, so work split over goroutines by
// stream number draws the same numbers however it is scheduled.
func NewStream(seed, stream uint64) *rand.Rand {
	a := splitMix64(seed)
	b := splitMix64(a ^ splitMix64(stream+0x632be59bd9b4e019))
	return rand.New(rand.NewPCG(a, b))
}

// splitMix64 is Steele, Lea & Flood's (2014) 64-bit finaliser, a bijective mixer.
func splitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// gammaVariate draws from Gamma(shape, 1) (density x^(shape−1) e^(−x) / Γ(shape))
// by Marsaglia & Tsang (2000), "A simple method for generating gamma variables",
// ACM TOMS 26(3):363–372, with their boost Gamma(a) = Gamma(a+1)·U^(1/a) for a < 1.
// shape must be positive.
func gammaVariate(r *rand.Rand, shape float64) float64 {
	if shape < 1 {
		u := r.Float64()
		for u == 0 {
			u = r.Float64()
		}
		return gammaVariate(r, shape+1) * math.Pow(u, 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 {
			return d * v
		}
		if math.Log(u) < 0.5*x2+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// chiSquareVariate draws from χ²(k) = 2·Gamma(k/2, 1).
func chiSquareVariate(r *rand.Rand, k float64) float64 {
	return 2 * gammaVariate(r, k/2)
}

// betaVariate draws from Beta(a, b) as X/(X+Y) with X ~ Gamma(a), Y ~ Gamma(b).
func betaVariate(r *rand.Rand, a, b float64) float64 {
	x := gammaVariate(r, a)
	y := gammaVariate(r, b)
	return x / (x + y)
}

// dirichlet4Variate draws p ~ Dirichlet(alpha) over four cells by normalising
// independent Gamma(alpha_k, 1) variates.
func dirichlet4Variate(r *rand.Rand, alpha *[4]float64, p *[4]float64) {
	s := 0.0
	for k := range p {
		p[k] = gammaVariate(r, alpha[k])
		s += p[k]
	}
	for k := range p {
		p[k] /= s
	}
}
