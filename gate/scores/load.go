package scores

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/gate/trec"
	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/suggest"
)

// Format names an input layout.
type Format string

// Input formats; Auto detects the format from each file's content.
const (
	Auto     Format = "auto"
	Run      Format = "run"       // TREC run files, scored against LoadOptions.Qrels
	TrecEval Format = "trec_eval" // trec_eval -q output (v9 or v10)
	CSVLong  Format = "csv-long"  // system,topic,score[,measure] with a header
	CSVWide  Format = "csv-wide"  // topic column, then one column per system
	// CSVMeasures is topic and system columns, then one column per measure.
	CSVMeasures Format = "csv-measures"
	JSONL       Format = "jsonl" // {"system","topic","measure","score"} per line
	// IRMeasures is ir_measures -q output: query_id, measure, value.
	IRMeasures Format = "ir_measures"
	// Parquet is a Parquet file in the long or the wide (csv-measures) layout.
	Parquet Format = "parquet"
)

// Formats lists the valid --input-format values in the order the CLI documents them.
var Formats = []Format{Auto, Run, TrecEval, IRMeasures, CSVLong, CSVWide, CSVMeasures, JSONL, Parquet}

// csvAny is what detection says of a CSV file: the header decides long or wide.
const csvAny Format = "csv"

// DefaultRunMeasure is the measure computed from runs when none is named.
const DefaultRunMeasure = "map"

// ParseFormat validates a --input-format value; "" means Auto.
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return Auto, nil
	}
	if slices.Contains(Formats, Format(s)) {
		return Format(s), nil
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("--input-format %q: expected one of %s%s", s, strings.Join(names, ", "), suggest.DidYouMean(s, names))
}

// LoadOptions control Load.
type LoadOptions struct {
	Format Format // Auto when empty
	// Measures are the measures wanted, in order, in any spelling of the
	// registry (trec.MeasureName); empty means every measure the inputs
	// hold (map for runs). Only these are read, or computed from runs, and
	// each must be held by some input.
	Measures []string
	// OptionalMeasures are read, or computed from runs, besides Measures
	// when an input holds them (runs can be scored on any measure); none
	// is required. The gate names its runs' default, map, so: score files
	// given with --qrels are not asked for it.
	OptionalMeasures []string
	// UnnamedMeasure names the measure of inputs that name none (a
	// system,topic,score CSV, a CSV of one column per system); "" leaves it
	// unnamed, and then Measures cannot select it.
	UnnamedMeasure string
	// LowerIsBetter names the measures whose lower values are better
	// (latency, cost); the Set records their direction.
	LowerIsBetter []string
	// SystemPerFile names the system of each file that names none after
	// the file ("runs/bm25.csv" is bm25): a CSV or TSV without a system
	// column. It is never assumed: without it, such a file is an error.
	SystemPerFile bool
	// Topics aligns the Set (Set.Align); "" leaves it as read.
	Topics TopicMode
	Qrels  string // qrels file; required for run files
	// Trec are trec_eval's switches runs are scored with (-l, -J, -M; the
	// rest are ignored, and topics missing from a run are left to Topics);
	// nil is trec_eval's defaults. Inputs that are not runs refuse them: a
	// score file was scored already.
	Trec *trec.Options
	// Judgments are filled-in judging worklists (the gate's --judgments),
	// read in order after the qrels, each through ApplyJudgments, which
	// returns the qrels with its labels merged in (later files override);
	// the runs are scored against the result. Each is read as every input
	// is (bounded, its digest taken) and is a Source (RoleJudgments).
	Judgments      []string
	ApplyJudgments func(q *trec.Qrels, r io.Reader, path string) (*trec.Qrels, error)
	// KeepRankings keeps the TREC runs' rankings against the qrels in the
	// Set (Set.Rankings), for what the qrels have not judged.
	KeepRankings bool
	Stdin        io.Reader // read for the path "-"; nil means standard input is not available
	// QrelsFrom says where the Qrels path was given, for messages: a flag
	// ("--qrels", the default) or a policy key ("policy.yaml:7:3 inputs.qrels").
	QrelsFrom string
	// MaxMemory, when positive, is the memory in bytes loading may take:
	// each input is charged before it is parsed (a regular file by its
	// size, a pipe as it is read; see budget.go), and a load over it is
	// refused with a *MemoryError.
	MaxMemory float64

	// scoreRuns scores the TREC runs of the inputs, all in one call
	// (scoreRunFiles when nil); a test gives another to see the calls.
	scoreRuns func(*collector, runJob) ([]Source, error)
	// beforeRead, when not nil, is called before the first read of each
	// file with its path and role; a test changes a file then.
	beforeRead func(path, role string)
}

