package judgments

import (
	"fmt"
	"slices"

	"github.com/riskgate/riskgate/gate/trec"
)

// Variant is an assumption about the documents a measure reads that the
// qrels have not judged (not in the topic's qrels, or in them with a
// negative level).
type Variant int

const (
	// Standard: an unjudged document is not relevant (trec_eval's and
	// NTCIREVAL's default). It underestimates a system that did not
	// contribute to the pool.
	Standard Variant = iota
	// Condensed: unjudged documents are removed from the ranking before it
	// is scored (trec_eval -J, NTCIREVAL's condensed list, label -j; Sakai,
	// SIGIR 2007). It overestimates such a system.
	Condensed
	// Optimistic: every unjudged document the compared systems rank within
	// the measure's depth is relevant at the lowest relevant level (the
	// qrels with those judgments added; the topic's relevant count grows
	// with them).
	Optimistic
	numVariants
)

// Variants lists the variants in order.
var Variants = [numVariants]Variant{Standard, Condensed, Optimistic}

func (v Variant) String() string {
	switch v {
	case Standard:
		return "standard"
	case Condensed:
		return "condensed"
	case Optimistic:
		return "optimistic"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Doc is an unjudged document at its rank (1-based) in a system's ranking.
type Doc struct {
	ID   string
	Rank int
}

// Scores is one system's per-topic measure under each variant.
type Scores struct {
	System string
	Topics []string
	// Values[v][i] is the measure of Topics[i] under Variants[v].
	Values [numVariants][]float64
	// Unjudged[i] lists the unjudged documents of Topics[i] within the
	// depth the measure reads, in rank order.
	Unjudged [][]Doc
}

// VariantScores is ScoreVariants' result.
type VariantScores struct {
	Measure string // the measure's one spelling
	// Depth is the number of ranks the measure reads (its cutoff), 0 for
	// the whole ranking (up to -M).
	Depth int64
	// Lowest is the level the optimistic variant gives unjudged documents.
	Lowest  int64
	Systems []Scores
}

// ScoreVariants scores each system's topics with measure under the three
// variants, with opt's -l, -M, -N and -g (its -J is the condensed variant's,
// and ignored otherwise), and lists each topic's unjudged documents within
// the measure's depth.
//
// Standard and condensed score each system alone: every trec_eval measure
// (the condensed variant is its value under -J) and every NTCIREVAL measure
// (condensed=true). The optimistic variant scores every system against one
// set of qrels: q plus, for each topic, every document that one of the
// systems ranks, unjudged, within the measure's depth, judged at the lowest
// relevant level (max(-l, 1) for trec_eval's measures, 1 for NTCIREVAL's);
// so pass the systems a decision compares, together. It is not always an
// upper bound: a measure divided by the relevant count (map, Rprec, recall,
// and the ideal ranking of ndcg and Q) can fall when an unjudged document
// deep in the ranking becomes relevant.
//
// Refused: measures that read only whether a document is judged (num_ret,
// unj_k, judged@k), which have no variants, and NTCIREVAL's condensed=true
// measures, whose standard value is already condensed.
func ScoreVariants(systems []System, q *trec.Qrels, measure string, opt trec.Options) (*VariantScores, error) {
	opt.JudgedOnly = false
	std, err := trec.NewTopicScorer(q, measure, opt)
	if err != nil {
		return nil, err
	}
	switch {
	case !std.ReadsRelevance():
		return nil, fmt.Errorf("measure %s reads only whether documents are judged, not their levels: it has no variants", std.Measure())
	case std.Condensed():
		return nil, fmt.Errorf("measure %s is a condensed-list measure: its condensed variant is itself; name the measure without condensed=true", std.Measure())
	}
	condOpt := opt
	condOpt.JudgedOnly = true
	cond, err := trec.NewTopicScorer(q, measure, condOpt)
	if err != nil {
		return nil, err
	}
	out := &VariantScores{Measure: std.Measure(), Depth: std.Depth(), Lowest: std.LowestRelevantLevel()}

	// The optimistic qrels: per topic, the unjudged documents any system
	// ranks within the depth.
	assumed := map[string]map[string]bool{}
	for _, s := range systems {
		for _, tl := range s.Topics {
			for i := range within(out.Depth, len(tl.Labels)) {
				if tl.Labels[i] < 0 {
					if assumed[tl.Topic] == nil {
						assumed[tl.Topic] = map[string]bool{}
					}
					assumed[tl.Topic][tl.Docs[i]] = true
				}
			}
		}
	}
	var labels []int32
	for _, s := range systems {
		sc := Scores{System: s.Name, Topics: make([]string, len(s.Topics)), Unjudged: make([][]Doc, len(s.Topics))}
		for v := range sc.Values {
			sc.Values[v] = make([]float64, len(s.Topics))
		}
		for i, tl := range s.Topics {
			levels := q.Levels(tl.Topic)
			sc.Topics[i] = tl.Topic
			sc.Values[Standard][i] = std.Score(tl.Labels, levels)
			sc.Values[Condensed][i] = cond.Score(tl.Labels, levels)
			labels = append(labels[:0], tl.Labels...)
			for k, d := range tl.Docs {
				if labels[k] < 0 && assumed[tl.Topic][d] {
					labels[k] = int32(out.Lowest)
				}
			}
			sc.Values[Optimistic][i] = std.Score(labels, withLevel(levels, out.Lowest, int64(len(assumed[tl.Topic]))))
			for k := range within(out.Depth, len(tl.Labels)) {
				if tl.Labels[k] < 0 {
					sc.Unjudged[i] = append(sc.Unjudged[i], Doc{ID: tl.Docs[k], Rank: k + 1})
				}
			}
		}
		out.Systems = append(out.Systems, sc)
	}
	return out, nil
}

// Paired is a challenger's and a champion's per-topic measure under each
// variant, on the topics both have, in the qrels' order.
type Paired struct {
	Topics               []string
	Challenger, Champion [numVariants][]float64
}

// Pair returns the scores of the systems named challenger and champion on
// their common topics.
func (vs *VariantScores) Pair(challenger, champion string) (Paired, error) {
	find := func(name string) (*Scores, error) {
		i := slices.IndexFunc(vs.Systems, func(s Scores) bool { return s.System == name })
		if i < 0 {
			return nil, fmt.Errorf("no system %q among the scored ones", name)
		}
		return &vs.Systems[i], nil
	}
	x, err := find(challenger)
	if err != nil {
		return Paired{}, err
	}
	b, err := find(champion)
	if err != nil {
		return Paired{}, err
	}
	at := make(map[string]int, len(b.Topics))
	for i, t := range b.Topics {
		at[t] = i
	}
	var p Paired
	for i, t := range x.Topics {
		j, ok := at[t]
		if !ok {
			continue
		}
		p.Topics = append(p.Topics, t)
		for v := range numVariants {
			p.Challenger[v] = append(p.Challenger[v], x.Values[v][i])
			p.Champion[v] = append(p.Champion[v], b.Values[v][j])
		}
	}
	return p, nil
}
