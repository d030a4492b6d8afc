package posterior

import "math"

// sortWithIndex sorts keys (finite float64s) into sorted, writing into order
// the index each sorted value had in keys. It is an LSD radix sort on the
// order-preserving bit pattern of the floats, 11 bits per pass, skipping the
// passes in which every key has the same digit — several times faster than a
// comparison sort on the few thousand to tens of thousands of draws of one
// variable. −0 sorts just before +0; they compare equal, so ties are unaffected.
// buf holds the scratch space, grown as needed.
func sortWithIndex(keys, sorted []float64, order []int32, buf *radixBuf) {
	n := len(keys)
	buf.k0 = grow(buf.k0, n)
	buf.k1 = grow(buf.k1, n)
	buf.i0 = grow(buf.i0, n)
	buf.i1 = grow(buf.i1, n)
	k0, k1, i0, i1 := buf.k0, buf.k1, buf.i0, buf.i1
	const bits, passes = 11, 6
	var count [passes][1 << bits]int32
	for i, x := range keys {
		u := math.Float64bits(x)
		if u>>63 == 1 {
			u = ^u
		} else {
			u |= 1 << 63
		}
		k0[i] = u
		i0[i] = int32(i)
		for p := range passes {
			count[p][(u>>(p*bits))&(1<<bits-1)]++
		}
	}
	for p := range passes {
		c := &count[p]
		if c[(k0[0]>>(p*bits))&(1<<bits-1)] == int32(n) {
			continue // every key has this digit
		}
		sum := int32(0)
		for d := range c {
			c[d], sum = sum, sum+c[d]
		}
		shift := p * bits
		for i, u := range k0 {
			d := (u >> shift) & (1<<bits - 1)
			pos := c[d]
			c[d]++
			k1[pos] = u
			i1[pos] = i0[i]
		}
		k0, k1 = k1, k0
		i0, i1 = i1, i0
	}
	for i, u := range k0 {
		if u>>63 == 1 {
			u &^= 1 << 63
		} else {
			u = ^u
		}
		sorted[i] = math.Float64frombits(u)
	}
	copy(order, i0)
}

// radixBuf is sortWithIndex's scratch space.
type radixBuf struct {
	k0, k1 []uint64
	i0, i1 []int32
}
