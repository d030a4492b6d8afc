package trec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// Reading a run file: the text is read in chunks of whole lines, each
// parsed straight into a runPart, and then dropped. A large file is cut
// into parts read in parallel, one per core (readRunParts); joinParts
// makes the run of the parts without copying them, except for the topics
// that are in more than one stretch of the file.

// runChunkSize is how many bytes of a run file are read at a time (the
// differential test makes it small to cut files everywhere).
var runChunkSize = 1 << 20

// runPartMin is the smallest stretch of a run file worth a parser of its
// own (the differential test makes it small to cut files everywhere).
var runPartMin int64 = 4 << 20

// reading is how a file is read: chunkSize bytes at a time, and no line
// longer than maxLine bytes (the tests make both small).
type reading struct {
	chunkSize, maxLine int
}

// fileReading is how files are read: 1 MiB at a time, no line longer than
// linelimit.Max, the bound every riskgate input shares.
func fileReading() reading { return reading{runChunkSize, linelimit.Max} }

// errLineTooLong is a line longer than reading.maxLine; the reader that
// meets it knows its number.
var errLineTooLong = errors.New("line too long")

// maxPresized bounds the lines a table is sized for from a file's size
// before any line is read (about 230 MB of a run's tables): a file of one
// enormous line, or of blank lines, must not cost its size in memory.
const maxPresized = 1 << 23

// runPart is what a stretch of whole lines of a run file holds, its line
// numbers counted from its first line.
type runPart struct {
	seg       segment
	topics    *interner
	stretches []stretch // the runs of consecutive lines of one topic, in file order
	firstLine []int     // per topic
	lines     int       // physical lines read
	data      int       // data lines
	runID     []byte    // of the last data line
	runIDLine int       // the last data line
	// The stretch being read: its topic and where it starts in seg.all.
	topic   int32
	topicID []byte
	from    int
	err     error // the first bad line, or the error reading the file
	presize int   // lines to size the tables for before the first line; 0 once sized
}

// newRunPart starts a part of about size bytes (0: unknown). Its tables
// are sized for size/30 lines when its first whole line has been read, so
// that a file of one endless line costs no more than its line buffer.
func newRunPart(size int64) *runPart {
	p := &runPart{topics: newInterner(64, 8), topic: -1, presize: 1 << 12}
	if size > 0 {
		p.presize = int(min(size/30+16, maxPresized))
	}
	return p
}

// sizeTables sizes the part's tables for p.presize lines, once.
func (p *runPart) sizeTables() {
	// Docnos take 20–40% of a run line: MS MARCO's 8 bytes of 40, robust03's 14.
	p.seg.all, p.seg.docnos = make([]retrieved, 0, p.presize), make(docnos, 0, p.presize*12)
	p.presize = 0
}

// read parses r to its end, as rd says, or to its first bad line.
func (p *runPart) read(r io.Reader, rd reading) {
	p.err = readChunks(r, rd, p.parse)
	if errors.Is(p.err, errLineTooLong) {
		p.err = inputerr.At("", p.lines+1, "%s", linelimit.Message)
	}
	p.endStretch()
}

// readChunks passes the text of r to parse in chunks of whole lines of
// about rd.chunkSize bytes (a final line without '\n' included), reusing
// one buffer, until the end of r or parse's first error. A read error comes
// after parse has seen the whole lines read before it. A line longer than
// rd.maxLine (without its '\n') is errLineTooLong, after parse has seen the
// lines before it, once at most about twice rd.maxLine bytes are held.
func readChunks(r io.Reader, rd reading, parse func(text []byte) error) error {
	chunkSize := rd.chunkSize
	var carry []byte // the start of a line the last chunk cut
	buf := make([]byte, 0, chunkSize)
	for {
		buf = append(buf[:0], carry...)
		if cap(buf) < chunkSize {
			buf = append(make([]byte, 0, chunkSize), buf...)
		}
		var text []byte
		var readErr error
		last := false
		for text == nil {
			n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			switch {
			case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
				text, last = buf, true
			case err != nil:
				text, last, readErr = buf[:0], true, err
				if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
					text = buf[:i+1] // the whole lines read before the error
				}
			default:
				if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
					text, carry = buf[:i+1], append(carry[:0], buf[i+1:]...)
				} else if len(buf) > rd.maxLine {
					return errLineTooLong // buf is one line, its start carried over
				} else {
					buf = append(buf, 0)[:len(buf)] // a line longer than the buffer: grow
				}
			}
		}
		if long := longLine(text, rd.maxLine); long >= 0 {
			if err := parse(text[:long]); err != nil {
				return err
			}
			return errLineTooLong
		}
		if err := parse(text); err != nil {
			return err // before any read error: it is on an earlier line
		}
		if last {
			return readErr
		}
	}
}

