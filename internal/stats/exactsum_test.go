package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// exactRef returns the exact sum of x and the exact sum divided by n, each
// rounded to nearest even by math/big (the reference: exact arithmetic).
func exactRef(x []float64) (sum, mean float64) {
	s := new(big.Float).SetPrec(4096)
	for _, v := range x {
		s.Add(s, new(big.Float).SetFloat64(v))
	}
	sum, _ = new(big.Float).Set(s).SetPrec(53).Float64()
	q := new(big.Float).SetPrec(4096).Quo(s, new(big.Float).SetInt64(int64(len(x))))
	mean, _ = q.SetPrec(53).Float64()
	return sum, mean
}

// TestExactSum: Value is the correctly rounded sum and Mean the correctly
// rounded mean (math/big, tolerance: none) on random values of mixed
// magnitude and sign, and on cancelling ones; both are the same bits for
// every order of the values.
func TestExactSum(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 20000 {
		n := 1 + r.IntN(40)
		x := make([]float64, n)
		for i := range x {
			switch trial % 4 {
			case 0:
				x[i] = r.NormFloat64()
			case 1:
				x[i] = math.Ldexp(r.Float64()-0.5, r.IntN(200)-100)
			case 2: // scores with one or two decimals: many exact ties
				x[i] = float64(r.IntN(21))/10 - float64(r.IntN(21))/20
			default: // 1 ± 1e-12
				x[i] = 1 + (r.Float64()-0.5)*1e-12
			}
		}
		wantSum, wantMean := exactRef(x)
		var s ExactSum
		for _, v := range x {
			s.Add(v)
		}
		if got := s.Value(); got != wantSum {
			t.Fatalf("%v: sum %v, want %v", x, got, wantSum)
		}
		if got := s.Mean(n); got != wantMean {
			t.Fatalf("%v: mean %v, want %v", x, got, wantMean)
		}
		r.Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
		if got := ExactMean(x); got != wantMean {
			t.Fatalf("%v shuffled: mean %v, want %v", x, got, wantMean)
		}
	}
}

// TestIndexedMean: means of resamples equal ExactMean of the chosen values
// bit for bit, on the fixed-point path (scores) and the fallback (values
// spanning more than 120 bits).
func TestIndexedMean(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 5000 {
		n := 1 + r.IntN(30)
		x := make([]float64, n)
		for i := range x {
			switch trial % 5 {
			case 0:
				x[i] = r.Float64()
			case 1:
				x[i] = float64(r.IntN(11))/10 - float64(r.IntN(11))/10
			case 2:
				x[i] = math.Ldexp(r.NormFloat64(), r.IntN(300)-150) // fallback
			case 3:
				x[i] = (r.Float64() - 0.5) * 1e15
			default:
				x[i] = 0
			}
		}
		im := NewIndexedMean(x)
		if trial%5 != 2 && im.fixed == nil {
			t.Fatalf("%v: no fixed-point path", x)
		}
		idx := make([]uint32, n)
		chosen := make([]float64, n)
		for range 20 {
			for i := range idx {
				idx[i] = uint32(r.IntN(n))
				chosen[i] = x[idx[i]]
			}
			_, want := exactRef(chosen)
			if got := im.Mean(idx); got != want || got != ExactMean(chosen) {
				t.Fatalf("%v at %v: IndexedMean %v, ExactMean %v, exact %v", x, idx, got, ExactMean(chosen), want)
			}
		}
	}
	for _, v := range []float64{0, 1, -1, 0x1p100, -0x1p100 + 1, 0x1p125 - 0x1p72, 12345} {
		if got := int128FromIntegral(v).float(); got != v {
			t.Errorf("int128 round trip of %v: %v", v, got)
		}
	}
}

// TestExactMeanIssue16: R's mean(c(0.1, 0.2, -0.3, 0)) is 2⁻⁵⁷
// (6.938893903907228e-18), the exact mean of the four doubles; summing left
// to right gives 1.3877787807814457e-17.
func TestExactMeanIssue16(t *testing.T) {
	t.Parallel()
	if got := ExactMean([]float64{0.1, 0.2, -0.3, 0}); got != 0x1p-57 {
		t.Errorf("ExactMean = %v, want 2^-57", got)
	}
	// An exact tie: (3 + 3·2⁻⁵³)/6 = ½ + 2⁻⁵⁴, halfway between ½ and its
	// successor: ties to even give ½; and just above the tie, the successor.
	tie := []float64{1, 1, 1, 0x1p-53, 0x1p-53, 0x1p-53}
	if got := ExactMean(tie); got != 0.5 {
		t.Errorf("tie: %v, want 0.5", got)
	}
	if got := NewIndexedMean(tie).Mean([]uint32{0, 1, 2, 3, 4, 5}); got != 0.5 {
		t.Errorf("tie, fixed point: %v, want 0.5", got)
	}
	above := append(tie[:6:6], 0x1p-120)
	if _, want := exactRef(above); ExactMean(above) != want || NewIndexedMean(above).Mean([]uint32{0, 1, 2, 3, 4, 5, 6}) != want {
		t.Errorf("just above a tie: %v, want %v", ExactMean(above), want)
	}
	if got := ExactMean([]float64{1e308, 1e308, -1e308}); !math.IsInf(got, 1) {
		t.Errorf("overflowing partial sum: %v, want +Inf as plain summation", got)
	}
	if got := ExactMean([]float64{1, math.Inf(1)}); !math.IsInf(got, 1) {
		t.Errorf("with +Inf: %v", got)
	}
	if got := ExactMean([]float64{math.Inf(-1), math.Inf(1)}); !math.IsNaN(got) {
		t.Errorf("with ±Inf: %v", got)
	}
}
