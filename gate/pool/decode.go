package pool

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// text is a pool file whose first line, line endings and digest were
// checked: its lines (the digest line excluded), each read in turn.
type text struct {
	path  string
	lines []string
	next  int // index of the next line to read
}

// readText checks the frame every pool file shares — the first line
// "MAGIC 1", LF line endings, and a last line "sha256 HEX" giving the SHA-256
// of every byte before it — and returns the lines inside it. A file cut
// short (truncated) has no valid last line; one edited has another digest.
func readText(path string, data []byte, magic string) (*text, error) {
	if len(data) > MaxFileBytes {
		return nil, inputerr.At(path, 0, "%d bytes; expected at most %d MiB", len(data), MaxFileBytes>>20)
	}
	if len(data) == 0 {
		return nil, inputerr.At(path, 0, "empty file (truncated?); expected a %s file", magic)
	}
	first, _, _ := bytes.Cut(data, []byte{'\n'})
	want := fmt.Sprintf("%s %d", magic, FormatVersion)
	if string(first) != want {
		head := strings.TrimSuffix(string(first), "\r")
		if v, ok := strings.CutPrefix(head, magic+" "); ok {
			if n, err := strconv.Atoi(v); err == nil && n != FormatVersion {
				return nil, inputerr.At(path, 1, "format version %d; this riskgate reads version %d (a newer riskgate wrote it?)", n, FormatVersion)
			}
		}
		if head == want {
			return nil, inputerr.At(path, 1, "the line ends in CR LF (converted by an editor or git's autocrlf?); expected LF line endings")
		}
		return nil, inputerr.At(path, 1, "first line %s; expected %q (not a riskgate pool file, or damaged)", excerpt(head), want)
	}
	if data[len(data)-1] != '\n' {
		n := bytes.Count(data, []byte{'\n'}) + 1
		return nil, inputerr.At(path, n, "the file ends inside a line (truncated); expected its last line to be \"sha256 HEX\" and a newline")
	}
	lines := strings.Split(string(data[:len(data)-1]), "\n")
	last := lines[len(lines)-1]
	digest, ok := strings.CutPrefix(last, "sha256 ")
	if !ok || !isDigest(digest) {
		return nil, inputerr.At(path, len(lines), "last line %s; expected \"sha256\" and the file's 64-hex-digit SHA-256 (truncated?)", excerpt(last))
	}
	body := data[:len(data)-len(last)-1]
	sum := sha256.Sum256(body)
	if got := hex.EncodeToString(sum[:]); got != digest {
		return nil, inputerr.At(path, len(lines), "checksum mismatch: the content's SHA-256 is %.12s…, the file says %.12s… (changed by hand or damaged; restore it, or remove the entry)", got, digest)
	}
	return &text{path: path, lines: lines[:len(lines)-1], next: 1}, nil
}

// excerpt quotes the start of a line for a message.
func excerpt(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return strconv.Quote(string(r[:max])) + "…"
	}
	return strconv.Quote(s)
}

// fields is one line being read token by token: tokens are separated by
// one space; a string is a Go double-quoted string in strconv.Quote's form.
type fields struct {
	path string
	line int    // 1-based
	kw   string // the line's first token
	rest string
	n    int // tokens read
}

// line starts reading the next line, which must begin with keyword.
func (t *text) line(keyword string) (*fields, error) {
	if t.next >= len(t.lines) {
		return nil, inputerr.At(t.path, t.next+1, "expected a %q line before the sha256 line", keyword)
	}
	f := &fields{path: t.path, line: t.next + 1, rest: t.lines[t.next]}
	if w, _ := f.peekWord(); w != keyword {
		return nil, f.errorf("line starts with %s; expected %q", excerpt(w), keyword)
	}
	f.kw, _ = f.word()
	t.next++
	return f, nil
}

// peek returns the keyword of the next line ("" at the end).
func (t *text) peek() string {
	if t.next >= len(t.lines) {
		return ""
	}
	w, _, _ := strings.Cut(t.lines[t.next], " ")
	return w
}

func (f *fields) errorf(format string, args ...any) error {
	return inputerr.At(f.path, f.line, format, args...)
}

// sep consumes the space before a token after the first.
func (f *fields) sep() error {
	if f.n == 0 {
		return nil
	}
	if f.rest == "" {
		return f.errorf("the line ends after %d fields; expected more", f.n)
	}
	if f.rest[0] != ' ' {
		return f.errorf("%s after field %d; expected one space between fields", excerpt(f.rest), f.n)
	}
	f.rest = f.rest[1:]
	return nil
}

func (f *fields) peekWord() (string, bool) {
	rest := f.rest
	if f.n > 0 {
		if !strings.HasPrefix(rest, " ") {
			return "", false
		}
		rest = rest[1:]
	}
	w, _, _ := strings.Cut(rest, " ")
	return w, true
}

