package scores

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"fmt"
	"os"
	"slices"
	"strings"
)

// The memory loading takes (LoadOptions.MaxMemory): each input is charged
// before it is parsed — a regular file by its size (stat), a pipe by the
// bytes read as it is read — at what the loaders keep per cell of score
// table and per byte of TREC run and qrels. Loading stops, before reading
// (or reading on), when the charges pass the budget.

// Memory loading takes, measured (docs/benchmarks.md: the peak resident
// memory of loading simulate's 300 × 3,000 and 1,000 × 10,000 pools as
// long and wide CSV and as JSON Lines — 29 to 38 bytes a cell above the
// runtime's — and robust03's qrels and runs), with headroom.
const (
	LoadCellBytes = 40  // one cell: the builder's score and origin, its maps' share, the table it builds
	runByteCost   = 1.0 // a parsed run, per byte of the file: documents, docnos, topics (gate/trec)
	qrelsByteCost = 1.5 // parsed qrels, per byte of the file: judgments, docnos, tables sized from the file
)

// MemoryError is a load refused by LoadOptions.MaxMemory.
type MemoryError struct {
	Need, Limit float64 // bytes: what loading would take, at least; the budget
	// Largest is the input charged the most, and Bytes its charge.
	Largest string
	Bytes   float64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("loading the inputs would take about %.0f MB of memory (mostly %s: %.0f MB), over the limit of %.0f MB", e.Need/1e6, e.Largest, e.Bytes/1e6, e.Limit/1e6)
}

// loadBudget is what loading may take, and what its inputs were charged.
type loadBudget struct {
	limit, used float64
	charged     map[string]float64
}

// charge adds cost bytes for what and fails once the total is over the limit.
func (b *loadBudget) charge(what string, cost float64) error {
	if b == nil {
		return nil
	}
	if b.charged == nil {
		b.charged = map[string]float64{}
	}
	b.used += cost
	b.charged[what] += cost
	if b.used <= b.limit {
		return nil
	}
	e := &MemoryError{Need: b.used, Limit: b.limit}
	for w, c := range b.charged {
		if c > e.Bytes || (c == e.Bytes && w < e.Largest) {
			e.Largest, e.Bytes = w, c
		}
	}
	return e
}

// byteCost is what loading takes per byte of in: its cells per byte, from
// the start of the file that detection buffered (its lines, and the
// columns of a CSV of one column per system or per measure: every
// measure's cells), times LoadCellBytes. A TREC run is charged by
// runByteCost.
func (in *input) byteCost(systemPerFile bool) float64 {
	if in.format == Parquet {
		return 1 // held whole while its cells are decoded; they are charged then (parquetLayout.charge)
	}
	window, _ := in.r.Peek(in.r.Size()) // at most what detection looked at; a short file is all there is
	lines := max(bytes.Count(window, []byte{'\n'}), 1)
	cells := lines
	if in.format == csvAny || in.format == CSVWide || in.format == CSVMeasures {
		cr := csv.NewReader(strings.NewReader(firstLine(window)))
		cr.Comma = separator(in.r)
		if header, err := cr.Read(); err == nil {
			header = trimAll(header)
			layout := in.format
			if layout == csvAny {
				layout = csvLayout(header, systemPerFile)
			}
			switch layout {
			case CSVWide:
				cells = lines * max(len(header)-1, 1)
			case CSVMeasures:
				cells = lines * max(measureColumns(header), 1)
			}
		}
	}
	return LoadCellBytes * float64(cells) / float64(max(len(window), 1))
}

// measureColumns counts the columns of a header that have no role (topic,
// system, …): a CSV of one column per measure's measures.
func measureColumns(header []string) int {
	n := 0
	for _, h := range header {
		if _, ok := columnRoles[strings.ToLower(h)]; !ok && h != "" {
			n++
		}
	}
	return n
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// chargeFiles charges every regular input before any is parsed: a score
// file its size at its cost per byte; the runs, parsed up to runWorkers at
// a time, the largest of them together; the qrels file its size. A pipe is
// charged as it is read (tracked.Read), and so are qrels from a pipe.
func (l *loader) chargeFiles(inputs []*input, job *runJob) error {
	var runs []*input
	for _, in := range inputs {
		switch {
		case in.format == Run:
			runs = append(runs, in)
		case in.regular:
			if err := l.budget.charge(in.name, float64(in.first.Size())*in.cost); err != nil {
				return err
			}
		default:
			in.t.budget, in.t.cost = l.budget, in.cost
		}
	}
	if len(runs) == 0 {
		return nil
	}
	slices.SortFunc(runs, func(a, b *input) int { return cmp.Compare(b.first.Size(), a.first.Size()) })
	runs = runs[:min(len(runs), runWorkers())]
	what := runs[0].name
	var size int64
	for _, in := range runs {
		size += in.first.Size()
	}
	if len(runs) > 1 {
		what = fmt.Sprintf("the %d largest runs, parsed at once", len(runs))
	}
	if err := l.budget.charge(what, float64(size)*runByteCost); err != nil {
		return err
	}
	if fi, err := os.Stat(job.qrels); err == nil && fi.Mode().IsRegular() {
		return l.budget.charge(job.qrels, float64(fi.Size())*qrelsByteCost)
	}
	job.budget = l.budget
	return nil
}
