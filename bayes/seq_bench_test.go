package bayes

import (
	"testing"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/cputime"
)

// BenchmarkDecisionPool is the per-pool cost of riskgate calibrate's
// decision with the starter policy on rb04-like pools (42 systems × 50
// topics, the agreement harness's pools, effects −0.02…0.10 in turn):
// P(better) ≥ 0.95 on the raw fit, then, if it passes (gate/engine.Decide
// stops at the first failing fit), P(riskier) ≤ 0.05 on BRisk at w = 5.
//
//	full:       today's fits — 4 chains to every ESS ≥ 4000, convergence
//	            diagnostics only, BRisk described (its topics at risk);
//	sequential: warm-started from a pilot fit of each kind, Sequential on
//	            the rule, BRisk not described.
//
// An op is one pool's decision. cpu-ms/op is the process's CPU time per
// pool (all goroutines), fits/pool the fits a pool needed; load1 is the
// 1-minute load average at the end (the machine is shared: compare the two
// in one run).
func BenchmarkDecisionPool(b *testing.B) {
	s := newSeqSetting(b)
	const w = 5
	const n = 52 // four rounds of the 13 effects
	pools := make([]*Table, n)
	for i := range pools {
		pools[i] = s.pool(b, i, seqEffects[i%len(seqEffects)])
	}
	better := Target{Stat: ProbAbove, A: 1, B: 0, Bounds: []float64{0.95}}
	riskier := Target{Stat: ProbBelow, A: 1, B: 0, Bounds: []float64{0.05}}
	run := func(b *testing.B, decide func(i int) int) {
		fits := 0
		c0 := cputime.Process()
		i := 0
		for b.Loop() {
			fits += decide(i % n)
			i++
		}
		b.ReportMetric(float64((cputime.Process()-c0).Microseconds())/1e3/float64(i), "cpu-ms/op")
		b.ReportMetric(float64(fits)/float64(i), "fits/pool")
		if l := cputime.LoadAverage(); len(l) > 0 {
			b.ReportMetric(l[0], "load1")
		}
		b.Logf("load average %s", cputime.LoadAverageText())
	}
	b.Run("full", func(b *testing.B) {
		run(b, func(i int) int {
			f, err := FitHier(pools[i], seqFullOptions(uint64(i)))
			if err != nil {
				b.Fatal(err)
			}
			if posterior.ProbGreater(f.SystemDiff(1, 0), 0) < 0.95 {
				return 1
			}
			r, err := BRisk(pools[i], 0, w, BRiskOptions{Hier: seqFullOptions(uint64(i)), Challengers: []int{1}})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.Describe(); err != nil {
				b.Fatal(err)
			}
			return 2
		})
	})
	b.Run("sequential", func(b *testing.B) {
		// the pilots: one full fit of each kind, before the clock starts
		p, _, err := s.model.Simulate(newSeqPilotStream(), 0.04, s.systems, s.topic)
		if err != nil {
			b.Fatal(err)
		}
		fr, err := FitHier(p, seqFullOptions(1))
		if err != nil {
			b.Fatal(err)
		}
		br, err := BRisk(p, 0, w, BRiskOptions{Hier: seqFullOptions(1), Challengers: []int{1}})
		if err != nil {
			b.Fatal(err)
		}
		adRaw, adBRisk := fr.Adaptation(), br.Fit.Adaptation()
		b.ResetTimer()
		run(b, func(i int) int {
			f, err := FitHier(pools[i], seqOptions(uint64(i), adRaw, []Target{better}))
			if err != nil {
				b.Fatal(err)
			}
			if f.Targets[0].Value < 0.95 {
				return 1
			}
			if _, err := BRisk(pools[i], 0, w, BRiskOptions{Hier: seqOptions(uint64(i), adBRisk, []Target{riskier}), Challengers: []int{1}}); err != nil {
				b.Fatal(err)
			}
			return 2
		})
	})
}
