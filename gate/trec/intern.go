package trec

import (
	"bytes"
	"hash/maphash"
	"math"
)

// interner maps byte strings (topic ids) to dense int32 ids without
// allocating per string: the bytes live in one arena and an open-addressing
// table holds the ids. It replaces map[string]int32, whose string keys would
// cost one allocation per distinct id.
type interner struct {
	seed  maphash.Seed
	arena []byte   // every interned string, back to back
	ends  []uint32 // ends[id] is the end offset of string id in arena
	// slots is an open-addressing table: 0 = empty, else h<<32 | id+1 where
	// h is the high 32 bits of the string's hash, which also picks the home
	// slot, so growing never rehashes strings.
	slots []uint64
	mask  uint64
}

// newInterner returns an interner sized for about n strings of about
// avgLen bytes.
func newInterner(n, avgLen int) *interner {
	size := 64
	for size*2 < 3*n { // load factor ≤ 2/3 before the first growth
		size *= 2
	}
	return &interner{
		seed:  maphash.MakeSeed(),
		slots: make([]uint64, size),
		mask:  uint64(size - 1),
		arena: make([]byte, 0, n*avgLen),
		ends:  make([]uint32, 0, n),
	}
}

func (in *interner) hash(b []byte) uint64 { return maphash.Bytes(in.seed, b) >> 32 }

// Len returns the number of distinct strings interned.
func (in *interner) Len() int { return len(in.ends) }

// bytes returns the string of id (aliasing the arena; do not modify).
func (in *interner) bytes(id int32) []byte {
	start := uint32(0)
	if id > 0 {
		start = in.ends[id-1]
	}
	return in.arena[start:in.ends[id]:in.ends[id]]
}

func (in *interner) str(id int32) string { return string(in.bytes(id)) }

// lookup returns the id of b, or -1.
func (in *interner) lookup(b []byte) int32 {
	tag := in.hash(b)
	for i := tag & in.mask; ; i = (i + 1) & in.mask {
		s := in.slots[i]
		if s == 0 {
			return -1
		}
		if s>>32 == tag {
			id := int32(uint32(s) - 1)
			if bytes.Equal(in.bytes(id), b) {
				return id
			}
		}
	}
}

// intern returns the id of b, adding it if new; ok is false only when the
// arena would outgrow its 4 GiB offset range.
func (in *interner) intern(b []byte) (id int32, added, ok bool) {
	tag := in.hash(b)
	i := tag & in.mask
	for ; ; i = (i + 1) & in.mask {
		s := in.slots[i]
		if s == 0 {
			break
		}
		if s>>32 == tag {
			id := int32(uint32(s) - 1)
			if bytes.Equal(in.bytes(id), b) {
				return id, false, true
			}
		}
	}
	if uint64(len(in.arena))+uint64(len(b)) > math.MaxUint32 || len(in.ends) >= math.MaxInt32-1 {
		return -1, false, false
	}
	id = int32(len(in.ends))
	in.arena = append(in.arena, b...)
	in.ends = append(in.ends, uint32(len(in.arena)))
	in.slots[i] = tag<<32 | uint64(id+1)
	if uint64(len(in.ends))*4 > 3*in.mask { // grow past load 3/4
		in.grow()
	}
	return id, true, true
}

func (in *interner) grow() {
	n := uint64(len(in.slots)) * 2
	slots := make([]uint64, n)
	mask := n - 1
	for _, s := range in.slots {
		if s == 0 {
			continue
		}
		i := (s >> 32) & mask
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = s
	}
	in.slots, in.mask = slots, mask
}
