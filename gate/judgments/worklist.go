package judgments

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
)

// Retrieval is where one system ranks a document, and how far the
// document's label moves that system's score of the topic.
type Retrieval struct {
	System string
	Rank   int // 1-based
	// Weight is the system's per-topic measure with the document judged at
	// the top level minus with it judged 0 (not relevant), the other
	// documents' labels as they are (an unjudged one counting as the
	// measure's options count it: not relevant, or removed under -J).
	Weight float64
}

// Item is one unjudged (topic, document) pair of a worklist.
type Item struct {
	Topic, Doc string
	// Weight is the largest |Retrieval.Weight| over By: how far the label
	// can move one system's score of the topic.
	Weight float64
	By     []Retrieval // the systems ranking it within the depth, in the order given
}

// Worklist is the unjudged documents whose labels could change a measure,
// the most influential first.
type Worklist struct {
	Measure  string // the measure's one spelling
	Depth    int64  // ranks the measure reads; 0 the whole ranking
	TopLevel int64  // the level the weights judge a document at
	// Unjudged counts the distinct unjudged (topic, document) pairs within
	// the depth of any system; Movable those of them whose label moves some
	// system's score (a non-zero weight).
	Unjudged, Movable int
	Items             []Item // the Movable pairs, by decreasing weight, at most the cap
}

// BuildWorklist lists the unjudged documents that the systems rank within
// the depth measure reads (its cutoff; the whole ranking, up to -M, for a
// measure without one) and whose label can change a system's per-topic
// score, ordered by decreasing weight (Item.Weight to 12 decimals; ties by
// topic in the qrels' order, then document id), at most limit of them (limit ≤ 0: all).
//
// The weight judges the document at the top level, the highest level of q
// (at least the measure's lowest relevant one: max(-l, 1) for trec_eval's
// measures, 1 for NTCIREVAL's), against level 0, one document at a time.
// It is exact for that document with the others unjudged, not a bound on
// what several labels do together. Documents deeper than the measure's
// depth are left out, though a label there can still move a measure
// normalised by the topic's relevant documents (ndcg_cut's ideal ranking,
// map_cut's R).
func BuildWorklist(systems []System, q *trec.Qrels, measure string, opt trec.Options, limit int) (*Worklist, error) {
	s, err := trec.NewTopicScorer(q, measure, opt)
	if err != nil {
		return nil, err
	}
	wl := &Worklist{Measure: s.Measure(), Depth: s.Depth(), TopLevel: max(q.MaxLevel(), s.LowestRelevantLevel())}
	type key struct{ topic, doc string }
	items := map[key]*Item{}
	order := map[string]int{} // topic → its place in the qrels' order
	for _, t := range q.Topics() {
		order[t] = len(order)
	}
	var labels []int32
	for _, sys := range systems {
		for _, tl := range sys.Topics {
			levels := q.Levels(tl.Topic)
			hi, lo := withLevel(levels, wl.TopLevel, 1), withLevel(levels, 0, 1)
			labels = append(labels[:0], tl.Labels...)
			for i := range within(wl.Depth, len(tl.Labels)) {
				if tl.Labels[i] >= 0 {
					continue
				}
				labels[i] = int32(wl.TopLevel)
				w := s.Score(labels, hi)
				labels[i] = 0
				w -= s.Score(labels, lo)
				labels[i] = tl.Labels[i]
				k := key{tl.Topic, tl.Docs[i]}
				it := items[k]
				if it == nil {
					it = &Item{Topic: tl.Topic, Doc: tl.Docs[i]}
					items[k] = it
				}
				it.By = append(it.By, Retrieval{System: sys.Name, Rank: i + 1, Weight: w})
				it.Weight = math.Max(it.Weight, math.Abs(w))
			}
		}
	}
	wl.Unjudged = len(items)
	for _, it := range items {
		if it.Weight > 0 {
			wl.Items = append(wl.Items, *it)
		}
	}
	wl.Movable = len(wl.Items)
	// Weights equal but for rounding (1 − 2/3 and 1/3) are ties.
	rounded := func(w float64) float64 { return math.Round(w * 1e12) }
	slices.SortFunc(wl.Items, func(a, b Item) int {
		if c := cmp.Compare(rounded(b.Weight), rounded(a.Weight)); c != 0 {
			return c
		}
		if c := cmp.Compare(order[a.Topic], order[b.Topic]); c != 0 {
			return c
		}
		return strings.Compare(a.Doc, b.Doc)
	})
	if limit > 0 && len(wl.Items) > limit {
		wl.Items = wl.Items[:limit]
	}
	return wl, nil
}
