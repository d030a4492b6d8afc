package pool

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/riskgate/riskgate/internal/escape"
	"github.com/riskgate/riskgate/internal/reportfmt"
)

// The JSON of riskgate pool list and show (docs/pool.md): within a format
// version fields are only added.

// ListView is what riskgate pool list prints.
type ListView struct {
	Pool          string       `json:"pool"`
	FormatVersion int          `json:"format_version"`
	Champion      string       `json:"champion,omitempty"`
	Lineage       []ReignView  `json:"lineage"`
	Systems       []SystemView `json:"systems"`
	Skipped       []string     `json:"skipped,omitempty"` // damaged entries left out (--skip-damaged)
}

// ReignView is one champion of the lineage; To is empty for the current one.
type ReignView struct {
	System string `json:"system"`
	From   string `json:"from"`
	To     string `json:"to,omitempty"`
	Label  string `json:"label"`
}

// SystemView is one stored system, without its scores.
type SystemView struct {
	System       string   `json:"system"`
	Role         Role     `json:"role"` // champion (the lineage's current) or artifact
	Label        string   `json:"label"`
	Stored       string   `json:"stored"`
	Measures     []string `json:"measures"`
	Topics       int      `json:"topics"`
	TopicsSHA256 string   `json:"topics_sha256"`
	QrelsSHA256  string   `json:"qrels_sha256,omitempty"` // absent: unknown
	QrelsPath    string   `json:"qrels_path,omitempty"`
	Run          *RunView `json:"run,omitempty"`
	File         string   `json:"file"`
}

