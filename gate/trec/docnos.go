package trec

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"math/bits"
)

// docnos keeps the docno of every line of a file, back to back, each after
// its length as a uvarint, so a line refers to its docno by one uint32
// offset. Docnos are not interned: interning a million distinct docnos
// costs a random access into a table far larger than the caches for every
// line, while a topic's docnos stored in file order are found again with
// the cache-sized per-topic table of docTable.
type docnos []byte

// add appends b and returns its offset; ok is false when the offsets would
// leave the uint32 range (4 GiB of docnos).
func (a *docnos) add(b []byte) (off uint32, ok bool) {
	n := len(*a)
	if uint64(n)+uint64(len(b))+binary.MaxVarintLen64 > math.MaxUint32 {
		return 0, false
	}
	*a = binary.AppendUvarint(*a, uint64(len(b)))
	*a = append(*a, b...)
	return uint32(n), true
}

// at returns the docno at off (aliasing the arena; do not modify).
func (a docnos) at(off uint32) []byte {
	n, i := uint64(a[off]), uint64(off)+1
	if n >= 0x80 {
		v, k := binary.Uvarint(a[off:])
		n, i = v, uint64(off)+uint64(k)
	}
	return a[i : i+n : i+n]
}

// docHashKey keys hashDocno, fresh in every process (a file cannot be
// made to collide on purpose).
var docHashKey = func() [2]uint64 {
	s := maphash.MakeSeed()
	return [2]uint64{maphash.String(s, "docno"), maphash.String(s, "key") | 1}
}()

// hashDocno hashes a docno for docTable, inline and faster than maphash for
// the short strings docnos are: wyhash's folded 64×64→128-bit multiply of
// the first and last eight bytes (overlapping; four and four, or three
// bytes, for shorter ones); a longer one is folded sixteen bytes at a time
// before its last sixteen.
func hashDocno(b []byte) uint64 {
	k0, k1 := docHashKey[0], docHashKey[1]
	h := k0 ^ uint64(len(b))*0x9E3779B97F4A7C15
	var x, y uint64
	switch n := len(b); {
	case n > 16:
		for i := 0; n-i > 16; i += 16 {
			h = mum(binary.LittleEndian.Uint64(b[i:])^k1, binary.LittleEndian.Uint64(b[i+8:])^h)
		}
		x, y = binary.LittleEndian.Uint64(b[n-16:]), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 8:
		x, y = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		x, y = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		x = uint64(b[0])<<16 | uint64(b[n>>1])<<8 | uint64(b[n-1])
	}
	return mum(x^k1, y^h)
}

// mum folds the 128-bit product of a and b to 64 bits.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// docTable matches one topic's ranking with its judgments by docno, as
// form_res_rels.c does by sorting both on docno: an open-addressing table
// (load ≤ 1/2) of the retrieved documents, then of the judged ones. A slot
// is 0 when empty, else the hash's high 32 bits << 32 | entry+1, where
// entry k < len(ranking) is rank k and entry len(ranking)+j is judgment j.
// It is sized for one topic, so it stays in the caches, and it is reused.
type docTable struct {
	slots []uint64
}

// reset empties the table and sizes it for n entries.
func (t *docTable) reset(n int) uint64 {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(t.slots) < size {
		t.slots = make([]uint64, size)
	} else {
		t.slots = t.slots[:size]
		clear(t.slots)
	}
	return uint64(size - 1)
}
