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

// InOrder runs produce(i) for i = 0 … n−1 on up to workers goroutines
// (GOMAXPROCS when workers ≤ 0) and hands each result to consume in index
// order, on the calling goroutine, as soon as it and every earlier one are
// ready. At most workers jobs run or wait to be consumed at any time, which
// bounds the memory their results hold: a job starts only when one of the
// workers' slots is free, and a slot is freed when its result is consumed.
// When consume returns an error InOrder starts no further job, waits for the
// running ones and returns that error; their results are dropped.
func InOrder[T any](n, workers int, produce func(i int) T, consume func(i int, v T) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	results := make([]chan T, n)
	for i := range results {
		results[i] = make(chan T, 1)
	}
	slots := make(chan struct{}, workers)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	started := make(chan int, 1) // how many jobs were started, once the dispatcher ends
	go func() {
		i := 0
	dispatch:
		for ; i < n; i++ {
			select {
			case slots <- struct{}{}:
			case <-stop:
				break dispatch
			}
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				results[i] <- produce(i)
			}(i)
		}
		started <- i
	}()
	for i := range n {
		err := consume(i, <-results[i])
		<-slots
		if err != nil {
			close(stop)
			<-started
			wg.Wait()
			return err
		}
	}
	<-started
	return nil
}
