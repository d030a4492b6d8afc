package scores

import (
	"io"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// parseTrecEval reads trec_eval -q output (v9 and v10 print the same
// layout): one "measure<TAB>topic<TAB>value" line per measure and topic, then
// the summary lines, whose topic is "all". Summary lines are ignored except
// "runid all NAME", which names the system of the per-topic lines before it;
// lines with no runid after them belong to a system named after the file.
// relstring values are not numbers and are skipped.
func parseTrecEval(r io.Reader, fs *fileSink) error {
	type cell struct {
		topic string
		score float64
		line  int
	}
	var pending []cell // per-topic cells whose system is not yet known
	flush := func(system string) error {
		for _, c := range pending {
			if err := fs.add(system, c.topic, c.score, c.line); err != nil {
				return err
			}
		}
		pending = pending[:0]
		return nil
	}
	sc := lineScanner(r)
	line, rows, perTopic := 0, 0, 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		rows++
		if len(f) != 3 {
			return inputerr.At(fs.file, line, "%d fields; expected 3 (measure, topic, value) as trec_eval -q prints", len(f))
		}
		measure, topic, value := f[0], f[1], f[2]
		switch {
		case topic == "all":
			if measure == "runid" {
				if err := flush(value); err != nil {
					return err
				}
			}
			continue
		case measure == "relstring" || strings.HasPrefix(measure, "relstring_") || measure == "runid":
			perTopic++
			continue
		}
		perTopic++
		keep, err := fs.keep(measure, line)
		if err != nil {
			return err
		}
		if !keep {
			continue
		}
		v, err := fs.score(value, line)
		if err != nil {
			return err
		}
		pending = append(pending, cell{topic, v, line})
	}
	if err := sc.Err(); err != nil {
		return scanError(fs.file, line, err)
	}
	if perTopic == 0 {
		if rows == 0 {
			return inputerr.At(fs.file, 0, "the file is empty; expected trec_eval -q output")
		}
		return inputerr.At(fs.file, 0, "no per-topic lines, only the summary (topic \"all\"); expected trec_eval output with per-topic values: rerun trec_eval with -q")
	}
	return flush(systemFromFile(fs.name))
}
