package trec

import (
	"fmt"
	"math"
	"slices"
	"strings"

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

	relOf  []int32  // level of each qrels document in the current topic
	relGen []uint32 // relOf[d] is valid when relGen[d] == gen
	gen    uint32
	r      ranking
}

// NewEvaluator returns an evaluator of ms against q.
func NewEvaluator(q *Qrels, ms *Measures, opt Options) *Evaluator {
	return &Evaluator{Qrels: q, Measures: ms, Opt: opt,
		relOf: make([]int32, q.docs.Len()), relGen: make([]uint32, q.docs.Len())}
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
	toQrels := make([]int32, run.docs.Len())
	for d := range toQrels {
		toQrels[d] = q.docs.lookup(run.docs.bytes(int32(d)))
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
	dupGen := make([]uint32, run.docs.Len())
	ranked := ms.needRanking()
	sums := make([]float64, ms.nValues)
	tr := &TopicResult{Values: make([]float64, ms.nValues)}
	n := 0
	for ti := range q.topics {
		qt := &q.topics[ti]
		rt := run.topics.lookup([]byte(qt.id))
		if rt < 0 {
			switch e.Opt.Missing {
			case MissingSkip:
				continue
			case MissingFail:
				return nil, inputerr.At(q.Name, int(qt.judged[0].line),
					"topic %q has judgments but no documents in run %s (trec_eval v10 stops here too; -c scores such topics 0)", qt.id, run.Name)
			}
		}
		e.nextGen(dupGen)
		*tr = TopicResult{Topic: qt.id, Values: tr.Values}
		switch {
		case !ranked:
			// Only runid and num_q: trec_eval never forms the ranking,
			// so it never sees duplicates.
			tr.Missing = rt < 0
		case rt >= 0:
			// As form_res_rels.c: sorted (when read), cut at -M,
			// duplicates refused in the run, then in the qrels.
			sorted := run.ranked(rt)
			sorted = sorted[:min(int64(len(sorted)), max(e.Opt.MaxDocs, 0))]
			if err := checkDuplicates(run, qt.id, sorted, dupGen, e.gen); err != nil {
				return nil, err
			}
			if err := e.scatter(qt); err != nil {
				return nil, err
			}
			e.rank(qt, sorted, toQrels)
		default:
			if err := e.scatter(qt); err != nil {
				return nil, err
			}
			e.rankMissing(qt)
			tr.Missing = true
		}
		if rt >= 0 {
			tr.Line = run.firstLine[rt]
		}
		e.score(tr)
		if tr.Missing {
			clearMissing(ms, tr)
		}
		for i, v := range tr.Values {
			sums[i] += v
		}
		n++
		if each != nil {
			if err := each(tr); err != nil {
				return nil, err
			}
		}
	}
	if n == 0 {
		return nil, inputerr.At(run.Name, run.firstLine[0], "no topic of the run is in the qrels %s", q.Name)
	}
	return e.summarize(run, sums, n), nil
}

func sample(ids []string) string {
	if len(ids) > 5 {
		return strings.Join(ids[:5], ", ") + fmt.Sprintf(", … (%d)", len(ids))
	}
	return strings.Join(ids, ", ")
}

// nextGen starts a topic: stamps of earlier topics become stale. On the
// (theoretical) wrap-around of the counter every stamp is cleared.
func (e *Evaluator) nextGen(dupGen []uint32) {
	e.gen++
	if e.gen == 0 {
		clear(e.relGen)
		clear(dupGen)
		e.gen = 1
	}
}

// scatter makes relOf hold the judgments of qt, and reports a document
// judged twice (form_res_rels.c stops on it too).
func (e *Evaluator) scatter(qt *qrelsTopic) error {
	for k, j := range qt.judged {
		if e.relGen[j.doc] == e.gen {
			first := 0
			for _, o := range qt.judged[:k] {
				if o.doc == j.doc {
					first = int(o.line)
					break
				}
			}
			return inputerr.At(e.Qrels.Name, int(j.line), "document %q judged twice for topic %q (first at line %d); expected one judgment per document and topic",
				e.Qrels.docs.str(j.doc), qt.id, first)
		}
		e.relGen[j.doc] = e.gen
		e.relOf[j.doc] = j.rel
	}
	return nil
}

func checkDuplicates(run *Run, topic string, docs []retrieved, seen []uint32, gen uint32) error {
	for k, d := range docs {
		if seen[d.doc] != gen {
			seen[d.doc] = gen
			continue
		}
		other := docs[0].line
		for _, o := range docs[:k] {
			if o.doc == d.doc {
				other = o.line
			}
		}
		first, second := min(other, d.line), max(other, d.line)
		return inputerr.At(run.Name, int(second), "document %q retrieved twice for topic %q (also at line %d); expected each document once per topic",
			run.docs.str(d.doc), topic, first)
	}
	return nil
}

// rank fills e.r from the sorted documents: each rank's relevance value and
// the counts every measure needs (form_res_rels.c).
func (e *Evaluator) rank(qt *qrelsTopic, docs []retrieved, toQrels []int32) {
	r := e.prepare(qt, len(docs))
	for i, d := range docs {
		rel := int32(relNonpool)
		if qd := toQrels[d.doc]; qd >= 0 && e.relGen[qd] == e.gen {
			rel = e.relOf[qd]
			if rel < 0 {
				rel = relUnjudged
			}
		}
		r.rel[i] = rel
	}
	e.count()
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
func (e *Evaluator) rankMissing(qt *qrelsTopic) {
	n := min(1, max(e.Opt.MaxDocs, 0))
	r := e.prepare(qt, int(n))
	if n == 1 {
		r.rel[0] = relNonpool
		if qd := e.Qrels.docs.lookup([]byte(bogusDocno)); qd >= 0 && e.relGen[qd] == e.gen {
			r.rel[0] = e.relOf[qd]
			if r.rel[0] < 0 {
				r.rel[0] = relUnjudged
			}
		}
	}
	e.count()
}

func (e *Evaluator) prepare(qt *qrelsTopic, n int) *ranking {
	r := &e.r
	r.rel = slices.Grow(r.rel[:0], n)[:n]
	r.levels = qt.levels
	r.relLevel = e.Opt.RelLevel
	r.numDocs = e.Opt.NumDocs
	r.numRelLevels = 0
	if len(qt.levels) > 0 {
		r.numRelLevels = qt.levels[len(qt.levels)-1].level + 1
	}
	r.numRel = 0
	for _, lc := range qt.levels {
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
	r.numRet = int64(len(r.rel))
	r.numRelRet, r.numNonpool, r.numUnjudged = 0, 0, 0
	for _, rel := range r.rel {
		switch {
		case rel == relNonpool:
			r.numNonpool++
		case rel == relUnjudged:
			r.numUnjudged++
		case int64(rel) >= r.relLevel:
			r.numRelRet++
		}
	}
}

// score computes every measure of the current ranking into tr.
func (e *Evaluator) score(tr *TopicResult) {
	clear(tr.Values)
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
// utility, relstring or rbp_resid, and those starting with "unj".
func clearMissing(ms *Measures, tr *TopicResult) {
	for _, m := range ms.list {
		for i, name := range m.names {
			switch {
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
