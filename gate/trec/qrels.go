package trec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// Qrels are relevance judgments: for each topic, documents with a relevance
// level. A level ≥ 0 is a judgment (relevant when ≥ the -l level); a negative
// level means "in the pool but not judged" (trec_eval's RELVALUE_UNJUDGED).
type Qrels struct {
	Name   string       // file name, for messages
	docnos docnos       // every judgment's docno
	topics []qrelsTopic // in strcmp order of the topic id, as trec_eval evaluates them
	// numPositive counts judgments with level > 0 over the whole file, which
	// is what trec_eval -c prints as the summary num_rel whatever -l is
	// (m_num_rel.c: te_calc_avg_num_rel).
	numPositive int64
}

type qrelsTopic struct {
	id     string
	judged []judgment
	// levels counts the judgments of each level ≥ 0, in increasing level
	// order, levels with no judgment left out (form_res_rels.c: rel_levels).
	levels []levelCount
}

type judgment struct {
	doc  uint32 // offset in Qrels.docnos
	rel  int32  // level, saturated to the int32 range
	line uint32
}

type levelCount struct {
	level int64
	count int64
}

// Topics returns the topic ids in evaluation (strcmp) order.
func (q *Qrels) Topics() []string {
	ids := make([]string, len(q.topics))
	for i, t := range q.topics {
		ids[i] = t.id
	}
	return ids
}

// NumJudgments returns the number of judgment lines read.
func (q *Qrels) NumJudgments() int {
	n := 0
	for _, t := range q.topics {
		n += len(t.judged)
	}
	return n
}

// ReadQrelsFile reads a qrels file.
func ReadQrelsFile(path string) (*Qrels, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadQrels(f, path)
}

// ReadQrels parses qrels lines "topic iteration docno level" as trec_eval v10
// does (get_qrels.c): exactly four fields separated by white space (iteration
// ignored; CR, tabs and leading or trailing blanks are fine), the level read
// with atol ("1.9" is 1). A line with '#' in its first column is a comment,
// but, as in trec_eval, the line right after a comment is always read as
// data, so "#" becomes a topic id when two comment lines in a row have four
// fields. A blank line or any other field count is an error, as is an empty
// file. name labels errors.
func ReadQrels(r io.Reader, name string) (*Qrels, error) {
	return readQrels(r, name, fileReading())
}

