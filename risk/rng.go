package risk

import (
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// Randomised procedures split their B replicates into chunks of a fixed size
// and give chunk k of procedure proc its own PCG stream seeded with
// (seed, proc<<32 | k). Chunks are spread over GOMAXPROCS goroutines, but
// which replicates a chunk computes, and from which stream, depends only on
// (seed, B): the output is bit-identical whatever GOMAXPROCS is.

// procedure tags keep the streams of different procedures apart.
type procedure uint64

const (
	procBootstrapMean procedure = iota + 1
	procRandomization
	procStudentizedBootstrap
	procRandomizedTukey
)

func chunkSource(seed uint64, proc procedure, chunk int) *rand.PCG {
	return rand.NewPCG(seed, uint64(proc)<<32|uint64(chunk))
}

// forChunks calls do(k, lo, hi) for every chunk k covering replicates
// [lo, hi) of [0, b), on up to GOMAXPROCS goroutines.
func forChunks(b, size int, do func(k, lo, hi int)) {
	chunks := (b + size - 1) / size
	workers := min(runtime.GOMAXPROCS(0), chunks)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= chunks {
					return
				}
				do(k, k*size, min((k+1)*size, b))
			}
		}()
	}
	wg.Wait()
}

// uint32s draws uniform 32-bit integers, two from each 64-bit PCG output.
type uint32s struct {
	src   *rand.PCG
	spare uint64
	has   bool
}

func (u *uint32s) next() uint32 {
	if u.has {
		u.has = false
		return uint32(u.spare >> 32)
	}
	u.spare = u.src.Uint64()
	u.has = true
	return uint32(u.spare)
}

// below returns a uniform integer in [0, n), 0 < n < 2³², by Lemire's
// multiply-and-reject method (exactly uniform; the rejection branch is taken
// with probability below n/2³²).
func (u *uint32s) below(n uint32) uint32 {
	hi, lo := bits.Mul32(u.next(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul32(u.next(), n)
		}
	}
	return hi
}
