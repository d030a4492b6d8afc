package risk

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/riskgate/riskgate/internal/cputime"
)

// loop runs body b.N times and reports the CPU time per operation.
func loop(b *testing.B, body func()) {
	start := cputime.Process()
	n := 0
	for b.Loop() {
		body()
		n++
	}
	b.ReportMetric(float64(cputime.Process()-start)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
}

// synthetic returns m systems × n topics of AP-like scores in [0, 1).
func synthetic(m, n int) Systems {
	rng := rand.New(rand.NewPCG(2020, 7))
	s := make(Systems, m)
	for i := range s {
		s[i] = make([]float64, n)
		for j := range s[i] {
			s[i][j] = rng.Float64() * rng.Float64()
		}
	}
	return s
}

// BenchmarkBCaFourChallengers is the target: BCa (with the
// percentile interval) at B = 100,000 for four challengers over 50 topics,
// under 100 ms per iteration.
func BenchmarkBCaFourChallengers(b *testing.B) {
	s := synthetic(5, 50)
	o := BootstrapOptions{B: 100_000, Level: 1 - 0.05/4, Seed: 1}
	loop(b, func() {
		for c := 1; c <= 4; c++ {
			if _, err := (Pair{X: s[c], Base: s[0]}).BCa(5, o); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBootstrapMeans isolates the resampling loop (B = 100,000, n = 50).
func BenchmarkBootstrapMeans(b *testing.B) {
	x := synthetic(1, 50)[0]
	loop(b, func() { bootstrapMeans(x, 100_000, 1) })
}

// BenchmarkRandomizedTukey45 is the target: B = 10,000 over 45
// systems × 50 topics, under 1 s per iteration.
func BenchmarkRandomizedTukey45(b *testing.B) {
	s := synthetic(45, 50)
	loop(b, func() {
		if _, err := s.RandomizedTukeyHSD(10_000, 1); err != nil {
			b.Fatal(err)
		}
	})
}

func BenchmarkRandomization(b *testing.B) {
	s := synthetic(2, 50)
	p := Pair{X: s[1], Base: s[0]}
	loop(b, func() { p.Randomization(100_000, 1) })
}

func BenchmarkStudentizedBootstrap(b *testing.B) {
	s := synthetic(2, 50)
	p := Pair{X: s[1], Base: s[0]}
	loop(b, func() { p.StudentizedBootstrap(100_000, 1) })
}

func BenchmarkTukeyHSD45(b *testing.B) {
	s := synthetic(45, 50)
	loop(b, func() { s.TukeyHSD(true, 0.95) })
}

func BenchmarkZRisk45(b *testing.B) {
	s := synthetic(45, 50)
	loop(b, func() { s.GeoRisk(5) })
}
