package trec

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// MissingTopics says what to do with a qrels topic for which the run
// retrieved nothing.
type MissingTopics int

const (
	// MissingFail stops with an error, as trec_eval v10 does without -c.
	MissingFail MissingTopics = iota
	// MissingZero evaluates the topic as an empty retrieval that scores 0
	// and counts in the averages, as trec_eval -c does.
	MissingZero
	// MissingSkip leaves the topic out (trec_eval v9 without -c); score
	// tables use it and let topic alignment decide.
	MissingSkip
)

// Options are trec_eval's evaluation switches.
type Options struct {
	RelLevel int64 // -l: minimum level that counts as relevant (default 1)
	MaxDocs  int64 // -M: documents kept per topic after sorting (default no limit)
	NumDocs  int64 // -N: documents in the collection, used by utility (default 0)
	// JudgedOnly (-J) drops the documents without a judgment (absent from
	// the topic's qrels, or with a negative level) from each ranking after
	// the -M cut, before any measure sees it (form_res_rels.c).
	JudgedOnly bool
	Missing    MissingTopics
	// Gains are the gains of relevance levels 1, 2, … of NTCIREVAL's
	// measures that name none (-g 1:2:3); nil gives each level its number,
	// up to the qrels' highest.
	Gains []float64
}

// DefaultOptions are trec_eval's defaults: -l 1, no -M, no -c.
func DefaultOptions() Options {
	return Options{RelLevel: 1, MaxDocs: math.MaxInt64}
}

// TopicResult is the evaluation of one topic. Values holds every measure's
// values at the measure's offset; it is reused for the next topic.
type TopicResult struct {
	Topic     string
	Values    []float64
	RelString string
	Missing   bool // scored as an empty retrieval (-c)
	Line      int  // first line of the topic in the run (0 when Missing)
}

// Value returns the value named name (P_10, map …), if the measures have it.
func (tr *TopicResult) Value(ms *Measures, name string) (float64, bool) {
	for _, m := range ms.list {
		for i, n := range m.names {
			if n == name && m.fam.kind != kindRelString {
				return tr.Values[m.off+i], true
			}
		}
	}
	return 0, false
}

// Summary is the "all" block of one run.
type Summary struct {
	RunID  string
	NumQ   int
	Values []float64
}

// Evaluator scores runs against one qrels file. It keeps scratch space, so
// one Evaluator serves one goroutine.
type Evaluator struct {
	Qrels    *Qrels
	Measures *Measures
	Opt      Options
	// Workers > 1 scores a run's topics in that many contiguous blocks at
	// once (each block by its own copy of the evaluator); each is still
	// called in topic order and the summary is summed in topic order, so
	// the results do not depend on Workers.
	Workers int

	docs docTable
	r    ranking
	nt   ntcirState
}

// NewEvaluator returns an evaluator of ms against q.
func NewEvaluator(q *Qrels, ms *Measures, opt Options) *Evaluator {
	return &Evaluator{Qrels: q, Measures: ms, Opt: opt}
}

// bogusDocno is the one document trec_eval v10 retrieves for a topic missing
// from the run under -c (trec_eval.c).
const bogusDocno = "ceci_nest_pas_un_docno"

