package scores

import (
	"math"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// Builder accumulates cells from one or more inputs into a Table, refusing
// duplicate (system, topic) cells and non-finite scores with the position of
// the offending line.
type Builder struct {
	measure string
	systems []string
	topics  []string
	sysIdx  map[string]int
	topIdx  map[string]int
	cells   map[[2]int]cellValue
}

type cellValue struct {
	score float64
	file  string
	line  int
}

// NewBuilder returns an empty builder for the named measure.
func NewBuilder(measure string) *Builder {
	return &Builder{measure: measure, sysIdx: map[string]int{}, topIdx: map[string]int{}, cells: map[[2]int]cellValue{}}
}

// Add records the score of system on topic, read at file:line.
func (b *Builder) Add(system, topic string, score float64, file string, line int) error {
	if math.IsNaN(score) || math.IsInf(score, 0) {
		return inputerr.At(file, line, "score of system %q on topic %q is %v; expected a finite number", system, topic, score)
	}
	s, ok := b.sysIdx[system]
	if !ok {
		s = len(b.systems)
		b.sysIdx[system] = s
		b.systems = append(b.systems, system)
	}
	t, ok := b.topIdx[topic]
	if !ok {
		t = len(b.topics)
		b.topIdx[topic] = t
		b.topics = append(b.topics, topic)
	}
	key := [2]int{s, t}
	if prev, dup := b.cells[key]; dup {
		return inputerr.At(file, line, "duplicate score for system %q on topic %q (first given at %s:%d)", system, topic, prev.file, prev.line)
	}
	b.cells[key] = cellValue{score, file, line}
	return nil
}

// Len returns the number of cells added.
func (b *Builder) Len() int { return len(b.cells) }

// Table returns the table built so far; cells never added are missing (NaN).
func (b *Builder) Table() *Table {
	t := NewTable(b.measure, b.systems, b.topics)
	for k, v := range b.cells {
		t.Scores[k[0]][k[1]] = v.score
	}
	return t
}
