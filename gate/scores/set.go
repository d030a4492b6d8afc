package scores

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/suggest"
)

// Direction says which way a measure improves.
type Direction int8

const (
	// HigherIsBetter is every effectiveness measure (AP, nDCG, recall); the default.
	HigherIsBetter Direction = iota
	// LowerIsBetter is a cost: latency, an error rate, a price.
	LowerIsBetter
)

func (d Direction) String() string {
	if d == LowerIsBetter {
		return "lower is better"
	}
	return "higher is better"
}

// Set is several measures over the same systems and topics: one Table per
// measure, every table with the same Systems and Topics in the same order
// (rows and columns line up across tables), measures distinct and named as
// the registry prints them (trec.MeasureName), in the order they were asked
// for, else in the order the inputs first name them. A Set of inputs that
// name no measure (a plain system,topic,score CSV) holds one table whose
// Measure is "".
type Set struct {
	Tables []*Table
	// Directions[i] is the direction of Tables[i]; nil or short means
	// HigherIsBetter for the tables past its end.
	Directions []Direction
	// Rankings are the TREC runs' rankings against the qrels they were
	// scored with, when the load kept them (LoadOptions.KeepRankings); nil
	// otherwise.
	Rankings *Rankings
}

// Rankings are the runs of a load ranked and labelled against its qrels
// (trec.Rank), for reasoning about what the qrels have not judged
// (gate/judgments): a run is one system of the Set.
type Rankings struct {
	Qrels   *trec.Qrels
	Options trec.Options // the -l, -J and -M the runs were scored with (-c never)
	// Systems are the runs' names, in argument order, and Topics[i] the
	// topics of Systems[i] the qrels judge, in the qrels' order.
	Systems []string
	Topics  [][]trec.TopicList
}

// SetOf returns a Set of the given tables, every measure higher-is-better.
// The tables must share systems and topics (see Set).
func SetOf(tables ...*Table) *Set { return &Set{Tables: tables} }

// Measures returns the name of each table's measure, in order.
func (s *Set) Measures() []string {
	out := make([]string, len(s.Tables))
	for i, t := range s.Tables {
		out[i] = t.Measure
	}
	return out
}

// index returns the index of the table of the measure name spells (any
// registry spelling), or -1.
func (s *Set) index(name string) int {
	c := trec.MeasureName(name)
	return slices.IndexFunc(s.Tables, func(t *Table) bool { return t.Measure == c || t.Measure == name })
}

// Table returns the table of the named measure, resolving any accepted
// spelling through the registry (nDCG@10 and ndcg_cut.10 name ndcg_cut_10).
// The name "" returns the only table of a one-measure Set. An absent measure
// is an error listing the measures present, with did-you-mean.
func (s *Set) Table(name string) (*Table, error) {
	if name == "" {
		if len(s.Tables) == 1 {
			return s.Tables[0], nil
		}
		return nil, fmt.Errorf("the inputs hold %d measures (%s); name one with --measure", len(s.Tables), strings.Join(quoted(s.Measures()), ", "))
	}
	if i := s.index(name); i >= 0 {
		return s.Tables[i], nil
	}
	if len(s.Tables) == 1 && s.Tables[0].Measure == "" {
		return nil, fmt.Errorf("measure %q: the inputs name no measure (%s); name the measure of such inputs with --unnamed-measure %s (or give them a measure column)", name, unnamedKinds, name)
	}
	present := s.Measures()
	return nil, fmt.Errorf("measure %q is not in the inputs%s; they hold %s", name, suggest.DidYouMean(name, present), strings.Join(quoted(present), ", "))
}

// unnamedKinds says which inputs name no measure, for messages.
const unnamedKinds = "a system,topic,score CSV or JSON Lines without a measure, or a CSV of one column per system"

// Direction returns the direction of the named measure (any spelling);
// HigherIsBetter for a measure the Set does not hold.
func (s *Set) Direction(name string) Direction {
	i := s.index(name)
	if i < 0 || i >= len(s.Directions) {
		return HigherIsBetter
	}
	return s.Directions[i]
}

