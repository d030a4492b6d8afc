package gate

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/cputime"
	"github.com/riskgate/riskgate/policies"
)

// bayesPolicy is issue 17's denial of service: a Bayesian policy whose data
// requirements are 0.
const bayesPolicy = `version: 1
name: bayes-dos
champion: production
challengers: [candidate]
requirements: {min_topics: 0, min_artifacts: 0, min_topic_coverage: 0}
rules:
  - id: better
    quantity: bayes.p_better
    at_least: 0.95
`

// Reference: issue 17, item 7: 2 systems × 1,000,000 topics with a Bayesian
// policy ran 6 min 22 s and was killed by the kernel at 24 GB. Now it is
// refused within 10 s, before any fit, with one line naming the estimate,
// the limit and the flag. "Within 10 s" is the work done before the
// refusal, measured as the CPU time of riskgate run as a child process (so
// that the test can run in parallel with others, and the limit is the
// process's, as in Main): the wall time measures the machine as well — 12 s
// at load 9 on 2 cores, with 2.6 s of CPU — while a fit started by mistake
// takes minutes of CPU whatever the load.
//
// With -short, 100,000 topics (an estimate of 14.8 GB, still over the
// default 4 GB, refused by the same check before any fit) instead of the
// issue's 1,000,000 (147 GB): writing and loading the million rows was 2.2
// of the test's 2.3 CPU-s; the full suite runs the size.
func TestGateRefusesAFitOverTheMemoryLimit(t *testing.T) {
	t.Parallel()
	topics := 1_000_000
	if testing.Short() {
		topics = 100_000
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "wide.csv")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("topic,production,candidate\n")
	for i := range topics {
		fmt.Fprintf(w, "t%d,0.%02d,0.%02d\n", i, i%97, (i*7)%89)
	}
	w.Flush()
	f.Close()
	policy := filepath.Join(dir, "policy.yaml")
	os.WriteFile(policy, []byte(bayesPolicy), 0o644)

	start := time.Now()
	c := runMainChild(t, nil, "gate", "--policy", policy, "--format", "json", in)
	code, stderr, elapsed, cpu := c.status, c.stderr, time.Since(start), c.cpu
	t.Logf("refused after %v (%v CPU, load %s): %s", elapsed, cpu, cputime.LoadAverageText(), stderr)
	if code != exitError || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("exit %d, stderr %q; want 2 and one line", code, stderr)
	}
	for _, want := range []string{"would need about", "GB of memory", "over the limit of 4 GB", "--max-memory"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if cpu > 10*time.Second {
		t.Errorf("refused after %v of CPU (%v wall), want within 10 s", cpu, elapsed)
	}
}

func completeTable(systems, topics int) *scores.Table {
	s, tp := make([]string, systems), make([]string, topics)
	for i := range s {
		s[i] = fmt.Sprint("s", i)
	}
	s[0], s[1] = "production", "candidate"
	for j := range tp {
		tp[j] = fmt.Sprint("t", j)
	}
	t := scores.NewTable("m", s, tp)
	for i := range t.Scores {
		for j := range t.Scores[i] {
			t.Scores[i][j] = 0.5
		}
	}
	return t
}

// The documented scale targets fit within the default budget: a 1,000 ×
// 10,000 gate with the default policy (target ESS 4,000) and the MS
// MARCO-sized gate (100 runs × 7,000 topics, default policy with its risk
// sweep: 2.11 GiB peak); the denial of service of issue 17 (2 × 1,000,000
// and 100,000 × 2) does not. Nor does a 1,000 × 10,000 gate at target ESS
// 10,000: the fit alone peaks at 1.33 GiB (docs/benchmarks.md), but the
// gate's topics at risk replicate two systems' 10,000 topics at each of
// its 14,000 draws (2.24 GB) beside the draws (1.23 GB); its estimate is
// 4.5 GB (it peaked at 4.3 GB, measured before the engine of issue 24; the
// estimate of 3 GB that had let it in left the replicates of one system
// out).
func TestMemoryEstimateScaleTargets(t *testing.T) {
	t.Parallel()
	limit, err := parseMemory("--max-memory", defaultMaxMemory)
	if err != nil || limit != 4e9 {
		t.Fatalf("default %v %v", limit, err)
	}
	sweep, _ := parseLossWeights("--risk-sweep", defaultRiskSweep)
	dflt := policies.Default()
	dflt.Champion, dflt.Challengers = "production", []policies.Pattern{{Text: "candidate"}}
	ess10k := policies.Default()
	ess10k.Model.TargetESS = 10000
	ess10k.Champion, ess10k.Challengers = dflt.Champion, dflt.Challengers
	bayes, err := policies.Parse("p.yaml", []byte(bayesPolicy))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name            string
		p               *policies.Policy
		systems, topics int
		fits            bool
	}{
		{"1,000 × 10,000 fit, target ESS 10,000", ess10k, 1000, 10_000, false},
		{"1,000 × 10,000, default policy", dflt, 1000, 10_000, true},
		{"MS MARCO-sized gate, default policy", dflt, 100, 7000, true},
		{"rb04-sized", dflt, 45, 50, true},
		{"2 × 1,000,000, Bayesian", bayes, 2, 1_000_000, false},
		{"100,000 × 2, Bayesian", bayes, 100_000, 2, false},
	} {
		total, parts := engine.EstimateMemory(c.p, engine.Tables{completeTable(c.systems, c.topics)}, sweep, nil, nil)
		t.Logf("%s: %s (%v)", c.name, formatMemory(total), parts)
		if fits := total <= limit; fits != c.fits {
			t.Errorf("%s: estimate %s, limit %s: within %v, want %v", c.name, formatMemory(total), formatMemory(limit), fits, c.fits)
		}
	}
}

// The gate sets the garbage collector's memory limit to its budget while
// the inputs load, to its estimate while it runs and reports, and restores
// the previous limit after.
func TestGateSetsTheMemoryLimit(t *testing.T) {
	t.Parallel()
	var limits []int64
	record := func(o *gateOptions) {
		o.setMemoryLimit = func(limit int64) int64 {
			limits = append(limits, limit)
			return 12345 // the previous limit
		}
	}
	code, _, stderr := runGateWith(t, context.Background(), record, "--policy", filepath.Join("testdata", "gate", "cheap.yaml"),
		"--max-memory", "512MB", filepath.Join("testdata", "gate_small.csv"))
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// The budget while the inputs load, then the accepted estimate (less
	// the executable's pages: gcLimit), then the previous limit restored.
	if len(limits) != 3 || limits[0] != 512e6 || !(limits[1] > 0 && limits[1] < 512e6) || limits[2] != 12345 {
		t.Errorf("memory limits set %v, want [512000000, the estimate's, 12345]", limits)
	}
}

func TestParseMemory(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]float64{"4GB": 4e9, "512MB": 512e6, "8GiB": 8 << 30, "1.5 GB": 1.5e9, "1000": 1000} {
		if got, err := parseMemory("--max-memory", in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "GB", "-1GB", "4 gigabytes", "0"} {
		if _, err := parseMemory("--max-memory", in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}