// word reads a token without quotes.
func (f *fields) word() (string, error) {
	if err := f.sep(); err != nil {
		return "", err
	}
	w, _, _ := strings.Cut(f.rest, " ")
	if w == "" {
		return "", f.errorf("empty field %d; expected one space between fields", f.n+1)
	}
	f.rest = f.rest[len(w):]
	f.n++
	return w, nil
}

// quoted reads a double-quoted string, which must be in strconv.Quote's form.
func (f *fields) quoted(what string) (string, error) {
	if err := f.sep(); err != nil {
		return "", err
	}
	if !strings.HasPrefix(f.rest, `"`) {
		return "", f.errorf("%s %s; expected a double-quoted string", what, excerpt(f.rest))
	}
	q, err := strconv.QuotedPrefix(f.rest)
	if err != nil {
		return "", f.errorf("%s %s is not a complete quoted string", what, excerpt(f.rest))
	}
	s, _ := strconv.Unquote(q)
	if strconv.Quote(s) != q {
		return "", f.errorf("%s %s is not quoted as riskgate quotes it (%s)", what, excerpt(q), excerpt(strconv.Quote(s)))
	}
	f.rest = f.rest[len(q):]
	f.n++
	return s, nil
}

// digest reads a SHA-256 in lower-case hex.
func (f *fields) digest(what string) (string, error) {
	w, err := f.word()
	if err == nil && !isDigest(w) {
		err = f.errorf("%s %s; expected a SHA-256 in 64 lower-case hex digits", what, excerpt(w))
	}
	return w, err
}

// time reads a time as the pool writes it.
func (f *fields) time(what string) (time.Time, error) {
	w, err := f.word()
	if err != nil {
		return time.Time{}, err
	}
	t, perr := time.Parse(timeLayout, w)
	if perr != nil || t.Format(timeLayout) != w || !isTime(t) {
		return time.Time{}, f.errorf("%s %s; expected a UTC time such as 2026-01-31T14:05:00Z", what, excerpt(w))
	}
	return t, nil
}

// count reads a non-negative integer in decimal, without leading zeros.
func (f *fields) count(what string) (int, error) {
	w, err := f.word()
	if err != nil {
		return 0, err
	}
	n, perr := strconv.Atoi(w)
	if perr != nil || n < 0 || strconv.Itoa(n) != w {
		return 0, f.errorf("%s %s; expected a whole number", what, excerpt(w))
	}
	return n, nil
}

// score reads a score: the shortest decimal that reads back as the float64
// (strconv 'g', -1), or "-" for none.
func (f *fields) score(measure string) (float64, error) {
	w, err := f.word()
	if err != nil {
		return 0, err
	}
	if w == "-" {
		return math.NaN(), nil
	}
	v, perr := strconv.ParseFloat(w, 64)
	switch {
	case perr != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return 0, f.errorf("score of %q %s is not a finite number", measure, excerpt(w))
	case formatScore(v) != w:
		return 0, f.errorf("score of %q %s is not written as riskgate writes it (%s)", measure, excerpt(w), formatScore(v))
	}
	return v, nil
}

// end checks that the line holds nothing more.
func (f *fields) end() error {
	if f.rest != "" {
		return f.errorf("%s after %d fields; expected the end of the line", excerpt(strings.TrimPrefix(f.rest, " ")), f.n)
	}
	return nil
}

// oneOf reads a word that must be one of the choices.
func (f *fields) oneOf(what string, choices ...string) (string, error) {
	w, err := f.word()
	if err == nil && !slices.Contains(choices, w) {
		err = f.errorf("%s %s; expected %s", what, excerpt(w), strings.Join(choices, ", "))
	}
	return w, err
}

