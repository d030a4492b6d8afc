package trec

import (
	"math"
	"sync"
	"sync/atomic"
)

// trec_eval computes its logarithms and exponentials with glibc's log, log2
// and exp, which round correctly (to within 0.502 ulp, and to the nearest
// double in all but astronomically rare cases); Go's math.Log, Log2 and Exp
// are within one ulp, and not the same bits: math.Log(3) is one ulp below
// glibc's log(3), so a yaap that is log(3) + log(1/3) printed "-0.0000"
// where trec_eval prints "0.0000". These functions return the correctly
// rounded values: a first approximation from package math, corrected with
// exp in double-double arithmetic (about 104 bits), then rounded once.

// dd is an unevaluated sum hi + lo of two doubles, |lo| ≤ ulp(hi)/2.
type dd struct{ hi, lo float64 }

// twoSum returns s = fl(a + b) and the exact error e = a + b − s (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// fastTwoSum is twoSum for |a| ≥ |b| (Dekker).
func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	return s, b - (s - a)
}

// twoProd returns p = fl(a·b) and the exact error e = a·b − p.
func twoProd(a, b float64) (p, e float64) {
	p = a * b
	return p, math.FMA(a, b, -p)
}

func ddAdd(x, y dd) dd {
	s, e := twoSum(x.hi, y.hi)
	t, f := twoSum(x.lo, y.lo)
	e += t
	s, e = fastTwoSum(s, e)
	e += f
	s, e = fastTwoSum(s, e)
	return dd{s, e}
}

func ddMul(x, y dd) dd {
	p, e := twoProd(x.hi, y.hi)
	e += x.hi*y.lo + x.lo*y.hi
	p, e = fastTwoSum(p, e)
	return dd{p, e}
}

// ddDivF returns x/f to double-double precision: the remainder of the
// leading quotient is exact by a fused multiply-add.
func ddDivF(x dd, f float64) dd {
	q := x.hi / f
	rem := math.FMA(-q, f, x.hi)
	q2 := (rem + x.lo) / f
	q, q2 = fastTwoSum(q, q2)
	return dd{q, q2}
}

var (
	ln2DD   = dd{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56} // ln 2
	log2eDD = dd{0x1.71547652b82fep+0, 0x1.777d0ffda0d24p-56} // 1/ln 2
)

// expDD returns e^x in double-double for |x| ≤ 700: x = k·ln 2 + r with
// |r| ≤ ln 2/2, e^r = (e^(r/256))^256 from 10 terms of the Taylor series.
func expDD(x float64) dd {
	k := math.Round(x * log2eDD.hi)
	p, e := twoProd(k, ln2DD.hi)
	r := ddAdd(dd{x - p, 0}, dd{-e, -k * ln2DD.lo}) // x − p is exact (Sterbenz)
	r = dd{r.hi / 256, r.lo / 256}
	// Horner: 1 + r(1 + r/2(1 + r/3(… (1 + r/10)))).
	s := dd{1, 0}
	for n := 10; n >= 1; n-- {
		s = ddMul(s, ddDivF(r, float64(n)))
		s = ddAdd(s, dd{1, 0})
	}
	for range 8 {
		s = ddMul(s, s)
	}
	ki := int(k)
	return dd{math.Ldexp(s.hi, ki), math.Ldexp(s.lo, ki)}
}

// logDD returns ln x in double-double for a positive normal x: y0 =
// math.Log(x), within an ulp, and ln x = y0 + ln(x·e^(−y0)) ≈ y0 + (x − E)/E
// with E = e^(y0) (the neglected square of (x − E)/E is below 2⁻¹⁰⁰).
func logDD(x float64) dd {
	y0 := math.Log(x)
	E := expDD(y0)
	c := ((x - E.hi) - E.lo) / E.hi // x − E.hi is exact: they are within ulps
	s, e := fastTwoSum(y0, c)
	return dd{s, e}
}

// cLog is glibc's log: correctly rounded; the logarithm of a negative
// number is a NaN with the sign bit set ("-nan", where Go returns a
// positive NaN), of 0 −Inf.
func cLog(x float64) float64 {
	switch {
	case x < 0:
		return negNaN
	case x == 0:
		return math.Inf(-1)
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0x1p-1022: // subnormal: not met in scoring
		return math.Log(x)
	case x == 1:
		return 0
	}
	return logDD(x).hi
}

// cLog2 is glibc's log2: correctly rounded, powers of two exact, NaN and
// infinities as cLog.
func cLog2(x float64) float64 {
	switch {
	case x < 0:
		return negNaN
	case x == 0:
		return math.Inf(-1)
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0x1p-1022:
		return math.Log2(x)
	}
	if frac, exp := math.Frexp(x); frac == 0.5 {
		return float64(exp - 1)
	}
	return ddMul(logDD(x), log2eDD).hi
}

// cExp is glibc's exp: correctly rounded.
func cExp(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x > 709.782712893384: // beyond the largest double
		return math.Inf(1)
	case x < -708: // the subnormal range: not met in scoring
		return math.Exp(x)
	case x == 0:
		return 1
	}
	return expDD(x).hi
}

// negNaN is the NaN an invalid x86 operation gives (0/0, ∞ − ∞), and
// glibc's log of a negative number: printed "-nan".
var negNaN = math.Copysign(math.NaN(), -1)

// discounts holds log2(k + 2) for k = 0, 1, …: the nDCG family's discount
// of rank k + 1, computed once and shared by every evaluator.
var discounts struct {
	mu  sync.Mutex
	tab atomic.Pointer[[]float64]
}

// discount returns cLog2(i + 2), from a table grown as ranks get deeper.
func discount(i int) float64 {
	if t := discounts.tab.Load(); t != nil && i < len(*t) {
		return (*t)[i]
	}
	discounts.mu.Lock()
	defer discounts.mu.Unlock()
	var old []float64
	if t := discounts.tab.Load(); t != nil {
		old = *t
	}
	if i < len(old) {
		return old[i]
	}
	n := max(1024, 2*len(old), i+1)
	tab := make([]float64, n)
	copy(tab, old)
	for k := len(old); k < n; k++ {
		tab[k] = cLog2(float64(k + 2))
	}
	discounts.tab.Store(&tab)
	return tab[i]
}
