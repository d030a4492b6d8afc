package trec

import (
	"bufio"
	"errors"
	"io"
)

// lineReader yields the lines of a stream without copying them (except the
// rare line longer than the buffer), so parsers never hold a file's text.
type lineReader struct {
	br   *bufio.Reader
	long []byte // assembles a line longer than the buffer
	n    int    // physical number of the line last returned (1-based)
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 1<<16)}
}

// next returns the next line without its '\n'. The slice is valid until the
// following call. It returns io.EOF after the last line; a final line without
// a newline is returned like any other.
func (lr *lineReader) next() ([]byte, error) {
	line, err := lr.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		lr.long = append(lr.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = lr.br.ReadSlice('\n')
			lr.long = append(lr.long, line...)
		}
		line = lr.long
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(line) == 0 {
		return nil, io.EOF
	}
	lr.n++
	if line[len(line)-1] == '\n' {
		line = line[:len(line)-1]
	}
	return line, nil
}

// fields splits line at C isspace runs into at most len(dst) fields and
// returns them with the total number of fields present.
func fields(line []byte, dst [][]byte) ([][]byte, int) {
	n := 0
	out := dst[:0]
	i := 0
	for {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i >= len(line) {
			return out, n
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if n < cap(dst) {
			out = append(out, line[i:j])
		}
		n++
		i = j
	}
}
