package pool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/riskgate/riskgate/internal/atomicfile"
)

// Record stores entries, holding the pool's lock. A system not stored yet
// gets the entry as it is. A system stored already gets the entry merged
// into its own: measures it does not hold are added, scores it holds must
// be the same bits, its history gains the entry's events (an event equal to
// the last one is not repeated), and its first label and time stay. A merge
// that finds other scores, other qrels or another topic set is refused, and
// then nothing is written: the scores must be rescored (Rescore), or stored
// under another name.
//
// A run to keep (Run.Kept with Run.Source) is copied into the pool before
// the entry is written, and must have Run.SHA256. When an entry was recorded
// as the champion and the lineage is empty, it starts the lineage (the pool's
// first champion is the first one a gate recorded); a lineage that has a
// champion changes only by Promote.
//
// It returns what became of each system, in the order first given.
func (s *Store) Record(ctx context.Context, entries ...*Entry) ([]Outcome, error) {
	var outcomes []Outcome
	err := s.locked(ctx, func() error {
		var order []string
		merged := map[string]*Entry{}
		changed := map[string]bool{}
		copyRun := map[string]*Run{}
		isNew := map[string]bool{}
		for _, e := range entries {
			if err := e.check(); err != nil {
				return fmt.Errorf("system %q: %w", e.System, err)
			}
			cur, seen := merged[e.System]
			if !seen {
				old, err := s.readEntry(s.EntryPath(e.System))
				switch {
				case errors.Is(err, fs.ErrNotExist):
				case err != nil:
					return fmt.Errorf("%w; it cannot be added to: remove it first (riskgate pool rm)", err)
				case old.System != e.System: // 64 bits of SHA-256 alike: never seen, still refused
					return fmt.Errorf("%s holds system %q, and %q would share its file name; store it under another name", s.EntryPath(e.System), old.System, e.System)
				default:
					cur = old
				}
				order = append(order, e.System)
			}
			if cur == nil {
				merged[e.System], changed[e.System], isNew[e.System] = e.clone(), true, true
				if e.Run != nil && e.Run.Kept {
					copyRun[e.System] = e.Run
				}
				continue
			}
			next, grew, err := merge(cur, e)
			if err != nil {
				return fmt.Errorf("%s: %w", s.EntryPath(e.System), err)
			}
			merged[e.System] = next
			changed[e.System] = changed[e.System] || grew
			if e.Run != nil && e.Run.Kept && (cur.Run == nil || !cur.Run.Kept) {
				copyRun[e.System] = e.Run
			}
		}
		lineage, err := s.lineageToStart(entries)
		if err != nil {
			return err
		}
		for _, name := range order {
			kind := Unchanged
			switch {
			case isNew[name]:
				kind = Added
			case changed[name]:
				kind = Extended
			}
			outcomes = append(outcomes, Outcome{System: name, Kind: kind})
			if !changed[name] {
				continue
			}
			if r := copyRun[name]; r != nil {
				if err := s.keepRun(name, r); err != nil {
					return err
				}
			}
			if err := s.writeEntry(merged[name]); err != nil {
				return err
			}
		}
		if lineage != nil {
			return s.writeLineage(lineage)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return outcomes, nil
}

// Outcome is what Record did with one system.
type Outcome struct {
	System string
	Kind   OutcomeKind
}

// OutcomeKind says whether Record added, extended or left a system.
type OutcomeKind string

// Outcome kinds.
const (
	Added     OutcomeKind = "added"     // not stored before
	Extended  OutcomeKind = "extended"  // stored, and given measures or history it lacked
	Unchanged OutcomeKind = "unchanged" // stored already with all that was given
)

// Merge returns a with b's measures, run and history merged in, as Record
// merges an entry into a stored one: same qrels, same topic set, and the
// same bits for a measure both hold.
func Merge(a, b *Entry) (*Entry, error) {
	m, _, err := merge(a, b)
	return m, err
}

// KeptRun is the run of system to be kept in the pool: Record copies the
// file source (whose bytes must have the SHA-256 sha) into the pool.
func KeptRun(system, source, sha string) *Run {
	return &Run{Kept: true, Path: keptRunPath(system), SHA256: sha, Source: source}
}

// RunPath is the file a stored run is read from: a kept run's copy in the
// pool, else the path as it was given.
func (s *Store) RunPath(r *Run) string {
	if r.Kept {
		return s.path(filepath.FromSlash(r.Path))
	}
	return r.Path
}

// lineageToStart returns the lineage to write when the first entry
// recorded as champion is to start it (the lineage has no reign), else nil.
// It reads the lineage before anything is written, so that a damaged one
// stops Record first.
func (s *Store) lineageToStart(entries []*Entry) ([]Reign, error) {
	for _, e := range entries {
		ev := e.History[len(e.History)-1]
		if ev.Action != Recorded || ev.Role != Champion {
			continue
		}
		reigns, err := s.Lineage()
		if err != nil || len(reigns) > 0 {
			return nil, err
		}
		return []Reign{{System: e.System, From: ev.At, Label: ev.Label}}, nil
	}
	return nil, nil
}

// keepRun copies the run file r.Source into the pool as system's kept run,
// refusing a file whose bytes are not the ones scored (r.SHA256).
func (s *Store) keepRun(system string, r *Run) error {
	if r.Source == "" {
		return fmt.Errorf("system %q: a run to keep needs the file to copy", system)
	}
	src, err := os.Open(r.Source)
	if err != nil {
		return err
	}
	defer src.Close()
	if err := os.MkdirAll(s.path(runsDir), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(s.path(runsDir, runFileName(system)), func(w io.Writer) error {
		h := sha256.New()
		if _, err := io.Copy(io.MultiWriter(w, h), src); err != nil {
			return err
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != r.SHA256 {
			return fmt.Errorf("%s: the run file changed since it was scored (SHA-256 %.12s…, scored %.12s…); nothing was stored", r.Source, got, r.SHA256)
		}
		return nil
	})
}

// merge returns old with e merged into it (see Record), and whether that
// changed anything.
func merge(old, e *Entry) (*Entry, bool, error) {
	if old.Qrels.SHA256 != e.Qrels.SHA256 {
		return nil, false, fmt.Errorf("system %q is stored scored against qrels %s; these scores are against %s: rescore it (riskgate pool rescore) or store them under another name",
			e.System, shortDigest(old.Qrels.SHA256), shortDigest(e.Qrels.SHA256))
	}
	if a, b := TopicSetSHA256(old.Topics), TopicSetSHA256(e.Topics); a != b {
		return nil, false, fmt.Errorf("system %q is stored on a topic set of %d topics (%s); these scores are on %d topics (%s): store them under another name",
			e.System, len(old.Topics), shortDigest(a), len(e.Topics), shortDigest(b))
	}
	m := old.clone()
	grew := false
	at := make(map[string]int, len(m.Topics))
	for t, topic := range m.Topics {
		at[topic] = t
	}
	for k, name := range e.Measures {
		if j := slices.Index(m.Measures, name); j >= 0 {
			for t, topic := range e.Topics {
				if v, w := e.Scores[k][t], m.Scores[j][at[topic]]; !sameScore(v, w) {
					return nil, false, fmt.Errorf("system %q is stored with other %q scores (topic %q: %s stored, %s given): remove it first (riskgate pool rm) or store these under another name",
						e.System, name, topic, formatScore(w), formatScore(v))
				}
			}
			continue
		}
		row := make([]float64, len(m.Topics))
		for t, topic := range e.Topics {
			row[at[topic]] = e.Scores[k][t]
		}
		m.Measures = append(m.Measures, name)
		m.Scores = append(m.Scores, row)
		grew = true
	}
	if r := e.Run; r != nil {
		switch {
		case m.Run == nil || r.Kept && !m.Run.Kept:
			if m.Run != nil && m.Run.SHA256 != r.SHA256 {
				return nil, false, runConflict(e.System, m.Run, r)
			}
			run := *r
			m.Run, grew = &run, true
		case m.Run.SHA256 != r.SHA256:
			return nil, false, runConflict(e.System, m.Run, r)
		}
	}
	for _, ev := range e.History {
		if last := m.History[len(m.History)-1]; sameEvent(last, ev) {
			continue
		}
		m.History = append(m.History, ev)
		grew = true
	}
	return m, grew, nil
}

func runConflict(system string, stored, given *Run) error {
	return fmt.Errorf("system %q is stored from the run %q (SHA-256 %s); this is another run file (%s): store it under another name",
		system, stored.Path, shortDigest(stored.SHA256), shortDigest(given.SHA256))
}

// sameScore compares bits: -0 is not 0, and two missing scores are the same.
func sameScore(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

func sameEvent(a, b Event) bool {
	return a.Action == b.Action && a.Role == b.Role && a.Qrels == b.Qrels && a.Label == b.Label
}

// shortDigest spells a digest for a message: its first 12 hex digits.
func shortDigest(d string) string {
	if d == "" {
		return "unknown"
	}
	return "sha256:" + d[:12] + "…"
}

func (e *Entry) clone() *Entry {
	c := *e
	c.History = slices.Clone(e.History)
	c.Measures = slices.Clone(e.Measures)
	c.Topics = slices.Clone(e.Topics)
	c.Scores = make([][]float64, len(e.Scores))
	for i, row := range e.Scores {
		c.Scores[i] = slices.Clone(row)
	}
	if e.Run != nil {
		r := *e.Run
		c.Run = &r
	}
	return &c
}

// Promote makes system the champion from at, holding the pool's lock: the
// lineage gains a reign, and the previous champion, which it returns ("" for
// none), is an artifact from then on. The system must be stored, and not be
// the champion already.
func (s *Store) Promote(ctx context.Context, system string, at time.Time, label string) (previous string, err error) {
	if p := checkLabel(label); p != "" {
		return "", fmt.Errorf("%s", p)
	}
	err = s.locked(ctx, func() error {
		if _, err := s.Entry(system); err != nil {
			return err
		}
		reigns, err := s.Lineage()
		if err != nil {
			return err
		}
		if n := len(reigns); n > 0 {
			last := reigns[n-1]
			if last.System == system {
				return fmt.Errorf("system %q is the champion already (since %s)", system, last.From.Format(timeLayout))
			}
			previous = last.System
		}
		return s.writeLineage(append(reigns, Reign{System: system, From: Time(at), Label: label}))
	})
	return previous, err
}

// Remove removes the systems' entries and kept runs, holding the pool's
// lock. Every system must be stored (else nothing is removed), and none may
// be the current champion: promote another first. A damaged entry can be
// removed. Past champions stay in the lineage: it is history.
func (s *Store) Remove(ctx context.Context, systems ...string) error {
	return s.locked(ctx, func() error {
		champion, err := s.Champion()
		if err != nil {
			return err
		}
		for _, name := range systems {
			if name == champion {
				return fmt.Errorf("system %q is the current champion; promote another first (riskgate pool promote)", name)
			}
			if _, err := os.Lstat(s.EntryPath(name)); err != nil {
				return s.notStored(name)
			}
		}
		for _, name := range systems {
			if err := os.Remove(s.EntryPath(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			if err := os.Remove(s.path(runsDir, runFileName(name))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	})
}

// Rescore replaces stored scores with the same systems' scores computed
// again (against other qrels, by the caller), holding the pool's lock. Each
// entry given must be stored, from the same run file (Run.SHA256), with
// every measure it holds: its scores, topics and qrels replace the stored
// ones, and its history gains a "rescored" event at `at` that names the
// qrels it was scored against before. Entries whose qrels, topics and scores
// are unchanged are left as they are. It returns how many entries changed.
func (s *Store) Rescore(ctx context.Context, at time.Time, label string, entries ...*Entry) (int, error) {
	if p := checkLabel(label); p != "" {
		return 0, fmt.Errorf("%s", p)
	}
	n := 0
	err := s.locked(ctx, func() error {
		var next []*Entry
		for _, e := range entries {
			cur, err := s.Entry(e.System)
			if err != nil {
				return err
			}
			if cur.Run == nil || e.Run == nil || cur.Run.SHA256 != e.Run.SHA256 {
				return fmt.Errorf("system %q: the rescored scores are not from its stored run", e.System)
			}
			m := cur.clone()
			m.Qrels, m.Topics = e.Qrels, slices.Clone(e.Topics)
			for j, name := range m.Measures {
				k := slices.Index(e.Measures, name)
				if k < 0 {
					return fmt.Errorf("system %q: measure %q was not rescored; every stored measure must be", e.System, name)
				}
				m.Scores[j] = slices.Clone(e.Scores[k])
			}
			if len(e.Measures) != len(m.Measures) {
				return fmt.Errorf("system %q: %d measures rescored, %d stored; expected the stored ones", e.System, len(e.Measures), len(m.Measures))
			}
			if sameScores(cur, m) {
				continue
			}
			m.History = append(m.History, Event{At: Time(at), Action: Rescored, Qrels: cur.Qrels.SHA256, Label: label})
			if err := m.check(); err != nil {
				return fmt.Errorf("system %q: %w", e.System, err)
			}
			next = append(next, m)
		}
		for _, m := range next {
			if err := s.writeEntry(m); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// sameScores reports whether two entries of one system hold the same
// qrels, topics (in order) and scores.
func sameScores(a, b *Entry) bool {
	if a.Qrels.SHA256 != b.Qrels.SHA256 || !slices.Equal(a.Topics, b.Topics) || !slices.Equal(a.Measures, b.Measures) {
		return false
	}
	for m := range a.Scores {
		if !slices.EqualFunc(a.Scores[m], b.Scores[m], sameScore) {
			return false
		}
	}
	return true
}