// RunView is a stored run.
type RunView struct {
	Kept   bool   `json:"kept"`
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// ShowView is what riskgate pool show prints: the system, its history (its
// events and its reigns as champion, in time order) and its scores.
type ShowView struct {
	SystemView
	History  []EventView    `json:"history"`
	TopicIDs []string       `json:"topic_ids"`
	Scores   []MeasureScore `json:"scores"`
}

// EventView is one event of a system's history: "recorded" (Role),
// "rescored" (PreviousQrels) or "champion" (from At until Until, from the
// lineage; Until empty while it is the champion).
type EventView struct {
	At            string `json:"at"`
	Event         string `json:"event"`
	Role          Role   `json:"role,omitempty"`
	PreviousQrels string `json:"previous_qrels_sha256,omitempty"`
	Until         string `json:"until,omitempty"`
	Label         string `json:"label"`
}

// MeasureScore is one measure's scores, aligned with TopicIDs; null marks
// a topic without a score on it.
type MeasureScore struct {
	Measure string     `json:"measure"`
	Values  []*float64 `json:"values"`
}

// NewListView describes entries and the lineage.
func NewListView(s *Store, entries []*Entry, reigns []Reign, skipped []string) ListView {
	v := ListView{Pool: s.Dir(), FormatVersion: FormatVersion, Lineage: reignViews(reigns), Systems: []SystemView{}, Skipped: skipped}
	champion := ""
	if n := len(reigns); n > 0 {
		champion = reigns[n-1].System
		v.Champion = champion
	}
	for _, e := range entries {
		v.Systems = append(v.Systems, systemView(s, e, champion))
	}
	return v
}

func reignViews(reigns []Reign) []ReignView {
	out := []ReignView{}
	for i, r := range reigns {
		rv := ReignView{System: r.System, From: r.From.Format(timeLayout), Label: r.Label}
		if i+1 < len(reigns) {
			rv.To = reigns[i+1].From.Format(timeLayout)
		}
		out = append(out, rv)
	}
	return out
}

func systemView(s *Store, e *Entry, champion string) SystemView {
	v := SystemView{
		System: e.System, Role: Artifact, Label: e.Label, Stored: e.Stored.Format(timeLayout),
		Measures: slices.Clone(e.Measures), Topics: len(e.Topics), TopicsSHA256: TopicSetSHA256(e.Topics),
		QrelsSHA256: e.Qrels.SHA256, QrelsPath: e.Qrels.Path, File: s.EntryPath(e.System),
	}
	if e.System == champion {
		v.Role = Champion
	}
	if r := e.Run; r != nil {
		v.Run = &RunView{Kept: r.Kept, Path: filepath.ToSlash(r.Path), SHA256: r.SHA256}
	}
	return v
}

// NewShowView describes one entry, with its reigns from the lineage.
func NewShowView(s *Store, e *Entry, reigns []Reign) ShowView {
	champion := ""
	if n := len(reigns); n > 0 {
		champion = reigns[n-1].System
	}
	v := ShowView{SystemView: systemView(s, e, champion), TopicIDs: slices.Clone(e.Topics)}
	type dated struct {
		at time.Time
		ev EventView
	}
	var events []dated
	for _, ev := range e.History {
		events = append(events, dated{ev.At, EventView{At: ev.At.Format(timeLayout), Event: string(ev.Action), Role: ev.Role, PreviousQrels: ev.Qrels, Label: ev.Label}})
	}
	for i, r := range reigns {
		if r.System != e.System {
			continue
		}
		ev := EventView{At: r.From.Format(timeLayout), Event: "champion", Label: r.Label}
		if i+1 < len(reigns) {
			ev.Until = reigns[i+1].From.Format(timeLayout)
		}
		events = append(events, dated{r.From, ev})
	}
	slices.SortStableFunc(events, func(a, b dated) int { return a.at.Compare(b.at) })
	for _, d := range events {
		v.History = append(v.History, d.ev)
	}
	for m, name := range e.Measures {
		ms := MeasureScore{Measure: name, Values: make([]*float64, len(e.Topics))}
		for t, x := range e.Scores[m] {
			if !math.IsNaN(x) {
				ms.Values[t] = &x
			}
		}
		v.Scores = append(v.Scores, ms)
	}
	return v
}

// WriteList writes the list as a text table, names made safe for a terminal.
func (v ListView) WriteList(w io.Writer) error {
	if len(v.Systems) == 0 {
		_, err := fmt.Fprintf(w, "the pool %s holds no system\n", escape.Printable(v.Pool))
		return err
	}
	rows := [][]string{{"system", "role", "stored", "label", "measures", "topics", "qrels"}}
	for _, s := range v.Systems {
		rows = append(rows, []string{escape.PlainName(s.System), string(s.Role), s.Stored, escape.PlainName(s.Label),
			escape.PlainName(measureList(s.Measures)), fmt.Sprint(s.Topics), shortDigest(s.QrelsSHA256)})
	}
	if err := reportfmt.Table(w, false, "00000r", rows); err != nil {
		return err
	}
	var lineage []string
	for _, r := range v.Lineage {
		lineage = append(lineage, escape.PlainName(r.System))
	}
	if len(lineage) > 0 {
		if _, err := fmt.Fprintf(w, "\nlineage: %s\n", strings.Join(lineage, " → ")); err != nil {
			return err
		}
	}
	return nil
}

// measureList spells measures for a table ("(unnamed)" for the empty name).
func measureList(measures []string) string {
	out := make([]string, len(measures))
	for i, m := range measures {
		out[i] = measureName(m)
	}
	return strings.Join(out, ",")
}

func measureName(m string) string {
	if m == "" {
		return "(unnamed)"
	}
	return m
}

// WriteShow writes one system as text: its fields, its history and its
// scores (every digit: the shortest decimal that reads back as the score).
func (v ShowView) WriteShow(w io.Writer) error {
	role := string(v.Role)
	for _, ev := range v.History {
		if ev.Event == "champion" && ev.Until == "" {
			role += " since " + ev.At
		}
	}
	qrels := "unknown"
	if v.QrelsSHA256 != "" {
		qrels = fmt.Sprintf("sha256:%s (%s)", v.QrelsSHA256, escape.Printable(v.QrelsPath))
	}
	run := "none (it cannot be rescored)"
	if r := v.Run; r != nil && r.Kept {
		run = fmt.Sprintf("kept in the pool: %s, sha256:%s", escape.Printable(r.Path), r.SHA256)
	} else if r != nil {
		run = fmt.Sprintf("%s, sha256:%s", escape.Printable(r.Path), r.SHA256)
	}
	fields := [][]string{
		{"system", escape.Printable(v.System)},
		{"role", role},
		{"label", escape.Printable(v.Label)},
		{"stored", v.Stored},
		{"file", escape.Printable(v.File)},
		{"qrels", qrels},
		{"topics", fmt.Sprintf("%d, sha256:%s", v.Topics, v.TopicsSHA256)},
		{"run", run},
	}
	if err := reportfmt.Table(w, false, "", fields); err != nil {
		return err
	}
	var history [][]string
	for _, ev := range v.History {
		what := ev.Event
		switch ev.Event {
		case string(Recorded):
			what = "recorded as " + string(ev.Role)
		case string(Rescored):
			what = "rescored (qrels before: " + shortDigest(ev.PreviousQrels) + ")"
		case "champion":
			what = "champion"
			if ev.Until != "" {
				what += " until " + ev.Until
			}
		}
		history = append(history, []string{ev.At, what, escape.PlainName(ev.Label)})
	}
	fmt.Fprintln(w, "\nhistory")
	if err := reportfmt.Table(w, false, "", history); err != nil {
		return err
	}
	scores := [][]string{{"topic"}}
	for _, m := range v.Scores {
		scores[0] = append(scores[0], escape.PlainName(measureName(m.Measure)))
	}
	for t, topic := range v.TopicIDs {
		row := []string{escape.PlainName(topic)}
		for _, m := range v.Scores {
			cell := "-"
			if x := m.Values[t]; x != nil {
				cell = formatScore(*x)
			}
			row = append(row, cell)
		}
		scores = append(scores, row)
	}
	fmt.Fprintln(w, "\nscores")
	return reportfmt.Table(w, false, "0"+strings.Repeat("r", len(v.Scores)), scores)
}
