package bench

import (
	"regexp"
	"testing"
)

// BenchmarkBenchCases runs riskgate bench's figures (the full settings) as
// Go benchmarks, one sub-benchmark per figure id:
//
//	go test ./gate/bench -run X -bench 'BenchCases/fit-45x50$' -count 3
func BenchmarkBenchCases(b *testing.B) {
	for _, c := range Cases(Config{Count: 1, Only: regexp.MustCompile("")}) {
		b.Run(c.ID, func(b *testing.B) {
			w, err := c.prepare()
			if err != nil {
				b.Fatal(err)
			}
			if w.cleanup != nil {
				defer w.cleanup()
			}
			var last Outcome
			for b.Loop() {
				if last, err = w.run(); err != nil {
					b.Fatal(err)
				}
			}
			per := b.Elapsed().Seconds() / float64(b.N)
			if last.Scale > 0 {
				b.ReportMetric(per*last.Scale, "extrapolated-s/op")
			}
			if r := last.Reference; r != nil {
				b.ReportMetric(r.Seconds, "ref-s/op") // the last pair's
				b.ReportMetric(r.Seconds/last.Seconds, "speedup")
			}
			if last.Lines > 0 {
				b.ReportMetric(last.Lines/per, "runlines/s")
			}
			if last.ESS > 0 {
				b.ReportMetric(last.ESS, "min_ess")
				b.ReportMetric(last.ESS/per, "min_ess/s")
			}
		})
	}
}
