// Package parallel spreads independent jobs over goroutines. The jobs
// 0 … n−1 are handed out in index order, each to whichever goroutine is
// free; a job must depend only on its index (and its own random stream, if
// any), never on which goroutine runs it, so that results are the same
// whatever GOMAXPROCS is.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For runs job(i) for i = 0 … n−1 on up to workers goroutines (GOMAXPROCS
// when workers ≤ 0). Each goroutine makes its job function once with newJob,
// so that it can hold scratch space of its own. For returns when every job
// is done.
func For(n, workers int, newJob func() func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			job := newJob()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				job(i)
			}
		}()
	}
	wg.Wait()
}

// Each runs f(i) for i = 0 … n−1 on up to GOMAXPROCS goroutines.
func Each(n int, f func(i int)) {
	For(n, 0, func() func(int) { return f })
}
