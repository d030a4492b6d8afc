package bench

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/gate/scores"
)

// The scale checks of issue 9: riskgate eval and riskgate gate on an
// MS MARCO-sized setting — 7,000 queries × 1,000 retrieved documents × 100
// runs (700 million run lines, about 29 GB) — within 4 GB of memory. They
// generate the setting into a temporary folder (never committed), build the
// riskgate binary, run it as its own process and read its peak resident set
// size from the kernel (the figure /usr/bin/time -v prints). They run only
// with RISKGATE_SCALE=1, as they take minutes and tens of gigabytes of disk:
//
//	RISKGATE_SCALE=1 go test ./gate/bench -run TestScale -v -timeout 2h
//
// RISKGATE_SCALE_DIR=DIR generates into DIR and keeps it (a later run reuses
// it), for timing the commands by hand; docs/benchmarks.md gives them.

// scaleDir returns the folder of a setting: RISKGATE_SCALE_DIR (kept, and
// reused when it holds the same setting) or a temporary one.
func scaleDir(t *testing.T, s ScaleSetting) (qrels string, runs []string) {
	t.Helper()
	dir, keep := os.LookupEnv("RISKGATE_SCALE_DIR")
	if !keep {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stamp := filepath.Join(dir, "setting.txt")
	want := fmt.Sprintf("%+v\n", s)
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		names := scaleRunNames(s.Runs)
		for _, n := range names {
			runs = append(runs, filepath.Join(dir, n+".run"))
		}
		t.Logf("reusing the setting in %s", dir)
		return filepath.Join(dir, "qrels.txt"), runs
	}
	t0 := time.Now()
	qrels, runs, err := s.write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("generated %d runs of %d × %d lines in %s (%s)", s.Runs, s.Queries, s.Depth, dir, time.Since(t0).Round(time.Second))
	return qrels, runs
}

// buildRiskgate builds the riskgate binary into a temporary folder.
func buildRiskgate(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "riskgate")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/riskgate/riskgate/cmd/riskgate").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// processFigures are what a finished process used: its wall time, its CPU
// time and its peak resident set size.
type processFigures struct {
	Wall, CPU time.Duration
	MaxRSS    int64 // bytes
	Stdout    []byte
	Stderr    []byte
	ExitCode  int
}

// measureProcess runs bin with args and reads its figures from the kernel's
// rusage: ru_maxrss is the peak resident set size in KiB on Linux, the
// number /usr/bin/time -v prints as "Maximum resident set size (kbytes)".
func measureProcess(t *testing.T, bin string, args ...string) processFigures {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errw bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errw
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this platform")
	}
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return processFigures{Wall: wall, CPU: cpu, MaxRSS: int64(ru.Maxrss) << 10, Stdout: out.Bytes(), Stderr: errw.Bytes(),
		ExitCode: cmd.ProcessState.ExitCode()}
}

// scaleMemoryLimit is issue 9's bound on the MS MARCO-sized setting.
const scaleMemoryLimit = 4 << 30

func requireScale(t *testing.T) {
	t.Helper()
	if os.Getenv("RISKGATE_SCALE") != "1" {
		t.Skip("scale check: set RISKGATE_SCALE=1 (minutes, about 29 GB of temporary disk); docs/benchmarks.md")
	}
	if runtime.GOOS != "linux" {
		t.Skip("scale check reads Linux's rusage")
	}
}

