package scores

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// Unsegmented is the segment of a topic the topics file does not list,
// when that is asked for (TopicAttributes.Cover) instead of an error.
const Unsegmented = "unsegmented"

// TopicAttributes are the attributes of topics a topics file gives: per
// dimension (a column: origin, locale, traffic band) the segment of each
// topic, and optionally each topic's weight (its traffic share).
type TopicAttributes struct {
	File       string
	Topics     []string // in the file's order
	Dimensions []string // in the file's column order
	// Segment[dimension][topic] is the topic's segment in that dimension.
	Segment map[string]map[string]string
	// Weights[topic] is the topic's weight (≥ 0); nil without a weight column.
	Weights map[string]float64
}

// weightColumn is the header name of the weight column (case-insensitive);
// every other column but the topic's is a dimension.
const weightColumn = "weight"

const topicsHelp = "a header naming a topic column (topic, query, qid, query_id, topic_id), one or more segment columns and optionally a weight column"

// LoadTopicAttributes reads a topics file: CSV, TSV (a first line with tabs
// and no comma) or Parquet (a file starting with PAR1, or named *.parquet),
// with a topic column, one or more dimension columns (every other column)
// and optionally a weight column. A duplicate topic, an empty topic or
// segment name, a weight that is not a finite number ≥ 0, a missing topic or
// dimension column, a ragged row give an *inputerr.Error naming file:line
// (file:row in a Parquet file, its rows counted from 1 over the row groups).
func LoadTopicAttributes(path string) (*TopicAttributes, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, inputerr.At(path, 0, "cannot open: %v", unwrapPath(err))
	}
	defer f.Close()
	return readTopicAttributes(f, path)
}

// readTopicAttributes reads a topics file in the format its bytes (PAR1) or
// its name (*.parquet) say: Parquet, else CSV or TSV.
func readTopicAttributes(r io.Reader, file string) (*TopicAttributes, error) {
	br := bufio.NewReaderSize(r, readBufSize)
	if magic, _ := br.Peek(len(parquetMagic)); string(magic) == parquetMagic || strings.EqualFold(filepath.Ext(file), ".parquet") {
		return readTopicAttributesParquet(br, file)
	}
	return readTopicAttributesCSV(br, file)
}

func readTopicAttributesCSV(r io.Reader, file string) (*TopicAttributes, error) {
	br := bufio.NewReaderSize(r, readBufSize)
	if b, _ := br.Peek(len(utf8BOM)); string(b) == string(utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	comma := separator(br)
	bounded := linelimit.NewReader(br, true)
	cr := &csvReader{Reader: csv.NewReader(bounded), bounded: bounded}
	cr.Comma = comma
	cr.TrimLeadingSpace = true
	fs := &fileSink{file: file}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, inputerr.At(file, 0, "the file is empty; expected %s", topicsHelp)
	}
	if err != nil {
		return nil, csvError(fs, cr, nil, err)
	}
	b, err := newTopicsBuilder(file, lineOf, trimAll(header), string(comma))
	if err != nil {
		return nil, err
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(fs, cr, header, err)
		}
		line, _ := cr.FieldPos(0)
		if err := b.row(line, rec); err != nil {
			return nil, err
		}
	}
	return b.done()
}

// topicPlace is how a topics file numbers its records in messages: lines
// of a CSV file, rows of a Parquet file.
type topicPlace int

const (
	lineOf topicPlace = iota
	rowOf
)

// at is an error at record pos: file:line, or file:row with "row N: " first
// (as the Parquet score loader says it), so a row is never taken for a line.
func (p topicPlace) at(file string, pos int, format string, args ...any) error {
	if p == rowOf && pos > 0 {
		return inputerr.At(file, pos, "row %d: %s", pos, fmt.Sprintf(format, args...))
	}
	return inputerr.At(file, pos, format, args...)
}

func (p topicPlace) String() string {
	if p == rowOf {
		return "row"
	}
	return "line"
}

// topicsBuilder makes TopicAttributes from a header and records, whatever
// the file's format: the one place the rules of a topics file are checked.
type topicsBuilder struct {
	file      string
	place     topicPlace
	header    []string
	ti, wi    int
	dims      []int
	a         *TopicAttributes
	firstSeen map[string]int
}

