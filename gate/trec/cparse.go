package trec

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strconv"
)

// isSpace is C's isspace in the "C" locale: the only field separators that
// trec_eval knows. Bytes ≥ 0x80 are never space.
func isSpace(c byte) bool { return spaceTable[c] }

var spaceTable = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || ('a' <= c|0x20 && c|0x20 <= 'f')
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// atof converts the longest prefix of b that C's strtod accepts, as trec_eval
// reads run scores with atof (get_trec_results.c): "5abc" is 5, "abc" is 0,
// "0x10" is 16, "inf" is +Inf, ".25e1" is 2.5. The result is the correctly
// rounded double, as glibc's strtod gives.
func atof(b []byte) float64 {
	if f, ok := atofPlain(b); ok {
		return f
	}
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	start := i
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	rest := b[i:]
	switch {
	case hasPrefixFold(rest, "inf"):
		if neg {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case hasPrefixFold(rest, "nan"):
		if neg {
			return math.Copysign(math.NaN(), -1)
		}
		return math.NaN()
	case len(rest) > 2 && rest[0] == '0' && rest[1]|0x20 == 'x' &&
		(isHexDigit(rest[2]) || (rest[2] == '.' && len(rest) > 3 && isHexDigit(rest[3]))):
		return hexFloat(b[start:i], rest)
	}
	// Decimal: digits [. digits] [e [sign] digits], at least one digit.
	j := i
	var mant uint64
	nd, exp10 := 0, 0 // significant digits folded into mant; decimal exponent adjustment
	exact := true
	digits := 0
	for ; j < len(b) && isDigit(b[j]); j++ {
		digits++
		if nd < 19 {
			mant = mant*10 + uint64(b[j]-'0')
			if mant != 0 {
				nd++
			}
		} else {
			exact = false
		}
	}
	if j < len(b) && b[j] == '.' {
		j++
		for ; j < len(b) && isDigit(b[j]); j++ {
			digits++
			if nd < 19 {
				mant = mant*10 + uint64(b[j]-'0')
				if mant != 0 {
					nd++
				}
				exp10--
			} else {
				exact = false
			}
		}
	}
	if digits == 0 {
		return 0
	}
	end := j
	if j < len(b) && b[j]|0x20 == 'e' {
		k := j + 1
		eneg := false
		if k < len(b) && (b[k] == '+' || b[k] == '-') {
			eneg = b[k] == '-'
			k++
		}
		if k < len(b) && isDigit(b[k]) {
			e := 0
			for ; k < len(b) && isDigit(b[k]); k++ {
				if e < 100000 {
					e = e*10 + int(b[k]-'0')
				}
			}
			if eneg {
				e = -e
			}
			exp10 += e
			end = k
		}
	}
	// Clinger's fast path: an exact integer mantissa below 2^53 scaled by an
	// exact power of ten is correctly rounded by one IEEE operation.
	if exact && mant < 1<<53 && exp10 >= -22 && exp10 <= 22 {
		f := float64(mant)
		if exp10 < 0 {
			f /= pow10[-exp10]
		} else {
			f *= pow10[exp10]
		}
		if neg {
			f = -f
		}
		return f
	}
	f, _ := strconv.ParseFloat(string(b[start:end]), 64) // ErrRange gives ±Inf or 0, as strtod
	return f
}

// hexFloat parses C's hexadecimal floating form ("0x1.8p3"; the binary
// exponent is optional in C but required by strconv).
func hexFloat(sign, rest []byte) float64 {
	j := 2
	for j < len(rest) && isHexDigit(rest[j]) {
		j++
	}
	if j < len(rest) && rest[j] == '.' {
		j++
		for j < len(rest) && isHexDigit(rest[j]) {
			j++
		}
	}
	end := j
	if j < len(rest) && rest[j]|0x20 == 'p' {
		k := j + 1
		if k < len(rest) && (rest[k] == '+' || rest[k] == '-') {
			k++
		}
		if k < len(rest) && isDigit(rest[k]) {
			for k < len(rest) && isDigit(rest[k]) {
				k++
			}
			end = k
		}
	}
	s := string(sign) + string(rest[:end])
	if end == j {
		s += "p0"
	}
	f, _ := strconv.ParseFloat(s, 64)
	return f
}

func hasPrefixFold(b []byte, p string) bool {
	if len(b) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if b[i]|0x20 != p[i] {
			return false
		}
	}
	return true
}

// atol converts the longest integer prefix of s as C's atol (strtol base 10)
// does, saturating on overflow: "1.9" is 1, "2abc" is 2, "abc" is 0.
func atol(s []byte) int64 {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var v uint64
	over := false
	for ; i < len(s) && isDigit(s[i]); i++ {
		if v > (math.MaxUint64-9)/10 {
			over = true
			continue
		}
		v = v*10 + uint64(s[i]-'0')
	}
	switch {
	case neg && (over || v > 1<<63):
		return math.MinInt64
	case neg:
		return -int64(v)
	case over || v > math.MaxInt64:
		return math.MaxInt64
	}
	return int64(v)
}

// atofPlain converts the usual run score, all of b: an optional '-', digits,
// and optionally '.' and digits, with at most 18 digits in all ("35.00",
// "-7.251"). The digits make an exact integer below 2⁵³ and the fraction
// an exact power of ten, so one division rounds correctly, as atof's
// Clinger path. ok is false for anything else.
func atofPlain(b []byte) (f float64, ok bool) {
	neg := len(b) > 0 && b[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	if len(b)-i > 19 || i == len(b) || !isDigit(b[i]) {
		return 0, false
	}
	var mant uint64
	for ; i < len(b) && isDigit(b[i]); i++ {
		mant = mant*10 + uint64(b[i]-'0')
	}
	frac := 0
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		for ; i < len(b) && isDigit(b[i]); i++ {
			mant = mant*10 + uint64(b[i]-'0')
		}
		frac = i - j
	}
	if i != len(b) || mant >= 1<<53 {
		return 0, false
	}
	f = float64(mant) / pow10[frac]
	if neg {
		f = -f
	}
	return f, true
}

// fieldEnd returns the end of the field of text that starts at i: the
// index of the first C isspace byte at or after i, or len(text). It tests
// eight bytes at a time for a byte ≤ ' ' (every space is; bytes ≥ 0x80 are
// not): for x = 8 bytes, (x − 0x21…21) &^ x & 0x80…80 has its lowest set
// bit in the first byte below 0x21 (later bytes may be flagged by the
// borrow, never earlier ones).
func fieldEnd(text []byte, i int) int {
	for i+8 <= len(text) {
		x := binary.LittleEndian.Uint64(text[i:])
		m := (x - 0x2121212121212121) &^ x & 0x8080808080808080
		if m == 0 {
			i += 8
			continue
		}
		i += bits.TrailingZeros64(m) >> 3
		if spaceTable[text[i]] {
			return i
		}
		i++ // a control byte that is not space: part of the field
	}
	for i < len(text) && !spaceTable[text[i]] {
		i++
	}
	return i
}
