package posterior

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// R 4.2.2: quantile(c(3, 1, 4, 1, 5, 9, 2, 6), c(0, .1, .25, .5, .9, 1)) (type 7 is the default)
// gives 1.0 1.0 1.75 3.5 6.9 9.0; mad(c(3,1,4,1,5,9,2,6)) = 2.9652 (1.4826 * 2).
func TestQuantileType7(t *testing.T) {
	t.Parallel()
	x := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {0.1, 1}, {0.25, 1.75}, {0.5, 3.5}, {0.9, 6.9}, {1, 9}} {
		if got := Quantile(x, c.p); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Quantile(p=%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if got := MAD(x); math.Abs(got-2.9652) > 1e-12 {
		t.Errorf("MAD = %v, want 2.9652", got)
	}
}

// The HDI must be the shortest interval covering ⌈0.95·S⌉+1 sorted draws; compare
// with an exhaustive search over every window on skewed draws.
func TestHDIMatchesBruteForce(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 50; trial++ {
		n := 20 + r.IntN(400)
		x := make([]float64, n)
		for i := range x {
			x[i] = r.ExpFloat64() + 0.1*r.NormFloat64()
		}
		lo, hi := HDI(x, 0.95)
		y := slices.Clone(x)
		slices.Sort(y)
		k := int(math.Ceil(0.95 * float64(n)))
		best := math.Inf(1)
		for i := 0; i+k < n; i++ {
			best = min(best, y[i+k]-y[i])
		}
		if hi-lo != best {
			t.Fatalf("n=%d: HDI width %v, brute-force shortest %v", n, hi-lo, best)
		}
		inside := 0
		for _, v := range x {
			if v >= lo && v <= hi {
				inside++
			}
		}
		if inside < k {
			t.Fatalf("n=%d: HDI [%v,%v] covers %d draws, want ≥ %d", n, lo, hi, inside, k)
		}
	}
}

// Ties between equally short windows follow bayestestR 0.13 (R 4.2, Debian
// r-cran-bayestestr): contiguous minima take the middle one rounded down,
// separate minima the rightmost.
//
//	hdi(1:10, ci = 0.5)                         → [3, 8]
//	hdi(c(1,2,3,10,11,12,20,21,22,30), ci = 0.3) → [2, 11]
//	hdi(c(0,1,2,10,11,12,20), ci = 0.28)         → [10, 12]
func TestHDITies(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x      []float64
		ci     float64
		lo, hi float64
	}{
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.5, 3, 8},
		{[]float64{1, 2, 3, 10, 11, 12, 20, 21, 22, 30}, 0.3, 2, 11},
		{[]float64{0, 1, 2, 10, 11, 12, 20}, 0.28, 10, 12},
	} {
		if lo, hi := HDI(c.x, c.ci); lo != c.lo || hi != c.hi {
			t.Errorf("HDI(%v, %v) = [%v, %v], want [%v, %v]", c.x, c.ci, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := HDI([]float64{1}, 0.95); !math.IsNaN(lo) || !math.IsNaN(hi) {
		t.Fatalf("HDI of one draw = [%v, %v], want NaN", lo, hi)
	}
}

// Both tail shares are strict: draws equal to the threshold count in neither.
func TestProbLessGreater(t *testing.T) {
	t.Parallel()
	x := []float64{-1, 0, 0, 1, 2}
	if got := ProbLess(x, 0); got != 0.2 {
		t.Errorf("ProbLess = %v, want 1/5", got)
	}
	if got := ProbGreater(x, 0); got != 0.4 {
		t.Errorf("ProbGreater = %v, want 2/5", got)
	}
}
