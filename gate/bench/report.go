package bench

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/internal/reportfmt"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// Report is what riskgate bench measured.
type Report struct {
	SchemaVersion  int             `json:"schema_version"`
	Tool           string          `json:"tool_version"`
	Machine        Machine         `json:"machine"`
	Quick          bool            `json:"quick"`
	Count          int             `json:"count"`
	ElapsedSeconds jsonfloat.Float `json:"elapsed_seconds"`
	Rows           []Row           `json:"figures"`
	Growth         *Growth         `json:"fit_growth,omitempty"`
}

// Machine names the machine the figures were measured on.
type Machine struct {
	CPU        string `json:"cpu,omitempty"`
	Cores      int    `json:"cores"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	Go         string `json:"go"`
	// LoadBefore and LoadAfter are the 1-, 5- and 15-minute load averages
	// (Linux's /proc/loadavg) when the bench started and ended; empty elsewhere.
	LoadBefore []jsonfloat.Float `json:"load_before,omitempty"`
	LoadAfter  []jsonfloat.Float `json:"load_after,omitempty"`
}

// Row is one figure.
type Row struct {
	ID   string `json:"id"`
	What string `json:"what"`
	Data string `json:"data"`
	Runs int    `json:"runs"`
	// Seconds is the median wall time of the runs; CPUSeconds the median CPU
	// time of the process over the same runs (all threads).
	Seconds    jsonfloat.Float  `json:"seconds"`
	CPUSeconds jsonfloat.Float  `json:"cpu_seconds"`
	Rate       *jsonfloat.Float `json:"rate,omitempty"`
	RateUnit   string           `json:"rate_unit,omitempty"`
	MinESS     *jsonfloat.Float `json:"min_ess,omitempty"` // smallest bulk- or tail-ESS of the fit
	Cells      int              `json:"cells,omitempty"`
	// PeakRSSMB is the process's peak resident set size so far, in MiB.
	PeakRSSMB *jsonfloat.Float `json:"peak_rss_mib,omitempty"`
	// Extrapolated: the time is scaled up from a smaller run (see Note).
	Extrapolated bool   `json:"extrapolated,omitempty"`
	Ratio        *Ratio `json:"ratio,omitempty"`
	// Reference is the reference program timed in the same runs, paired.
	Reference *Reference `json:"reference,omitempty"`
	Note      string     `json:"note,omitempty"`
	Source    string     `json:"source,omitempty"` // where a recorded figure comes from
	Reproduce string     `json:"reproduce,omitempty"`
}

// Ratio compares a figure with riskgate's own on the same or a like pool.
type Ratio struct {
	Against string `json:"against"` // the id of riskgate's figure
	// Time is this figure's time over riskgate's; ESSPerSecond is riskgate's
	// ESS per second over this one's.
	Time         jsonfloat.Float `json:"time"`
	ESSPerSecond jsonfloat.Float `json:"ess_per_second"`
}

// Reference is a reference program (trec_eval) timed on the same input in
// the same runs, each run of riskgate paired with one of it.
type Reference struct {
	Program    string          `json:"program"`
	Seconds    jsonfloat.Float `json:"seconds"`     // median wall time
	CPUSeconds jsonfloat.Float `json:"cpu_seconds"` // median CPU time
	// Speedup is the median over the pairs of its wall time over riskgate's.
	Speedup   jsonfloat.Float `json:"speedup"`
	Identical bool            `json:"identical_output"` // byte for byte, checked before timing
}

// Growth is how the fit's time grows with the pool: time ∝ cells^Exponent.
type Growth struct {
	Exponent  jsonfloat.Float `json:"exponent"`
	FromCells int             `json:"from_cells"`
	ToCells   int             `json:"to_cells"`
	Fits      int             `json:"fits"`
}

// benchMachine describes this machine.
func benchMachine() Machine {
	return Machine{CPU: cpuModel(), Cores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		OS: runtime.GOOS, Arch: runtime.GOARCH, Go: runtime.Version()}
}

// cpuModel is the first "model name" of /proc/cpuinfo ("" where there is none).
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// benchStatus shows what bench is doing on errw (a terminal; nil for none),
// on one line redrawn in place; "" clears it.
func benchStatus(errw io.Writer, format string, a ...any) {
	if errw == nil {
		return
	}
	if format == "" {
		fmt.Fprint(errw, "\r\x1b[K")
		return
	}
	fmt.Fprintf(errw, "\r\x1b[Kriskgate: "+format, a...)
}

func (r *Report) WriteText(w io.Writer, md bool) error {
	m := r.Machine
	sub := fmt.Sprintf("%s, %d cores (GOMAXPROCS %d), %s/%s, %s", numfmt.OrDash(m.CPU), m.Cores, m.GOMAXPROCS, m.OS, m.Arch, m.Go)
	if len(m.LoadBefore) == 3 && len(m.LoadAfter) == 3 {
		sub += fmt.Sprintf("; load average %s before, %s after", loadString(m.LoadBefore), loadString(m.LoadAfter))
	}
	if err := reportfmt.Title(w, md, "riskgate bench "+r.Tool, reportfmt.EscapeIf(md, sub)); err != nil {
		return err
	}
	rows := [][]string{{"figure", "data", "runs", "seconds", "cpu s", "rate", "min ESS", "peak RSS", "reference: seconds (× riskgate's)"}}
	var notes []string
	for _, row := range r.Rows {
		secs := benchSeconds(float64(row.Seconds))
		if row.Extrapolated {
			secs += "*"
		}
		rate := ""
		if row.Rate != nil {
			rate = benchRate(float64(*row.Rate)) + " " + row.RateUnit
		}
		ess := ""
		if row.MinESS != nil {
			ess = numfmt.Thousands(int(*row.MinESS))
		}
		rss := ""
		if row.PeakRSSMB != nil {
			rss = fmt.Sprintf("%.0f MiB", float64(*row.PeakRSSMB))
		}
		runs := strconv.Itoa(row.Runs)
		if row.Source != "" {
			runs = "recorded"
		}
		ref := ""
		if q := row.Reference; q != nil {
			ref = fmt.Sprintf("%s: %s s (%s×)", q.Program, benchSeconds(float64(q.Seconds)), benchRate(float64(q.Speedup)))
		}
		rows = append(rows, []string{row.ID, row.Data, runs, secs, benchSeconds(float64(row.CPUSeconds)), rate, ess, rss, ref})
		if n := benchRowNote(row); n != "" {
			notes = append(notes, row.ID+": "+n)
		}
	}
	if err := reportfmt.Table(w, md, "llrrrrrrl", rows); err != nil {
		return err
	}
	if !md {
		fmt.Fprintln(w)
	}
	if g := r.Growth; g != nil {
		fmt.Fprintf(w, "fit time grows as (systems × topics)^%.2f from %s to %s cells (%d pools)\n",
			float64(g.Exponent), numfmt.Thousands(g.FromCells), numfmt.Thousands(g.ToCells), g.Fits)
	}
	for _, row := range r.Rows {
		fmt.Fprintf(w, "%s: %s\n", row.ID, reportfmt.EscapeIf(md, row.What))
	}
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", reportfmt.EscapeIf(md, n))
	}
	_, err := fmt.Fprintf(w, "total %.1f s; each figure is the median of its runs; reproduce one with go test ./gate/bench -run X -bench 'BenchCases/ID$'\n", float64(r.ElapsedSeconds))
	return err
}

// benchRowNote is a row's note with its ratio and source, in words.
func benchRowNote(row Row) string {
	var parts []string
	if row.Note != "" {
		parts = append(parts, row.Note)
	}
	if q := row.Ratio; q != nil {
		s := fmt.Sprintf("%s× the time of riskgate's %s", benchRate(float64(q.Time)), q.Against)
		if e := float64(q.ESSPerSecond); e == e {
			s += fmt.Sprintf("; riskgate draws %s× the ESS per second", benchRate(e))
		}
		parts = append(parts, s)
	}
	if q := row.Reference; q != nil {
		s := fmt.Sprintf("%s took %s s (CPU %s s), riskgate's time × %s (median of %d paired runs)", q.Program,
			benchSeconds(float64(q.Seconds)), benchSeconds(float64(q.CPUSeconds)), benchRate(float64(q.Speedup)), row.Runs)
		if q.Identical {
			s += "; the same output, byte for byte"
		}
		parts = append(parts, s)
	}
	if row.Source != "" {
		parts = append(parts, "source: "+row.Source)
	}
	return strings.Join(parts, "; ")
}

func loadString(l []jsonfloat.Float) string {
	return fmt.Sprintf("%.2f %.2f %.2f", float64(l[0]), float64(l[1]), float64(l[2]))
}

// benchSeconds prints a time with three significant digits.
func benchSeconds(s float64) string {
	switch {
	case s != s:
		return "–"
	case s < 0.001:
		return fmt.Sprintf("%.2g", s)
	case s < 10:
		return strconv.FormatFloat(s, 'f', 3, 64)
	case s < 100:
		return strconv.FormatFloat(s, 'f', 1, 64)
	}
	return strconv.FormatFloat(s, 'f', 0, 64)
}

// benchRate prints a rate with three significant digits and thousands separators.
func benchRate(x float64) string {
	if x != x {
		return "–"
	}
	if x >= 1000 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
		return numfmt.Thousands(int(r))
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"id", "what", "data", "runs", "seconds", "cpu_seconds", "rate", "rate_unit", "min_ess", "cells", "peak_rss_mib", "extrapolated", "note", "source",
		"reference", "reference_seconds", "reference_cpu_seconds", "reference_speedup"})
	for _, row := range r.Rows {
		opt := func(x *jsonfloat.Float) string {
			if x == nil {
				return ""
			}
			return numfmt.CSV(*x)
		}
		cells := ""
		if row.Cells > 0 {
			cells = strconv.Itoa(row.Cells)
		}
		ref := []string{"", "", "", ""}
		if q := row.Reference; q != nil {
			ref = []string{q.Program, numfmt.CSV(q.Seconds), numfmt.CSV(q.CPUSeconds), numfmt.CSV(q.Speedup)}
		}
		cw.Write(append([]string{row.ID, row.What, row.Data, strconv.Itoa(row.Runs), numfmt.CSV(row.Seconds), numfmt.CSV(row.CPUSeconds),
			opt(row.Rate), row.RateUnit, opt(row.MinESS), cells, opt(row.PeakRSSMB), strconv.FormatBool(row.Extrapolated), benchRowNote(row), row.Source}, ref...))
	}
	cw.Flush()
	return cw.Error()
}
