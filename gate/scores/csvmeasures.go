package scores

import (
	"errors"
	"io"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// parseCSVMeasures reads the metric-column layout most evaluation pipelines
// write: a header naming a topic column (topic, query, qid, query_id,
// topic_id) and a system column (system, run, runid, run_id, name), then one
// column per measure, whose header is the measure's name in any spelling of
// the registry (nDCG@10, ndcg_cut.10, recall@100, RR, latency_ms); one row
// per (topic, system). A column with an empty header (the index pandas
// writes) is ignored; an empty or NA cell is a missing score. With
// --system-per-file the system column is absent and the file's name names
// the system.
func parseCSVMeasures(cr *csvReader, fs *fileSink, header []string) error {
	ti, si := -1, -1
	for i, h := range header {
		switch columnRoles[strings.ToLower(h)] {
		case colTopic:
			if ti >= 0 {
				return inputerr.At(fs.file, 1, "columns %d (%q) and %d (%q) both give the topic; expected one", ti+1, header[ti], i+1, h)
			}
			ti = i
		case colSystem:
			if si >= 0 {
				return inputerr.At(fs.file, 1, "columns %d (%q) and %d (%q) both give the system; expected one", si+1, header[si], i+1, h)
			}
			si = i
		case colScore, colMeasure:
			return inputerr.At(fs.file, 1, "column %d (%q) is a score or measure column; expected one column per measure (or name the layout with --input-format csv-long)", i+1, h)
		}
	}
	if ti < 0 {
		return inputerr.At(fs.file, 1, "no topic column in the header (%s); expected %s", excerpt(strings.Join(header, ",")), measuresHeaderHelp)
	}
	if err := fs.systemColumn(si >= 0, 1); err != nil {
		return err
	}
	// The measure columns, each with the measure it holds, or -1 when not read.
	type column struct {
		at      int
		measure string
	}
	var cols []column
	seen := map[string]int{}
	for i, h := range header {
		if i == ti || i == si || h == "" {
			continue
		}
		measure, keep, err := fs.keep(h, 1)
		if err != nil {
			return err
		}
		if j, dup := seen[measure]; dup {
			return inputerr.At(fs.file, 1, "columns %d (%q) and %d (%q) both give measure %q; expected one column per measure", j+1, header[j], i+1, h, measure)
		}
		seen[measure] = i
		if keep {
			cols = append(cols, column{i, measure})
		}
	}
	if len(seen) == 0 {
		return inputerr.At(fs.file, 1, "no measure column in the header (%s); expected %s", excerpt(strings.Join(header, ",")), measuresHeaderHelp)
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
		topic := strings.TrimSpace(rec[ti])
		if si >= 0 {
			system = strings.TrimSpace(rec[si])
		}
		for _, c := range cols {
			cell := strings.TrimSpace(rec[c.at])
			if isMissing(cell) {
				continue
			}
			v, err := fs.score(cell, line)
			if err != nil {
				return wrapMeasureColumn(err, header[c.at])
			}
			if err := fs.add(c.measure, system, topic, v, line); err != nil {
				return err
			}
		}
	}
}

const measuresHeaderHelp = "a topic column (topic, query, qid, query_id), a system column (system, run, name) and one column per measure (nDCG@10, recall.100, …)"

// wrapMeasureColumn names the measure column of a bad score.
func wrapMeasureColumn(err error, column string) error {
	var ie *inputerr.Error
	if errors.As(err, &ie) {
		ie.Msg = "column " + excerpt(column) + ": " + ie.Msg
	}
	return err
}

// isMeasuresHeader reports whether a CSV header is the metric-column
// layout: a topic column, a system column and no score or measure column
// (or, with systemPerFile, a topic column and no system, score or measure
// column), and some other column.
func isMeasuresHeader(header []string, systemPerFile bool) bool {
	roles := map[string]int{}
	other := 0
	for _, h := range header {
		if role, ok := columnRoles[strings.ToLower(h)]; ok {
			roles[role]++
		} else if h != "" {
			other++
		}
	}
	if roles[colScore] > 0 || roles[colMeasure] > 0 || roles[colTopic] == 0 || other == 0 {
		return false
	}
	return roles[colSystem] > 0 || systemPerFile
}
