package scores

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// Builder accumulates cells from one or more inputs into a Table, refusing
// empty names, non-finite scores and duplicate (system, topic) cells with the
// position of the offending line (and, for a duplicate, of the first one).
//
// Memory is proportional to the table: per cell a score and the packed
// position it was read from (16 bytes), nothing per input line.
type Builder struct {
	measure string
	systems []string
	topics  []string
	sysIdx  map[string]int
	topIdx  map[string]int
	// rows[s][t] is the score of system s on topic t, NaN while missing.
	// A row may be shorter than topics: the cells past its end are missing.
	rows [][]float64
	// origin[s][t] packs the file index and line of the cell (see pack).
	origin [][]uint64
	files  []string
	// fileIdx caches the index of the last file seen; most Adds repeat it.
	lastFile    string
	lastFileIdx int
	cells       int
	done        bool
}

// NewBuilder returns an empty builder for the named measure.
func NewBuilder(measure string) *Builder {
	return &Builder{measure: measure, sysIdx: map[string]int{}, topIdx: map[string]int{}, lastFileIdx: -1}
}

// lineBits is the number of bits of a packed origin that hold the line.
const lineBits = 40

func pack(file, line int) uint64 {
	l := uint64(max(line, 0))
	if l >= 1<<lineBits {
		l = 1<<lineBits - 1
	}
	return uint64(file)<<lineBits | l
}

func (b *Builder) unpack(o uint64) (string, int) {
	return b.files[o>>lineBits], int(o & (1<<lineBits - 1))
}

// MaxNameBytes bounds the length of a system, topic or measure name. Names
// are repeated in every report (a 1 MB name made a 216 MB result.json), and
// no real run or topic id comes near it.
const MaxNameBytes = 512

// checkName says what is wrong with a name of the given kind ("system
// name", "topic", "measure"); "" if nothing. A name must be valid UTF-8:
// JSON and the reports would turn each invalid byte into U+FFFD, so two
// distinct names could be shown, or compared, as one.
func checkName(kind, name string) string {
	if len(name) > MaxNameBytes {
		return fmt.Sprintf("%s of %d bytes (%s); expected at most %d", kind, len(name), excerpt(name), MaxNameBytes)
	}
	if i := invalidUTF8(name); i >= 0 {
		return fmt.Sprintf("%s %s is not valid UTF-8 (byte %d); expected UTF-8 text", kind, excerpt(name), i+1)
	}
	return ""
}

// invalidUTF8 returns the offset of the first byte of s that is not valid
// UTF-8, or -1.
func invalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// Add records the score of system on topic, read at file:line. It returns an
// *inputerr.Error for an empty, invalid (see checkName) or too long name, a
// NaN or infinite score, or a cell that was already given.
func (b *Builder) Add(system, topic string, score float64, file string, line int) error {
	if b.done {
		return errors.New("scores: Builder.Add called after Builder.Table")
	}
	switch {
	case strings.TrimSpace(system) == "":
		return inputerr.At(file, line, "empty system name; expected a name")
	case strings.TrimSpace(topic) == "":
		return inputerr.At(file, line, "empty topic for system %q; expected a topic id", system)
	case math.IsNaN(score) || math.IsInf(score, 0):
		return inputerr.At(file, line, "score of system %q on topic %q is %v; expected a finite number", system, topic, score)
	}
	s, ok := b.sysIdx[system]
	if !ok {
		if problem := checkName("system name", system); problem != "" {
			return inputerr.At(file, line, "%s", problem)
		}
		s = b.system(system)
	}
	t, ok := b.topIdx[topic]
	if !ok {
		if problem := checkName("topic", topic); problem != "" {
			return inputerr.At(file, line, "%s", problem)
		}
		topic = strings.Clone(topic)
		t = len(b.topics)
		b.topIdx[topic] = t
		b.topics = append(b.topics, topic)
	}
	if t >= len(b.rows[s]) {
		b.grow(s, t+1)
	}
	if prev := b.rows[s][t]; !math.IsNaN(prev) {
		pf, pl := b.unpack(b.origin[s][t])
		return inputerr.At(file, line, "duplicate score for system %q on topic %q; expected one per (system, topic) (first given at %s:%d)",
			system, topic, pf, pl)
	}
	if file != b.lastFile || b.lastFileIdx < 0 {
		b.lastFileIdx = -1
		for i, f := range b.files {
			if f == file {
				b.lastFileIdx = i
			}
		}
		if b.lastFileIdx < 0 {
			b.lastFileIdx = len(b.files)
			b.files = append(b.files, file)
		}
		b.lastFile = file
	}
	b.rows[s][t] = score
	b.origin[s][t] = pack(b.lastFileIdx, line)
	b.cells++
	return nil
}

// AddSystem declares a system that may have no score at all (a column of a
// wide CSV file that is all blank), so that the table lists it and aligning
// reports it dropped rather than losing it silently.
func (b *Builder) AddSystem(system string) error {
	if b.done {
		return errors.New("scores: Builder.AddSystem called after Builder.Table")
	}
	if strings.TrimSpace(system) == "" {
		return errors.New("scores: empty system name")
	}
	if problem := checkName("system name", system); problem != "" {
		return errors.New(problem)
	}
	b.system(system)
	return nil
}

// system returns the index of the named system, adding it if new.
func (b *Builder) system(name string) int {
	s, ok := b.sysIdx[name]
	if !ok {
		name = strings.Clone(name) // do not pin the caller's line buffer
		s = len(b.systems)
		b.sysIdx[name] = s
		b.systems = append(b.systems, name)
		b.rows = append(b.rows, nil)
		b.origin = append(b.origin, nil)
	}
	return s
}

// grow extends row s to length n, the new cells missing. A row is first
// allocated for every topic known so far, so that only the rows of the first
// system(s) grow piecemeal.
func (b *Builder) grow(s, n int) {
	row, org := b.rows[s], b.origin[s]
	if n > cap(row) {
		c := max(n, len(b.topics), 2*cap(row))
		row = append(make([]float64, 0, c), row...)
		org = append(make([]uint64, 0, c), org...)
	}
	old := len(row)
	row, org = row[:n], org[:n]
	for i := old; i < n; i++ {
		row[i] = math.NaN()
		org[i] = 0
	}
	b.rows[s], b.origin[s] = row, org
}

// Len returns the number of cells added.
func (b *Builder) Len() int { return b.cells }

// Systems returns the number of systems seen so far.
func (b *Builder) Systems() int { return len(b.systems) }

// Table ends the building and returns the table; cells never added are
// missing (NaN). The table takes over the builder's storage, so Add fails
// after Table.
func (b *Builder) Table() *Table {
	b.done = true
	n := len(b.topics)
	t := &Table{Measure: b.measure, Systems: b.systems, Topics: b.topics, Scores: make([][]float64, len(b.rows))}
	for s, row := range b.rows {
		// Pad to every topic; reallocate a row that grew with slack to spare memory.
		if cap(row) < n || cap(row) > n+n/8 {
			row = append(make([]float64, 0, n), row...)
		}
		old := len(row)
		row = row[:n:n]
		for i := old; i < n; i++ {
			row[i] = math.NaN()
		}
		t.Scores[s] = row
	}
	b.rows, b.origin, b.sysIdx, b.topIdx = nil, nil, nil, nil
	return t
}
