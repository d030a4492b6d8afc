package scores

import (
	"io"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// parseIRMeasures reads ir_measures' per-query output (ir_measures -q
// QRELS RUN MEASURE…; https://ir-measur.es/en/stable/getting-started.html):
// one "query_id measure value" line per query and measure, separated by
// whitespace (tabs), then, unless -n was given, the aggregates, whose query
// id is "all" and which are skipped. The measure is ir_measures' name
// (nDCG@10, P(rel=2)@5, RR), resolved through the registry where it can be.
// The output names no run: it is one system, named after the file with
// --system-per-file (an error without it).
func parseIRMeasures(r io.Reader, fs *fileSink) error {
	sc := lineScanner(r)
	line, rows := 0, 0
	system := ""
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if rows == 0 {
			if err := fs.systemColumn(false, line); err != nil {
				return err
			}
			system = fs.fileSystem()
		}
		rows++
		if len(f) != 3 {
			return inputerr.At(fs.file, line, "%d fields; expected 3 (query_id, measure, value) as ir_measures -q prints", len(f))
		}
		if f[0] == "all" {
			continue // an aggregate
		}
		measure, keep, err := fs.keep(f[1], line)
		if err != nil {
			return err
		}
		if !keep {
			continue
		}
		v, err := fs.score(f[2], line)
		if err != nil {
			return err
		}
		if err := fs.add(measure, system, f[0], v, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return scanError(fs.file, line, err)
	}
	return nil
}

// isIRMeasuresLine reports an ir_measures -q line: three fields, the second
// a measure the registry knows and the first not one (trec_eval -q prints
// the measure first), the third a number; or an aggregate "all MEASURE value".
func isIRMeasuresLine(f []string) bool {
	if len(f) != 3 || !(isNumber(f[2]) || isNonFinite(f[2])) {
		return false
	}
	if _, err := trec.CanonicalMeasure(f[1]); err != nil {
		return false
	}
	_, err := trec.CanonicalMeasure(f[0])
	return err != nil || f[0] == "all"
}