// Evaluate scores run topic by topic in qrels (strcmp) order, calling each
// for every evaluated topic as soon as it is scored, and returns the
// summary. Topics of the run absent from the qrels are ignored. Errors are
// *inputerr.Error values naming the file and line: a document twice in one
// topic of the run or of the qrels (checked, as trec_eval checks them, only
// when a measure other than runid and num_q needs the ranking), or
// (MissingFail) a qrels topic without documents in the run; topics already
// passed to each stay valid, as the lines trec_eval prints before it stops.
func (e *Evaluator) Evaluate(run *Run, each func(*TopicResult) error) (*Summary, error) {
	q, ms := e.Qrels, e.Measures
	if err := e.setupNTCIR(); err != nil {
		return nil, err
	}
	common := 0
	for _, t := range q.topics {
		if run.topics.lookup([]byte(t.id)) >= 0 {
			common++
		}
	}
	if common == 0 && e.Opt.Missing != MissingZero {
		return nil, inputerr.At(run.Name, run.firstLine[0], "no topic of the run is in the qrels %s (run topics: %s; qrels topics: %s)",
			q.Name, sample(run.Topics()), sample(q.Topics()))
	}
	sums := make([]float64, ms.nValues)
	n := 0
	add := func(tr *TopicResult) error {
		for i, v := range tr.Values {
			sums[i] += v
		}
		n++
		if each != nil {
			return each(tr)
		}
		return nil
	}
	nt := len(q.topics)
	workers := min(e.Workers, nt/parallelTopicsMin)
	if !ms.needRanking() {
		workers = 1
	}
	// Blocks 1 … workers−1 are scored by goroutines into buffers while this
	// goroutine scores block 0 and passes its topics on; then the buffered
	// topics are passed on in order.
	blocks := make([]*topicBlock, max(workers, 1))
	var stop atomic.Bool // a topic failed: later blocks need not go on
	for k := 1; k < workers; k++ {
		b := &topicBlock{lo: k * nt / workers, hi: (k + 1) * nt / workers, done: make(chan struct{})}
		blocks[k] = b
		go func() {
			defer close(b.done)
			c := &Evaluator{Qrels: q, Measures: ms, Opt: e.Opt, nt: ntcirState{gains: e.nt.gains}}
			tr := &TopicResult{Values: make([]float64, ms.nValues)}
			b.values = make([]float64, 0, (b.hi-b.lo)*ms.nValues)
			for ti := b.lo; ti < b.hi && !stop.Load(); ti++ {
				scored, err := c.topic(run, ti, tr)
				if err != nil {
					b.err = err
					return
				}
				if scored {
					b.values = append(b.values, tr.Values...)
					b.topics = append(b.topics, *tr) // its Values set when passed on
				}
			}
		}()
	}
	defer func() {
		stop.Store(true)
		for _, b := range blocks[1:] {
			<-b.done
		}
	}()
	tr := &TopicResult{Values: make([]float64, ms.nValues)}
	for ti := range nt / max(workers, 1) {
		scored, err := e.topic(run, ti, tr)
		if err != nil {
			return nil, err
		}
		if scored {
			if err := add(tr); err != nil {
				return nil, err
			}
		}
	}
	for _, b := range blocks[1:] {
		<-b.done
		for i := range b.topics {
			t := &b.topics[i]
			t.Values = b.values[i*ms.nValues : (i+1)*ms.nValues]
			if err := add(t); err != nil {
				return nil, err
			}
		}
		if b.err != nil {
			return nil, b.err
		}
	}
	if n == 0 {
		return nil, inputerr.At(run.Name, run.firstLine[0], "no topic of the run is in the qrels %s", q.Name)
	}
	return e.summarize(run, sums, n), nil
}

// parallelTopicsMin is the fewest topics per block worth a goroutine.
var parallelTopicsMin = 32

// topicBlock is what a goroutine scored of topics lo … hi−1: each scored
// topic, its values back to back in values, and the error that stopped it.
type topicBlock struct {
	lo, hi int
	topics []TopicResult
	values []float64
	err    error
	done   chan struct{}
}

// topic scores qrels topic ti of run into tr; scored is false for a topic
// left out (MissingSkip and not in the run).
func (e *Evaluator) topic(run *Run, ti int, tr *TopicResult) (scored bool, err error) {
	q, ms := e.Qrels, e.Measures
	qt := &q.topics[ti]
	rt := run.topics.lookup([]byte(qt.id))
	if rt < 0 {
		switch e.Opt.Missing {
		case MissingSkip:
			return false, nil
		case MissingFail:
			return false, inputerr.At(q.Name, int(qt.judged[0].line),
				"topic %q has judgments but no documents in run %s (trec_eval v10 stops here too; -c scores such topics 0)", qt.id, run.Name)
		}
	}
	*tr = TopicResult{Topic: qt.id, Values: tr.Values}
	switch {
	case !ms.needRanking():
		// Only runid and num_q: trec_eval never forms the ranking,
		// so it never sees duplicates.
		tr.Missing = rt < 0
	case rt >= 0:
		// As form_res_rels.c: sorted (when read), cut at -M,
		// duplicates refused in the run, then in the qrels.
		seg, sorted := run.ranked(rt)
		sorted = sorted[:min(int64(len(sorted)), max(e.Opt.MaxDocs, 0))]
		if err := e.rank(qt, run.Name, seg, sorted); err != nil {
			return false, err
		}
	default:
		if err := e.rankMissing(qt); err != nil {
			return false, err
		}
		tr.Missing = true
	}
	if rt >= 0 {
		tr.Line = run.firstLine[rt]
	}
	e.score(tr)
	if tr.Missing {
		clearMissing(ms, tr)
	}
	return true, nil
}

