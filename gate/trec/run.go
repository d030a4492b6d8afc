package trec

import (
	"bytes"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
)

// Run is one TREC run: for each topic the retrieved documents with their
// scores, in file order. It keeps compact per-topic arrays and the docnos,
// never the rest of the file's text.
type Run struct {
	Name  string // file name, for messages
	RunID string // run_id field of the last data line, as trec_eval reports it
	// RunIDLine is the line RunID was read from, the file's last data line.
	RunIDLine int
	// topics maps a topic id to its index in bounds and firstLine.
	topics *interner
	// segs hold the documents as the parts of the file were read (see
	// readRunParts), a topic's together in ranking order; a topic found in
	// several stretches of the file (interleaved with others, or across
	// parts) is copied into one more segment.
	segs      []segment
	bounds    []docSpan // where each topic's documents are
	firstLine []int     // first line of each topic
	Lines     int       // data lines read
}

// segment is a stretch of documents with their docnos.
type segment struct {
	all    []retrieved
	docnos docnos
	// lineBase is added to a document's line for the file's line number.
	lineBase int
}

type span struct{ lo, hi int }

// docSpan is segs[seg].all[lo:hi].
type docSpan struct {
	seg    int
	lo, hi int
}

type retrieved struct {
	score float64
	doc   uint32 // offset in the segment's docnos
	line  uint32 // line in the file, less the segment's lineBase
}

// ranked returns the documents of topic t in ranking order, with their
// segment.
func (r *Run) ranked(t int32) (*segment, []retrieved) {
	b := r.bounds[t]
	seg := &r.segs[b.seg]
	return seg, seg.all[b.lo:b.hi:b.hi]
}

// line is the file's line of d, a document of s.
func (s *segment) line(d retrieved) int { return s.lineBase + int(d.line) }

// Topics returns the run's topic ids in order of first appearance.
func (r *Run) Topics() []string {
	out := make([]string, r.topics.Len())
	for i := range out {
		out[i] = r.topics.str(int32(i))
	}
	return out
}

// ReadRunFile reads a run file; "-" reads standard input from stdin. A
// large file is parsed by one goroutine per core, each on a stretch of it
// (see readRunParts).
func ReadRunFile(path string, stdin io.Reader) (*Run, error) {
	if path == "-" {
		return ReadRun(stdin, "stdin")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if parts := min(int64(runtime.GOMAXPROCS(0)), st.Size()/runPartMin); parts > 1 {
			return readRunParts(f, st.Size(), path, int(parts), fileReading())
		}
	}
	return ReadRun(f, path)
}

// ReadRun parses run lines "topic iteration docno rank score run_id" as
// trec_eval v10 does (get_trec_results.c): fields separated by white space,
// fields after run_id ignored, the rank never read, the score read with C's
// atof ("5abc" is 5). Blank lines and lines whose first non-blank character
// is '#' are skipped. Fewer than six fields, or a file without any data
// line, is an error. name labels errors.
func ReadRun(r io.Reader, name string) (*Run, error) {
	return readRun(r, name, fileReading())
}

// readRun is ReadRun reading as rd says.
func readRun(r io.Reader, name string, rd reading) (*Run, error) {
	p := newRunPart(fileSize(r))
	p.read(r, rd)
	return joinParts(name, []*runPart{p})
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
func sortRanking(seg *segment, docs []retrieved) {
	cmp := func(a, b *retrieved) int {
		if a.score > b.score {
			return -1
		}
		if a.score < b.score {
			return 1
		}
		return bytes.Compare(seg.docnos.at(b.doc), seg.docnos.at(a.doc))
	}
	if byScore(docs) {
		// The usual run, listed by rank: only ties need ordering.
		for i := 0; i < len(docs); {
			j := i + 1
			for j < len(docs) && docs[j].score == docs[i].score {
				j++
			}
			if j-i > 1 {
				slices.SortFunc(docs[i:j], func(a, b retrieved) int { return bytes.Compare(seg.docnos.at(b.doc), seg.docnos.at(a.doc)) })
			}
			i = j
		}
		return
	}
	if !slices.ContainsFunc(docs, func(d retrieved) bool { return math.IsNaN(d.score) }) {
		slices.SortFunc(docs, func(a, b retrieved) int { return cmp(&a, &b) })
		return
	}
	slices.SortStableFunc(docs, func(a, b retrieved) int { return bytes.Compare(seg.docnos.at(a.doc), seg.docnos.at(b.doc)) })
	glibcMsort(docs, make([]retrieved, 0, len(docs)), cmp)
}

// byScore reports whether docs are by decreasing score (ties in any order),
// without NaN.
func byScore(docs []retrieved) bool {
	for k := 1; k < len(docs); k++ {
		if !(docs[k-1].score >= docs[k].score) {
			return false
		}
	}
	return len(docs) == 0 || !math.IsNaN(docs[0].score)
}
