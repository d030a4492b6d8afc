// Package scores holds the topic × system table of per-topic effectiveness
// scores that every analysis in riskgate stands on, and the loaders that build
// it from runs and qrels, trec_eval output, CSV and JSON Lines.
package scores

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// Table is a topic × system table of scores of one measure. Scores[s][t] is the
// score of Systems[s] on Topics[t]; NaN marks a missing cell. Systems and
// topics keep the order in which the inputs first named them.
type Table struct {
	Measure string
	Systems []string
	Topics  []string
	Scores  [][]float64
}

// NewTable returns a table of the given systems and topics with every cell missing.
func NewTable(measure string, systems, topics []string) *Table {
	t := &Table{Measure: measure, Systems: slices.Clone(systems), Topics: slices.Clone(topics)}
	t.Scores = make([][]float64, len(systems))
	for s := range t.Scores {
		row := make([]float64, len(topics))
		for i := range row {
			row[i] = math.NaN()
		}
		t.Scores[s] = row
	}
	return t
}

// SystemIndex returns the index of the named system, or -1.
func (t *Table) SystemIndex(name string) int { return slices.Index(t.Systems, name) }

// TopicIndex returns the index of the named topic, or -1.
func (t *Table) TopicIndex(name string) int { return slices.Index(t.Topics, name) }

// Missing returns the number of missing cells.
func (t *Table) Missing() int {
	n := 0
	for _, row := range t.Scores {
		for _, v := range row {
			if math.IsNaN(v) {
				n++
			}
		}
	}
	return n
}

// Complete reports whether no cell is missing.
func (t *Table) Complete() bool { return t.Missing() == 0 }

// UnknownSystemError reports a system name that is not in the table, listing the names that are.
func (t *Table) UnknownSystemError(role, name string) error {
	return fmt.Errorf("%s %q is not in the data; systems are: %s", role, name, strings.Join(quoted(t.Systems), ", "))
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

// TopicMode says how to make a table complete when systems cover different topics.
type TopicMode string

const (
	// Intersect keeps only the topics every system has a score for.
	Intersect TopicMode = "intersect"
	// Zero scores a missing cell as 0, as trec_eval -c does.
	Zero TopicMode = "zero"
	// Fail refuses a table with a missing cell.
	Fail TopicMode = "error"
	// Keep leaves missing cells missing, for analyses that model them.
	Keep TopicMode = "keep"
)

// TopicModes lists the valid modes in the order the CLI documents them.
var TopicModes = []TopicMode{Intersect, Zero, Fail, Keep}

// ParseTopicMode validates a --topics value.
func ParseTopicMode(s string) (TopicMode, error) {
	for _, m := range TopicModes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("--topics %q: expected one of intersect, zero, error, keep", s)
}

// Cell names one (system, topic) cell.
type Cell struct {
	System string `json:"system"`
	Topic  string `json:"topic"`
}

// Alignment records what aligning a table changed, so that reports can say it.
type Alignment struct {
	Mode           TopicMode `json:"mode"`
	DroppedTopics  []string  `json:"dropped_topics,omitempty"`
	DroppedSystems []string  `json:"dropped_systems,omitempty"`
	FilledCells    []Cell    `json:"filled_cells,omitempty"`
	MissingCells   int       `json:"missing_cells,omitempty"` // left missing under Keep
}

// Summary is a one-line description of the alignment for logs and reports,
// or "" when nothing was changed.
func (a Alignment) Summary() string {
	var parts []string
	if n := len(a.DroppedSystems); n > 0 {
		parts = append(parts, fmt.Sprintf("dropped %d system(s) with no scores: %s", n, strings.Join(a.DroppedSystems, ", ")))
	}
	if n := len(a.DroppedTopics); n > 0 {
		parts = append(parts, fmt.Sprintf("dropped %d topic(s) not scored for every system: %s", n, strings.Join(a.DroppedTopics, ", ")))
	}
	if n := len(a.FilledCells); n > 0 {
		parts = append(parts, fmt.Sprintf("scored %d missing cell(s) as 0", n))
	}
	if a.MissingCells > 0 {
		parts = append(parts, fmt.Sprintf("kept %d missing cell(s)", a.MissingCells))
	}
	return strings.Join(parts, "; ")
}

// Align returns a copy of t made complete according to mode (or, under Keep,
// with systems that have no score at all removed) and a record of the change.
// Systems with no score at all are dropped in every mode but Fail.
func (t *Table) Align(mode TopicMode) (*Table, Alignment, error) {
	a := Alignment{Mode: mode}
	var keepSys []int
	for s, row := range t.Scores {
		if slices.ContainsFunc(row, func(v float64) bool { return !math.IsNaN(v) }) {
			keepSys = append(keepSys, s)
		} else {
			a.DroppedSystems = append(a.DroppedSystems, t.Systems[s])
		}
	}
	if mode == Fail && len(a.DroppedSystems) > 0 {
		return nil, a, fmt.Errorf("system %q has no scores (--topics error)", a.DroppedSystems[0])
	}
	keepTopic := make([]bool, len(t.Topics))
	for i := range t.Topics {
		keepTopic[i] = true
		if mode != Intersect {
			continue
		}
		for _, s := range keepSys {
			if math.IsNaN(t.Scores[s][i]) {
				keepTopic[i] = false
				a.DroppedTopics = append(a.DroppedTopics, t.Topics[i])
				break
			}
		}
	}
	var topics []string
	for i, k := range keepTopic {
		if k {
			topics = append(topics, t.Topics[i])
		}
	}
	systems := make([]string, len(keepSys))
	for j, s := range keepSys {
		systems[j] = t.Systems[s]
	}
	out := NewTable(t.Measure, systems, topics)
	for j, s := range keepSys {
		col := 0
		for i, k := range keepTopic {
			if !k {
				continue
			}
			v := t.Scores[s][i]
			if math.IsNaN(v) {
				switch mode {
				case Zero:
					v = 0
					a.FilledCells = append(a.FilledCells, Cell{t.Systems[s], t.Topics[i]})
				case Fail:
					return nil, a, fmt.Errorf("system %q has no score for topic %q (--topics error; use intersect, zero or keep)", t.Systems[s], t.Topics[i])
				case Keep:
					a.MissingCells++
				}
			}
			out.Scores[j][col] = v
			col++
		}
	}
	return out, a, nil
}

// SortedTopics returns the topic names in byte order (trec_eval's order).
func (t *Table) SortedTopics() []string {
	out := slices.Clone(t.Topics)
	sort.Strings(out)
	return out
}