// StdinName is how messages name standard input (the path "-").
const StdinName = "<stdin>"

// Load reads every path into one table of one measure, unaligned: the
// measure of opt.Measures (at most one), else the only one the inputs hold.
// It is LoadSources for callers of one measure.
func Load(paths []string, opt LoadOptions) (*Table, error) {
	if len(opt.Measures) > 1 {
		return nil, fmt.Errorf("scores.Load reads one measure; %d named (use LoadSources)", len(opt.Measures))
	}
	set, _, _, err := LoadSources(paths, opt)
	if err != nil {
		return nil, err
	}
	return set.Table("")
}

// LoadSources reads every path into a Set of the measures opt.Measures
// names (every measure the inputs hold when it is empty), aligned as
// opt.Topics says, and returns what it read: one Source per path, in the
// order given, then the qrels file when runs were scored with it. The
// format of each file is detected from its content unless opt.Format names
// one; files of different formats may be mixed. A "-" path reads opt.Stdin
// (once).
//
// Systems and topics keep the order in which the files first name them (in
// any measure), except that all TREC runs are scored together at the
// position of the first one; all of them are evaluated for every measure
// in one pass over each run file.
//
// Each file is read once, its digest taken from the bytes parsed; a
// regular file that changes while it is read (size, modification time or
// identity) is refused with an *inputerr.Error. Call VerifySources on the
// sources before publishing anything that names them, to refuse a file
// changed later in the run. Bad input gives an *inputerr.Error naming the
// file and line.
func LoadSources(paths []string, opt LoadOptions) (*Set, Alignment, []Source, error) {
	format, err := ParseFormat(string(opt.Format))
	if err != nil {
		return nil, Alignment{}, nil, err
	}
	if len(paths) == 0 {
		return nil, Alignment{}, nil, errors.New("no input files given")
	}
	if n := countStdin(paths); n > 1 {
		return nil, Alignment{}, nil, fmt.Errorf("standard input (-) is named %d times; it can be read only once", n)
	}
	// One measure syntax: trec_eval's -m spelling (ndcg_cut.10) selects the
	// value trec_eval prints as ndcg_cut_10 in a score file, as in a run.
	var wanted []string
	for _, m := range opt.Measures {
		if m = trec.MeasureName(m); m != "" && !slices.Contains(wanted, m) {
			wanted = append(wanted, m)
		}
	}
	opt.Measures = wanted
	opt.UnnamedMeasure = trec.MeasureName(opt.UnnamedMeasure)
	l := &loader{opt: opt, c: newCollector(), wanted: slices.Clip(wanted)}
	if len(wanted) > 0 {
		for _, m := range opt.OptionalMeasures {
			if m = trec.MeasureName(m); m != "" && !slices.Contains(l.wanted, m) {
				l.wanted = append(l.wanted, m)
			}
		}
	}
	if opt.MaxMemory > 0 {
		l.budget = &loadBudget{limit: opt.MaxMemory}
	}
	set, err := l.load(paths, format)
	if err != nil {
		return nil, Alignment{}, nil, err
	}
	if err := l.directions(set); err != nil {
		return nil, Alignment{}, nil, err
	}
	var a Alignment
	if opt.Topics != "" {
		if set, a, err = set.Align(opt.Topics); err != nil {
			return nil, a, nil, err
		}
	}
	return set, a, l.sources, nil
}

