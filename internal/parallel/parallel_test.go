package parallel

import (
	"errors"
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

// InOrder consumes every result once, in index order, with no more than
// workers jobs running or waiting at once; an error from consume stops it.
func TestInOrder(t *testing.T) {
	for _, workers := range []int{0, 1, 3} {
		for _, n := range []int{0, 1, 7, 200} {
			var running, most atomic.Int32
			next := 0
			err := InOrder(n, workers, func(i int) int {
				r := running.Add(1)
				for {
					m := most.Load()
					if r <= m || most.CompareAndSwap(m, r) {
						break
					}
				}
				return i * i
			}, func(i, v int) error {
				running.Add(-1)
				if i != next || v != i*i {
					t.Fatalf("consumed %d (%d), want %d", i, v, next)
				}
				next++
				return nil
			})
			if err != nil || next != n {
				t.Fatalf("workers %d, n %d: err %v after %d results", workers, n, err, next)
			}
			if workers > 0 && int(most.Load()) > workers {
				t.Errorf("workers %d: %d jobs at once", workers, most.Load())
			}
		}
	}
	var produced atomic.Int32
	stopAt := errors.New("stop")
	err := InOrder(1000, 2, func(i int) int { produced.Add(1); return i }, func(i, _ int) error {
		if i == 3 {
			return stopAt
		}
		return nil
	})
	if err != stopAt || produced.Load() > 6 {
		t.Errorf("err %v after %d jobs; want the consumer's error after at most 6 jobs", err, produced.Load())
	}
}
