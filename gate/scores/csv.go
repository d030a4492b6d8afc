package scores

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
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
	"system": colSystem, "run": colSystem, "runid": colSystem, "run_id": colSystem, "name": colSystem,
	"topic": colTopic, "query": colTopic, "qid": colTopic, "query_id": colTopic, "topic_id": colTopic,
	"score": colScore, "value": colScore,
	"measure": colMeasure,
}

const longHeaderHelp = "a header naming system (or run, runid, name), topic (or query, qid) and score (or value) columns, and optionally measure"

// csvFieldCount returns the number of fields of one CSV line.
func csvFieldCount(line string) (int, error) {
	rec, err := csv.NewReader(strings.NewReader(line)).Read()
	return len(rec), err
}

// parseCSV reads a CSV file (or, with comma '\t', a TSV file) with a
// header row. format is CSVLong, CSVWide, CSVMeasures, or csvAny to let the
// header decide: a header naming topic and system columns and no score or
// measure column is the metric-column layout (CSVMeasures), else one that
// names a system or score column is long, any other is wide.
//
// No record may be longer than maxLine bytes: encoding/csv keeps a whole
// record in memory, so a 70 MB name is refused once 16 MB of it are read.
func parseCSV(r io.Reader, fs *fileSink, format Format, comma rune) error {
	bounded := linelimit.NewReader(r, true)
	cr := &csvReader{Reader: csv.NewReader(bounded), bounded: bounded}
	cr.Comma = comma
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
		format = csvLayout(header, fs.l.opt.SystemPerFile)
		if format == CSVWide && !fs.l.opt.SystemPerFile && namesMeasures(header[1:]) {
			return inputerr.At(fs.file, 1, "the columns after the topic name measures (%s), not systems; expected a system column, or --system-per-file to name the system after the file",
				listNames(header[1:]))
		}
	}
	switch format {
	case CSVLong:
		return parseCSVLong(cr, fs, header)
	case CSVMeasures:
		return parseCSVMeasures(cr, fs, header)
	}
	if fs.l.opt.SystemPerFile {
		return inputerr.At(fs.file, 1, "a CSV of one column per system names its systems in the header; --system-per-file is for files that name none")
	}
	return parseCSVWide(cr, fs, header)
}

// csvLayout is the layout a CSV header gives: one column per measure
// (isMeasuresHeader), else long when it names a system or score column,
// else wide.
func csvLayout(header []string, systemPerFile bool) Format {
	if isMeasuresHeader(header, systemPerFile) {
		return CSVMeasures
	}
	for _, h := range header {
		if role := columnRoles[strings.ToLower(strings.TrimSpace(h))]; role == colSystem || role == colScore {
			return CSVLong
		}
	}
	return CSVWide
}

// namesMeasures reports whether every name is a measure the registry knows
// (nDCG@10, recall.100, map): a header of measures, never of systems.
func namesMeasures(names []string) bool {
	for _, n := range names {
		if _, err := trec.CanonicalMeasure(n); err != nil {
			return false
		}
	}
	return len(names) > 0
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
		if col[role] < 0 && (role != colSystem || !fs.l.opt.SystemPerFile) {
			return inputerr.At(fs.file, 1, "no %s column in the header (%s); expected %s", role, excerpt(strings.Join(header, ",")), longHeaderHelp)
		}
	}
	si, ti, ci, mi := col[colSystem], col[colTopic], col[colScore], col[colMeasure]
	if err := fs.systemColumn(si >= 0, 1); err != nil {
		return err
	}
	system := fs.fileSystem()
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
		measure, keep, err := fs.keep(measure, line)
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
		if si >= 0 {
			system = strings.TrimSpace(rec[si])
		}
		if err := fs.add(measure, system, strings.TrimSpace(rec[ti]), v, line); err != nil {
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
	declared := false
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
			measure, keep, err := fs.keep("", line)
			if err != nil {
				return err
			}
			if !keep {
				return nil // finish says the file lacks the measures wanted
			}
			if !declared {
				// Every column is a system, also one all blank, so
				// that aligning reports it dropped rather than losing it.
				for _, name := range systems {
					if err := fs.l.c.addSystem(measure, name); err != nil {
						return err
					}
				}
				declared = true
			}
			v, err := fs.score(cell, line)
			if err != nil {
				return wrapColumn(err, systems[i])
			}
			if err := fs.add(measure, systems[i], topic, v, line); err != nil {
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
