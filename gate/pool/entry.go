package pool

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Role is the part a system played when it was recorded.
type Role string

// Roles. Which system is the pool's champion, and since when, is the
// lineage's to say (Store.Lineage); an entry's history says how it was
// recorded: by a gate as its champion or a challenger, or as an artifact.
const (
	Champion   Role = "champion"
	Challenger Role = "challenger"
	Artifact   Role = "artifact"
)

// Roles lists the roles in the order the format documents them.
var Roles = []Role{Champion, Challenger, Artifact}

// Action is what an event of an entry's history did.
type Action string

// Actions.
const (
	Recorded Action = "recorded" // stored, or stored again (Store.Record)
	Rescored Action = "rescored" // its scores computed again against other qrels (Store.Rescore)
)

// Event is one line of an entry's history.
type Event struct {
	At     time.Time
	Action Action
	Role   Role   // Recorded: the role it was recorded in
	Qrels  string // Rescored: the SHA-256 of the qrels it was scored against before; "" unknown
	Label  string
}

// Qrels names the judgments a system was scored against.
type Qrels struct {
	// SHA256 is the lower-case hex SHA-256 of the qrels file's bytes, as
	// read when the system was scored (runs + qrels) or as given for score
	// files; "" when unknown.
	SHA256 string
	Path   string // the file as named then; for people, never read again
}

// Run is the TREC run a system was scored from, for Rescore.
type Run struct {
	// Kept is true when the pool holds a copy of the run (Path is then
	// "runs/<stem>.run", relative to the pool); otherwise Path is the
	// run's path as it was given, relative to the directory riskgate ran
	// in, and the file stays the user's.
	Kept   bool
	Path   string
	SHA256 string // of the run's bytes as scored; a rescore refuses any other
	// Source is, for a run to keep, the file Record copies into the pool
	// (it must still have SHA256). It is not stored.
	Source string
}

// Entry is one stored system: its scores on every measure stored, where
// they came from and its history. Scores[m][t] is the score of
// Measures[m] on Topics[t]; NaN marks a topic the measure has no score for
// (only under --topics keep).
type Entry struct {
	System   string
	Label    string    // free: a commit, a tag, an experiment id
	Stored   time.Time // when first stored (UTC, whole seconds)
	Qrels    Qrels
	Run      *Run // nil when not scored from a run file
	History  []Event
	Measures []string
	Topics   []string
	Scores   [][]float64
}

// Fingerprints are what a system was scored on: the qrels and the topic set.
type Fingerprints struct {
	Qrels   string // SHA-256 of the qrels file; "" unknown
	Topics  string // TopicSetSHA256 of the topics
	NTopics int
}

// Fingerprints returns the entry's fingerprints.
func (e *Entry) Fingerprints() Fingerprints {
	return Fingerprints{Qrels: e.Qrels.SHA256, Topics: TopicSetSHA256(e.Topics), NTopics: len(e.Topics)}
}

// Measure returns the scores of the named measure, aligned with Topics, or
// nil when the entry has none.
func (e *Entry) Measure(name string) []float64 {
	if m := slices.Index(e.Measures, name); m >= 0 {
		return e.Scores[m]
	}
	return nil
}