// Align returns a copy of s made complete according to mode, as Table.Align
// does for one table, with one rule for every measure: a topic kept is kept
// in every measure, so the tables still line up. Under Intersect a topic is
// dropped when any system lacks a score for it in any measure; under Zero
// each missing cell of each measure is scored 0; under Fail any missing
// cell is an error; under Keep missing cells stay missing. A system with no
// score in any measure is dropped (an error under Fail); a system with
// scores of some measure but none of another is an error in every mode: its
// comparison on that measure would rest on nothing, or on zeros.
//
// With several measures, each FilledCells entry names its measure.
func (s *Set) Align(mode TopicMode) (*Set, Alignment, error) {
	a := Alignment{Mode: mode}
	switch mode {
	case Intersect, Zero, Fail, Keep:
	default:
		return nil, a, fmt.Errorf("unknown topic mode %q: expected one of intersect, zero, error, keep", mode)
	}
	if len(s.Tables) == 0 {
		return nil, a, fmt.Errorf("the inputs hold no scores")
	}
	first := s.Tables[0]
	multi := len(s.Tables) > 1
	hasScore := func(t *Table, sys int) bool {
		return slices.ContainsFunc(t.Scores[sys], func(v float64) bool { return !math.IsNaN(v) })
	}
	var keepSys []int
	for sys, name := range first.Systems {
		var with, without []string
		for _, t := range s.Tables {
			if hasScore(t, sys) {
				with = append(with, t.Measure)
			} else {
				without = append(without, t.Measure)
			}
		}
		switch {
		case len(with) == 0:
			a.DroppedSystems = append(a.DroppedSystems, name)
		case len(without) > 0:
			return nil, a, fmt.Errorf("system %q has no score of measure %s but has scores of %s; expected every system scored on every measure (select measures with --measure)",
				name, strings.Join(quoted(without), ", "), strings.Join(quoted(with), ", "))
		default:
			keepSys = append(keepSys, sys)
		}
	}
	if mode == Fail && len(a.DroppedSystems) > 0 {
		return nil, a, fmt.Errorf("system %q has no scores (--topics error)", a.DroppedSystems[0])
	}
	if len(keepSys) == 0 {
		return nil, a, fmt.Errorf("the inputs hold no scores")
	}
	if mode == Fail {
		missing := 0
		for _, t := range s.Tables {
			missing += t.Missing()
		}
		if missing > 0 {
			for _, t := range s.Tables {
				for _, sys := range keepSys {
					if i := slices.IndexFunc(t.Scores[sys], math.IsNaN); i >= 0 {
						of := ""
						if multi {
							of = fmt.Sprintf(" of measure %q", t.Measure)
						}
						return nil, a, fmt.Errorf("system %q has no score%s for topic %q, and %d cell(s) are missing in all (--topics error; use intersect, zero or keep)",
							first.Systems[sys], of, first.Topics[i], missing)
					}
				}
			}
		}
	}

	keepTopic := make([]bool, len(first.Topics))
	var topics []string
	for i, name := range first.Topics {
		keepTopic[i] = mode != Intersect || !slices.ContainsFunc(s.Tables, func(t *Table) bool {
			return slices.ContainsFunc(keepSys, func(sys int) bool { return math.IsNaN(t.Scores[sys][i]) })
		})
		if keepTopic[i] {
			topics = append(topics, name)
		} else {
			a.DroppedTopics = append(a.DroppedTopics, name)
		}
	}
	if len(topics) == 0 {
		return nil, a, fmt.Errorf("no topic is scored for every system, so --topics intersect leaves nothing (%d systems, %d topics); try --topics zero or keep", len(keepSys), len(first.Topics))
	}

	systems := make([]string, len(keepSys))
	for j, sys := range keepSys {
		systems[j] = first.Systems[sys]
	}
	out := &Set{Tables: make([]*Table, len(s.Tables)), Directions: slices.Clone(s.Directions), Rankings: s.Rankings}
	for m, t := range s.Tables {
		o := NewTable(t.Measure, systems, topics)
		for j, sys := range keepSys {
			col := 0
			for i, keep := range keepTopic {
				if !keep {
					continue
				}
				v := t.Scores[sys][i]
				if math.IsNaN(v) {
					switch mode {
					case Zero:
						v = 0
						c := Cell{System: t.Systems[sys], Topic: t.Topics[i]}
						if multi {
							c.Measure = t.Measure
						}
						a.FilledCells = append(a.FilledCells, c)
					case Keep:
						a.MissingCells++
					}
				}
				o.Scores[j][col] = v
				col++
			}
		}
		out.Tables[m] = o
	}
	return out, a, nil
}
