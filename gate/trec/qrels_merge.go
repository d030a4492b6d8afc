package trec

import (
	"errors"
	"math"
	"slices"
	"strings"
)

// Judgment is one judgment of qrels: a document's level for a topic, and
// the line it was read from (0 when it was not read from a file).
type Judgment struct {
	Topic, Doc string
	Level      int64
	Line       int
}

// Judgments returns every judgment of q, topic by topic in q's (strcmp)
// order, in file order within a topic.
func (q *Qrels) Judgments() []Judgment {
	out := make([]Judgment, 0, q.NumJudgments())
	for _, t := range q.topics {
		for _, j := range t.judged {
			out = append(out, Judgment{Topic: t.id, Doc: string(q.docnos.at(j.doc)), Level: int64(j.rel), Line: int(j.line)})
		}
	}
	return out
}

// With returns q with the judgments js merged in, named name: a judgment
// of js replaces every judgment q has of the same document for the same
// topic, a later one of js replaces an earlier one, and a topic q lacks is
// added. Levels are kept in the int32 range, as ReadQrels keeps them. q is
// not changed. The judgments' lines stay those of js, whose file name says
// (errors about a merged judgment name the merged qrels).
func (q *Qrels) With(name string, js []Judgment) (*Qrels, error) {
	type key struct{ topic, doc string }
	last := make(map[key]int, len(js)) // the index in js of each (topic, doc)'s judgment that counts
	for i, j := range js {
		last[key{j.Topic, j.Doc}] = i
	}
	byTopic := map[string][]int{} // the judgments of js that count, per topic, in js order
	for i, j := range js {
		if last[key{j.Topic, j.Doc}] == i {
			byTopic[j.Topic] = append(byTopic[j.Topic], i)
		}
	}
	out := &Qrels{Name: name, docnos: make(docnos, 0, len(q.docnos))}
	add := func(t *qrelsTopic, doc []byte, level int64, line int) error {
		off, ok := out.docnos.add(doc)
		if !ok {
			return errors.New("too many docnos (more than 4 GiB)")
		}
		rel := saturate32(level)
		if rel > 0 {
			out.numPositive++
		}
		t.judged = append(t.judged, judgment{doc: off, rel: rel, line: uint32(min(max(line, 0), math.MaxUint32))})
		return nil
	}
	for _, qt := range q.topics {
		t := qrelsTopic{id: qt.id, judged: make([]judgment, 0, len(qt.judged))}
		for _, j := range qt.judged {
			doc := q.docnos.at(j.doc)
			if _, replaced := last[key{qt.id, string(doc)}]; replaced {
				continue
			}
			if err := add(&t, doc, int64(j.rel), int(j.line)); err != nil {
				return nil, err
			}
		}
		for _, i := range byTopic[qt.id] {
			if err := add(&t, []byte(js[i].Doc), js[i].Level, js[i].Line); err != nil {
				return nil, err
			}
		}
		delete(byTopic, qt.id)
		out.topics = append(out.topics, t)
	}
	for id, idx := range byTopic {
		t := qrelsTopic{id: id}
		for _, i := range idx {
			if err := add(&t, []byte(js[i].Doc), js[i].Level, js[i].Line); err != nil {
				return nil, err
			}
		}
		out.topics = append(out.topics, t)
	}
	slices.SortFunc(out.topics, func(a, b qrelsTopic) int { return strings.Compare(a.id, b.id) })
	for i := range out.topics {
		out.topics[i].levels = countLevels(out.topics[i].judged)
	}
	return out, nil
}