// TopicSetSHA256 is the fingerprint of a set of topics: the lower-case hex
// SHA-256 of its distinct ids, each quoted as an entry file quotes it (Go's
// strconv.Quote) and followed by a newline, in byte order of the quoted
// forms. Order and repetition do not change it; any id added, removed or
// changed does.
func TopicSetSHA256(topics []string) string {
	quoted := make([]string, len(topics))
	for i, t := range topics {
		quoted[i] = strconv.Quote(t)
	}
	slices.Sort(quoted)
	quoted = slices.Compact(quoted)
	h := sha256.New()
	for _, q := range quoted {
		h.Write([]byte(q))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Format version and first lines of the files (docs/pool.md).
const (
	FormatVersion = 1
	entryMagic    = "riskgate-pool-entry"
	lineageMagic  = "riskgate-pool-lineage"
	poolMagic     = "riskgate-pool"
	timeLayout    = "2006-01-02T15:04:05Z"
	entryExt      = ".entry"
	runExt        = ".run"
)

// encode writes the entry in the format's one canonical form: an entry that
// reads back encodes to the same bytes. It refuses an entry that would not
// read back (check).
func (e *Entry) encode() ([]byte, error) {
	if err := e.check(); err != nil {
		return nil, fmt.Errorf("system %q: %w", e.System, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %d\n", entryMagic, FormatVersion)
	fmt.Fprintf(&b, "system %s\n", strconv.Quote(e.System))
	fmt.Fprintf(&b, "label %s\n", strconv.Quote(e.Label))
	fmt.Fprintf(&b, "stored %s\n", e.Stored.Format(timeLayout))
	if e.Qrels.SHA256 == "" {
		b.WriteString("qrels unknown\n")
	} else {
		fmt.Fprintf(&b, "qrels %s %s\n", e.Qrels.SHA256, strconv.Quote(e.Qrels.Path))
	}
	fmt.Fprintf(&b, "topics %s %d\n", TopicSetSHA256(e.Topics), len(e.Topics))
	switch {
	case e.Run == nil:
		b.WriteString("run none\n")
	case e.Run.Kept:
		fmt.Fprintf(&b, "run kept %s %s\n", e.Run.SHA256, strconv.Quote(e.Run.Path))
	default:
		fmt.Fprintf(&b, "run file %s %s\n", e.Run.SHA256, strconv.Quote(e.Run.Path))
	}
	for _, ev := range e.History {
		switch ev.Action {
		case Recorded:
			fmt.Fprintf(&b, "recorded %s %s %s\n", ev.At.Format(timeLayout), ev.Role, strconv.Quote(ev.Label))
		case Rescored:
			fmt.Fprintf(&b, "rescored %s %s %s\n", ev.At.Format(timeLayout), orUnknown(ev.Qrels), strconv.Quote(ev.Label))
		}
	}
	b.WriteString("measures")
	for _, m := range e.Measures {
		b.WriteString(" " + strconv.Quote(m))
	}
	b.WriteString("\n")
	for t, topic := range e.Topics {
		b.WriteString("topic " + strconv.Quote(topic))
		for m := range e.Measures {
			b.WriteString(" " + formatScore(e.Scores[m][t]))
		}
		b.WriteString("\n")
	}
	return withDigest(b.String()), nil
}

// withDigest appends the digest line: the SHA-256 of every byte before it.
func withDigest(body string) []byte {
	sum := sha256.Sum256([]byte(body))
	out := make([]byte, 0, len(body)+80)
	out = append(out, body...)
	out = append(out, "sha256 "...)
	out = hex.AppendEncode(out, sum[:])
	return append(out, '\n')
}

func orUnknown(digest string) string {
	if digest == "" {
		return "unknown"
	}
	return digest
}

// formatScore writes a score as the shortest decimal that reads back as the
// same float64 (strconv 'g', -1), or "-" for a missing one.
func formatScore(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// check says what makes the entry unwritable, or nil.
func (e *Entry) check() error {
	if p := checkName("system name", e.System); p != "" {
		return fmt.Errorf("%s", p)
	}
	if p := checkLabel(e.Label); p != "" {
		return fmt.Errorf("%s", p)
	}
	if !isTime(e.Stored) {
		return fmt.Errorf("stored time %v is not a UTC time in whole seconds", e.Stored)
	}
	if e.Qrels.SHA256 != "" && !isDigest(e.Qrels.SHA256) {
		return fmt.Errorf("qrels SHA-256 %q is not 64 lower-case hex digits", e.Qrels.SHA256)
	}
	if e.Qrels.SHA256 == "" && e.Qrels.Path != "" {
		return fmt.Errorf("qrels %q without its SHA-256", e.Qrels.Path)
	}
	if !utf8.ValidString(e.Qrels.Path) {
		return fmt.Errorf("qrels path %q is not valid UTF-8", e.Qrels.Path)
	}
	if r := e.Run; r != nil {
		if !isDigest(r.SHA256) {
			return fmt.Errorf("run SHA-256 %q is not 64 lower-case hex digits", r.SHA256)
		}
		if r.Path == "" || !utf8.ValidString(r.Path) {
			return fmt.Errorf("run path %q: expected a UTF-8 path", r.Path)
		}
	}
	if len(e.History) == 0 {
		return fmt.Errorf("no history: an entry is recorded at least once")
	}
	for _, ev := range e.History {
		if err := checkEvent(ev); err != nil {
			return err
		}
	}
	if len(e.Measures) == 0 || len(e.Topics) == 0 {
		return fmt.Errorf("%d measures and %d topics; expected at least one of each", len(e.Measures), len(e.Topics))
	}
	for i, m := range e.Measures {
		if p := checkMeasure(m); p != "" {
			return fmt.Errorf("%s", p)
		}
		if slices.Contains(e.Measures[:i], m) {
			return fmt.Errorf("measure %q given twice", m)
		}
	}
	if len(e.Scores) != len(e.Measures) {
		return fmt.Errorf("%d score rows for %d measures", len(e.Scores), len(e.Measures))
	}
	seen := make(map[string]bool, len(e.Topics))
	for t, topic := range e.Topics {
		if p := checkName("topic", topic); p != "" {
			return fmt.Errorf("%s", p)
		}
		if seen[topic] {
			return fmt.Errorf("topic %q given twice", topic)
		}
		seen[topic] = true
		scored := false
		for m := range e.Measures {
			if len(e.Scores[m]) != len(e.Topics) {
				return fmt.Errorf("%d scores of %q for %d topics", len(e.Scores[m]), e.Measures[m], len(e.Topics))
			}
			v := e.Scores[m][t]
			if math.IsInf(v, 0) {
				return fmt.Errorf("score of %q on topic %q is infinite", e.Measures[m], topic)
			}
			scored = scored || !math.IsNaN(v)
		}
		if !scored {
			return fmt.Errorf("topic %q has no score on any measure", topic)
		}
	}
	return nil
}

func checkEvent(ev Event) error {
	if !isTime(ev.At) {
		return fmt.Errorf("event time %v is not a UTC time in whole seconds", ev.At)
	}
	if p := checkLabel(ev.Label); p != "" {
		return fmt.Errorf("%s", p)
	}
	switch ev.Action {
	case Recorded:
		if !slices.Contains(Roles, ev.Role) {
			return fmt.Errorf("role %q: expected champion, challenger or artifact", ev.Role)
		}
	case Rescored:
		if ev.Qrels != "" && !isDigest(ev.Qrels) {
			return fmt.Errorf("qrels SHA-256 %q is not 64 lower-case hex digits", ev.Qrels)
		}
	default:
		return fmt.Errorf("event %q: expected recorded or rescored", ev.Action)
	}
	return nil
}

// isTime reports a time the format can write exactly: UTC, whole seconds,
// a four-digit year.
func isTime(t time.Time) bool {
	return t.Location() == time.UTC && t.Nanosecond() == 0 && t.Year() >= 1 && t.Year() <= 9999
}

// Time returns t as the pool stores times: UTC, cut to whole seconds.
func Time(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
