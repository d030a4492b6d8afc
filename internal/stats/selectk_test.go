package stats

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectRanks checks the multi-target selection against a full sort,
// on data with and without repeated values, and that every selected rank
// partitions the values around it.
func TestSelectRanks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + rng.IntN(3000)
		a := make([]float64, n)
		for i := range a {
			if trial%2 == 0 {
				a[i] = float64(rng.IntN(5)) // heavy ties
			} else {
				a[i] = rng.NormFloat64()
			}
		}
		if trial%7 == 0 {
			slices.Sort(a) // already sorted input
		}
		sorted := slices.Clone(a)
		slices.Sort(sorted)
		var ranks []int
		for range 1 + rng.IntN(6) {
			ranks = append(ranks, rng.IntN(n))
		}
		slices.Sort(ranks)
		ranks = slices.Compact(ranks)
		SelectRanks(a, ranks)
		for _, r := range ranks {
			if a[r] != sorted[r] {
				t.Fatalf("trial %d: rank %d holds %v, want %v", trial, r, a[r], sorted[r])
			}
			if lo, hi := slices.Max(a[:r+1]), slices.Min(a[r:]); lo != a[r] || hi != a[r] {
				t.Fatalf("trial %d: rank %d holds %v with %v before it and %v after it", trial, r, a[r], lo, hi)
			}
		}
	}
}
