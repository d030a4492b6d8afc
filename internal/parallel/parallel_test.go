package parallel

import (
	"sync/atomic"
	"testing"
)

// Every index runs exactly once, whatever the number of workers, and each
// worker makes its job function once.
func TestFor(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 100} {
		for _, n := range []int{0, 1, 7, 1000} {
			counts := make([]atomic.Int32, n)
			var made atomic.Int32
			For(n, workers, func() func(int) {
				made.Add(1)
				return func(i int) { counts[i].Add(1) }
			})
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("workers %d, n %d: job %d ran %d times", workers, n, i, c)
				}
			}
			if workers > 0 && int(made.Load()) > workers {
				t.Errorf("workers %d, n %d: %d job functions made", workers, n, made.Load())
			}
		}
	}
}
