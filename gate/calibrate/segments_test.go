package calibrate

import (
	"math"
	"slices"
	"testing"
)

// testSegmentModel is rb04's segment model (rb04SegmentModel, seed 1,
// rounded) for tests that need no shared data.
var testSegmentModel = SegmentModel{Intercept: 0.315, Sigma: 0.103, SDTopic: 0.1936, SDSystem: 0.0107, SDSegment: 0.0218, Rho: 0.617, DiffSD: 0.0901}

func TestSegmentScenario(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s     SegmentScenario
		sizes []int
		d     []float64
	}{
		// the issue's: +0.03 overall, −0.10 on one of five segments of 10
		{SegmentScenario{Overall: 0.03, Size: 10, Delta: -0.10}, []int{10, 10, 10, 10, 10}, []float64{-0.10, 0.0625, 0.0625, 0.0625, 0.0625}},
		// a segment of 5: the 45 others in 12, 11, 11, 11; (50·0.03 + 5·0.05)/45 = 0.0389
		{SegmentScenario{Overall: 0.03, Size: 5, Delta: -0.05}, []int{5, 12, 11, 11, 11}, []float64{-0.05, 1.75 / 45, 1.75 / 45, 1.75 / 45, 1.75 / 45}},
		// a segment of 20: the 30 others in 8, 8, 7, 7; (1.5 + 20·0.15)/30 = 0.15
		{SegmentScenario{Overall: 0.03, Size: 20, Delta: -0.15}, []int{20, 8, 8, 7, 7}, []float64{-0.15, 0.15, 0.15, 0.15, 0.15}},
		{SegmentScenario{Overall: 0.03}, []int{10, 10, 10, 10, 10}, []float64{0.03, 0.03, 0.03, 0.03, 0.03}},
	} {
		sizes, err := c.s.Sizes(50, 5)
		if err != nil || !slices.Equal(sizes, c.sizes) {
			t.Errorf("%v: sizes %v, %v; want %v", c.s, sizes, err, c.sizes)
			continue
		}
		d, err := c.s.Differences(sizes)
		if err != nil || !slices.EqualFunc(d, c.d, func(a, b float64) bool { return math.Abs(a-b) < 1e-15 }) {
			t.Errorf("%v: differences %v, %v; want %v", c.s, d, err, c.d)
		}
	}
	if _, err := (SegmentScenario{Overall: 0.03, Size: 45, Delta: -0.1}).Sizes(50, 5); err == nil {
		t.Error("a segment of 45 of 50 topics in 5 segments: no error")
	}
	if !(SegmentScenario{Overall: 0.03, Size: 10, Delta: -0.10}).Harmful(0.02) || (SegmentScenario{Overall: 0.03}).Harmful(0) {
		t.Error("Harmful: the regressing scenario is harmful, the uniform one not")
	}
}

// TestSimulateSegmentPool checks a pool's shape and that the same stream
// gives the same bytes; and, over 400 pools, that the challenger's realised
// difference in the regressing segment and elsewhere is the scenario's,
// less what clamping to [0, 1] takes (it can only shrink a difference
// toward 0), and that its per-topic differences' SD is about DiffSD.
func TestSimulateSegmentPool(t *testing.T) {
	t.Parallel()
	s := SegmentScenario{Overall: 0.03, Size: 10, Delta: -0.10}
	systems := segmentSystems()
	a, err := SimulateSegmentPool(Stream(1, 0, 7), testSegmentModel, s, systems, 50, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SimulateSegmentPool(Stream(1, 0, 7), testSegmentModel, s, systems, 50, 5)
	if len(a.Table.Systems) != 45 || len(a.Table.Topics) != 50 || !slices.Equal(a.Sizes, []int{10, 10, 10, 10, 10}) || a.Label[0] != "g1" || a.Label[49] != "g5" {
		t.Fatalf("pool: %d systems, %d topics, sizes %v, labels %q…%q", len(a.Table.Systems), len(a.Table.Topics), a.Sizes, a.Label[0], a.Label[49])
	}
	for s := range a.Table.Scores {
		if !slices.Equal(a.Table.Scores[s], b.Table.Scores[s]) {
			t.Fatal("the same stream gave another pool")
		}
	}
	const n = 400
	var reg, rest, sd float64
	for rep := range n {
		p, err := SimulateSegmentPool(Stream(2, 0, rep), testSegmentModel, s, systems, 50, 5)
		if err != nil {
			t.Fatal(err)
		}
		for g, d := range p.SegmentDeltas() {
			m := 0.0
			for _, x := range d {
				m += x
			}
			m /= float64(len(d))
			if g == 0 {
				reg += m / n
			} else {
				rest += m / (4 * n)
			}
			v := 0.0
			for _, x := range d {
				v += (x - m) * (x - m)
			}
			sd += math.Sqrt(v/float64(len(d)-1)) / (5 * n)
		}
	}
	// Clamping shrinks: −0.10 realises between −0.10 and −0.07, +0.0625
	// between +0.045 and +0.0625 (limits wide of the values measured:
	// −0.0855 and +0.059, SD 0.085); the SD within 20% below DiffSD 0.09.
	if reg < -0.10 || reg > -0.07 || rest < 0.045 || rest > 0.0625 || sd < 0.07 || sd > 0.0901 {
		t.Errorf("realised: %.4f in the regressing segment, %.4f elsewhere, differences' SD %.4f", reg, rest, sd)
	}
	t.Logf("realised: %.4f in the regressing segment, %.4f elsewhere, differences' SD %.4f", reg, rest, sd)
}

// BenchmarkSimulateSegmentPool draws one pool of a segment calibration: 45
// systems × 50 topics in 5 segments, the challenger regressing in one.
func BenchmarkSimulateSegmentPool(b *testing.B) {
	s := SegmentScenario{Overall: 0.03, Size: 10, Delta: -0.10}
	systems := segmentSystems()
	rep := 0
	for b.Loop() {
		if _, err := SimulateSegmentPool(Stream(1, 0, rep), testSegmentModel, s, systems, 50, 5); err != nil {
			b.Fatal(err)
		}
		rep++
	}
}
