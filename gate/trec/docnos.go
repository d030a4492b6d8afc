package trec

import (
	"encoding/binary"
	"hash/maphash"
	"math"
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

// docHashSeed hashes docnos everywhere, so one hash serves every table.
var docHashSeed = maphash.MakeSeed()

func hashDocno(b []byte) uint64 { return maphash.Bytes(docHashSeed, b) }

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
