package stats

import (
	"math"
	"math/bits"
)

// ExactSum adds float64 values without rounding error: it keeps the running
// sum as non-overlapping partials whose exact total is the exact sum
// (Shewchuk 1997, "Adaptive precision floating-point arithmetic and fast
// robust geometric predicates", Discrete Comput. Geom. 18:305–363; the
// algorithm of Python's math.fsum), and rounds only when asked. Its Value
// and Mean depend on the multiset of values added, never on their order: the
// property R's mean (a long-double sum with a correction pass) has for all
// practical inputs, and which a bootstrap comparing replicate means with
// the estimate needs (equal resamples must give equal means).
//
// The zero value is an empty sum. Infinities and NaN propagate as in
// ordinary addition, and a partial sum beyond the float64 range gives ±Inf
// as it would there.
type ExactSum struct {
	partials []float64
	special  float64 // sum of the non-finite values added (0 when none)
}

// Reset empties the sum, keeping its storage.
func (s *ExactSum) Reset() {
	s.partials = s.partials[:0]
	s.special = 0
}

// Add adds x exactly.
func (s *ExactSum) Add(x float64) {
	if x-x != 0 { // ±Inf or NaN
		s.special += x
		return
	}
	p := s.partials
	i := 0
	for _, y := range p {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		if hi-hi != 0 { // beyond the float64 range: ±Inf, as plain addition
			s.special += hi
			x = 0
			continue
		}
		lo := y - (hi - x)
		if lo != 0 {
			p[i] = lo
			i++
		}
		x = hi
	}
	s.partials = append(p[:i], x)
}

// Value returns the exact sum rounded to the nearest float64 (ties to
// even), as math.fsum.
func (s *ExactSum) Value() float64 {
	if s.special != 0 || s.special != s.special {
		return s.special
	}
	p := s.partials
	n := len(p)
	if n == 0 {
		return 0
	}
	n--
	hi, lo := p[n], 0.0
	for n > 0 {
		x := hi
		n--
		y := p[n]
		hi = x + y
		lo = y - (hi - x)
		if lo != 0 {
			break
		}
	}
	// Round half to even: when the rest of the partials pushes lo past a
	// tie, hi + 2·lo is the correctly rounded sum.
	if n > 0 && (lo < 0 && p[n-1] < 0 || lo > 0 && p[n-1] > 0) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}

// Mean returns the exact sum divided by n ≥ 1, correctly rounded (ties to
// even). From hi = round(S) and lo = round(S − hi) it takes q = hi/n plus
// the remainder (hi − q·n, exact by a fused multiply-add, + lo)/n; only
// when that lands within 10⁻⁶ of an ulp of a rounding tie (practically
// never, barring exact ties) does it settle the rounding by exact
// comparisons of S with n times the midpoints.
func (s *ExactSum) Mean(n int) float64 {
	hi := s.Value()
	if hi-hi != 0 {
		return hi / float64(n)
	}
	s.Add(-hi) // the partials now hold S − hi exactly
	lo := s.Value()
	s.Add(hi)
	y, sure := fastMean(hi, lo, n)
	if sure {
		return y
	}
	return s.settle(y, n)
}

// fastMean returns S/n from hi = round(S) and lo = round(S − hi), and
// whether it is certainly S/n correctly rounded: the remainder's error is
// below about 10⁻¹⁵ ulp, so it is unless S/n lies within 10⁻⁶ ulp of a
// midpoint between doubles, or near a power of two where the ulp changes.
func fastMean(hi, lo float64, n int) (float64, bool) {
	fn := float64(n)
	q := hi / fn
	if hi == 0 {
		return 0, true // S = 0: a nonzero sum of doubles is at least 2⁻¹⁰⁷⁴
	}
	r := math.FMA(-q, fn, hi)
	c := (r + lo) / fn
	y := q + c
	const expMask, mantMask = 0x7ff << 52, 1<<52 - 1
	bq, by := math.Float64bits(q), math.Float64bits(y)
	if bq&mantMask == 0 || bq&expMask != by&expMask {
		return y, false // q a power of two, or y in another binade
	}
	// c in ulps of q: the ulp of a normal q with biased exponent E is
	// 2^(E−1075), so dividing by it is multiplying by 2^(1075−E), exactly,
	// and cheaper; a q below 2^−971 takes the division.
	var ulps float64
	if e := bq >> 52 & 0x7ff; e >= 52 {
		ulps = math.Abs(c) * math.Float64frombits((2098-e)<<52)
	} else {
		aq := math.Float64frombits(bq &^ (1 << 63)) // |q|
		ulps = math.Abs(c) / (math.Float64frombits(math.Float64bits(aq)+1) - aq)
	}
	return y, math.Abs(ulps-math.Floor(ulps)-0.5) > 1e-6
}