func sample(ids []string) string {
	if len(ids) > 5 {
		return strings.Join(ids[:5], ", ") + fmt.Sprintf(", … (%d)", len(ids))
	}
	return strings.Join(ids, ", ")
}

// rank fills e.r from the sorted documents of a run topic: each rank's
// relevance value and the counts every measure needs (form_res_rels.c).
func (e *Evaluator) rank(qt *qrelsTopic, runName string, seg *segment, docs []retrieved) error {
	e.prepare(qt, len(docs))
	if err := e.match(qt, runName, seg, docs); err != nil {
		return err
	}
	e.count()
	return nil
}

// match sets r.rel[k] to the judgment of docs[k], documents of seg in run
// runName (relNonpool when it has none, relUnjudged for a negative level),
// refusing a document retrieved twice and then one judged twice, as
// form_res_rels.c does.
func (e *Evaluator) match(qt *qrelsTopic, runName string, seg *segment, docs []retrieved) error {
	rel := e.r.rel
	mask := e.docs.reset(len(docs) + len(qt.judged))
	slots := e.docs.slots
	nRet := uint64(len(docs))
	for k, d := range docs {
		b := seg.docnos.at(d.doc)
		h := hashDocno(b)
		tag := h >> 32 << 32
		i := h & mask
		for ; slots[i] != 0; i = (i + 1) & mask {
			if s := slots[i]; s&^0xffffffff == tag {
				o := docs[s&0xffffffff-1]
				if bytes.Equal(seg.docnos.at(o.doc), b) {
					first, second := min(seg.line(o), seg.line(d)), max(seg.line(o), seg.line(d))
					return inputerr.At(runName, second, "document %q retrieved twice for topic %q (also at line %d); expected each document once per topic",
						b, qt.id, first)
				}
			}
		}
		slots[i] = tag | uint64(k+1)
		rel[k] = relNonpool
	}
	q := e.Qrels
	for j, jd := range qt.judged {
		b := q.docnos.at(jd.doc)
		h := hashDocno(b)
		tag := h >> 32 << 32
		i := h & mask
		for ; slots[i] != 0; i = (i + 1) & mask {
			s := slots[i]
			if s&^0xffffffff != tag {
				continue
			}
			entry := s&0xffffffff - 1
			if entry < nRet {
				if !bytes.Equal(seg.docnos.at(docs[entry].doc), b) {
					continue
				}
				rel[entry] = jd.rel
				if jd.rel < 0 {
					rel[entry] = relUnjudged
				}
				break // the slot becomes judgment j's
			}
			o := qt.judged[entry-nRet]
			if bytes.Equal(q.docnos.at(o.doc), b) {
				return inputerr.At(q.Name, int(jd.line), "document %q judged twice for topic %q (first at line %d); expected one judgment per document and topic",
					b, qt.id, o.line)
			}
		}
		slots[i] = tag | (nRet + uint64(j) + 1)
	}
	return nil
}

// dropUnjudged applies -J to the current ranking: the judged documents
// keep their order (form_res_rels.c).
func (e *Evaluator) dropUnjudged() {
	r := &e.r
	kept := r.rel[:0]
	for _, rel := range r.rel {
		if rel >= 0 {
			kept = append(kept, rel)
		}
	}
	r.rel = kept
}

// rankMissing is trec_eval v10's -c treatment of a qrels topic the run does
// not have: a ranking of one document that is in no qrels.
func (e *Evaluator) rankMissing(qt *qrelsTopic) error {
	n := min(1, max(e.Opt.MaxDocs, 0))
	r := e.prepare(qt, int(n))
	if err := e.match(qt, "", nil, nil); err != nil { // judged twice?
		return err
	}
	if n == 1 {
		r.rel[0] = relNonpool
		for _, j := range qt.judged {
			if string(e.Qrels.docnos.at(j.doc)) == bogusDocno {
				r.rel[0] = j.rel
				if j.rel < 0 {
					r.rel[0] = relUnjudged
				}
				break
			}
		}
	}
	e.count()
	return nil
}