// decodeEntry reads an entry file's bytes; path names it in messages. Every
// problem is an *inputerr.Error at path:line.
func decodeEntry(path string, data []byte) (*Entry, error) {
	t, err := readText(path, data, entryMagic)
	if err != nil {
		return nil, err
	}
	e := &Entry{}
	var topicsDigest string
	var nTopics, topicsLine int
	steps := []func() error{
		func() error {
			return t.read("system", func(f *fields) (err error) { e.System, err = f.name("system name"); return })
		},
		func() error { return t.read("label", func(f *fields) (err error) { e.Label, err = f.label(); return }) },
		func() error {
			return t.read("stored", func(f *fields) (err error) { e.Stored, err = f.time("stored time"); return })
		},
		func() error { return t.read("qrels", e.readQrels) },
		func() error {
			topicsLine = t.next + 1
			return t.read("topics", func(f *fields) (err error) {
				if topicsDigest, err = f.digest("topic set SHA-256"); err == nil {
					nTopics, err = f.count("number of topics")
				}
				return err
			})
		},
		func() error { return t.read("run", e.readRun) },
		func() error {
			if err := t.read(string(Recorded), e.readEvent); err != nil {
				return err // the first event records the entry
			}
			for t.peek() == string(Recorded) || t.peek() == string(Rescored) {
				if err := t.read(t.peek(), e.readEvent); err != nil {
					return err
				}
			}
			return nil
		},
		func() error { return t.read("measures", e.readMeasures) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	e.Scores = make([][]float64, len(e.Measures))
	seen := map[string]int{}
	for t.next < len(t.lines) {
		line := t.next + 1
		if err := t.read("topic", func(f *fields) error {
			topic, err := f.name("topic")
			if err != nil {
				return err
			}
			if at, dup := seen[topic]; dup {
				return f.errorf("topic %q again (first on line %d); expected each topic once", topic, at)
			}
			seen[topic] = line
			e.Topics = append(e.Topics, topic)
			scored := false
			for m, name := range e.Measures {
				v, err := f.score(name)
				if err != nil {
					return err
				}
				e.Scores[m] = append(e.Scores[m], v)
				scored = scored || !math.IsNaN(v)
			}
			if !scored {
				return f.errorf("topic %q has no score; expected at least one measure's", topic)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	switch {
	case len(e.Topics) == 0:
		return nil, inputerr.At(path, t.next+1, "no topic lines; expected a \"topic\" line per topic before the sha256 line")
	case len(e.Topics) != nTopics || TopicSetSHA256(e.Topics) != topicsDigest:
		return nil, inputerr.At(path, topicsLine, "topic set %.12s… of %d topics; the topic lines give %.12s… of %d", topicsDigest, nTopics, TopicSetSHA256(e.Topics), len(e.Topics))
	}
	if r := e.Run; r != nil && r.Kept && r.Path != keptRunPath(e.System) {
		return nil, inputerr.At(path, runLine(t), "kept run %q; expected %q, the pool's copy for this system", r.Path, keptRunPath(e.System))
	}
	return e, nil
}

// runLine is the line number of the run line (for a late check).
func runLine(t *text) int {
	for i, l := range t.lines {
		if strings.HasPrefix(l, "run ") {
			return i + 1
		}
	}
	return 0
}

// keptRunPath is where the pool keeps a copy of system's run.
func keptRunPath(system string) string { return runsDir + "/" + runFileName(system) }

// read reads the next line, which starts with keyword, with parse, and
// checks that parse read it whole.
func (t *text) read(keyword string, parse func(*fields) error) error {
	f, err := t.line(keyword)
	if err != nil {
		return err
	}
	if err := parse(f); err != nil {
		return err
	}
	return f.end()
}

func (f *fields) name(kind string) (string, error) {
	s, err := f.quoted(kind)
	if err == nil {
		if p := checkName(kind, s); p != "" {
			err = f.errorf("%s", p)
		}
	}
	return s, err
}

func (f *fields) label() (string, error) {
	s, err := f.quoted("label")
	if err == nil {
		if p := checkLabel(s); p != "" {
			err = f.errorf("%s", p)
		}
	}
	return s, err
}

func (f *fields) pathString(what string) (string, error) {
	s, err := f.quoted(what)
	if err == nil && s == "" {
		err = f.errorf("empty %s; expected a path", what)
	}
	return s, err
}

func (e *Entry) readQrels(f *fields) error {
	if w, _ := f.peekWord(); w == "unknown" {
		f.word()
		return nil
	}
	var err error
	if e.Qrels.SHA256, err = f.digest("qrels SHA-256"); err != nil {
		return err
	}
	e.Qrels.Path, err = f.quoted("qrels path")
	return err
}

func (e *Entry) readRun(f *fields) error {
	kind, err := f.oneOf("run", "none", "file", "kept")
	if err != nil || kind == "none" {
		return err
	}
	r := &Run{Kept: kind == "kept"}
	if r.SHA256, err = f.digest("run SHA-256"); err != nil {
		return err
	}
	if r.Path, err = f.pathString("run path"); err != nil {
		return err
	}
	e.Run = r
	return nil
}

func (e *Entry) readEvent(f *fields) error {
	ev := Event{Action: Action(f.kw)}
	var err error
	if ev.At, err = f.time("event time"); err != nil {
		return err
	}
	switch ev.Action {
	case Recorded:
		var role string
		if role, err = f.oneOf("role", string(Champion), string(Challenger), string(Artifact)); err != nil {
			return err
		}
		ev.Role = Role(role)
	case Rescored:
		if w, _ := f.peekWord(); w == "unknown" {
			f.word()
		} else if ev.Qrels, err = f.digest("previous qrels SHA-256"); err != nil {
			return err
		}
	}
	if ev.Label, err = f.label(); err != nil {
		return err
	}
	e.History = append(e.History, ev)
	return nil
}

func (e *Entry) readMeasures(f *fields) error {
	for f.rest != "" || len(e.Measures) == 0 {
		m, err := f.quoted("measure")
		if err != nil {
			return err
		}
		if p := checkMeasure(m); p != "" {
			return f.errorf("%s", p)
		}
		if slices.Contains(e.Measures, m) {
			return f.errorf("measure %q twice; expected each measure once", m)
		}
		e.Measures = append(e.Measures, m)
	}
	return nil
}
