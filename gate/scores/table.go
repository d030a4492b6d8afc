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

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/suggest"
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

// NewTable returns a table of the given systems and topics with every cell
// missing. The rows share one backing array.
func NewTable(measure string, systems, topics []string) *Table {
	t := &Table{Measure: measure, Systems: slices.Clone(systems), Topics: slices.Clone(topics)}
	n := len(topics)
	cells := make([]float64, len(systems)*n)
	for i := range cells {
		cells[i] = math.NaN()
	}
	t.Scores = make([][]float64, len(systems))
	for s := range t.Scores {
		t.Scores[s] = cells[s*n : (s+1)*n : (s+1)*n]
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

// UnknownSystemError reports a system name that is not in the table, as
// role (what the name was given for: "champion", "--a"), with SystemHint.
func (t *Table) UnknownSystemError(role, name string) error {
	return fmt.Errorf("%s %q is not in the data%s", role, escape.Clip(name, maxNameRunes), SystemHint(name, t.Systems))
}

// SystemHint is what every message about a name that is no system of the
// data ends with, whichever command or policy key gave it: a did-you-mean
// when a system's name is a likely typo or abbreviation of it (never for a
// glob, which is no misspelt name), then the first maxListed systems —
// `; did you mean "Champion"? (systems: "a", "b", … and 35 more)`.
func SystemHint(name string, systems []string) string {
	hint := ""
	if !strings.ContainsAny(name, "*?") {
		hint = suggest.DidYouMean(name, systems)
	}
	var some []string
	for i, s := range systems {
		if i == maxListed {
			some = append(some, fmt.Sprintf("… and %d more", len(systems)-maxListed))
			break
		}
		some = append(some, fmt.Sprintf("%q", escape.Clip(s, maxNameRunes)))
	}
	return fmt.Sprintf("%s (systems: %s)", hint, strings.Join(some, ", "))
}

// maxNameRunes is how much of a name a message quotes.
const maxNameRunes = 60

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
	names := make([]string, len(TopicModes))
	for i, m := range TopicModes {
		names[i] = string(m)
	}
	return "", fmt.Errorf("--topics %q: expected one of %s%s", s, strings.Join(names, ", "), suggest.DidYouMean(s, names))
}

// Cell names one (system, topic) cell.
type Cell struct {
	System string `json:"system"`
	Topic  string `json:"topic"`
	// Measure is the cell's measure when the inputs hold several; "" otherwise.
	Measure string `json:"measure,omitempty"`
}

// Alignment records what aligning a table changed, so that reports can say it.
type Alignment struct {
	Mode           TopicMode `json:"mode"`
	DroppedTopics  []string  `json:"dropped_topics,omitempty"`  // Intersect: topics some system has no score for
	DroppedSystems []string  `json:"dropped_systems,omitempty"` // systems with no score at all
	FilledCells    []Cell    `json:"filled_cells,omitempty"`    // Zero: cells scored 0
	MissingCells   int       `json:"missing_cells,omitempty"`   // Keep: cells left missing
}

// maxListed caps how many names a summary spells out.
const maxListed = 10

// Summary is a one-line description of the alignment for logs and reports,
// or "" when nothing was changed. Long lists of names are cut after a few.
func (a Alignment) Summary() string {
	var parts []string
	if n := len(a.DroppedSystems); n > 0 {
		parts = append(parts, fmt.Sprintf("dropped %d system(s) with no scores: %s", n, listNames(a.DroppedSystems)))
	}
	if n := len(a.DroppedTopics); n > 0 {
		parts = append(parts, fmt.Sprintf("dropped %d topic(s) not scored for every system (--topics intersect): %s", n, listNames(a.DroppedTopics)))
	}
	if n := len(a.FilledCells); n > 0 {
		parts = append(parts, fmt.Sprintf("scored %d missing cell(s) as 0 (--topics zero): %s", n, listFilled(a.FilledCells)))
	}
	if a.MissingCells > 0 {
		parts = append(parts, fmt.Sprintf("kept %d missing cell(s) (--topics keep)", a.MissingCells))
	}
	return strings.Join(parts, "; ")
}

// listNames quotes names, spelling out at most maxListed of them.
func listNames(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(quoted(names), ", ")
	}
	return fmt.Sprintf("%s, … (%d in all)", strings.Join(quoted(names[:maxListed]), ", "), len(names))
}

// listFilled groups filled cells by system: `"a" on "301", "302"; "b" on "305"`.
func listFilled(cells []Cell) string {
	var groups []string
	for i := 0; i < len(cells); {
		j := i
		var topics []string
		for j < len(cells) && cells[j].System == cells[i].System {
			topics = append(topics, cells[j].Topic)
			j++
		}
		groups = append(groups, fmt.Sprintf("%q on %s", cells[i].System, listNames(topics)))
		i = j
	}
	if len(groups) > maxListed {
		return fmt.Sprintf("%s; … (%d systems in all)", strings.Join(groups[:maxListed], "; "), len(groups))
	}
	return strings.Join(groups, "; ")
}

// Align returns a copy of t made complete according to mode (under Keep, only
// systems without any score are removed) and a record of what changed.
// Systems with no score at all are dropped in every mode but Fail, where they
// are an error. A result with no system or no topic left is an error: there
// is nothing to analyse.
func (t *Table) Align(mode TopicMode) (*Table, Alignment, error) {
	s, a, err := SetOf(t).Align(mode)
	if err != nil {
		return nil, a, err
	}
	return s.Tables[0], a, nil
}

// SortedTopics returns the topic names in byte order (trec_eval's order).
func (t *Table) SortedTopics() []string {
	out := slices.Clone(t.Topics)
	sort.Strings(out)
	return out
}