// directions gives the Set the direction of each measure named by
// opt.LowerIsBetter. A name the Set lacks is an error when the Set holds
// every measure of the inputs (a typo would otherwise leave a cost
// higher-is-better); when measures were selected it may name one not
// selected.
func (l *loader) directions(set *Set) error {
	for _, name := range l.opt.LowerIsBetter {
		i := set.index(name)
		if i < 0 {
			if len(l.wanted) > 0 {
				continue
			}
			present := set.Measures()
			return fmt.Errorf("--lower-is-better %q: no input holds that measure%s; they hold %s", name, suggest.DidYouMean(name, present), strings.Join(quoted(present), ", "))
		}
		if set.Directions == nil {
			set.Directions = make([]Direction, len(set.Tables))
		}
		set.Directions[i] = LowerIsBetter
	}
	return nil
}

// load reads the paths into the builder, keeping each one's source.
func (l *loader) load(paths []string, format Format) (*Set, error) {
	// Detect every format first: all runs are scored in one call, which
	// needs their paths, and a mistaken file is reported before any work.
	inputs := make([]*input, len(paths))
	defer func() {
		for _, in := range inputs {
			if in != nil {
				in.close()
			}
		}
	}()
	// Runs and qrels are files: standard input is not theirs to read.
	job := runJob{qrels: l.opt.Qrels, qrelsFrom: l.opt.QrelsFrom, trec: l.opt.Trec, keepRankings: l.opt.KeepRankings, judgments: l.opt.Judgments, applyJudgments: l.opt.ApplyJudgments, open: opener{beforeRead: l.opt.beforeRead}}
	var runAt []int // the index in paths of each run
	for i, p := range paths {
		in, err := l.open(p, format)
		if err != nil {
			return nil, err
		}
		inputs[i] = in
		if in.format == Run {
			if !in.regular { // detection consumed its start, and runs are opened again
				return nil, inputerr.At(in.name, 0, "a TREC run is read from a regular file, not standard input or a pipe; expected the run file's path")
			}
			job.paths = append(job.paths, p)
			job.want = append(job.want, in.first)
			runAt = append(runAt, i)
		}
		if in.regular {
			in.close() // reopened when its turn comes: hold few files open at a time
		}
	}
	if len(job.paths) == 0 && (l.opt.Trec != nil || len(l.opt.Judgments) > 0) {
		return nil, errors.New("-l, -J, -M and --judgments score TREC runs against qrels, and no input is a run; expected run files with --qrels, or none of these options for score files (scored already)")
	}
	if len(job.paths) > 0 && l.opt.Qrels == "" {
		in := inputs[runAt[0]]
		return nil, inputerr.At(in.name, in.line, "a TREC run line (topic Q0 docno rank score run_id), and no qrels file; expected --qrels FILE to score the runs against, or another format named with --input-format")
	}
	if l.budget != nil {
		if err := l.chargeFiles(inputs, &job); err != nil {
			return nil, err
		}
	}

	sources := make([]Source, len(paths))
	var qrels []Source
	runsDone := false
	for i, in := range inputs {
		if in.format == Run {
			if !runsDone {
				src, err := l.loadRuns(job)
				if err != nil {
					return nil, err
				}
				for k, at := range runAt {
					sources[at] = src[k]
				}
				qrels = src[len(runAt):]
				runsDone = true
			}
			continue
		}
		if in.r == nil {
			if err := l.reopen(in); err != nil {
				return nil, err
			}
		}
		src, err := l.parse(in)
		if err != nil {
			return nil, err
		}
		sources[i] = src
		in.close()
	}
	if l.c.cells() == 0 {
		return nil, errors.New("the inputs hold no scores")
	}
	l.sources = append(sources, qrels...)
	for _, m := range l.opt.Measures {
		if !l.c.has(m) {
			return nil, &MeasureError{Measure: m, Inputs: paths, Present: l.held}
		}
	}
	return l.c.set(l.wanted), nil
}

// MeasureError is a wanted measure (LoadOptions.Measures) that no input
// holds.
type MeasureError struct {
	Measure string
	Inputs  []string // the paths read
	Present []string // the measures they hold, in the order first read
}

func (e *MeasureError) Error() string {
	return fmt.Sprintf("measure %q (--measure) is %s", e.Measure, e.Missing())
}

// Missing says where the measure is missing and what is there instead.
func (e *MeasureError) Missing() string {
	return fmt.Sprintf("in none of the inputs (%s)%s; they hold %s",
		strings.Join(e.Inputs, ", "), suggest.DidYouMean(e.Measure, e.Present), strings.Join(quoted(e.Present), ", "))
}