func (e *Evaluator) prepare(qt *qrelsTopic, n int) *ranking {
	return e.prepareLevels(qt.levels, n)
}

// prepareLevels readies e.r for a ranking of n documents of a topic with
// the judgment counts levels.
func (e *Evaluator) prepareLevels(levels []levelCount, n int) *ranking {
	r := &e.r
	r.rel = slices.Grow(r.rel[:0], n)[:n]
	r.levels = levels
	r.relLevel = e.Opt.RelLevel
	r.numDocs = e.Opt.NumDocs
	r.numRelLevels = 0
	if len(levels) > 0 {
		r.numRelLevels = levels[len(levels)-1].level + 1
	}
	r.numRel = 0
	for _, lc := range levels {
		if lc.level >= r.relLevel {
			r.numRel += lc.count
		}
	}
	return r
}

// count sets the ranking's counts, after -J when asked for.
func (e *Evaluator) count() {
	r := &e.r
	if e.Opt.JudgedOnly {
		e.dropUnjudged()
	}
	n := len(r.rel)
	r.numRet = int64(n)
	r.numRelRet, r.numNonpool, r.numUnjudged = 0, 0, 0
	relTop, unjTop := slices.Grow(r.relTop[:0], n+1)[:n+1], slices.Grow(r.unjTop[:0], n+1)[:n+1]
	relTop[0], unjTop[0] = 0, 0
	for i, rel := range r.rel {
		switch {
		case rel == relNonpool:
			r.numNonpool++
		case rel == relUnjudged:
			r.numUnjudged++
		case int64(rel) >= r.relLevel:
			r.numRelRet++
		}
		// As the measures count: with -l below 0, ranks outside the
		// qrels are "relevant" too (isRel).
		relTop[i+1], unjTop[i+1] = relTop[i], unjTop[i]
		if r.isRel(i) {
			relTop[i+1]++
		}
		if rel == relNonpool || rel == relUnjudged {
			unjTop[i+1]++
		}
	}
	r.relTop, r.unjTop = relTop, unjTop
}

// score computes every measure of the current ranking into tr.
func (e *Evaluator) score(tr *TopicResult) {
	clear(tr.Values)
	if e.Measures.ntcir {
		e.resetNTCIR()
	}
	for _, m := range e.Measures.list {
		switch m.fam.kind {
		case kindRunID:
		case kindRelString:
			tr.RelString = relstring(&e.r, m)
		default:
			m.fam.calc(&e.r, m, tr.Values[m.off:m.off+max(len(m.names), 1)])
		}
	}
}

// clearMissing zeroes what trec_eval v10 clears after scoring its stand-in
// document for a missing topic (trec_eval.c): values named exactly num_ret,
// utility, relstring or rbp_resid, and those starting with "unj"; judged@k,
// 1 − unj_k, is then 1.
func clearMissing(ms *Measures, tr *TopicResult) {
	for _, m := range ms.list {
		for i, name := range m.names {
			switch {
			case m.fam == judgedFamily:
				tr.Values[m.off+i] = 1
			case m.fam.kind == kindRelString:
				if name == "relstring" {
					tr.RelString = ""
				}
			case name == "num_ret" || name == "utility" || name == "rbp_resid" || strings.HasPrefix(name, "unj"):
				tr.Values[m.off+i] = 0
			}
		}
	}
}

func (e *Evaluator) summarize(run *Run, sums []float64, n int) *Summary {
	s := &Summary{RunID: run.RunID, NumQ: n, Values: sums}
	for _, m := range e.Measures.list {
		v := sums[m.off : m.off+len(m.names)]
		switch m.fam.kind {
		case kindNumQ:
			sums[m.off] = float64(n)
		case kindCount:
			if m.fam.name == "num_rel" && e.Opt.Missing == MissingZero {
				v[0] = float64(e.Qrels.numPositive)
			}
		case kindGeoMean:
			v[0] = cExp(v[0] / float64(n))
		case kindRunID, kindRelString:
		default:
			for i := range v {
				v[i] /= float64(n)
			}
		}
	}
	return s
}