// settle moves y, an ulp or so from S/n, to S/n correctly rounded.
func (s *ExactSum) settle(y float64, n int) float64 {
	var t ExactSum
	// above(a, b) is the sign of S − n·(a + b)/2, exactly.
	above := func(a, b float64) int {
		t.partials = append(t.partials[:0], s.partials...)
		t.special = 0
		for _, m := range []float64{a, b} {
			p := m * float64(n)
			e := math.FMA(m, float64(n), -p) // m·n = p + e exactly
			t.Add(-p / 2)
			t.Add(-e / 2)
		}
		v := t.Value()
		switch {
		case v > 0:
			return 1
		case v < 0:
			return -1
		}
		return 0
	}
	even := func(a, b float64) float64 {
		if math.Float64bits(a)&1 == 0 {
			return a
		}
		return b
	}
	for range 64 {
		up := math.Nextafter(y, math.Inf(1))
		switch above(y, up) {
		case 1:
			y = up
			continue
		case 0:
			return even(y, up)
		}
		down := math.Nextafter(y, math.Inf(-1))
		switch above(down, y) {
		case -1:
			y = down
			continue
		case 0:
			return even(down, y)
		}
		return y
	}
	return y
}

// ExactMean returns the mean of x correctly rounded from its exact sum
// (ExactSum.Mean): equal multisets of values give equal means whatever
// their order. NaN for an empty x.
//
// When the values span few enough bits (fixedUnit: scores and posterior
// draws do), their sum is exact in 128-bit fixed point, a tenth of
// ExactSum's cost on 4,000 draws (BenchmarkExactMean); the correctly rounded
// mean is one number, so both ways give the same bits.
func ExactMean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	var s ExactSum
	if unit, ok := fixedUnit(x); ok {
		return fixedMean(sumFixed(x, unit), math.Ldexp(1, unit), len(x), &s)
	}
	for _, v := range x {
		s.Add(v)
	}
	return s.Mean(len(x))
}

// fixedUnit returns the unit 2^unit in which every value of x is an integer
// whose sums over len(x) values fit 127 bits and the float64 range, and
// whether there is one: the values are finite, span at most about 120 bits,
// and stay far from the subnormal range, where scaling would round, and
// from the largest doubles, where ExactSum's partial sums overflow to ±Inf.
func fixedUnit(x []float64) (unit int, ok bool) {
	lsb, top, any := math.MaxInt, math.MinInt, false
	for _, v := range x {
		b := math.Float64bits(v)
		e := int(b>>52) & 0x7ff
		if e == 0x7ff { // ±Inf or NaN
			return 0, false
		}
		mant := b & (1<<52 - 1)
		if e == 0 {
			if mant == 0 {
				continue // ±0
			}
			e = 1 // subnormal: mant·2^(1−1075)
		} else {
			mant |= 1 << 52
		}
		// |v| = mant·2^(e−1075), mant < 2^53.
		lsb = min(lsb, e-1075+bits.TrailingZeros64(mant))
		top = max(top, e-1075+53)
		any = true
	}
	if !any {
		return 0, true
	}
	// |sum| < len(x)·2^top.
	n := bits.Len(uint(len(x)))
	if top-lsb+n > 125 || lsb < -960 || top+n > 1000 {
		return 0, false
	}
	return lsb, true
}

// sumFixed is the exact sum of x in units of 2^unit (fixedUnit): toFixed's
// conversion written into the loop, where a call per value costs half the
// time.
func sumFixed(x []float64, unit int) int128 {
	var s int128
	for _, v := range x {
		if v == 0 {
			continue
		}
		b := math.Float64bits(v)
		mant := b&(1<<52-1) | 1<<52
		// v = ±mant·2^(e−1075): a negative shift drops trailing zeros.
		shift := int(b>>52)&0x7ff - 1075 - unit
		var hi, lo uint64
		switch {
		case shift < 0:
			lo = mant >> uint(-shift)
		case shift < 64:
			lo = mant << uint(shift)
			if shift > 0 {
				hi = mant >> uint(64-shift)
			}
		default:
			hi = mant << uint(shift-64)
		}
		// Negated without a branch (the signs of draws around 0 are
		// unpredictable): with m all ones, (x ^ m) − m = −x in two's
		// complement, the borrow carrying into hi.
		m := uint64(int64(b) >> 63)
		lo, borrow := bits.Sub64(lo^m, m, 0)
		hi = hi ^ m - m - borrow
		var c uint64
		s.lo, c = bits.Add64(s.lo, lo, 0)
		s.hi += int64(hi + c)
	}
	return s
}

// toFixed is v (an integer multiple of 2^unit, fixedUnit) in units of
// 2^unit, exactly.
func toFixed(v float64, unit int) int128 {
	if v == 0 {
		return int128{}
	}
	b := math.Float64bits(v)
	e := int(b>>52) & 0x7ff
	mant := b&(1<<52-1) | 1<<52 // normal: fixedUnit leaves out subnormals (lsb < −960)
	// v = ±mant·2^(e−1075): a negative shift drops trailing zeros.
	shift := e - 1075 - unit
	var a int128
	switch {
	case shift < 0:
		a.lo = mant >> uint(-shift)
	case shift == 0:
		a.lo = mant
	case shift < 64:
		a.hi, a.lo = int64(mant>>uint(64-shift)), mant<<uint(shift)
	default:
		a.hi = int64(mant << uint(shift-64))
	}
	if b>>63 == 1 {
		a = int128{}.sub(a)
	}
	return a
}

