package trec

import (
	"slices"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// One topic at a time, for what reasons about single judgments (coverage,
// scoring under other assumptions about the unjudged documents, the weight
// of one label): a run's rankings with each document's judgment (Rank), and
// a scorer of one topic's ranking under counts of judgments the caller may
// change (TopicScorer). Both go through the machinery Evaluate uses, so a
// topic scored this way has the value Evaluate gives it.

// The labels of ranked documents without a judgment (TopicList.Labels).
const (
	// LabelNotInQrels: the topic's qrels do not have the document
	// (trec_eval's RELVALUE_NONPOOL).
	LabelNotInQrels int32 = relNonpool
	// LabelUnjudged: the qrels have it with a negative level, in the pool
	// but not judged (trec_eval's RELVALUE_UNJUDGED).
	LabelUnjudged int32 = relUnjudged
)

// TopicList is one topic of a run, ranked as trec_eval ranks it (score
// descending, ties by document id descending) and cut at -M, with each
// document's judgment: its level (≥ 0), LabelNotInQrels or LabelUnjudged.
// -J is not applied: the labels say which documents it would drop.
type TopicList struct {
	Topic  string
	Docs   []string
	Labels []int32
	Line   int // the run's first line of the topic
}

// Rank returns the topics of run that q judges, in q's (strcmp) order,
// each ranked and labelled; topics of the run outside the qrels are left
// out, as are qrels topics the run lacks (the score loaders' treatment;
// Evaluate's -c is not applied). opt.MaxDocs cuts each ranking;
// opt.JudgedOnly is ignored. Errors are Evaluate's: a document retrieved or
// judged twice for a topic, or no topic in common, naming file and line.
func Rank(run *Run, q *Qrels, opt Options) ([]TopicList, error) {
	opt.JudgedOnly = false
	e := NewEvaluator(q, &Measures{}, opt)
	var out []TopicList
	for ti := range q.topics {
		qt := &q.topics[ti]
		rt := run.topics.lookup([]byte(qt.id))
		if rt < 0 {
			continue
		}
		seg, sorted := run.ranked(rt)
		sorted = sorted[:min(int64(len(sorted)), max(opt.MaxDocs, 0))]
		if err := e.rank(qt, run.Name, seg, sorted); err != nil {
			return nil, err
		}
		tl := TopicList{Topic: qt.id, Labels: slices.Clone(e.r.rel), Docs: make([]string, len(sorted)), Line: run.firstLine[rt]}
		for i, d := range sorted {
			tl.Docs[i] = string(seg.docnos.at(d.doc))
		}
		out = append(out, tl)
	}
	if len(out) == 0 {
		return nil, inputerr.At(run.Name, run.firstLine[0], "no topic of the run is in the qrels %s (run topics: %s; qrels topics: %s)",
			q.Name, sample(run.Topics()), sample(q.Topics()))
	}
	return out, nil
}

// LevelCount is the number of a topic's judgments of one level.
type LevelCount struct {
	Level, Count int64
}

// Levels returns the judgment counts of topic per level ≥ 0, in
// increasing level order (levels without a judgment left out); nil for a
// topic q does not have.
func (q *Qrels) Levels(topic string) []LevelCount {
	i := q.topicIndex([]byte(topic))
	if i < 0 {
		return nil
	}
	out := make([]LevelCount, len(q.topics[i].levels))
	for k, lc := range q.topics[i].levels {
		out[k] = LevelCount{Level: lc.level, Count: lc.count}
	}
	return out
}

// HasTopic reports whether q judges topic.
func (q *Qrels) HasTopic(topic string) bool { return q.topicIndex([]byte(topic)) >= 0 }

// MaxLevel returns the highest level ≥ 0 of any judgment in q (0 when q
// has none).
func (q *Qrels) MaxLevel() int64 {
	top := int64(0)
	for _, t := range q.topics {
		if n := len(t.levels); n > 0 {
			top = max(top, t.levels[n-1].level)
		}
	}
	return top
}

// TopicScorer computes one measure of one topic's ranking from its labels
// and the topic's judgment counts, as Evaluate does for the run's topic
// with those judgments. It keeps scratch space: one TopicScorer serves one
// goroutine.
type TopicScorer struct {
	e      *Evaluator
	m      *Measure
	tr     TopicResult
	levels []levelCount
}

// NewTopicScorer returns a scorer of the per-topic measure named measure
// (any spelling of the registry) under opt (-l, -J, -M, -N, -g). q supplies
// what the measure reads of the whole qrels: NTCIREVAL's default gains
// (one per level, up to q's highest).
func NewTopicScorer(q *Qrels, measure string, opt Options) (*TopicScorer, error) {
	ms, err := MeasureForName(measure)
	if err != nil {
		return nil, err
	}
	e := NewEvaluator(q, ms, opt)
	if err := e.setupNTCIR(); err != nil {
		return nil, err
	}
	return &TopicScorer{e: e, m: ms.list[0], tr: TopicResult{Values: make([]float64, ms.nValues)}}, nil
}

// Measure returns the measure's one spelling (ndcg_cut_10, Q, judged@10).
func (s *TopicScorer) Measure() string { return s.m.names[0] }

// Options returns the options the scorer applies.
func (s *TopicScorer) Options() Options { return s.e.Opt }

// Score returns the measure of the ranking whose documents have labels
// (levels ≥ 0, LabelNotInQrels or LabelUnjudged, in rank order; cut at -M
// and, under -J, without the unjudged) for a topic with the judgment
// counts levels (levels ≥ 0, increasing, as Qrels.Levels gives them).
func (s *TopicScorer) Score(labels []int32, levels []LevelCount) float64 {
	s.levels = s.levels[:0]
	for _, lc := range levels {
		s.levels = append(s.levels, levelCount{level: lc.Level, count: lc.Count})
	}
	n := min(int64(len(labels)), max(s.e.Opt.MaxDocs, 0))
	r := s.e.prepareLevels(s.levels, int(n))
	copy(r.rel, labels[:n])
	s.e.count()
	s.e.score(&s.tr)
	return s.tr.Values[0]
}

// Depth returns how many ranks the measure reads the labels of: the
// cutoff k of a measure at k (P_10, ndcg_cut_10, nERR@10, judged@10), or 0
// for one that reads the whole ranking (map, Q, bpref, Rprec; -M bounds
// it). A label deeper than k still changes a measure at k through the
// topic's judgment counts (num_rel, the ideal ranking).
func (s *TopicScorer) Depth() int64 {
	switch {
	case s.m.fam.kind == kindNTCIR:
		if s.m.nt.HasCutoff() {
			return int64(s.m.nt.Cutoff)
		}
	case s.m.fam.kind == kindCutLong:
		return s.m.cutLong[0]
	}
	return 0
}

// LowestRelevantLevel returns the lowest level the measure counts as
// relevant: -l (at least 1) for trec_eval's measures, 1 for NTCIREVAL's
// (every level ≥ 1 is relevant to them, with its gain).
func (s *TopicScorer) LowestRelevantLevel() int64 {
	if s.m.fam.kind == kindNTCIR {
		return 1
	}
	return max(s.e.Opt.RelLevel, 1)
}

// ReadsRelevance reports whether the measure reads the documents' levels:
// false for num_ret and for the coverage measures unj_k and judged@k,
// which read only whether a document is judged.
func (s *TopicScorer) ReadsRelevance() bool {
	switch s.m.fam.name {
	case "num_ret", "unj":
		return false
	}
	return s.m.fam != judgedFamily
}

// Condensed reports whether the measure is itself a condensed-list one
// (NTCIREVAL's condensed=true), whatever -J says.
func (s *TopicScorer) Condensed() bool {
	return s.m.fam.kind == kindNTCIR && s.m.nt.Condensed
}