// TestScaleMSMARCOEval runs riskgate eval over the 100 runs (map, P_10 and
// recip_rank per run) and checks its peak memory against 4 GB.
func TestScaleMSMARCOEval(t *testing.T) {
	requireScale(t)
	qrels, runs := scaleDir(t, MSMARCO)
	bin := buildRiskgate(t)
	args := append([]string{"eval", "-m", "map", "-m", "P.10", "-m", "recip_rank", qrels}, runs...)
	f := measureProcess(t, bin, args...)
	if f.ExitCode != 0 {
		t.Fatalf("riskgate eval exit %d: %s", f.ExitCode, f.Stderr)
	}
	if got := strings.Count(string(f.Stdout), "\n"); got != 3*len(runs) {
		t.Errorf("%d output lines, want %d (map, P_10 and recip_rank of each run)", got, 3*len(runs))
	}
	lines := float64(MSMARCO.Queries * MSMARCO.Depth * MSMARCO.Runs)
	t.Logf("riskgate eval, %d runs × %d × %d lines: wall %s, CPU %s, peak RSS %.2f GiB, %.3g run lines/s",
		len(runs), MSMARCO.Queries, MSMARCO.Depth, f.Wall.Round(time.Millisecond), f.CPU.Round(time.Millisecond),
		float64(f.MaxRSS)/(1<<30), lines/f.Wall.Seconds())
	if f.MaxRSS > scaleMemoryLimit {
		t.Errorf("peak RSS %.2f GiB > 4 GiB", float64(f.MaxRSS)/(1<<30))
	}
}

// TestScaleMSMARCOGate runs riskgate gate with the default policy on the
// same 100 runs scored by reciprocal rank (production against candidate-1 …
// 4, 95 artifacts, 7,000 topics: two hierarchical fits of 700,000 cells)
// and checks its peak memory against 4 GB and that it reaches a verdict.
func TestScaleMSMARCOGate(t *testing.T) {
	requireScale(t)
	qrels, runs := scaleDir(t, MSMARCO)
	bin := buildRiskgate(t)
	out := t.TempDir()
	args := append([]string{"gate", "--qrels", qrels, "--measure", "recip_rank", "--out", out}, runs...)
	f := measureProcess(t, bin, args...)
	if f.ExitCode == 2 { // usage, input or policy error
		t.Fatalf("riskgate gate exit %d: %s", f.ExitCode, f.Stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "result.json")); err != nil {
		t.Error(err)
	}
	t.Logf("riskgate gate, %d runs × %d × %d lines, default policy: exit %d, wall %s, CPU %s, peak RSS %.2f GiB\n%s",
		len(runs), MSMARCO.Queries, MSMARCO.Depth, f.ExitCode, f.Wall.Round(time.Millisecond), f.CPU.Round(time.Millisecond),
		float64(f.MaxRSS)/(1<<30), firstLines(string(f.Stdout), 3))
	if f.MaxRSS > scaleMemoryLimit {
		t.Errorf("peak RSS %.2f GiB > 4 GiB", float64(f.MaxRSS)/(1<<30))
	}
}

// firstLines returns the first n lines of s.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestScaleSettingSmall checks the generator on a small setting: riskgate
// loads it as a complete table with the default policy's roles, and the
// runs' mean reciprocal ranks are MS MARCO-like and not all equal.
func TestScaleSettingSmall(t *testing.T) {
	s := ScaleSetting{Queries: 200, Depth: 100, Runs: 8, Collection: 100_000, Seed: 1}
	qrels, runs, err := s.write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tab, err := scores.Load(runs, scores.LoadOptions{Format: scores.Auto, Qrels: qrels, Measures: []string{"recip_rank"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := scaleRunNames(s.Runs); !slices.Equal(tab.Systems, want) {
		t.Errorf("systems %v, want %v", tab.Systems, want)
	}
	if len(tab.Topics) != s.Queries || !tab.Complete() {
		t.Errorf("%d topics (want %d), complete %v", len(tab.Topics), s.Queries, tab.Complete())
	}
	var means []float64
	for _, row := range tab.Scores {
		means = append(means, posterior.Mean(row))
	}
	lo, hi := slices.Min(means), slices.Max(means)
	if lo < 0.1 || hi > 0.6 || hi-lo < 0.02 {
		t.Errorf("mean reciprocal ranks %v: want MS MARCO-like (0.1 … 0.6) and different", means)
	}
}