func countStdin(paths []string) int {
	n := 0
	for _, p := range paths {
		if p == "-" {
			n++
		}
	}
	return n
}

// loader carries the state shared by the files of one Load.
type loader struct {
	opt LoadOptions
	// wanted are opt.Measures and then opt.OptionalMeasures (when
	// Measures names some; empty means every measure held), canonical.
	wanted  []string
	c       *collector
	sources []Source
	budget  *loadBudget // nil: no limit
	// held lists every measure the inputs hold, wanted or not, in the
	// order first read, for messages.
	held []string
}

// hold notes that an input holds measure.
func (l *loader) hold(measure string) {
	if !slices.Contains(l.held, measure) {
		l.held = append(l.held, measure)
	}
}

// input is one file, opened and with its format detected.
type input struct {
	path   string // as given ("-" for stdin)
	name   string // for messages
	format Format
	line   int // the first significant line, from detection (0 if forced)
	r      *bufio.Reader
	t      *tracked // what r reads
	// regular is true for a regular file, which can be read again; a pipe
	// (such as <(command)) stays open from detection to parsing.
	regular bool
	// first is the regular file when first opened: it must be the same
	// file, unchanged, when reopened.
	first fs.FileInfo
	// cost is the memory loading it takes per byte (byteCost), from the
	// start of the file that detection read.
	cost float64
}

func (in *input) close() {
	if in.t != nil {
		in.t.close()
		in.t, in.r = nil, nil
	}
}

// readBufSize is the buffer of each input; detection looks at most this far.
const readBufSize = 64 << 10

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// open opens path and detects its format (or takes forced).
func (l *loader) open(path string, forced Format) (*input, error) {
	in := &input{path: path, name: path}
	if path == "-" {
		in.name = StdinName
	}
	if err := l.reopen(in); err != nil {
		return nil, err
	}
	if forced != Auto {
		in.format = forced
		in.cost = in.byteCost(l.opt.SystemPerFile)
		return in, nil
	}
	if magic, _ := in.r.Peek(len(parquetMagic)); string(magic) == parquetMagic {
		in.format = Parquet
		in.cost = in.byteCost(l.opt.SystemPerFile)
		return in, nil
	}
	first, line, found, empty, err := sniff(in.r)
	switch {
	case err != nil:
		in.close()
		return nil, inputerr.At(in.name, line, "read error: %v", err)
	case empty:
		in.close()
		return nil, inputerr.At(in.name, 0, "the file is empty; expected %s", expectedAny)
	case !found:
		in.close()
		return nil, inputerr.At(in.name, line, "only blank or comment lines in the first %d KB, so the format cannot be told; name it with --input-format", readBufSize>>10)
	}
	in.format, in.line = classify(first), line
	if in.format == Auto {
		in.close()
		return nil, inputerr.At(in.name, line, "cannot tell the format of %s (tried %s); expected %s, or name the format with --input-format",
			excerpt(first), "jsonl, run, trec_eval, ir_measures, csv-long, csv-wide, csv-measures, parquet", expectedAny)
	}
	in.cost = in.byteCost(l.opt.SystemPerFile)
	return in, nil
}

// reopen (re)opens in for reading from its start, past a UTF-8 byte order
// mark; a regular file reopened must be unchanged since it was first opened.
func (l *loader) reopen(in *input) error {
	t, err := opener{stdin: l.opt.Stdin, beforeRead: l.opt.beforeRead}.open(in.path, RoleScores, in.first)
	if err != nil {
		return err
	}
	in.t, in.regular = t, t.file != nil
	if in.regular {
		in.first = t.want
	}
	in.r = bufio.NewReaderSize(t, readBufSize)
	if b, _ := in.r.Peek(len(utf8BOM)); string(b) == string(utf8BOM) {
		in.r.Discard(len(utf8BOM))
	}
	return nil
}

const expectedAny = "a CSV header, a JSON object, trec_eval -q output (measure, topic, value separated by tabs) or a TREC run line (topic Q0 docno rank score run_id)"

// excerpt quotes the start of a line for a message.
func excerpt(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return strconv.Quote(string(r[:max])) + "…"
	}
	return strconv.Quote(s)
}

