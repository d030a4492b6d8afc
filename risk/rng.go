package risk

import (
	"math/bits"
	"math/rand/v2"

	"github.com/riskgate/riskgate/internal/parallel"
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
func forChunks(b, size int, do func(k, lo, hi int)) { forChunksFrom(0, b, size, do) }

// forChunksFrom is forChunks over the chunks from the one starting at
// replicate from (a multiple of size) on.
func forChunksFrom(from, b, size int, do func(k, lo, hi int)) {
	first := from / size
	parallel.Each((b+size-1)/size-first, func(i int) {
		k := first + i
		do(k, k*size, min((k+1)*size, b))
	})
}

// Uniform integers come from Lemire's multiply-and-reject method on 32-bit
// halves of the PCG output: for a bound n < 2³², h, l = hi, lo of x·n
// (x uniform on 32 bits) and h is accepted as uniform on [0, n) iff
// l ≥ (2³² − n) mod n — exactly uniform, and rejection has probability
// below n/2³². Each 64-bit draw gives two candidates, and the loops are
// written out so that the compiler inlines PCG's step.

// rejectBelow returns Lemire's threshold (2³² − n) mod n.
func rejectBelow(n uint32) uint32 { return -n % n }

// indexer draws uniform indices in [0, n).
type indexer struct {
	src       *rand.PCG
	n, thresh uint32
}

func newIndexer(src *rand.PCG, n int) indexer {
	return indexer{src: src, n: uint32(n), thresh: rejectBelow(uint32(n))}
}

// fill sets every dst[i] to a uniform index in [0, n).
func (ix indexer) fill(dst []uint32) {
	n, thresh := ix.n, ix.thresh
	for i := 0; i < len(dst); {
		v := ix.src.Uint64()
		if h, l := bits.Mul32(uint32(v), n); l >= thresh {
			dst[i] = h
			i++
		}
		if i == len(dst) {
			break
		}
		if h, l := bits.Mul32(uint32(v>>32), n); l >= thresh {
			dst[i] = h
			i++
		}
	}
}

// shuffler permutes slices of one length m uniformly (Fisher–Yates), with
// Lemire's thresholds for the bounds 2 … m precomputed.
type shuffler struct {
	src    *rand.PCG
	thresh []uint32 // thresh[i] for the bound i + 1
}

func newShuffler(src *rand.PCG, m int) shuffler {
	t := make([]uint32, m)
	for i := 1; i < m; i++ {
		t[i] = rejectBelow(uint32(i + 1))
	}
	return shuffler{src: src, thresh: t}
}

// shuffle permutes row (of length m) in place: for i = m−1 … 1, swap row[i]
// with row[j], j uniform on [0, i].
func (sh shuffler) shuffle(row []float64) {
	thresh := sh.thresh[:len(row)]
	var v uint64
	spare := false
	for i := len(row) - 1; i > 0; {
		var x uint32
		if spare {
			x = uint32(v >> 32)
		} else {
			v = sh.src.Uint64()
			x = uint32(v)
		}
		spare = !spare
		h, l := bits.Mul32(x, uint32(i+1))
		if l < thresh[i] {
			continue
		}
		row[i], row[h] = row[h], row[i]
		i--
	}
}
