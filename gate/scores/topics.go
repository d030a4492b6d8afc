package scores

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
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

// LoadTopicAttributes reads a topics file: CSV, or TSV (a first line with
// tabs and no comma), with a header naming a topic column, one or more
// dimension columns (every other column) and optionally a weight column.
// A duplicate topic, an empty topic or segment name, a weight that is not
// a finite number ≥ 0, a missing topic or dimension column, a ragged row
// give an *inputerr.Error naming file:line.
func LoadTopicAttributes(path string) (*TopicAttributes, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, inputerr.At(path, 0, "cannot open: %v", unwrapPath(err))
	}
	defer f.Close()
	return readTopicAttributes(f, path)
}

func readTopicAttributes(r io.Reader, file string) (*TopicAttributes, error) {
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
	header = trimAll(header)
	ti, wi := -1, -1
	var dims []int
	for i, h := range header {
		switch {
		case columnRoles[strings.ToLower(h)] == colTopic:
			if ti >= 0 {
				return nil, inputerr.At(file, 1, "columns %d (%q) and %d (%q) both give the topic; expected one", ti+1, header[ti], i+1, h)
			}
			ti = i
		case strings.ToLower(h) == weightColumn:
			if wi >= 0 {
				return nil, inputerr.At(file, 1, "columns %d (%q) and %d (%q) both give the weight; expected one", wi+1, header[wi], i+1, h)
			}
			wi = i
		case h == "":
			return nil, inputerr.At(file, 1, "column %d has no name; expected a dimension name (origin, locale, …)", i+1)
		default:
			if problem := checkName("dimension", h); problem != "" {
				return nil, inputerr.At(file, 1, "column %d: %s", i+1, problem)
			}
			if slices.ContainsFunc(dims, func(j int) bool { return header[j] == h }) {
				return nil, inputerr.At(file, 1, "dimension %q is given twice; expected one column per dimension", h)
			}
			dims = append(dims, i)
		}
	}
	if ti < 0 {
		return nil, inputerr.At(file, 1, "no topic column in the header (%s); expected %s", excerpt(strings.Join(header, string(comma))), topicsHelp)
	}
	if len(dims) == 0 {
		return nil, inputerr.At(file, 1, "no segment column in the header (%s); expected %s", excerpt(strings.Join(header, string(comma))), topicsHelp)
	}
	a := &TopicAttributes{File: file, Segment: map[string]map[string]string{}}
	for _, d := range dims {
		a.Dimensions = append(a.Dimensions, header[d])
		a.Segment[header[d]] = map[string]string{}
	}
	if wi >= 0 {
		a.Weights = map[string]float64{}
	}
	firstLine := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(fs, cr, header, err)
		}
		line, _ := cr.FieldPos(0)
		topic := strings.TrimSpace(rec[ti])
		if topic == "" {
			return nil, inputerr.At(file, line, "empty topic; expected a topic id in column %d", ti+1)
		}
		if problem := checkName("topic", topic); problem != "" {
			return nil, inputerr.At(file, line, "%s", problem)
		}
		if first, dup := firstLine[topic]; dup {
			return nil, inputerr.At(file, line, "topic %q is given twice (first at line %d); expected one row per topic", topic, first)
		}
		firstLine[topic] = line
		a.Topics = append(a.Topics, topic)
		for _, d := range dims {
			seg := strings.TrimSpace(rec[d])
			if seg == "" {
				return nil, inputerr.At(file, line, "empty segment of topic %q in column %d (%q); expected a segment name", topic, d+1, header[d])
			}
			if problem := checkName("segment", seg); problem != "" {
				return nil, inputerr.At(file, line, "%s", problem)
			}
			a.Segment[header[d]][topic] = seg
		}
		if wi >= 0 {
			w, problem := parseScore(rec[wi])
			switch {
			case problem != "":
				return nil, inputerr.At(file, line, "weight of topic %q: %s; expected a finite number ≥ 0", topic, strings.Replace(problem, "score", "weight", 1))
			case w < 0:
				return nil, inputerr.At(file, line, "weight of topic %q is %v; expected a finite number ≥ 0", topic, w)
			}
			a.Weights[topic] = w
		}
	}
	if len(a.Topics) == 0 {
		return nil, inputerr.At(file, 0, "no topics in the file; expected at least one row after the header")
	}
	if a.Weights != nil {
		sum := 0.0
		for _, w := range a.Weights {
			sum += w
		}
		if !(sum > 0) || math.IsInf(sum, 0) {
			return nil, inputerr.At(file, 0, "the weights sum to %v; expected a positive finite total", sum)
		}
	}
	return a, nil
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
