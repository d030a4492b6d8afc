package trec

import (
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestGlibcMath: cLog, cLog2 (from the discounts' table for integers, and
// computed) and cExp return the correctly rounded values
// (exact arithmetic with math/big, 300 bits; tolerance: none) on the 6,400
// arguments of testdata/glibc_math — integers and fractions like those the
// measures take, and random ones — and so glibc's, except where glibc
// itself, whose error bound is 0.502 ulp, rounds the other way: each such
// case must lie within 0.002 ulp of a tie. Go's math.Log, Log2 and Exp
// differ from glibc in the last bit on some (counted: the test must be able
// to fail).
func TestGlibcMath(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/glibc_math/glibc_math.txt")
	if err != nil {
		t.Fatal(err)
	}
	fns := map[string]struct {
		ours, gos func(float64) float64
		exact     func(*big.Float) *big.Float
	}{
		"log":  {cLog, math.Log, bigLog},
		"log2": {cLog2, math.Log2, func(x *big.Float) *big.Float { return new(big.Float).SetPrec(bigPrec).Quo(bigLog(x), bigLn2()) }},
		"exp":  {cExp, math.Exp, bigExp},
	}
	discount(5000) // cLog2 of an integer up to 5,001 comes from the discounts' table
	goDiffers, glibcOff, n := 0, 0, 0
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("line %d: %q", i+1, line)
		}
		x, err1 := strconv.ParseFloat(f[1], 64)
		glibc, err2 := strconv.ParseFloat(f[2], 64)
		fn, ok := fns[f[0]]
		if err1 != nil || err2 != nil || !ok {
			t.Fatalf("line %d: %q", i+1, line)
		}
		n++
		exact := fn.exact(new(big.Float).SetPrec(bigPrec).SetFloat64(x))
		want, _ := exact.Float64() // rounds to nearest even
		if got := fn.ours(x); got != want {
			t.Errorf("%s(%x) = %x, correctly rounded %x (glibc %x)", f[0], x, got, want, glibc)
		}
		if got := log2Rounded(x); f[0] == "log2" && got != want { // cLog2 without the table
			t.Errorf("log2Rounded(%x) = %x, correctly rounded %x (glibc %x)", x, got, want, glibc)
		}
		if glibc != want {
			glibcOff++
			if d := tieDistance(exact, want, glibc); d > 0.002 {
				t.Errorf("%s(%x): glibc %x is %.3g ulp from the tie, not a hard case", f[0], x, glibc, d)
			}
		}
		if fn.gos(x) != glibc {
			goDiffers++
		}
	}
	t.Logf("%d values; glibc not correctly rounded on %d (all within 0.002 ulp of a tie); Go's math package differs from glibc on %d", n, glibcOff, goDiffers)
	if goDiffers == 0 {
		t.Error("Go's math package agrees with glibc everywhere: the test would not see a regression")
	}
	if got := cLog(-1); !math.IsNaN(got) || !math.Signbit(got) {
		t.Errorf("cLog(-1) = %v, want -nan", got)
	}
	if cLog(0) != math.Inf(-1) || cLog2(0) != math.Inf(-1) || cLog2(1024) != 10 || cExp(0) != 1 || cExp(800) != math.Inf(1) {
		t.Error("special values")
	}
	for i := range 5000 {
		if discount(i) != log2Rounded(float64(i+2)) {
			t.Fatalf("discount(%d) = %v", i, discount(i))
		}
	}
}

const bigPrec = 300

// tieDistance is the distance, in ulps of the result, between the exact
// value and the midpoint of the two doubles a and b.
func tieDistance(exact *big.Float, a, b float64) float64 {
	mid := new(big.Float).SetPrec(bigPrec).SetFloat64(a)
	mid.Add(mid, new(big.Float).SetFloat64(b))
	mid.Quo(mid, big.NewFloat(2))
	d, _ := new(big.Float).Sub(exact, mid).Float64()
	return math.Abs(d) / math.Abs(a-b)
}

// bigAtanhSeries returns 2·atanh(z) = 2·Σ z^(2k+1)/(2k+1) for |z| ≤ 1/3.
func bigAtanhSeries(z *big.Float) *big.Float {
	sum := new(big.Float).SetPrec(bigPrec)
	z2 := new(big.Float).SetPrec(bigPrec).Mul(z, z)
	pow := new(big.Float).SetPrec(bigPrec).Set(z)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -bigPrec)
	for k := 0; ; k++ {
		term := new(big.Float).SetPrec(bigPrec).Quo(pow, big.NewFloat(float64(2*k+1)))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
		pow.Mul(pow, z2)
	}
	return sum.Mul(sum, big.NewFloat(2))
}

// bigLn2 is ln 2 = 2·atanh(1/3), summed once: every bigLog needs it, and
// the series was most of TestGlibcMath's time. Callers only read it.
var bigLn2 = sync.OnceValue(func() *big.Float {
	third := new(big.Float).SetPrec(bigPrec).Quo(big.NewFloat(1), big.NewFloat(3))
	return bigAtanhSeries(third)
})

// bigLog is ln x for x > 0: x = m·2^e with m ∈ [1/√2, √2), ln x = e·ln 2 +
// 2·atanh((m − 1)/(m + 1)).
func bigLog(x *big.Float) *big.Float {
	m := new(big.Float).SetPrec(bigPrec)
	e := x.MantExp(m) // m ∈ [0.5, 1)
	if m.Cmp(big.NewFloat(0.70710678118654752)) < 0 {
		m.Mul(m, big.NewFloat(2))
		e--
	}
	num := new(big.Float).SetPrec(bigPrec).Sub(m, big.NewFloat(1))
	den := new(big.Float).SetPrec(bigPrec).Add(m, big.NewFloat(1))
	r := bigAtanhSeries(num.Quo(num, den))
	return r.Add(r, new(big.Float).SetPrec(bigPrec).Mul(bigLn2(), big.NewFloat(float64(e))))
}

// bigExp is e^x: e^(x/2^20) by its Taylor series, squared 20 times.
func bigExp(x *big.Float) *big.Float {
	r := new(big.Float).SetPrec(bigPrec).SetMantExp(x, -20)
	sum := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	term := new(big.Float).SetPrec(bigPrec).SetInt64(1)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -bigPrec-30)
	for k := 1; ; k++ {
		term.Mul(term, r)
		term.Quo(term, big.NewFloat(float64(k)))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for range 20 {
		sum.Mul(sum, sum)
	}
	return sum
}

// TestDoubleDoubleConstants: ln 2 and 1/ln 2 as double-doubles, against 40
// digits (ln 2 = 0.6931471805599453094172321214581765680755…).
func TestDoubleDoubleConstants(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v      dd
		digits string
	}{
		{ln2DD, "0.6931471805599453094172321214581765680755"},
		{log2eDD, "1.4426950408889634073599246810018921374266"},
	} {
		want, _, err := big.ParseFloat(c.digits, 10, 200, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		got := new(big.Float).SetPrec(200).SetFloat64(c.v.hi)
		got.Add(got, new(big.Float).SetFloat64(c.v.lo))
		diff := new(big.Float).Sub(got, want)
		if d, _ := diff.Float64(); math.Abs(d) > 0x1p-106 {
			t.Errorf("%v + %v is off by %g", c.v.hi, c.v.lo, d)
		}
	}
}
