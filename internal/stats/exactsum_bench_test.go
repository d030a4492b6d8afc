package stats

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkExactMean is the mean of one chain's draws of a parameter (4,000
// draws, as a posterior's): what the convergence diagnostics and summaries
// take of every variable (posterior.accurateMean). "score" draws lie around
// 0.3, "difference" draws around 0.01, of either sign.
func BenchmarkExactMean(b *testing.B) {
	for _, c := range []struct {
		name     string
		mean, sd float64
	}{{"score", 0.3, 0.05}, {"difference", 0.01, 0.05}} {
		r := rand.New(rand.NewPCG(1, 1))
		x := make([]float64, 4000)
		for i := range x {
			x[i] = c.mean + c.sd*r.NormFloat64()
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				ExactMean(x)
			}
		})
	}
}

// BenchmarkIndexedMean is one bootstrap replicate's mean: 50 scores
// chosen by index, summed in fixed point and rounded once (fixedMean), as
// BCa draws 100,000 per interval.
func BenchmarkIndexedMean(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 50)
	for i := range x {
		x[i] = r.Float64() * r.Float64()
	}
	m := NewIndexedMean(x)
	idx := make([]uint32, 50)
	for i := range idx {
		idx[i] = uint32(r.IntN(50))
	}
	for b.Loop() {
		m.Mean(idx)
	}
}