// sniff returns the first line that is neither blank nor a '#' comment
// (without its line ending) and its 1-based number, looking at most
// readBufSize bytes ahead without consuming anything. A line longer than that
// is returned cut. found is false when the file holds no such line (empty is
// then true) or when the window holds only blank and comment lines.
func sniff(r *bufio.Reader) (first string, line int, found, empty bool, err error) {
	for n := 4096; ; n *= 2 {
		n = min(n, r.Size())
		buf, err := r.Peek(n)
		line, rest := 0, buf
		for {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			line++
			if s := string(rest[:i]); significant(s) {
				return strings.TrimRight(s, "\r"), line, true, false, nil
			}
			rest = rest[i+1:]
		}
		if err == nil && n < r.Size() {
			continue // look further
		}
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return "", line + 1, false, false, err
		}
		// rest is an unterminated last line, or the start of a line too long to see whole.
		if s := string(rest); significant(s) {
			return strings.TrimRight(s, "\r"), line + 1, true, false, nil
		}
		return "", line + 1, false, errors.Is(err, io.EOF), nil
	}
}

func significant(line string) bool {
	t := strings.TrimSpace(line)
	return t != "" && t[0] != '#'
}

// classify names the format of a file from its first significant line, or
// returns Auto when none fits. The checks go from the most to the least
// specific layout.
func classify(line string) Format {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "{") {
		return JSONL
	}
	f := strings.Fields(t)
	if len(f) >= 6 && isNumber(f[3]) && isNumber(f[4]) {
		return Run
	}
	if isIRMeasuresLine(f) {
		return IRMeasures
	}
	if len(f) == 3 && strings.ContainsRune(t, '\t') &&
		(isNumber(f[2]) || isNonFinite(f[2]) || f[1] == "all" || isQuoted(f[2])) {
		return TrecEval
	}
	if n, err := csvFieldCount(line); err == nil && n >= 2 {
		return csvAny
	}
	if strings.Count(line, "\t") >= 1 {
		return csvAny // a TSV header
	}
	return Auto
}

func isNumber(s string) bool { return isDecimal(s) }

// isNonFinite reports NaN and infinity as C's printf writes them (nan, -nan, inf).
func isNonFinite(s string) bool {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "nan", "inf", "infinity":
		return true
	}
	return false
}

// isQuoted reports a relstring value such as '1-0.'.
func isQuoted(s string) bool { return len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' }

// loadRuns scores the run files with every measure wanted (map when none
// is) and returns their sources and then the qrels file's.
func (l *loader) loadRuns(job runJob) ([]Source, error) {
	job.measures = l.wanted
	if len(job.measures) == 0 {
		job.measures = []string{DefaultRunMeasure}
	}
	for _, m := range job.measures {
		l.hold(m)
	}
	score := l.opt.scoreRuns
	if score == nil {
		score = scoreRunFiles
	}
	return score(l.c, job)
}

// parse reads one non-run input into the collector and returns its source.
func (l *loader) parse(in *input) (Source, error) {
	fs := &fileSink{l: l, file: in.name, name: in.path}
	var err error
	switch in.format {
	case csvAny, CSVLong, CSVWide, CSVMeasures:
		err = parseCSV(in.r, fs, in.format, separator(in.r))
	case JSONL:
		err = parseJSONL(in.r, fs)
	case TrecEval:
		err = parseTrecEval(in.r, fs)
	case IRMeasures:
		err = parseIRMeasures(in.r, fs)
	case Parquet:
		err = parseParquet(in.r, fs)
	default:
		err = fmt.Errorf("internal error: no parser for format %q", in.format)
	}
	if err == nil {
		err = fs.finish()
	}
	if err != nil {
		return Source{}, in.t.orChanged(err)
	}
	return in.t.finish()
}

// systemFromFile names a system after its file: the base name without its
// last extension ("runs/bm25.txt" gives "bm25"); standard input gives "stdin".
func systemFromFile(path string) string {
	if path == "-" {
		return "stdin"
	}
	base := filepath.Base(path)
	if stem := strings.TrimSuffix(base, filepath.Ext(base)); stem != "" {
		return stem
	}
	return base
}
