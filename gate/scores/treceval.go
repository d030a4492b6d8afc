package scores

import (
	"io"
	"strings"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// parseTrecEval reads trec_eval -q output. trec_eval v9 and v10 print the
// same layout: per run, one "measure<TAB>topic<TAB>value" line per measure
// and topic, then the run's summary lines, whose topic is "all" and the
// first of which is "runid all NAME" when the runid measure is printed (the
// default measures and -m all_trec include it; a list of -m measures may
// not). relstring values are not numbers and are skipped, as are summary
// lines other than runid.
//
// A file may hold several runs, as trec_eval -q over a concatenation, or in
// a loop, writes them: each run is a block of per-topic lines between two
// summaries, and becomes one system. A run is named
//   - by the runid line that starts the summary right after it (trec_eval's
//     layout), else
//   - by a runid line before it: at the top of the file, or after another
//     run's summary lines (a runid line right after a run already named this
//     way names the next run), else
//   - after the file, which one run at most can be.
//
// Two runs of one name, and a runid line that names no run, are errors.
func parseTrecEval(r io.Reader, fs *fileSink) error {
	type cell struct {
		measure string
		topic   string
		score   float64
		line    int
	}
	var (
		pending []cell // the kept cells of the current run
		// The current run: its per-topic lines, first line, and the name
		// (and line) a runid line before it gave.
		runLines, runStart int
		runName            string
		runNameLine        int
		// A runid line waiting for the run after it.
		next     string
		nextLine int
		// afterRun is true while the last significant line was per-topic.
		afterRun bool
		named    = map[string]int{} // runid → its line
		unnamed  int                // first line of the run named after the file
	)
	endRun := func(name string, nameLine int) error {
		if name == "" {
			if unnamed > 0 {
				return inputerr.At(fs.file, runStart, "a second run (per-topic lines after a summary) that no runid line names, like the run at line %d; expected a \"runid all NAME\" line for each run of a multi-run file (trec_eval prints it with -m all_trec or -m runid)", unnamed)
			}
			unnamed = runStart
			name = systemFromFile(fs.name)
		} else {
			if first, dup := named[name]; dup {
				return inputerr.At(fs.file, nameLine, "runid %s names a second run, as line %d does; expected one run per runid", excerpt(name), first)
			}
			named[name] = nameLine
		}
		for _, c := range pending {
			if err := fs.add(c.measure, name, c.topic, c.score, c.line); err != nil {
				return err
			}
		}
		pending, runLines, runName, runNameLine = pending[:0], 0, "", 0
		return nil
	}
	namesNothing := func() error {
		return inputerr.At(fs.file, nextLine, "runid %s names no run: no per-topic lines follow it; expected it at the start of the summary right after its run's per-topic lines (as trec_eval prints it), or before them", excerpt(next))
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

		if topic == "all" { // a summary line
			if afterRun {
				afterRun = false
				switch {
				case measure == "runid" && (runName == "" || runName == value):
					if err := endRun(value, line); err != nil {
						return err
					}
					continue
				default:
					if err := endRun(runName, runNameLine); err != nil {
						return err
					}
				}
			}
			if measure == "runid" {
				if next != "" {
					return namesNothing()
				}
				next, nextLine = value, line
			}
			continue
		}

		// A per-topic line.
		if runLines == 0 {
			runStart = line
			if next != "" {
				runName, runNameLine, next = next, nextLine, ""
			}
		}
		runLines++
		afterRun = true
		perTopic++
		if measure == "relstring" || strings.HasPrefix(measure, "relstring_") || measure == "runid" {
			continue
		}
		measure, keep, err := fs.keep(measure, line)
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
		pending = append(pending, cell{measure, topic, v, line})
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
	if runLines > 0 {
		if err := endRun(runName, runNameLine); err != nil {
			return err
		}
	}
	if next != "" {
		return namesNothing()
	}
	return nil
}
