package posterior

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/riskgate/riskgate/internal/cputime"
	"github.com/riskgate/riskgate/internal/parallel"
)

// benchDraws returns nv variables of m chains × n draws from AR(1) processes
// whose coefficients spread over [−0.3, 0.9] (NUTS draws range from antithetic
// to sticky), fixed by the seed and cached across benchmark runs.
func benchDraws(nv, m, n int) [][][]float64 {
	key := [3]int{nv, m, n}
	benchMu.Lock()
	defer benchMu.Unlock()
	if d, ok := benchCache[key]; ok {
		return d
	}
	r := rand.New(rand.NewPCG(7, uint64(nv)))
	vars := make([][][]float64, nv)
	for v := range vars {
		phi := -0.3 + 1.2*float64(v%13)/12
		s := math.Sqrt(1 - phi*phi)
		vars[v] = make([][]float64, m)
		for j := range vars[v] {
			c := make([]float64, n)
			x := r.NormFloat64()
			for i := range c {
				x = phi*x + s*r.NormFloat64()
				c[i] = x
			}
			vars[v][j] = c
		}
	}
	benchCache[key] = vars
	return vars
}

var (
	benchMu    sync.Mutex
	benchCache = map[[3]int][][][]float64{}
)

// The sampler summarises every fit: 100 variables × 4 chains × 5,000 draws
// (target ≤ 150 ms on 2 cores) and a 1,000-system × 10,000-topic model,
// 11,000 variables × 4 × 1,000 (target ≤ 5 s). "fft" computes every
// autocovariance by FFT, as posterior does; "lazy" computes lags on demand.
func BenchmarkSummarizeAll(b *testing.B) {
	for _, size := range [][3]int{{100, 4, 5000}, {11000, 4, 1000}} {
		modes := []string{"lazy", "fft"}
		if size[0] > 1000 {
			modes = modes[:1] // FFT only takes about a minute here
		}
		for _, mode := range modes {
			b.Run(fmt.Sprintf("%dx%dx%d/%s", size[0], size[1], size[2], mode), func(b *testing.B) {
				vars := benchDraws(size[0], size[1], size[2])
				summarizeAll := func() { SummarizeAll(vars, 0) }
				if mode == "fft" {
					summarizeAll = func() { summarizeAllFFT(vars) }
				}
				b.ResetTimer()
				cpu := cputime.Process()
				for range b.N {
					summarizeAll()
				}
				b.ReportMetric(float64(cputime.Process()-cpu)/1e6/float64(b.N), "cpu-ms/op")
			})
		}
	}
}

// summarizeAllFFT is SummarizeAll with every autocovariance by FFT.
func summarizeAllFFT(vars [][][]float64) []VarSummary {
	out := make([]VarSummary, len(vars))
	parallel.For(len(vars), 0, func() func(int) {
		w := newWorkspace()
		w.fftFromLag = 0
		return func(v int) {
			m, n := shape(vars[v])
			out[v] = w.summarize(vars[v], m, n)
		}
	})
	return out
}

// One variable of 4 × 1,000 draws, single-threaded.
func BenchmarkSummarize(b *testing.B) {
	x := benchDraws(13, 4, 1000)
	b.ResetTimer()
	for i := range b.N {
		Summarize(x[i%13])
	}
}
