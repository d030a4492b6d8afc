package ntcir

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkScorer: every measure ntcir_eval prints, at cutoffs 10 and 1000,
// on a 1,000-document list with 100 relevant documents of levels 1–3, as
// eval scores a robust03 topic.
func BenchmarkScorer(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	judged := []int64{600, 60, 30, 10}
	ranked := make([]int32, 1000)
	for i := range ranked {
		switch x := r.IntN(10); {
		case x == 0:
			ranked[i] = int32(1 + r.IntN(3))
		case x < 5:
			ranked[i] = 0
		default:
			ranked[i] = -1
		}
	}
	ms := append(All(10), All(1000)...)
	gains := []float64{1, 2, 3}
	var s Scorer
	for b.Loop() {
		s.Reset(ranked, judged, gains)
		for _, m := range ms {
			s.Value(m)
		}
	}
}
