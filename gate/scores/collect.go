package scores

import (
	"fmt"
	"slices"
)

// maxMeasures bounds how many distinct measures one load may hold: every
// measure is a table of every system and topic, and no evaluation prints
// more than a few hundred (trec_eval -m all_trec prints about 130).
const maxMeasures = 1000

// collector gathers the cells of several measures into one Builder per
// measure, keeping the order in which the inputs first name each system
// and topic in any measure, so that every table of the Set lines up.
//
// While one measure is collected its builder's order is that order, and
// nothing more is kept: the common case costs no more than a Builder.
type collector struct {
	// rankings are the runs' rankings, when the load keeps them.
	rankings *Rankings
	measures []string // in the order first given (or wanted)
	builders map[string]*Builder
	// With a second measure, every system and topic in first-seen order.
	systems, topics  []string
	sysSeen, topSeen map[string]bool
}

func newCollector() *collector {
	return &collector{builders: map[string]*Builder{}}
}

// builder returns the builder of measure, adding it if new.
func (c *collector) builder(measure string) (*Builder, error) {
	b, ok := c.builders[measure]
	if !ok {
		if len(c.measures) >= maxMeasures {
			return nil, fmt.Errorf("more than %d measures; expected at most %d (select some with --measure)", maxMeasures, maxMeasures)
		}
		if len(c.measures) == 1 {
			// From now on the order spans measures: it starts as the first one's.
			first := c.builders[c.measures[0]]
			c.sysSeen, c.topSeen = map[string]bool{}, map[string]bool{}
			for _, name := range first.systems {
				c.seeSystem(name)
			}
			for _, name := range first.topics {
				c.seeTopic(name)
			}
		}
		b = NewBuilder(measure)
		c.builders[measure] = b
		c.measures = append(c.measures, measure)
	}
	return b, nil
}

// add records the score of system on topic for measure, read at file:line
// (see Builder.Add).
func (c *collector) add(measure, system, topic string, score float64, file string, line int) error {
	b, err := c.builder(measure)
	if err != nil {
		return err
	}
	if c.sysSeen == nil {
		return b.Add(system, topic, score, file, line)
	}
	ns, nt := len(b.systems), len(b.topics)
	if err := b.Add(system, topic, score, file, line); err != nil {
		return err
	}
	if len(b.systems) > ns {
		c.seeSystem(b.systems[ns])
	}
	if len(b.topics) > nt {
		c.seeTopic(b.topics[nt])
	}
	return nil
}

// addSystem declares a system of measure that may have no score (see Builder.AddSystem).
func (c *collector) addSystem(measure, system string) error {
	b, err := c.builder(measure)
	if err != nil {
		return err
	}
	ns := len(b.systems)
	if err := b.AddSystem(system); err != nil {
		return err
	}
	if c.sysSeen != nil && len(b.systems) > ns {
		c.seeSystem(b.systems[ns])
	}
	return nil
}

func (c *collector) seeSystem(name string) {
	if !c.sysSeen[name] {
		c.sysSeen[name] = true
		c.systems = append(c.systems, name)
	}
}

func (c *collector) seeTopic(name string) {
	if !c.topSeen[name] {
		c.topSeen[name] = true
		c.topics = append(c.topics, name)
	}
}

// systemCount returns the number of systems seen so far in any measure.
func (c *collector) systemCount() int {
	switch {
	case c.sysSeen != nil:
		return len(c.systems)
	case len(c.measures) == 1:
		return len(c.builders[c.measures[0]].systems)
	}
	return 0
}

// cells returns the number of cells added in all measures.
func (c *collector) cells() int {
	n := 0
	for _, b := range c.builders {
		n += b.Len()
	}
	return n
}

// has reports whether some cell or system of measure was added.
func (c *collector) has(measure string) bool { _, ok := c.builders[measure]; return ok }

// set ends the collection: one table per measure, in the order of order
// (every measure collected must be in it) or, when order is empty, in the
// order first given; every table over all systems and topics.
func (c *collector) set(order []string) *Set {
	if len(order) == 0 {
		order = c.measures
	}
	s := &Set{Rankings: c.rankings}
	for _, m := range order {
		b, ok := c.builders[m]
		if !ok {
			continue
		}
		t := b.Table()
		if c.sysSeen != nil && (!slices.Equal(t.Systems, c.systems) || !slices.Equal(t.Topics, c.topics)) {
			t = t.reindex(c.systems, c.topics)
		}
		s.Tables = append(s.Tables, t)
	}
	return s
}

// reindex returns t over the given systems and topics, a superset of its
// own: cells it lacks are missing.
func (t *Table) reindex(systems, topics []string) *Table {
	out := NewTable(t.Measure, systems, topics)
	col := make(map[string]int, len(topics))
	for i, name := range topics {
		col[name] = i
	}
	at := make([]int, len(t.Topics))
	for i, name := range t.Topics {
		at[i] = col[name]
	}
	row := make(map[string]int, len(systems))
	for s, name := range systems {
		row[name] = s
	}
	for s, name := range t.Systems {
		dst := out.Scores[row[name]]
		for i, v := range t.Scores[s] {
			dst[at[i]] = v
		}
	}
	return out
}