// longLine returns the offset in text of the first line longer than
// maxLine bytes (without its '\n'), or -1. Only a text longer than maxLine
// (read after a long line grew the buffer) can hold one, so the usual
// chunk costs a comparison.
func longLine(text []byte, maxLine int) int {
	if len(text) <= maxLine {
		return -1
	}
	for start := 0; start < len(text); {
		n := bytes.IndexByte(text[start:], '\n')
		if n < 0 {
			n = len(text) - start
		}
		if n > maxLine {
			return start
		}
		start += n + 1
	}
	return -1
}

// parse reads whole lines. It keeps the part's slices in locals while it
// appends to them: a store of a slice into the heap costs a write barrier
// while the garbage collector runs.
func (p *runPart) parse(text []byte) error {
	if p.presize > 0 {
		p.sizeTables()
	}
	all, docs, lines, data := p.seg.all, p.seg.docnos, p.lines, p.data
	runID, runIDLine := -1, 0 // where the last data line's run_id starts in text, and its line
	var err error
	var start, end [6]int
	for pos := 0; pos < len(text); {
		lines++
		// The first six fields, split at C isspace runs, in the line that
		// starts at pos; the sixth is only found (its end matters for the
		// last data line alone). Bytes above ' ' are never space.
		n, i := 0, pos
		for {
			for i < len(text) && text[i] <= ' ' && text[i] != '\n' && spaceTable[text[i]] {
				i++
			}
			if i == len(text) || text[i] == '\n' {
				break
			}
			start[n] = i
			n++
			if n == 6 {
				break
			}
			i = fieldEnd(text, i)
			end[n-1] = i
		}
		if k := bytes.IndexByte(text[i:], '\n'); k >= 0 {
			pos = i + k + 1
		} else {
			pos = len(text)
		}
		if n == 0 || text[start[0]] == '#' {
			continue
		}
		if n < 6 {
			err = inputerr.At("", lines, "%d fields; expected at least 6: topic iteration docno rank score run_id", n)
			break
		}
		// Lines come grouped by topic: a new stretch when the topic changes.
		if topic := text[start[0]:end[0]]; p.topic < 0 || !bytes.Equal(topic, p.topicID) {
			p.seg.all = all
			p.endStretch()
			ti, added, ok := p.topics.intern(topic)
			if !ok {
				err = inputerr.At("", lines, "too many topics")
				break
			}
			if added {
				p.firstLine = append(p.firstLine, lines)
			}
			p.topic, p.topicID, p.from = ti, append(p.topicID[:0], topic...), len(all)
		}
		doc, ok := docs.add(text[start[2]:end[2]])
		if !ok {
			err = inputerr.At("", lines, "too many docnos (more than 4 GiB)")
			break
		}
		all = append(all, retrieved{score: atof(text[start[4]:end[4]]), doc: doc, line: uint32(min(lines, math.MaxUint32))})
		data++
		runID, runIDLine = start[5], lines
	}
	p.seg.all, p.seg.docnos, p.lines, p.data = all, docs, lines, data
	if runID >= 0 {
		p.runID = append(p.runID[:0], text[runID:fieldEnd(text, runID)]...) // the text is reused
		p.runIDLine = runIDLine
	}
	return err
}

// stretch is seg.all[lo:hi], lines of one topic.
type stretch struct {
	topic  int32
	lo, hi int
}

// endStretch records the stretch of documents of the current topic.
func (p *runPart) endStretch() {
	if p.topic < 0 || p.from == len(p.seg.all) {
		return
	}
	p.stretches = append(p.stretches, stretch{p.topic, p.from, len(p.seg.all)})
	p.from = len(p.seg.all)
}

// readRunParts reads the run file f of size bytes with parts parallel
// parsers: each reads a stretch of whole lines of about size/parts bytes,
// and joinParts joins them in file order, so the run is the one ReadRun
// reads. After an error in a part, the parts after it may still read f
// once, and stop.
func readRunParts(f io.ReaderAt, size int64, name string, parts int, rd reading) (*Run, error) {
	bounds := make([]int64, parts+1)
	bounds[parts] = size
	for k := 1; k < parts; k++ {
		bounds[k] = lineStart(f, size, max(size*int64(k)/int64(parts), bounds[k-1]), rd.maxLine)
	}
	ps := make([]*runPart, parts)
	done := make([]chan struct{}, parts)
	read := func(k int) {
		defer close(done[k])
		ps[k].read(io.NewSectionReader(f, bounds[k], bounds[k+1]-bounds[k]), rd)
	}
	for k := range parts {
		ps[k], done[k] = newRunPart(bounds[k+1]-bounds[k]), make(chan struct{})
		if k > 0 {
			go read(k)
		}
	}
	read(0)
	for k := range parts {
		<-done[k]
		if ps[k].err != nil {
			break // joinParts reports it; the later parts do not matter
		}
	}
	return joinParts(name, ps)
}