// fixedMean is the mean of n values whose exact sum is s in units of

func fixedMean(s int128, scale float64, n int, t *ExactSum) float64 {
	hiU := s.float()
	rest := s.sub(int128FromIntegral(hiU))
	loU := rest.float()
	// Scaling by a power of two is exact here (no subnormals), so this is
	// ExactSum.Mean's computation on the same hi and lo.
	hi, lo := hiU*scale, loU*scale
	y, sure := fastMean(hi, lo, n)
	if sure {
		return y
	}
	// S = hi + lo + the rest, which has at most 127 − 106 bits: exact.
	t.Reset()
	t.Add(hi)
	t.Add(lo)
	t.Add(rest.sub(int128FromIntegral(loU)).float() * scale)
	return t.settle(y, n)
}

// IndexedMean computes means of values of a fixed sample chosen by index
// (bootstrap resamples), correctly rounded from their exact sums as
// ExactMean, and fast: when the sample's values span at
// most about 120 bits (scores do) it converts them once to 128-bit fixed
// point, in which a sum is exact integer addition, and rounds each sum once.
// Otherwise it falls back to ExactSum. One IndexedMean serves one
// goroutine.
type IndexedMean struct {
	x     []float64
	fixed []int128 // x in units of 2^unit, when they fit
	unit  int
	// scale is 2^unit: multiplying by it is exact here (no subnormals, no
	// overflow), and cheaper than math.Ldexp in the resampling loop.
	scale float64
	sum   ExactSum
}

// NewIndexedMean prepares means of resamples of x, whose values must be
// finite.
func NewIndexedMean(x []float64) *IndexedMean {
	m := &IndexedMean{x: x}
	unit, ok := fixedUnit(x)
	if !ok {
		return m
	}
	m.unit, m.scale = unit, math.Ldexp(1, unit)
	m.fixed = make([]int128, len(x))
	for i, v := range x {
		m.fixed[i] = toFixed(v, unit)
	}
	return m
}

// Mean returns the mean of x[idx[0]], x[idx[1]], … (len(idx) ≥ 1),
// correctly rounded from the exact sum.
func (m *IndexedMean) Mean(idx []uint32) float64 {
	if m.fixed == nil {
		m.sum.Reset()
		for _, i := range idx {
			m.sum.Add(m.x[i])
		}
		return m.sum.Mean(len(idx))
	}
	var s int128
	for _, i := range idx {
		s.add(m.fixed[i])
	}
	return fixedMean(s, m.scale, len(idx), &m.sum)
}

// int128 is a two's-complement 128-bit integer.
type int128 struct {
	hi int64
	lo uint64
}

func (a *int128) add(b int128) {
	var c uint64
	a.lo, c = bits.Add64(a.lo, b.lo, 0)
	a.hi += b.hi + int64(c)
}

func (a int128) sub(b int128) int128 {
	lo, c := bits.Sub64(a.lo, b.lo, 0)
	return int128{a.hi - b.hi - int64(c), lo}
}

// float returns a rounded to the nearest float64, ties to even.
func (a int128) float() float64 {
	neg := a.hi < 0
	hi, lo := uint64(a.hi), a.lo
	if neg {
		lo = ^lo + 1
		hi = ^hi
		if lo == 0 {
			hi++
		}
	}
	var f float64
	if hi == 0 {
		f = float64(lo)
	} else {
		// The top 64 bits, with every lower bit folded into bit 0 (a
		// sticky bit far below the 53 kept): float64 then rounds as the
		// full value would.
		s := uint(bits.LeadingZeros64(hi))
		top, rest := hi, lo
		if s > 0 {
			top = hi<<s | lo>>(64-s)
			rest = lo << s
		}
		if rest != 0 {
			top |= 1
		}
		// ·2^(64 − s), exactly: the exponent field moved (top ≥ 2^63
		// is normal, the result below 2^128); math.Ldexp costs more
		// than the rest of a bootstrap mean's rounding.
		f = math.Float64frombits(math.Float64bits(float64(top)) + uint64(64-s)<<52)
	}
	if neg {
		f = -f
	}
	return f
}

// int128FromIntegral converts an integer-valued float64 below 2^126 in
// magnitude exactly.
func int128FromIntegral(f float64) int128 {
	neg := f < 0
	f = math.Abs(f)
	var a int128
	if f < 1<<63 {
		a.lo = uint64(f)
	} else {
		// f = mant·2^shift with shift ≥ 11, from its bits (math.Frexp
		// costs more).
		b := math.Float64bits(f)
		mant := b&(1<<52-1) | 1<<52
		shift := uint(b>>52&0x7ff) - 1075
		if shift < 64 {
			a.hi, a.lo = int64(mant>>(64-shift)), mant<<shift
		} else {
			a.hi = int64(mant << (shift - 64))
		}
	}
	if neg {
		a = int128{}.sub(a)
	}
	return a
}
