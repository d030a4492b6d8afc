package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/riskgate/riskgate/gate/bench"

	"github.com/riskgate/riskgate/internal/shared"
)

// benchJSON runs riskgate bench with args and --format json and decodes its report.
func benchJSON(t *testing.T, args ...string) bench.Report {
	t.Helper()
	code, out, errw := runMain(t, append([]string{"bench", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep
}

func benchRowByID(t *testing.T, rep bench.Report, id string) bench.Row {
	t.Helper()
	for _, r := range rep.Rows {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("no figure %q in %+v", id, rep.Rows)
	return bench.Row{}
}

func TestBenchQuickSelected(t *testing.T) {
	t.Parallel()
	rep := benchJSON(t, "--quick", "--only", "^(bca|tukey)-")
	if len(rep.Rows) != 2 || rep.Count != 1 || !rep.Quick {
		t.Fatalf("rows %+v, count %d, quick %v: want bca and tukey once", rep.Rows, rep.Count, rep.Quick)
	}
	for _, r := range rep.Rows {
		if !(r.Seconds > 0) || r.Runs != 1 || !strings.Contains(r.Reproduce, "BenchCases/"+r.ID) {
			t.Errorf("%+v: want a positive time, 1 run and the Go benchmark that reproduces it", r)
		}
	}
	if rep.Machine.Cores < 1 || rep.Machine.Go == "" {
		t.Errorf("machine %+v", rep.Machine)
	}
}

// benchRatesArgs is the bench of eval, the 45 × 50 fit and the rstanarm
// figures recorded with R (no Rscript), run once (benchRatesRun) for
// TestBenchEvalAndFitRates and TestBenchRecordedRstanarm: each timed the
// same quick fit, 0.6 of its 0.8 CPU-s.
func benchRatesArgs() []string {
	return []string{"bench", "--format", "json", "--quick", "--only", "^(eval|fit-45x50|rstanarm.*)$", "--with-rstanarm", "--rscript", "/nonexistent/Rscript"}
}

// benchRatesRun returns the report of benchRatesArgs, run once, and fails
// the test if it could not be made.
func benchRatesRun(t *testing.T) bench.Report {
	t.Helper()
	rep, err := runBenchRates()
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

var runBenchRates = sync.OnceValues(func() (bench.Report, error) {
	var out, errw bytes.Buffer
	var rep bench.Report
	if code := mainWith(context.Background(), append([]string{"riskgate"}, benchRatesArgs()...), strings.NewReader(""), &out, &errw, testDeps()); code != 0 {
		return rep, fmt.Errorf("%q: exit %d: %s", benchRatesArgs(), code, errw.String())
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return rep, fmt.Errorf("%w\n%s", err, out.String())
	}
	return rep, nil
})

// TestBenchEvalAndFitRates checks the rates: eval's lines per second and a
// fit's ESS per second are their counts over the median time.
func TestBenchEvalAndFitRates(t *testing.T) {
	t.Parallel()
	rep := benchRatesRun(t)
	ev := benchRowByID(t, rep, "eval")
	es := bench.BenchEvalSetting(true)
	lines := float64(es.Queries * es.Depth * es.Runs)
	if ev.Rate == nil || ev.RateUnit != "run lines/s" || math.Abs(float64(*ev.Rate)*float64(ev.Seconds)/lines-1) > 1e-9 {
		t.Errorf("eval %+v: want %g lines over its time", ev, lines)
	}
	fit := benchRowByID(t, rep, "fit-45x50")
	if fit.MinESS == nil || *fit.MinESS < bench.TargetESS || fit.Cells != 45*50 || fit.Note != "" {
		t.Errorf("fit %+v: want a converged fit with ESS ≥ %d over 2,250 cells", fit, bench.TargetESS)
	}
	if math.Abs(float64(*fit.Rate)*float64(fit.Seconds)/float64(*fit.MinESS)-1) > 1e-9 {
		t.Errorf("fit rate %v × %v s ≠ ESS %v", *fit.Rate, fit.Seconds, *fit.MinESS)
	}
}

// TestBenchRecordedRstanarm: without Rscript, --with-rstanarm prints the
// figures recorded with R, and they are the ones in the reference files.
func TestBenchRecordedRstanarm(t *testing.T) {
	t.Parallel()
	rep := benchRatesRun(t)
	for _, rec := range bench.RstanarmRecorded {
		row := benchRowByID(t, rep, rec.ID)
		if float64(row.Seconds) != rec.Seconds || row.Source == "" || !strings.Contains(row.Note, "not found") {
			t.Errorf("%+v: want the recorded %g s with its source", row, rec.Seconds)
		}
		file := strings.TrimRight(strings.Fields(strings.TrimPrefix(rec.Source, "../shared/"))[0], ";") // reference/rstanarm/…_time.txt
		b, err := os.ReadFile(shared.Path(t, file))
		if err != nil {
			t.Fatal(err)
		}
		want := "elapsed_s=" + strconv.FormatFloat(rec.Seconds, 'f', 1, 64) + " "
		if !strings.HasPrefix(string(b), want) {
			t.Errorf("%s says %q; bench prints %s", file, b, want)
		}
	}
	rb := benchRowByID(t, rep, "rstanarm-recorded-rb04")
	fit := benchRowByID(t, rep, "fit-45x50")
	if rb.Ratio == nil || math.Abs(float64(rb.Ratio.Time)-278.3/float64(fit.Seconds)) > 1e-9 {
		t.Errorf("ratio %+v against fit %v s", rb.Ratio, fit.Seconds)
	}
}

// TestBenchRecordedRstanarmESS checks the recorded smallest n_eff against
// the summaries they come from.
func TestBenchRecordedRstanarmESS(t *testing.T) {
	t.Parallel()
	for _, rec := range bench.RstanarmRecorded {
		if math.IsNaN(rec.MinESS) {
			continue
		}
		i := strings.Index(rec.Source, "and ")
		file := "reference/rstanarm/" + strings.Fields(rec.Source[i+4:])[0]
		least := math.Inf(1)
		for _, r := range shared.Records(t, shared.Path(t, file)) {
			v, err := strconv.ParseFloat(r["n_eff"], 64)
			if err != nil {
				t.Fatal(err)
			}
			least = math.Min(least, v)
		}
		if least != rec.MinESS {
			t.Errorf("%s: smallest n_eff %g, bench prints %g", file, least, rec.MinESS)
		}
	}
}

// The bench's rows on the user's data: each is timed and says it ran on
// them (calibrate's row: TestBenchUserCalibrate).
func TestBenchUserData(t *testing.T) {
	t.Parallel()
	rep := benchJSON(t, "--quick", "--only", "^user-(fit|brisk|bca|tukey)$", "--champion", "base", "testdata/compare_small.csv")
	for _, id := range []string{"user-fit", "user-brisk", "user-bca", "user-tukey"} {
		if r := benchRowByID(t, rep, id); !(r.Seconds > 0) || !strings.HasPrefix(r.Data, "your data") {
			t.Errorf("%+v", r)
		}
	}
}

// The bench's calibrate row on the user's data: timed, on them. It is the
// default policy's calibrate at --quick's 10 replicates (1.0 CPU-s), and
// times the command the calibrate tests check in -short (TestCalibrateGolden
// and others).
func TestBenchUserCalibrate(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("calibrate's bench row on the user's data takes a CPU-second; -short checks the calibrate command itself (TestCalibrateGolden)")
	}
	rep := benchJSON(t, "--quick", "--only", "^user-calibrate$", "--champion", "base", "testdata/compare_small.csv")
	if r := benchRowByID(t, rep, "user-calibrate"); !(r.Seconds > 0) || !strings.HasPrefix(r.Data, "your data") {
		t.Errorf("%+v", r)
	}
}

func TestBenchErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ args, want string }{
		{"--count 0 --only nothing", "--count 0"},
		{"--only ( ", "--only"},
		{"--champion nope testdata/compare_small.csv", `--champion "nope" is not in the data`},
		{"--format xml", `--format "xml"`},
	} {
		code, _, errw := runMain(t, append([]string{"bench"}, strings.Fields(c.args)...)...)
		if code != exitError || !strings.Contains(errw, c.want) {
			t.Errorf("bench %s: exit %d, %q; want 2 and %q", c.args, code, errw, c.want)
		}
	}
}
