package bayes

import (
	"testing"
	"time"

	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/cputime"
)

// BenchmarkFitSegmentsRB04 is the segment model's speed figure: rb04.csv
// (45 systems × 50 topics) in its three origins (30, 10 and 10 topics),
// FitSegments with its defaults (every bulk- and tail-ESS at least 400,
// FitHier's default target; the convergence diagnostics of all 235
// quantities included). "describe" adds Describe, every quantity's full
// summary, as a report shows it. rstanarm's stan_glmer of the same model
// took 500.7 s (reference/rstanarm/rb04_segments_time.txt); the issue's
// bound is 1,000× faster, 0.5 s. cpu-ms/op is the process's CPU time per
// fit (all goroutines) and load1 the 1-minute load average at the end: the
// machine is shared, so read the wall time beside both.
func BenchmarkFitSegmentsRB04(b *testing.B) {
	tab := rb04(b)
	label := rb04Origins(b, tab)
	run := func(b *testing.B, describe bool) {
		c0 := cputime.Process()
		n := 0
		for b.Loop() {
			t0 := time.Now()
			f, err := FitSegments(tab, label, SegmentOptions{Sampler: mcmc.NUTSOptions{Seed: 42}})
			if err != nil {
				b.Fatal(err)
			}
			if describe {
				f.Describe()
			}
			el := time.Since(t0)
			n++
			bulk, tail, _ := f.WorstConvergence()
			if !f.Converged || bulk < 400 || tail < 400 {
				b.Fatalf("converged %v, worst bulk-ESS %.0f, tail-ESS %.0f", f.Converged, bulk, tail)
			}
			b.ReportMetric(bulk, "min_ess_bulk")
			b.ReportMetric(tail, "min_ess_tail")
			b.ReportMetric(bulk/el.Seconds(), "min_ess_bulk/s")
			b.ReportMetric(float64(f.Draws), "draws/chain")
		}
		b.ReportMetric(float64((cputime.Process()-c0).Microseconds())/1e3/float64(n), "cpu-ms/op")
		if l := cputime.LoadAverage(); len(l) > 0 {
			b.ReportMetric(l[0], "load1")
		}
	}
	b.Run("fit", func(b *testing.B) { run(b, false) })
	b.Run("describe", func(b *testing.B) { run(b, true) })
}

// BenchmarkSegmentDiffsRB04 is one challenger's per-segment differences
// (summaries with MCSEs, intervals, P(δ < −margin)) from the fit.
func BenchmarkSegmentDiffsRB04(b *testing.B) {
	tab := rb04(b)
	f, err := FitSegments(tab, rb04Origins(b, tab), SegmentOptions{Sampler: mcmc.NUTSOptions{Seed: 42}})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := f.SegmentDiffs(1, 0, 0.01, 0.95); err != nil {
			b.Fatal(err)
		}
	}
}
