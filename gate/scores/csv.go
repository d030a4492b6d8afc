package scores

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

// Column roles of the long CSV layout and the header names that give them
// (compared case-insensitively, surrounding blanks ignored).
const (
	colSystem  = "system"
	colTopic   = "topic"
	colScore   = "score"
	colMeasure = "measure"
)

var columnRoles = map[string]string{
	"system": colSystem, "run": colSystem, "runid": colSystem, "run_id": colSystem,
	"topic": colTopic, "query": colTopic, "qid": colTopic, "query_id": colTopic, "topic_id": colTopic,
	"score":   colScore,
	"measure": colMeasure,
}

const longHeaderHelp = "a header naming system (or run, runid), topic (or query, qid) and score columns, and optionally measure"

// csvFieldCount returns the number of fields of one CSV line.
func csvFieldCount(line string) (int, error) {
	rec, err := csv.NewReader(strings.NewReader(line)).Read()
	return len(rec), err
}

// parseCSV reads a CSV file with a header row. format is CSVLong, CSVWide, or
// csvAny to let the header decide: a header that names a system or score
// column is long, any other is wide.
//
// No record may be longer than maxLine bytes: encoding/csv keeps a whole
// record in memory, so a 70 MB name is refused once 16 MB of it are read.
func parseCSV(r io.Reader, fs *fileSink, format Format) error {
	bounded := linelimit.NewReader(r, true)
	cr := &csvReader{Reader: csv.NewReader(bounded), bounded: bounded}
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err == io.EOF {
		return inputerr.At(fs.file, 0, "the file is empty; expected a CSV header")
	}
	if err != nil {
		return csvError(fs, cr, nil, err)
	}
	header = trimAll(header)
	if format == csvAny {
		format = csvLayout(header)
	}
	if format == CSVLong {
		return parseCSVLong(cr, fs, header)
	}
	return parseCSVWide(cr, fs, header)
}

// csvLayout is the layout a CSV header gives: long when it names a system
// or score column, else wide.
func csvLayout(header []string) Format {
	for _, h := range header {
		if role := columnRoles[strings.ToLower(strings.TrimSpace(h))]; role == colSystem || role == colScore {
			return CSVLong
		}
	}
	return CSVWide
}

// csvReader is a csv.Reader that marks where each record ends for the
// bound on a record's length.
type csvReader struct {
	*csv.Reader
	bounded *linelimit.Reader
}

func (cr *csvReader) Read() ([]string, error) {
	rec, err := cr.Reader.Read()
	cr.bounded.Mark(cr.InputOffset())
	return rec, err
}

func trimAll(rec []string) []string {
	out := make([]string, len(rec))
	for i, f := range rec {
		out[i] = strings.TrimSpace(f)
	}
	return out
}

// csvError turns an encoding/csv error into the one-line input error.
func csvError(fs *fileSink, cr *csvReader, header []string, err error) error {
	var pe *csv.ParseError
	var long *linelimit.Error
	if errors.As(err, &long) {
		return inputerr.At(fs.file, long.Line, "record longer than %d MB; expected one record per line", maxLine>>20)
	}
	if !errors.As(err, &pe) {
		return inputerr.At(fs.file, 0, "read error: %v", err)
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) && header != nil {
		line, _ := cr.FieldPos(0)
		return inputerr.At(fs.file, line, "the row has a different number of fields from the header's %d (%s); expected one per column",
			len(header), strings.Join(header, ","))
	}
	return inputerr.AtCol(fs.file, pe.Line, pe.Column, "invalid CSV: %v", pe.Err)
}

func parseCSVLong(cr *csvReader, fs *fileSink, header []string) error {
	col := map[string]int{colSystem: -1, colTopic: -1, colScore: -1, colMeasure: -1}
	for i, h := range header {
		role, ok := columnRoles[strings.ToLower(h)]
		if !ok {
			continue // other columns are ignored
		}
		if j := col[role]; j >= 0 {
			return inputerr.At(fs.file, 1, "columns %d (%q) and %d (%q) both give the %s; expected one", j+1, header[j], i+1, h, role)
		}
		col[role] = i
	}
	for _, role := range []string{colSystem, colTopic, colScore} {
		if col[role] < 0 {
			return inputerr.At(fs.file, 1, "no %s column in the header (%s); expected %s", role, excerpt(strings.Join(header, ",")), longHeaderHelp)
		}
	}
	si, ti, ci, mi := col[colSystem], col[colTopic], col[colScore], col[colMeasure]
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(fs, cr, header, err)
		}
		line, _ := cr.FieldPos(0)
		measure := ""
		if mi >= 0 {
			if measure = strings.TrimSpace(rec[mi]); measure == "" {
				return inputerr.At(fs.file, line, "empty measure; expected a measure name in column %d", mi+1)
			}
		}
		keep, err := fs.keep(measure, line)
		if err != nil {
			return err
		}
		if !keep {
			continue
		}
		v, err := fs.score(rec[ci], line)
		if err != nil {
			return err
		}
		if err := fs.add(strings.TrimSpace(rec[si]), strings.TrimSpace(rec[ti]), v, line); err != nil {
			return err
		}
	}
}

// isMissing reports a wide-layout cell that holds no score: empty, or R's NA.
func isMissing(cell string) bool { return cell == "" || cell == "NA" }

func parseCSVWide(cr *csvReader, fs *fileSink, header []string) error {
	if len(header) < 2 {
		return inputerr.At(fs.file, 1, "the header has %d column(s); expected a topic column, then one column per system", len(header))
	}
	seen := map[string]int{}
	for i, h := range header[1:] {
		if h == "" {
			return inputerr.At(fs.file, 1, "column %d has no system name in the header; expected a topic column, then one column per system", i+2)
		}
		if problem := checkName("system name", h); problem != "" {
			return inputerr.At(fs.file, 1, "column %d: %s", i+2, problem)
		}
		if j, dup := seen[h]; dup {
			return inputerr.At(fs.file, 1, "columns %d and %d both name system %q; expected one column per system", j+1, i+2, h)
		}
		seen[h] = i + 1
	}
	systems := header[1:]
	for _, name := range systems {
		if err := fs.l.b.AddSystem(name); err != nil {
			return err
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(fs, cr, header, err)
		}
		line, _ := cr.FieldPos(0)
		topic := strings.TrimSpace(rec[0])
		for i, cell := range rec[1:] {
			cell = strings.TrimSpace(cell)
			if isMissing(cell) {
				continue
			}
			if _, err := fs.keep("", line); err != nil {
				return err
			}
			v, err := fs.score(cell, line)
			if err != nil {
				return wrapColumn(err, systems[i])
			}
			if err := fs.add(systems[i], topic, v, line); err != nil {
				return err
			}
		}
	}
}

// wrapColumn names the system column of a bad wide-layout score.
func wrapColumn(err error, system string) error {
	var ie *inputerr.Error
	if errors.As(err, &ie) {
		ie.Msg = fmt.Sprintf("system %q: %s", system, ie.Msg)
	}
	return err
}