// lineStart returns the offset of the first line of f that starts at or
// after off: size when there is none, or when f cannot be read there (the
// part before then meets the error where it is in the file). It looks at
// most maxLine + 1 bytes ahead: past them the line through off is too long,
// and the part before, which ends there, says so.
func lineStart(f io.ReaderAt, size, off int64, maxLine int) int64 {
	if off == 0 {
		return 0
	}
	end := min(size, off+int64(maxLine)) // the line through off-1 is longer than maxLine past it
	var buf [4096]byte
	for pos := off - 1; pos < end; pos += int64(len(buf)) {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), end-pos)], pos)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return pos + int64(i) + 1
		}
		if err != nil {
			return size
		}
	}
	return end
}

// joinParts makes the run of the parts of a file, in file order: the
// first error of a part (its line made the file's), else the run. Each
// part's documents stay where they are; the topics in more than one
// stretch of the file are copied into one more segment, each topic's
// stretches in file order; then every topic is ranked (sortRanking).
func joinParts(name string, parts []*runPart) (*Run, error) {
	run := &Run{Name: name, topics: newInterner(64, 8)}
	global := make([][]int32, len(parts)) // each part's topics in the run
	var pieces, docs []int                // per topic: its stretches, its documents
	base := 0                             // the lines before part k
	for k, p := range parts {
		if p.err != nil {
			var ie *inputerr.Error
			if errors.As(p.err, &ie) {
				return nil, inputerr.At(name, base+ie.Line, "%s", ie.Msg)
			}
			return nil, fmt.Errorf("%s: %w", name, p.err)
		}
		run.segs = append(run.segs, segment{all: p.seg.all, docnos: p.seg.docnos, lineBase: base})
		global[k] = make([]int32, p.topics.Len())
		for t := range global[k] {
			first := base + p.firstLine[t]
			ti, added, ok := run.topics.intern(p.topics.bytes(int32(t)))
			if !ok {
				return nil, inputerr.At(name, first, "too many topics")
			}
			if added {
				run.firstLine = append(run.firstLine, first)
				run.bounds = append(run.bounds, docSpan{})
				pieces, docs = append(pieces, 0), append(docs, 0)
			}
			global[k][t] = ti
		}
		for _, s := range p.stretches {
			ti := global[k][s.topic]
			pieces[ti]++
			docs[ti] += s.hi - s.lo
			run.bounds[ti] = docSpan{k, s.lo, s.hi}
		}
		if p.data > 0 {
			run.RunID, run.RunIDLine = string(p.runID), base+p.runIDLine
		}
		base += p.lines
		run.Lines += p.data
	}
	if run.Lines == 0 {
		if base == 0 {
			return nil, inputerr.At(name, 0, "empty run file; expected lines: topic iteration docno rank score run_id")
		}
		return nil, inputerr.At(name, base, "no run lines, only blank or comment lines; expected: topic iteration docno rank score run_id")
	}
	// The topics in several stretches: a range of the joined segment each,
	// filled in file order.
	var joined segment
	var next []int // per topic, where its next document goes
	for ti, n := range pieces {
		if n > 1 {
			if len(next) == 0 {
				next = make([]int, len(pieces))
			}
			next[ti] = len(joined.all)
			run.bounds[ti] = docSpan{len(parts), len(joined.all), len(joined.all) + docs[ti]}
			joined.all = append(joined.all, make([]retrieved, docs[ti])...)
		}
	}
	for k, p := range parts {
		from := &run.segs[k]
		for _, s := range p.stretches {
			ti := global[k][s.topic]
			if pieces[ti] < 2 {
				continue
			}
			for _, d := range from.all[s.lo:s.hi] {
				doc, ok := joined.docnos.add(from.docnos.at(d.doc))
				if !ok {
					return nil, inputerr.At(name, from.line(d), "too many docnos (more than 4 GiB)")
				}
				joined.all[next[ti]] = retrieved{score: d.score, doc: doc, line: uint32(min(from.line(d), math.MaxUint32))}
				next[ti]++
			}
		}
	}
	if len(joined.all) > 0 {
		run.segs = append(run.segs, joined)
	}
	for t := range run.bounds {
		sortRanking(run.ranked(int32(t)))
	}
	return run, nil
}