// newTopicsBuilder checks the header (line 1 of a CSV file, the columns of
// a Parquet file; sep joins it in messages) and finds the topic, weight and
// dimension columns.
func newTopicsBuilder(file string, place topicPlace, header []string, sep string) (*topicsBuilder, error) {
	hpos := 1
	if place == rowOf {
		hpos = 0 // a Parquet file's columns are in its footer, on no row
	}
	b := &topicsBuilder{file: file, place: place, header: header, ti: -1, wi: -1, firstSeen: map[string]int{}}
	for i, h := range header {
		switch {
		case columnRoles[strings.ToLower(h)] == colTopic:
			if b.ti >= 0 {
				return nil, inputerr.At(file, hpos, "columns %d (%q) and %d (%q) both give the topic; expected one", b.ti+1, header[b.ti], i+1, h)
			}
			b.ti = i
		case strings.ToLower(h) == weightColumn:
			if b.wi >= 0 {
				return nil, inputerr.At(file, hpos, "columns %d (%q) and %d (%q) both give the weight; expected one", b.wi+1, header[b.wi], i+1, h)
			}
			b.wi = i
		case h == "":
			return nil, inputerr.At(file, hpos, "column %d has no name; expected a dimension name (origin, locale, …)", i+1)
		default:
			if problem := checkName("dimension", h); problem != "" {
				return nil, inputerr.At(file, hpos, "column %d: %s", i+1, problem)
			}
			if slices.ContainsFunc(b.dims, func(j int) bool { return header[j] == h }) {
				return nil, inputerr.At(file, hpos, "dimension %q is given twice; expected one column per dimension", h)
			}
			b.dims = append(b.dims, i)
		}
	}
	where := "in the header (" + excerpt(strings.Join(header, sep)) + ")"
	if place == rowOf {
		where = "(columns " + excerpt(strings.Join(header, sep)) + ")"
	}
	if b.ti < 0 {
		return nil, inputerr.At(file, hpos, "no topic column %s; expected %s", where, topicsHelp)
	}
	if len(b.dims) == 0 {
		return nil, inputerr.At(file, hpos, "no segment column %s; expected %s", where, topicsHelp)
	}
	b.a = &TopicAttributes{File: file, Segment: map[string]map[string]string{}}
	for _, d := range b.dims {
		b.a.Dimensions = append(b.a.Dimensions, header[d])
		b.a.Segment[header[d]] = map[string]string{}
	}
	if b.wi >= 0 {
		b.a.Weights = map[string]float64{}
	}
	return b, nil
}

// row adds the record at pos (a line or a row), one field per column.
func (b *topicsBuilder) row(pos int, rec []string) error {
	at := func(format string, args ...any) error { return b.place.at(b.file, pos, format, args...) }
	topic := strings.TrimSpace(rec[b.ti])
	if topic == "" {
		return at("empty topic; expected a topic id in column %d", b.ti+1)
	}
	if problem := checkName("topic", topic); problem != "" {
		return at("%s", problem)
	}
	if first, dup := b.firstSeen[topic]; dup {
		return at("topic %q is given twice (first at %s %d); expected one row per topic", topic, b.place, first)
	}
	b.firstSeen[topic] = pos
	b.a.Topics = append(b.a.Topics, topic)
	for _, d := range b.dims {
		seg := strings.TrimSpace(rec[d])
		if seg == "" {
			return at("empty segment of topic %q in column %d (%q); expected a segment name", topic, d+1, b.header[d])
		}
		if problem := checkName("segment", seg); problem != "" {
			return at("%s", problem)
		}
		b.a.Segment[b.header[d]][topic] = seg
	}
	if b.wi >= 0 {
		w, problem := parseScore(rec[b.wi])
		switch {
		case problem != "":
			return at("weight of topic %q: %s; expected a finite number ≥ 0", topic, strings.Replace(problem, "score", "weight", 1))
		case w < 0:
			return at("weight of topic %q is %v; expected a finite number ≥ 0", topic, w)
		}
		b.a.Weights[topic] = w
	}
	return nil
}

// done checks the whole: at least one topic, weights with a positive total.
func (b *topicsBuilder) done() (*TopicAttributes, error) {
	if len(b.a.Topics) == 0 {
		return nil, inputerr.At(b.file, 0, "no topics in the file; expected at least one row after the header")
	}
	if b.a.Weights != nil {
		sum := 0.0
		for _, w := range b.a.Weights {
			sum += w
		}
		if !(sum > 0) || math.IsInf(sum, 0) {
			return nil, inputerr.At(b.file, 0, "the weights sum to %v; expected a positive finite total", sum)
		}
	}
	return b.a, nil
}

// Cover checks the attributes against the topics of the scores. A topic of
// the scores the file does not list is an error naming it — or, with
// unsegmented, a topic of segment Unsegmented in every dimension (weight 0
// when the file has weights, said in the warnings). Topics of the file the
// scores lack are returned as warnings.
func (a *TopicAttributes) Cover(topics []string, unsegmented bool) (warnings []string, err error) {
	var missing []string
	for _, t := range topics {
		if _, ok := a.Segment[a.Dimensions[0]][t]; !ok {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 && !unsegmented {
		return nil, inputerr.At(a.File, 0, "%d topic(s) of the scores are not in the topics file: %s; expected a row for each (or --unsegmented to put them in segment %q)",
			len(missing), listNames(missing), Unsegmented)
	}
	for _, t := range missing {
		for _, d := range a.Dimensions {
			a.Segment[d][t] = Unsegmented
		}
		if a.Weights != nil {
			a.Weights[t] = 0
		}
	}
	if len(missing) > 0 {
		w := fmt.Sprintf("%d topic(s) not in %s are in segment %q: %s", len(missing), a.File, Unsegmented, listNames(missing))
		if a.Weights != nil {
			w += " (weight 0)"
		}
		warnings = append(warnings, w)
	}
	scored := make(map[string]bool, len(topics))
	for _, t := range topics {
		scored[t] = true
	}
	var extra []string
	for _, t := range a.Topics {
		if !scored[t] {
			extra = append(extra, t)
		}
	}
	if len(extra) > 0 {
		warnings = append(warnings, fmt.Sprintf("%d topic(s) of %s have no scores: %s", len(extra), a.File, listNames(extra)))
	}
	return warnings, nil
}
