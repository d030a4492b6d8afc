package risk

import (
	"fmt"
	"math"
	"sync/atomic"

	"github.com/riskgate/riskgate/internal/stats"
)

// StudentizedBootstrap is Sakai's paired bootstrap test.
type StudentizedBootstrap struct {
	T        float64 // observed t = z̄/(σ̂/√n)
	P        float64 // achieved significance level #{|t*| ≥ |t|}/B
	B        int
	Warnings []string
}

// studentizedChunk is the number of resamples drawn from one stream.
const studentizedChunk = 2048

// StudentizedBootstrap is the paired studentised bootstrap test of Sakai
// (SIGIR 2006, "Evaluating evaluation metrics based on the bootstrap";
// Savoy, IPM 1997): with z_i = X_i − Base_i, t(z) = z̄/(σ̂/√n) (σ̂ the n − 1
// standard deviation) and the null-shifted w_i = z_i − z̄, each of B resamples
// w* of w (with replacement) gives t(w*) = w̄*/(σ̂*/√n), and
//
//	P = #{b : |t(w*_b)| ≥ |t(z)|} / B   (the achieved significance level).
//
// A resample with σ̂* = 0 (one value drawn n times) has |t*| = +Inf, counted,
// unless its mean is 0 too (not counted). With constant z, t is ±Inf and P
// is 0 (NaN if z ≡ 0), with a warning.
func (p Pair) StudentizedBootstrap(b int, seed uint64) (StudentizedBootstrap, error) {
	r, _, err := p.studentizedBootstrap(b, seed, false)
	return r, err
}

// studentizedBootstrap is StudentizedBootstrap; with collect it also
// returns every replicate's |t(w*)|, in replicate order.
func (p Pair) studentizedBootstrap(b int, seed uint64, collect bool) (StudentizedBootstrap, []float64, error) {
	if err := p.check(); err != nil {
		return StudentizedBootstrap{}, nil, err
	}
	if b < 1 {
		return StudentizedBootstrap{}, nil, fmt.Errorf("risk: bootstrap test needs B ≥ 1, got %d", b)
	}
	z := p.Deltas()
	n := len(z)
	fn := float64(n)
	zbar := stats.Mean(z)
	se := math.Sqrt(stats.Variance(z) / fn)
	r := StudentizedBootstrap{B: b}
	if essentiallyConstant(zbar, se) {
		r.T = infOrNaN(zbar)
		r.P = 0
		if math.IsNaN(r.T) {
			r.P = math.NaN()
		}
		r.Warnings = append(r.Warnings, "the differences are constant (zero variance): the bootstrap test is degenerate")
		return r, nil, nil
	}
	r.T = zbar / se
	tobs := math.Abs(r.T)
	w := make([]float64, n)
	for i, v := range z {
		w[i] = v - zbar
	}
	var tstars []float64
	if collect {
		tstars = make([]float64, b)
	}
	var count atomic.Int64
	forChunks(b, studentizedChunk, func(k, lo, hi int) {
		ix := newIndexer(chunkSource(seed, procStudentizedBootstrap, k), n)
		idx := make([]uint32, n)
		buf := make([]float64, n)
		c := 0
		for rep := lo; rep < hi; rep++ {
			ix.fill(idx)
			s := 0.0
			for i, j := range idx {
				v := w[j]
				buf[i] = v
				s += v
			}
			m := s / fn
			ss := 0.0
			for _, v := range buf {
				ss += (v - m) * (v - m)
			}
			sd := math.Sqrt(ss / (fn - 1))
			if sd == 0 {
				if m != 0 {
					c++
					if collect {
						tstars[rep] = math.Inf(1)
					}
				}
				continue
			}
			at := math.Abs(m / (sd / math.Sqrt(fn)))
			if collect {
				tstars[rep] = at
			}
			if at >= tobs {
				c++
			}
		}
		count.Add(int64(c))
	})
	r.P = float64(count.Load()) / float64(b)
	return r, tstars, nil
}
