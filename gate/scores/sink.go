package scores

import (
	"bufio"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/suggest"
)

// fileSink selects the rows of the wanted measures from one file and adds
// them to the collector. Rows are labelled (they carry a measure) or not; a
// file must be one or the other throughout. An unlabelled row is of
// LoadOptions.UnnamedMeasure ("" when not named).
type fileSink struct {
	l    *loader
	file string // for messages
	name string // the path as given, for system names
	// labelled is 0 before the first row, 1 when rows carry a measure, -1
	// when they do not; labelLine is the first row.
	labelled  int8
	labelLine int
	held      map[string]bool // the measures the file holds, wanted or not
	kept      int
	canon     map[string]string // each measure label as the registry spells it
}

// keep returns the measure the row at line is of, given its label ("" for
// an unlabelled row), and whether the row is to be added.
func (fs *fileSink) keep(label string, line int) (string, bool, error) {
	measure := ""
	if label != "" {
		measure = fs.canonical(label)
	}
	switch {
	case fs.labelled == 0:
		fs.labelLine = line
		fs.labelled = -1
		if measure != "" {
			fs.labelled = 1
		}
	case fs.labelled == 1 && measure == "":
		return "", false, inputerr.At(fs.file, line, "no measure given; expected one, as line %d gives", fs.labelLine)
	case fs.labelled == -1 && measure != "":
		return "", false, inputerr.At(fs.file, line, "measure %q given; expected none, as line %d gives none", measure, fs.labelLine)
	}
	want := fs.l.wanted
	if measure == "" {
		measure = fs.l.opt.UnnamedMeasure
		if measure == "" && len(want) > 0 {
			return "", false, inputerr.At(fs.file, line, "the file names no measure (%s), so it cannot be checked to hold --measure %q; expected a measure column, or its measure named with --unnamed-measure NAME",
				unnamedKinds, want[0])
		}
	} else if !fs.held[measure] {
		if problem := checkName("measure", measure); problem != "" {
			return "", false, inputerr.At(fs.file, line, "%s", problem)
		}
	}
	if !fs.held[measure] {
		if fs.held == nil {
			fs.held = map[string]bool{}
		}
		if len(fs.held) >= maxMeasures {
			return "", false, inputerr.At(fs.file, line, "more than %d measures; expected at most %d", maxMeasures, maxMeasures)
		}
		fs.held[measure] = true
		fs.l.hold(measure)
	}
	if len(want) > 0 && !slices.Contains(want, measure) {
		return measure, false, nil
	}
	fs.kept++
	return measure, true, nil
}

// canonical returns a measure label in the one spelling of measures
// (trec.MeasureName: nDCG@10 and ndcg_cut.10 are ndcg_cut_10), so that
// --measure and the files name a measure however each spells it.
func (fs *fileSink) canonical(label string) string {
	c, ok := fs.canon[label]
	if !ok {
		if fs.canon == nil {
			fs.canon = map[string]string{}
		}
		c = label
		if len(label) <= MaxNameBytes {
			c = trec.MeasureName(label)
		}
		if len(fs.canon) < 1000 { // a file of many measures is refused anyway
			fs.canon[label] = c
		}
	}
	return c
}

// score parses a score, refusing anything but a finite decimal number.
func (fs *fileSink) score(text string, line int) (float64, error) {
	v, problem := parseScore(text)
	if problem != "" {
		return 0, inputerr.At(fs.file, line, "%s; expected a finite number", problem)
	}
	return v, nil
}

// parseScore parses a decimal number ([+-]digits[.digits][e[+-]digits]),
// or says what is wrong with text. Go's extensions (hexadecimal, digit
// underscores) are refused: in a score table they are typos.
func parseScore(text string) (float64, string) {
	t := strings.TrimSpace(text)
	if t == "" {
		return 0, "empty score"
	}
	if !isDecimal(t) {
		switch {
		case !isNonFinite(t):
			return 0, fmt.Sprintf("score %s is not a number", excerpt(t))
		case strings.HasSuffix(strings.ToLower(t), "nan"):
			return 0, fmt.Sprintf("score %s is NaN", excerpt(t))
		}
		return 0, fmt.Sprintf("score %s is infinite", excerpt(t))
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Sprintf("score %s is out of range", excerpt(t))
	}
	return v, ""
}

// isDecimal reports whether s is [+-]digits[.digits][(e|E)[+-]digits] with
// at least one digit before the exponent.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// systemColumn checks that a file names its systems in a column (has) or
// that --system-per-file names them after the file, not both.
func (fs *fileSink) systemColumn(has bool, line int) error {
	switch {
	case has && fs.l.opt.SystemPerFile:
		return inputerr.At(fs.file, line, "the file names its systems in a column; expected none with --system-per-file, which names the system after the file")
	case !has && !fs.l.opt.SystemPerFile:
		return inputerr.At(fs.file, line, "no system column; expected one (system, run or name), or --system-per-file to name the system after the file")
	}
	return nil
}

// fileSystem is the system --system-per-file names after the file; "" without it.
func (fs *fileSink) fileSystem() string {
	if !fs.l.opt.SystemPerFile {
		return ""
	}
	return systemFromFile(fs.name)
}

// separator returns the field separator of a CSV or TSV file from its first
// significant line: a tab when it holds tabs and no comma, else a comma.
func separator(r *bufio.Reader) rune {
	first, _, found, _, _ := sniff(r)
	if found && strings.Contains(first, "\t") && !strings.Contains(first, ",") {
		return '\t'
	}
	return ','
}

// add adds a kept cell of measure.
func (fs *fileSink) add(measure, system, topic string, score float64, line int) error {
	return fs.l.c.add(measure, system, topic, score, fs.file, line)
}

// finish checks, once the file is read whole, that it held a wanted measure.
func (fs *fileSink) finish() error {
	if fs.kept > 0 {
		return nil
	}
	if len(fs.held) == 0 {
		return inputerr.At(fs.file, 0, "no scores in the file; expected at least one row of data")
	}
	var names []string
	for m := range fs.held {
		names = append(names, m)
	}
	slices.Sort(names)
	want := fs.l.wanted
	return inputerr.At(fs.file, 0, "no scores of measure %s (--measure)%s; the file holds %s",
		strings.Join(quoted(want), ", "), suggest.DidYouMean(want[0], names), strings.Join(quoted(names), ", "))
}
