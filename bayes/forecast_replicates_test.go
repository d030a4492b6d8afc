package bayes

import (
	"slices"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
)

// Replicates drawn once give what Forecast and TopicRisks draw for each
// call, bit for bit: Intervals are Forecast's row, TopicRisks at several
// levels TopicRisks at each, TopicsAtRiskFrom TopicsAtRisk's; the
// replicates are left unchanged; mismatched replicates are refused.
func TestReplicatesShared(t *testing.T) {
	t.Parallel()
	tab := smallBRiskTable()
	r, err := BRisk(tab, 0, 2, BRiskOptions{Challengers: []int{1, 2}, Hier: HierOptions{Sampler: mcmc.NUTSOptions{Seed: 3}, TargetESS: 400}})
	if err != nil {
		t.Fatal(err)
	}
	f, seed := r.Fit, r.Fit.Sampler.Options.Seed
	levels := []float64{0.95, 0.5, 0.9}
	fc, err := f.Forecast(r.Pool, []int{0, 1, 2}, 0.9, seed)
	if err != nil {
		t.Fatal(err)
	}
	champion, err := f.Replicates(0, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range []int{1, 2} {
		rep, err := f.Replicates(s, seed)
		if err != nil {
			t.Fatal(err)
		}
		before := make([][]float64, len(rep.Cells))
		for j, c := range rep.Cells {
			before[j] = slices.Clone(c)
		}
		row, err := rep.Intervals(r.Pool, 0.9)
		if err != nil || !slices.Equal(row, fc.Cells[i+1]) {
			t.Errorf("system %d: Intervals %v (%v), not Forecast's row", s, row, err)
		}
		risks, err := rep.TopicRisks(r.Pool, champion, levels)
		if err != nil {
			t.Fatal(err)
		}
		atRisk, err := r.TopicsAtRiskFrom(rep, champion, levels)
		if err != nil {
			t.Fatal(err)
		}
		for l, level := range levels {
			one, err := f.TopicRisks(r.Pool, 0, s, level, seed)
			if err != nil || !slices.Equal(risks[l], one) {
				t.Errorf("system %d at %v: TopicRisks from shared replicates differ from TopicRisks (%v)", s, level, err)
			}
			want, err := r.TopicsAtRisk(s, level)
			if err != nil || !slices.Equal(atRisk[l], want) {
				t.Errorf("system %d at %v: TopicsAtRiskFrom %v, TopicsAtRisk %v (%v)", s, level, atRisk[l], want, err)
			}
		}
		for j := range rep.Cells {
			if !slices.Equal(rep.Cells[j], before[j]) {
				t.Fatalf("system %d: reading the replicates changed topic %d's", s, j)
			}
		}
		if _, err := rep.TopicRisks(r.Pool, rep, levels); err == nil {
			t.Errorf("system %d against itself: no error", s)
		}
		other, err := f.Replicates(s, seed+1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.TopicsAtRiskFrom(other, champion, levels); err == nil {
			t.Errorf("system %d at another seed: no error", s)
		}
	}
	if _, err := f.Replicates(len(f.Systems), seed); err == nil {
		t.Error("a system out of range: no error")
	}
}

// What a report reads of a BRisk fit's predictive replicates: the
// forecast of the champion's and two challengers' cells and the
// challengers' topics at risk at 95% — "separate": Forecast, then
// TopicsAtRisk per challenger, each drawing its replicates; "shared":
// each system's replicates drawn once (Replicates), as the gate does.
func BenchmarkPredictive(b *testing.B) {
	tab := smallBRiskTable()
	r, err := BRisk(tab, 0, 2, BRiskOptions{Challengers: []int{1, 2}, Hier: HierOptions{Sampler: mcmc.NUTSOptions{Seed: 3}, TargetESS: 4000}})
	if err != nil {
		b.Fatal(err)
	}
	f, seed := r.Fit, r.Fit.Sampler.Options.Seed
	b.Run("separate", func(b *testing.B) {
		for b.Loop() {
			if _, err := f.Forecast(r.Pool, []int{0, 1, 2}, 0.95, seed); err != nil {
				b.Fatal(err)
			}
			for _, s := range []int{1, 2} {
				if _, err := r.TopicsAtRisk(s, 0.95); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		for b.Loop() {
			champion, _ := f.Replicates(0, seed)
			champion.Intervals(r.Pool, 0.95)
			for _, s := range []int{1, 2} {
				rep, _ := f.Replicates(s, seed)
				rep.Intervals(r.Pool, 0.95)
				if _, err := r.TopicsAtRiskFrom(rep, champion, []float64{0.95}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
