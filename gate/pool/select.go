package pool

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/riskgate/riskgate/gate/scores"
)

// Filter says which stored systems a gate may use as artifacts.
type Filter struct {
	// Measures must all be stored for a system to be kept.
	Measures []string
	// Match, when not nil, holds the champion's fingerprints: a system
	// scored against other qrels or on another topic set is left out.
	// Qrels are compared when both are known; when only one side's are
	// known the system is left out too (it cannot be checked). When neither
	// is known (score files on both sides), only the topic sets are compared.
	Match *Fingerprints
	// Exclude names systems the caller holds already (a gate's champion and
	// challengers): they are not artifacts of their own gate.
	Exclude []string
}

// Reason is why Partition left a system out.
type Reason string

// Reasons, in the order Partition checks them.
const (
	InInputs     Reason = "in-inputs"     // named in Filter.Exclude
	NoMeasure    Reason = "no-measure"    // a measure of Filter.Measures is not stored
	OtherQrels   Reason = "other-qrels"   // scored against other qrels than the champion
	UnknownQrels Reason = "unknown-qrels" // its or the champion's qrels are unknown, the other's known
	OtherTopics  Reason = "other-topics"  // scored on another topic set than the champion
)

// Exclusion is a system left out, and why.
type Exclusion struct {
	System string
	Reason Reason // the first reason found
	Detail string // every reason, in words
}

// String says it in one phrase: `"art-3" (scored against other qrels: …)`.
func (x Exclusion) String() string { return fmt.Sprintf("%q (%s)", x.System, x.Detail) }

// Partition splits entries into those the filter keeps and those it leaves
// out, each with its reasons; both keep the entries' order.
func Partition(entries []*Entry, f Filter) (kept []*Entry, out []Exclusion) {
	for _, e := range entries {
		var reasons []Reason
		var words []string
		add := func(r Reason, format string, args ...any) {
			reasons = append(reasons, r)
			words = append(words, fmt.Sprintf(format, args...))
		}
		if slices.Contains(f.Exclude, e.System) {
			add(InInputs, "an input of this run already")
		}
		for _, m := range f.Measures {
			if !slices.Contains(e.Measures, m) {
				add(NoMeasure, "no %q scores (stored: %s)", m, strings.Join(quoteAll(e.Measures), ", "))
			}
		}
		if ref := f.Match; ref != nil {
			fp := e.Fingerprints()
			switch {
			case ref.Qrels != "" && fp.Qrels != "" && ref.Qrels != fp.Qrels:
				add(OtherQrels, "scored against other qrels: %s, the champion's %s", shortDigest(fp.Qrels), shortDigest(ref.Qrels))
			case ref.Qrels != "" && fp.Qrels == "":
				add(UnknownQrels, "the qrels it was scored against are unknown (stored from score files without --qrels), the champion's are %s", shortDigest(ref.Qrels))
			case ref.Qrels == "" && fp.Qrels != "":
				add(UnknownQrels, "scored against qrels %s; the champion's qrels are unknown, so they cannot be compared", shortDigest(fp.Qrels))
			}
			if ref.Topics != "" && ref.Topics != fp.Topics {
				add(OtherTopics, "scored on another topic set: %d topics (%s), the champion's %d (%s)", fp.NTopics, shortDigest(fp.Topics), ref.NTopics, shortDigest(ref.Topics))
			}
		}
		if len(reasons) == 0 {
			kept = append(kept, e)
			continue
		}
		out = append(out, Exclusion{System: e.System, Reason: reasons[0], Detail: strings.Join(words, "; ")})
	}
	return kept, out
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

// Artifacts reads the pool's entries and partitions them (Partition): what a
// gate adds to its pool, and what it leaves out with a warning.
func (s *Store) Artifacts(f Filter, opt ReadOptions) ([]*Entry, []Exclusion, error) {
	entries, err := s.Entries(opt)
	if err != nil {
		return nil, nil, err
	}
	kept, out := Partition(entries, f)
	return kept, out, nil
}

// TableFingerprints are the fingerprints of a gate's champion: the topics
// it is scored on in t, and the qrels (their SHA-256, "" unknown).
func TableFingerprints(t *scores.Table, system, qrels string) Fingerprints {
	topics := scoredTopics(t, t.SystemIndex(system))
	return Fingerprints{Qrels: qrels, Topics: TopicSetSHA256(topics), NTopics: len(topics)}
}

// Table returns the entries' scores of measure as a score table: systems
// in the order given, topics in the order they first appear, and NaN for a
// topic a system was not scored on (for scores.Table.Align). Every entry
// must hold the measure.
func Table(entries []*Entry, measure string) (*scores.Table, error) {
	var systems, topics []string
	seen := map[string]bool{}
	// seen doubles as the topic set; index below maps topics to columns.
	for _, e := range entries {
		if e.Measure(measure) == nil {
			return nil, fmt.Errorf("system %q has no %q scores in the pool", e.System, measure)
		}
		systems = append(systems, e.System)
		for _, topic := range e.Topics {
			if !seen[topic] {
				seen[topic] = true
				topics = append(topics, topic)
			}
		}
	}
	t := scores.NewTable(measure, systems, topics)
	index := make(map[string]int, len(topics))
	for i, topic := range topics {
		index[topic] = i
	}
	for s, e := range entries {
		row := e.Measure(measure)
		for i, topic := range e.Topics {
			t.Scores[s][index[topic]] = row[i]
		}
	}
	return t, nil
}

// Recording says how NewEntry records a system.
type Recording struct {
	At    time.Time // the time stored (cut to whole seconds, UTC)
	Role  Role
	Label string
	Qrels Qrels // the judgments the table was scored against; zero when unknown
	Run   *Run  // the run the system was scored from; nil when none
}

// NewEntry makes the entry of one system of a score table: its scores on
// the topics it has a score for (a missing cell is left out), with its
// first event.
func NewEntry(t *scores.Table, system string, r Recording) (*Entry, error) {
	s := t.SystemIndex(system)
	if s < 0 {
		return nil, t.UnknownSystemError("system", system)
	}
	at := Time(r.At)
	e := &Entry{
		System: system, Label: r.Label, Stored: at, Qrels: r.Qrels,
		History:  []Event{{At: at, Action: Recorded, Role: r.Role, Label: r.Label}},
		Measures: []string{t.Measure},
		Scores:   [][]float64{nil},
	}
	if r.Run != nil {
		run := *r.Run
		e.Run = &run
	}
	for i, v := range t.Scores[s] {
		if !math.IsNaN(v) {
			e.Topics = append(e.Topics, t.Topics[i])
			e.Scores[0] = append(e.Scores[0], v)
		}
	}
	if err := e.check(); err != nil {
		return nil, fmt.Errorf("system %q: %w", system, err)
	}
	return e, nil
}

func scoredTopics(t *scores.Table, s int) []string {
	var topics []string
	if s < 0 {
		return nil
	}
	for i, v := range t.Scores[s] {
		if !math.IsNaN(v) {
			topics = append(topics, t.Topics[i])
		}
	}
	return topics
}
