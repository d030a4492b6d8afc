package trec

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

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
	// all holds every retrieved document grouped by topic, each topic in
	// trec_eval's ranking order; topic t is all[bounds[t].lo:bounds[t].hi].
	all       []retrieved
	bounds    []span
	firstLine []int // first line of each topic
	Lines     int   // data lines read
}

type span struct{ lo, hi int }

// ranked returns the documents of topic t in ranking order.
func (r *Run) ranked(t int32) []retrieved {
	b := r.bounds[t]
	return r.all[b.lo:b.hi:b.hi]
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
	var spans [][]span // per topic, the stretches of run.all it has
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
			spans = append(spans, nil)
			run.firstLine = append(run.firstLine, lr.n)
		}
		if sp := spans[ti]; len(sp) > 0 && sp[len(sp)-1].hi == len(run.all) {
			sp[len(sp)-1].hi++
		} else {
			spans[ti] = append(sp, span{len(run.all), len(run.all) + 1})
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
	run.group(spans)
	for t := range run.bounds {
		sortRanking(run, run.ranked(int32(t)))
	}
	return run, nil
}

// group makes every topic's documents contiguous in run.all, keeping file
// order within a topic; a file already grouped by topic is left as is.
func (run *Run) group(spans [][]span) {
	run.bounds = make([]span, len(spans))
	grouped := true
	for t, sp := range spans {
		grouped = grouped && len(sp) == 1
		run.bounds[t] = sp[0]
	}
	if grouped {
		return
	}
	all := make([]retrieved, 0, len(run.all))
	for t, sp := range spans {
		lo := len(all)
		for _, s := range sp {
			all = append(all, run.all[s.lo:s.hi]...)
		}
		run.bounds[t] = span{lo, len(all)}
	}
	run.all = all
}

// sortRanking orders a topic's documents as trec_eval does
// (form_res_rels.c: comp_sim_docno): score descending, ties broken by docno
// descending in byte order. Runs are sorted once, when read.
//
// A NaN score compares neither above nor below any score, so the
// comparator falls to the docnos and is no order at all: trec_eval's
// ranking is then whatever glibc's merge sort makes of its input, the
// topic's lines sorted by docno (get_trec_results.c, a stable sort).
// Topics with a NaN score replay exactly that; for the others the
// comparator is a total order and any sort gives the same ranking.
func sortRanking(run *Run, docs []retrieved) {
	cmp := func(a, b *retrieved) int {
		if a.score > b.score {
			return -1
		}
		if a.score < b.score {
			return 1
		}
		return bytes.Compare(run.docs.bytes(b.doc), run.docs.bytes(a.doc))
	}
	if !slices.ContainsFunc(docs, func(d retrieved) bool { return math.IsNaN(d.score) }) {
		slices.SortFunc(docs, func(a, b retrieved) int { return cmp(&a, &b) })
		return
	}
	slices.SortStableFunc(docs, func(a, b retrieved) int { return bytes.Compare(run.docs.bytes(a.doc), run.docs.bytes(b.doc)) })
	glibcMsort(docs, make([]retrieved, 0, len(docs)), cmp)
}
