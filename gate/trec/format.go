package trec

import (
	"math"
	"strconv"
)

// AppendTopic appends tr in trec_eval's per-topic layout ("%-22s\t%s\t%6.4f",
// integer counts with "%ld", relstring quoted). runid, num_q, gm_map and
// gm_bpref have no per-topic line, as in trec_eval.
func AppendTopic(dst []byte, ms *Measures, tr *TopicResult) []byte {
	for _, m := range ms.list {
		switch m.fam.kind {
		case kindRunID, kindNumQ, kindGeoMean:
		case kindRelString:
			dst = appendName(dst, m.names[0], tr.Topic)
			dst = append(dst, '\'')
			dst = append(dst, tr.RelString...)
			dst = append(dst, '\'', '\n')
		case kindCount:
			dst = appendName(dst, m.names[0], tr.Topic)
			dst = strconv.AppendInt(dst, cLong(tr.Values[m.off]), 10)
			dst = append(dst, '\n')
		default:
			for i, name := range m.names {
				dst = appendName(dst, name, tr.Topic)
				dst = appendC6_4f(dst, tr.Values[m.off+i])
				dst = append(dst, '\n')
			}
		}
	}
	return dst
}

// AppendSummary appends the "all" lines of s in trec_eval's layout.
// relstring has no summary line.
func AppendSummary(dst []byte, ms *Measures, s *Summary) []byte {
	for _, m := range ms.list {
		switch m.fam.kind {
		case kindRunID:
			dst = appendName(dst, "runid", "all")
			dst = append(dst, s.RunID...)
			dst = append(dst, '\n')
		case kindRelString:
		case kindNumQ:
			dst = appendName(dst, "num_q", "all")
			dst = strconv.AppendInt(dst, cLong(s.Values[m.off]), 10)
			dst = append(dst, '\n')
		case kindCount:
			dst = appendName(dst, m.names[0], "all")
			dst = strconv.AppendInt(dst, cLong(s.Values[m.off]), 10)
			dst = append(dst, '\n')
		default:
			for i, name := range m.names {
				dst = appendName(dst, name, "all")
				dst = appendC6_4f(dst, s.Values[m.off+i])
				dst = append(dst, '\n')
			}
		}
	}
	return dst
}

// appendName appends "%-22s\t%s\t".
func appendName(dst []byte, name, topic string) []byte {
	dst = append(dst, name...)
	for i := len(name); i < 22; i++ {
		dst = append(dst, ' ')
	}
	dst = append(dst, '\t')
	dst = append(dst, topic...)
	return append(dst, '\t')
}

// appendC6_4f appends v as C's printf("%6.4f") does. glibc rounds the
// exact binary value to 4 decimals, ties to even, as strconv does (see
// appendC6_4fExact); the common value is done faster: for |v| < 10⁹,
// x = |v|·10⁴ is below 2⁵³ and within ulp(x)/2 of the exact product, so
// unless x is within ulp(x) of a tie, rounding x to an integer rounds the
// exact value the same way.
func appendC6_4f(dst []byte, v float64) []byte {
	a := math.Abs(v)
	if !(a < 1e9) { // NaN, infinities, large values
		return appendC6_4fExact(dst, v)
	}
	x := a * 1e4
	whole := math.Floor(x)
	frac := x - whole // exact
	if d := frac - 0.5; d <= x*0x1p-52 && d >= -x*0x1p-52 {
		return appendC6_4fExact(dst, v)
	}
	n := uint64(whole)
	if frac > 0.5 {
		n++
	}
	if math.Signbit(v) {
		dst = append(dst, '-')
	}
	dst = strconv.AppendUint(dst, n/10000, 10)
	f := n % 10000
	return append(dst, '.', byte('0'+f/1000), byte('0'+f/100%10), byte('0'+f/10%10), byte('0'+f%10))
}

// appendC6_4fExact is appendC6_4f by strconv, which rounds the exact binary
// value to 4 decimals (ties to even) as glibc does; NaN and infinities are
// spelled as glibc spells them.
func appendC6_4fExact(dst []byte, v float64) []byte {
	var buf [32]byte
	var s []byte
	switch {
	case math.IsNaN(v):
		if math.Signbit(v) {
			s = append(buf[:0], "-nan"...)
		} else {
			s = append(buf[:0], "nan"...)
		}
	case math.IsInf(v, 1):
		s = append(buf[:0], "inf"...)
	case math.IsInf(v, -1):
		s = append(buf[:0], "-inf"...)
	default:
		s = strconv.AppendFloat(buf[:0], v, 'f', 4, 64)
	}
	for i := len(s); i < 6; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, s...)
}

// cLong is C's (long) conversion of a double: truncation, saturating where
// x86 would give LONG_MIN.
func cLong(v float64) int64 {
	if math.IsNaN(v) || v >= math.MaxInt64 || v < math.MinInt64 {
		return math.MinInt64
	}
	return int64(v)
}