// readQrels is ReadQrels reading as rd says.
func readQrels(r io.Reader, name string, rd reading) (*Qrels, error) {
	p := &qrelsParser{name: name, topicIdx: newInterner(64, 8), lastTopic: -1, presize: expectedLines(r, 20)}
	if err := readChunks(r, rd, p.parse); err != nil {
		if errors.Is(err, errLineTooLong) {
			return nil, inputerr.At(name, p.lines+1, "%s", linelimit.Message)
		}
		var ie *inputerr.Error
		if errors.As(err, &ie) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	topics, all := p.topics, p.all
	if len(topics) == 0 {
		if p.lines == 0 {
			return nil, inputerr.At(name, 0, "empty qrels file; expected lines: topic iteration docno relevance")
		}
		return nil, inputerr.At(name, p.lines, "no judgments; expected lines: topic iteration docno relevance")
	}
	for ti, sp := range p.spans {
		if len(sp) == 1 { // the usual file grouped by topic: no copy
			topics[ti].judged = all[sp[0].lo:sp[0].hi:sp[0].hi]
			continue
		}
		for _, s := range sp {
			topics[ti].judged = append(topics[ti].judged, all[s.lo:s.hi]...)
		}
	}
	slices.SortFunc(topics, func(a, b qrelsTopic) int { return strings.Compare(a.id, b.id) }) // as C's strcmp: by unsigned bytes
	for i := range topics {
		topics[i].levels = countLevels(topics[i].judged)
	}
	return &Qrels{Name: name, docnos: p.docnos, topics: topics, numPositive: p.numPositive}, nil
}

// qrelsParser is the state of ReadQrels between chunks of lines.
type qrelsParser struct {
	name         string
	docnos       docnos
	all          []judgment // every judgment, in file order
	topicIdx     *interner
	topics       []qrelsTopic
	spans        [][]span // per topic, its stretches of all
	numPositive  int64
	lines        int // physical lines read
	afterComment bool
	lastTopic    int32
	lastID       []byte
	// presize is the lines to size the tables for when the first whole
	// line has been read (a file of one endless line costs its line buffer
	// only); 0 once sized.
	presize int
}

// parse reads whole lines, keeping the growing slices in locals (see
// runPart.parse).
func (p *qrelsParser) parse(text []byte) error {
	if p.presize > 0 {
		p.docnos, p.all = make(docnos, 0, p.presize*14), make([]judgment, 0, p.presize) // a qrels line is mostly its docno
		p.presize = 0
	}
	all, docs, lines := p.all, p.docnos, p.lines
	var err error
	var start, end [4]int
	for pos := 0; pos < len(text); {
		lines++
		line := pos
		// Fields at C isspace runs up to the line's '\n': exactly four.
		n, i := 0, pos
		for {
			for i < len(text) && text[i] <= ' ' && text[i] != '\n' && spaceTable[text[i]] {
				i++
			}
			if i == len(text) || text[i] == '\n' {
				break
			}
			if n < 4 {
				start[n] = i
			}
			i = fieldEnd(text, i)
			if n < 4 {
				end[n] = i
			}
			n++
		}
		pos = min(i+1, len(text))
		if text[line] == '#' && !p.afterComment {
			p.afterComment = true
			continue
		}
		p.afterComment = false
		if n != 4 {
			err = inputerr.At(p.name, lines, "%d fields; expected 4: topic iteration docno relevance", n)
			if n == 0 {
				err = inputerr.At(p.name, lines, "blank line; expected 4 fields: topic iteration docno relevance")
			}
			break
		}
		// Lines come grouped by topic: reuse the previous line's topic.
		topic := text[start[0]:end[0]]
		ti := p.lastTopic
		if ti < 0 || !bytes.Equal(topic, p.lastID) {
			var added, ok bool
			ti, added, ok = p.topicIdx.intern(topic)
			if !ok {
				err = inputerr.At(p.name, lines, "too many topics")
				break
			}
			p.lastTopic, p.lastID = ti, append(p.lastID[:0], topic...)
			if added {
				p.topics = append(p.topics, qrelsTopic{id: string(topic)})
				p.spans = append(p.spans, nil)
			}
		}
		if sp := p.spans[ti]; len(sp) > 0 && sp[len(sp)-1].hi == len(all) {
			sp[len(sp)-1].hi++
		} else {
			p.spans[ti] = append(sp, span{len(all), len(all) + 1})
		}
		doc, ok := docs.add(text[start[2]:end[2]])
		if !ok {
			err = inputerr.At(p.name, lines, "too many docnos (more than 4 GiB)")
			break
		}
		level := atol(text[start[3]:end[3]])
		if level > 0 {
			p.numPositive++
		}
		all = append(all, judgment{doc: doc, rel: saturate32(level), line: uint32(min(lines, math.MaxUint32))})
	}
	p.all, p.docnos, p.lines = all, docs, lines
	return err
}

func saturate32(v int64) int32 {
	return int32(max(math.MinInt32, min(math.MaxInt32, v)))
}

func countLevels(js []judgment) []levelCount {
	// The usual levels, 0 to 63: counted in place.
	var small [64]int64
	usual := true
	for _, j := range js {
		if uint32(j.rel) < uint32(len(small)) {
			small[j.rel]++
		} else if j.rel >= 0 {
			usual = false
			break
		}
	}
	if usual {
		var out []levelCount
		for l, n := range small {
			if n > 0 {
				out = append(out, levelCount{int64(l), n})
			}
		}
		return out
	}
	var out []levelCount // few distinct levels: insertion keeps them sorted
	for k, j := range js {
		if j.rel < 0 {
			continue
		}
		if len(out) > 64 {
			return countLevelsSorting(js[k:], out)
		}
		l := int64(j.rel)
		i, found := slices.BinarySearchFunc(out, l, func(lc levelCount, l int64) int { return cmpInt64(lc.level, l) })
		if found {
			out[i].count++
		} else {
			out = slices.Insert(out, i, levelCount{l, 1})
		}
	}
	return out
}

// countLevelsSorting adds the levels of js to out by sorting, for the rare
// topic with very many distinct levels.
func countLevelsSorting(js []judgment, out []levelCount) []levelCount {
	for _, j := range js {
		if j.rel >= 0 {
			out = append(out, levelCount{int64(j.rel), 1})
		}
	}
	slices.SortFunc(out, func(a, b levelCount) int { return cmpInt64(a.level, b.level) })
	merged := out[:0]
	for _, lc := range out {
		if n := len(merged); n > 0 && merged[n-1].level == lc.level {
			merged[n-1].count += lc.count
		} else {
			merged = append(merged, lc)
		}
	}
	return merged
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// topicIndex returns the index of topic id in q.topics, or -1.
func (q *Qrels) topicIndex(id []byte) int {
	i, found := slices.BinarySearchFunc(q.topics, id, func(t qrelsTopic, id []byte) int {
		return -compareBytesString(id, t.id)
	})
	if !found {
		return -1
	}
	return i
}

// compareBytesString compares b with s as strcmp would, without allocating.
func compareBytesString(b []byte, s string) int {
	n := min(len(b), len(s))
	for i := 0; i < n; i++ {
		if b[i] != s[i] {
			if b[i] < s[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(b) < len(s):
		return -1
	case len(b) > len(s):
		return 1
	}
	return 0
}

// expectedLines guesses the number of lines of r from its size, when r is a
// file, so that tables are allocated once instead of grown.
func expectedLines(r io.Reader, bytesPerLine int64) int {
	size := fileSize(r)
	if size == 0 {
		return 1 << 12
	}
	return int(min(size/bytesPerLine+16, maxPresized))
}

// fileSize is the size of r when it is a regular file, else 0.
func fileSize(r io.Reader) int64 {
	st, ok := r.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return 0
	}
	fi, err := st.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	return fi.Size()
}
