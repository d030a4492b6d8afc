package trec

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// Run is one TREC run: for each topic the retrieved documents with their
// scores, in file order. It keeps interned docnos and compact per-topic
// arrays, never the file's text.
type Run struct {
	Name  string // file name, for messages
	RunID string // run_id field of the last data line, as trec_eval reports it
	docs  *interner
	// topics maps a topic id to its index in retrieved.
	topics *interner
	// all holds every retrieved document in file order; spans[t] lists the
	// stretches of all that belong to topic t (one when the file is grouped
	// by topic, as runs nearly always are).
	all       []retrieved
	spans     [][]span
	firstLine []int // first line of each topic
	Lines     int   // data lines read
}

type span struct{ lo, hi int }

// appendTopic appends the documents of topic t to dst.
func (r *Run) appendTopic(dst []retrieved, t int32) []retrieved {
	for _, s := range r.spans[t] {
		dst = append(dst, r.all[s.lo:s.hi]...)
	}
	return dst
}

type retrieved struct {
	score float64
	doc   int32 // id in Run.docs
	line  uint32
}

// Topics returns the run's topic ids in order of first appearance.
func (r *Run) Topics() []string {
	out := make([]string, r.topics.Len())
	for i := range out {
		out[i] = r.topics.str(int32(i))
	}
	return out
}

// ReadRunFile reads a run file; "-" reads standard input from stdin.
func ReadRunFile(path string, stdin io.Reader) (*Run, error) {
	if path == "-" {
		return ReadRun(stdin, "stdin")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadRun(f, path)
}

// ReadRun parses run lines "topic iteration docno rank score run_id" as
// trec_eval v10 does (get_trec_results.c): fields separated by white space,
// fields after run_id ignored, the rank never read, the score read with C's
// atof ("5abc" is 5). Blank lines and lines whose first non-blank character
// is '#' are skipped. Fewer than six fields, or a file without any data
// line, is an error. name labels errors.
func ReadRun(r io.Reader, name string) (*Run, error) {
	lines := expectedLines(r, 30)
	run := &Run{Name: name, docs: newInterner(lines, 16), topics: newInterner(64, 8),
		all: make([]retrieved, 0, lines)}
	lr := newLineReader(r)
	var buf [6][]byte
	var runID []byte
	lastTopic, lastID := int32(-1), []byte(nil)
	for {
		line, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		f, n := fields(line, buf[:6])
		if n == 0 || f[0][0] == '#' {
			continue
		}
		if n < 6 {
			return nil, inputerr.At(name, lr.n, "%d fields; expected at least 6: topic iteration docno rank score run_id", n)
		}
		// Lines come grouped by topic: reuse the previous line's topic.
		ti, added, ok := lastTopic, false, true
		if !bytes.Equal(f[0], lastID) || lastTopic < 0 {
			ti, added, ok = run.topics.intern(f[0])
			lastTopic, lastID = ti, append(lastID[:0], f[0]...)
		}
		if !ok {
			return nil, inputerr.At(name, lr.n, "too many topics")
		}
		if added {
			run.spans = append(run.spans, nil)
			run.firstLine = append(run.firstLine, lr.n)
		}
		if sp := run.spans[ti]; len(sp) > 0 && sp[len(sp)-1].hi == len(run.all) {
			sp[len(sp)-1].hi++
		} else {
			run.spans[ti] = append(sp, span{len(run.all), len(run.all) + 1})
		}
		doc, _, ok := run.docs.intern(f[2])
		if !ok {
			return nil, inputerr.At(name, lr.n, "too many distinct docnos")
		}
		run.all = append(run.all, retrieved{
			score: atof(f[4]),
			doc:   doc,
			line:  uint32(min(lr.n, math.MaxUint32)),
		})
		runID = append(runID[:0], f[5]...)
		run.Lines++
	}
	if run.Lines == 0 {
		if lr.n == 0 {
			return nil, inputerr.At(name, 0, "empty run file; expected lines: topic iteration docno rank score run_id")
		}
		return nil, inputerr.At(name, lr.n, "no run lines, only blank or comment lines; expected: topic iteration docno rank score run_id")
	}
	run.RunID = string(runID)
	return run, nil
}
