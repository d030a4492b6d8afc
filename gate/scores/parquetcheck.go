package scores

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Parquet's metadata (the footer, each page's header) is Thrift's compact
// protocol, and parquet-go sizes what it allocates by the counts the bytes
// claim: a 40-byte footer can ask for a list of 2^31 row groups, a page
// header for a 2 GB page. Before the library decodes anything, the loader
// checks the bytes here: every count must fit in the bytes that follow
// (each element takes at least one byte), nesting is bounded, and each page
// of a column read must lie inside its column chunk, with sizes and value
// counts within what the chunk's metadata (already charged) says.

// maxThriftDepth bounds the nesting of metadata structures (Parquet's go 4 deep).
const maxThriftDepth = 32

// maxPageBytes bounds a page's decompressed size: writers cut pages at 1 MB
// (Spark, parquet-mr) to 8 MB; a larger claim is a broken file.
const maxPageBytes = 256 << 20

// thriftScan walks a Thrift compact-protocol struct without building it.
type thriftScan struct {
	b     []byte
	i     int
	items int // list, set and map elements and structs seen: what a decoder allocates
	// want, when not nil, receives the integer fields of the top struct
	// (path [id]) and of the structs in its fields (path [id, sub-id]).
	want func(path [2]int16, v int64)
}

var errThrift = errors.New("malformed Thrift metadata")

func (s *thriftScan) byte1() (byte, error) {
	if s.i >= len(s.b) {
		return 0, errThrift
	}
	s.i++
	return s.b[s.i-1], nil
}

func (s *thriftScan) varint() (uint64, error) {
	v, n := binary.Uvarint(s.b[s.i:])
	if n <= 0 {
		return 0, errThrift
	}
	s.i += n
	return v, nil
}

func (s *thriftScan) skipBytes(n uint64) error {
	if n > uint64(len(s.b)-s.i) {
		return errThrift
	}
	s.i += int(n)
	return nil
}

// count reads a count of elements each at least min bytes long.
func (s *thriftScan) count(n uint64, min int) (int, error) {
	if n > uint64(len(s.b)-s.i)/uint64(min) {
		return 0, errThrift
	}
	s.items += int(n)
	return int(n), nil
}

// structure scans a struct's fields up to its stop byte; path is where it is.
func (s *thriftScan) structure(depth int, path []int16) error {
	if depth > maxThriftDepth {
		return errThrift
	}
	s.items++
	var id int16
	for {
		h, err := s.byte1()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil
		}
		typ := h & 0x0f
		if delta := h >> 4; delta != 0 {
			id += int16(delta)
		} else {
			v, err := s.varint()
			if err != nil {
				return err
			}
			id = int16(int64(v>>1) ^ -int64(v&1))
		}
		here := append(path[:len(path):len(path)], id)
		if typ == 1 || typ == 2 { // a boolean field is its header
			continue
		}
		if err := s.value(typ, depth, here); err != nil {
			return err
		}
	}
}

// value scans one value of compact type typ (an element's, or a field's at path).
func (s *thriftScan) value(typ byte, depth int, path []int16) error {
	switch typ {
	case 1, 2, 3: // a boolean element, a byte
		return s.skipBytes(1)
	case 4, 5, 6: // i16, i32, i64: zigzag varints
		v, err := s.varint()
		if err == nil && s.want != nil && len(path) > 0 && len(path) <= 2 {
			var p [2]int16
			copy(p[:], path)
			s.want(p, int64(v>>1)^-int64(v&1))
		}
		return err
	case 7: // double
		return s.skipBytes(8)
	case 8: // binary
		n, err := s.varint()
		if err != nil {
			return err
		}
		return s.skipBytes(n)
	case 9, 10: // list, set
		h, err := s.byte1()
		if err != nil {
			return err
		}
		size := uint64(h >> 4)
		if size == 15 {
			if size, err = s.varint(); err != nil {
				return err
			}
		}
		n, err := s.count(size, 1)
		if err != nil {
			return err
		}
		for range n {
			if err := s.value(h&0x0f, depth+1, nil); err != nil {
				return err
			}
		}
		return nil
	case 11: // map
		size, err := s.varint()
		if err != nil || size == 0 {
			return err
		}
		kv, err := s.byte1()
		if err != nil {
			return err
		}
		n, err := s.count(size, 2)
		if err != nil {
			return err
		}
		for range n {
			if err := s.value(kv>>4, depth+1, nil); err != nil {
				return err
			}
			if err := s.value(kv&0x0f, depth+1, nil); err != nil {
				return err
			}
		}
		return nil
	case 12: // struct
		return s.structure(depth+1, path)
	case 13: // uuid
		return s.skipBytes(16)
	}
	return errThrift
}

// checkFooter checks a Parquet file's footer (its FileMetaData) and returns
// the structures and elements it holds, each a share of what decoding it
// allocates.
func checkFooter(data []byte) (items int, err error) {
	if len(data) < 12 || string(data[len(data)-4:]) != parquetMagic {
		return 0, errors.New("no PAR1 at its end: not a Parquet file, or a truncated one")
	}
	n := int64(binary.LittleEndian.Uint32(data[len(data)-8:]))
	if n > int64(len(data)-12) {
		return 0, fmt.Errorf("a footer of %d bytes in a file of %d", n, len(data))
	}
	s := &thriftScan{b: data[len(data)-8-int(n) : len(data)-8]}
	if err := s.structure(0, nil); err != nil {
		return 0, errors.New("its footer is malformed or truncated")
	}
	return s.items, nil
}

// PageHeader's fields (parquet.thrift): 2 uncompressed_page_size, 3
// compressed_page_size; num_values is field 1 of data_page_header (5) and
// of data_page_header_v2 (8), num_values of dictionary_page_header (7).
const (
	phUncompressed = 2
	phCompressed   = 3
	phDataV1       = 5
	phDictionary   = 7
	phDataV2       = 8
)

// checkChunk checks the pages of one column chunk, from start, of size
// bytes, holding values values: each header well formed, each page inside
// the chunk and at most maxPageBytes decompressed, and no data page
// claiming more values than the chunk holds. It returns the largest page
// decompressed.
func checkChunk(data []byte, start, size, values int64) (largest int64, err error) {
	end := start + size
	if start < 4 || size < 0 || end > int64(len(data)) || end < start {
		return 0, fmt.Errorf("a column chunk at bytes %d to %d of a file of %d", start, end, len(data))
	}
	for pos := start; pos < end; {
		var unc, comp, nv int64 = -1, -1, 0
		s := &thriftScan{b: data[pos:end], want: func(p [2]int16, v int64) {
			switch {
			case p == [2]int16{phUncompressed}:
				unc = v
			case p == [2]int16{phCompressed}:
				comp = v
			case p[1] == 1 && (p[0] == phDataV1 || p[0] == phDataV2 || p[0] == phDictionary):
				nv = v
			}
		}}
		if err := s.structure(0, nil); err != nil {
			return 0, fmt.Errorf("a malformed page header at byte %d", pos)
		}
		switch {
		case unc < 0 || comp < 0 || unc > maxPageBytes:
			return 0, fmt.Errorf("a page at byte %d of %d bytes (%d decompressed); expected at most %d MB", pos, comp, unc, maxPageBytes>>20)
		case nv < 0 || nv > values:
			return 0, fmt.Errorf("a page at byte %d of %d values in a column chunk of %d", pos, nv, values)
		}
		pos += int64(s.i)
		if comp > end-pos {
			return 0, fmt.Errorf("a page at byte %d ends past its column chunk", pos)
		}
		pos += comp
		largest = max(largest, unc)
	}
	return largest, nil
}
