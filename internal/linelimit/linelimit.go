// Package linelimit is the one bound on the length of a line of every text
// input riskgate reads — score files, TREC runs and qrels, in riskgate gate
// and riskgate eval alike — so that an input with no line ending (/dev/zero,
// a file of one 3 GB line) is refused after at most about Max bytes of it
// are held, never read whole into memory.
package linelimit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// Max is the longest line, in bytes without its line ending, that an input
// may have: no real score, run or qrels line comes near it (a run line is
// about 40 bytes; a wide CSV row of 10,000 systems about 200 kB).
const Max = 16 << 20

// Error is a line longer than Max.
type Error struct {
	Line int // its 1-based number in the file (0 when unknown)
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, Message)
	}
	return Message
}

// Message says what is wrong, as an input error's message after file:line
// (16 MB is Max: TestMessageNamesMax).
const Message = "line longer than 16 MB; expected one record per line"

// Reader fails a read once the current line (or, in records mode, the
// current record, which the caller marks) is longer than Max, so that a
// line of any length costs at most about Max bytes of memory before it is
// refused (a 70 MB name is refused after reading 16 MB of it). It is for
// parsers that read through their own buffer (encoding/csv keeps a whole
// record): the bound holds at the granularity of their reads, not exactly
// at Max. Its error is an *Error naming the line.
type Reader struct {
	r       io.Reader
	records bool  // newlines do not end a record; Mark does
	n       int64 // bytes delivered
	start   int64 // offset of the current line or record
	lines   int   // newlines delivered
}

// NewReader bounds the lines of r; with records, the records the caller
// marks (Mark), which may span lines (a CSV field with newlines).
func NewReader(r io.Reader, records bool) *Reader {
	return &Reader{r: r, records: records}
}

func (b *Reader) Read(p []byte) (int, error) {
	if b.n-b.start > Max {
		// Everything delivered since start has no newline (line mode), or
		// the record grew past the bound at the line being read: either
		// way the line after the last newline delivered.
		return 0, &Error{Line: b.lines + 1}
	}
	n, err := b.r.Read(p)
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
		b.lines += bytes.Count(p[:i+1], []byte{'\n'})
		if !b.records {
			b.start = b.n + int64(i+1)
		}
	}
	b.n += int64(n)
	return n, err
}

// Mark says that a record starts offset bytes into what was delivered.
func (b *Reader) Mark(offset int64) { b.start = offset }

// Stat passes the file's Stat through, for gate/trec's table sizing.
func (b *Reader) Stat() (fs.FileInfo, error) {
	if st, ok := b.r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		return st.Stat()
	}
	return nil, errors.New("not a file")
}
