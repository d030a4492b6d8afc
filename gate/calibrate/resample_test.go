package calibrate

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/shared"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
)

// robust03Tables are robust03's three runs on map, ndcg_cut_10 and
// recall_1000 (trec_eval -q's per-topic values in ../shared), one table per
// measure, map's first.
func robust03Tables(t testing.TB) engine.Tables {
	t.Helper()
	dir := shared.Path(t, "data/trec_eval/robust03/trec_eval")
	var files []string
	for _, run := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		files = append(files, filepath.Join(dir, run+".all_trec.txt"))
	}
	set, _, _, err := scores.LoadSources(files, scores.LoadOptions{Measures: []string{"map", "ndcg_cut.10", "recall.1000"}, Topics: scores.Intersect})
	if err != nil {
		t.Fatal(err)
	}
	return engine.Tables(set.Tables)
}

// robust03Policy is the three-measure policy of gate's robust03 test: map
// must improve, ndcg_cut_10 and recall_1000 must not regress beyond 0.02.
func robust03Policy(t testing.TB) *policies.Policy {
	t.Helper()
	p, err := policies.Parse("robust03.yaml", []byte(`version: 1
name: robust03-three-measures
champion: rutcor03100
challengers: [NLPR03vb10, pircRBa1]
inputs: {measure: map}
rules:
  - {id: map-improves, quantity: tests.paired_t.p, alternative: greater, at_most: 0.025}
  - {id: ndcg10-holds, quantity: bca.lo, measure: ndcg_cut.10, loss_weight: 1, margin: 0.02, at_least: 0}
  - {id: recall1000-holds, quantity: bca.lo, measure: recall.1000, loss_weight: 1, margin: 0.02, at_least: 0}
`))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The pools keep the between-measure correlation of the challenger's
// per-topic differences to the champion: on robust03's three measures, the
// correlation of the simulated pools' differences (400 pools of 100
// topics, pooled) against
//   - the data's, for a policy of one challenger (NLPR03vb10) at its own
//     true effects on every measure (each shift its mean improvement: no
//     score is clamped, and every simulated challenger score is one of its
//     own), and
//   - the population's, computed exactly over its topics × challengers, for
//     both challengers at effect 0 on every measure, where clamping to
//     [0, 1] changes it (a worse challenger cannot score below 0 where the
//     champion scores 0): map–ndcg_cut_10 0.704 in the data, 0.618 in the
//     population at effect 0 (docs/calibrate.md says so).
//
// Tolerance: 4 Monte Carlo standard errors of the pooled correlation, the
// SE estimated by the spread of the 400 per-pool correlations over √400
// (the pools are independent; about 0.003–0.004 here).
func TestResamplingKeepsTheCorrelation(t *testing.T) {
	t.Parallel()
	ts := robust03Tables(t)
	check := func(t *testing.T, p *policies.Policy, own bool) {
		roles, err := p.Roles(ts[0].Systems)
		if err != nil {
			t.Fatal(err)
		}
		w, err := newResampled(p, ts, roles)
		if err != nil {
			t.Fatal(err)
		}
		shifts := make([]float64, len(w.measures))
		for m := range shifts {
			target := 0.0
			if own { // the challenger's own mean improvement
				k := ts[m].SystemIndex(roles.Challengers[0])
				c := ts[m].SystemIndex(roles.Champion)
				target = stats.Mean(ts[m].Scores[k]) - stats.Mean(ts[m].Scores[c])
			}
			if shifts[m], err = w.solve(m, 1, 0, target); err != nil {
				t.Fatal(err)
			}
		}
		want := w.corr
		if !own {
			want = populationCorrelation(w, shifts)
		}
		const pools = 400
		systems := append([]string{roles.Champion, roles.Challengers[0]}, roles.Artifacts...)
		topics := engine.NumberedNames("t", w.topics())
		diffs := make([][]float64, len(w.measures))
		per := make([][][]float64, len(w.measures))
		for rep := range pools {
			pool := w.simulate(Stream(1, 0, rep), shifts, 1, systems, topics)
			for m, tab := range pool {
				d := make([]float64, len(tab.Topics))
				for j := range d {
					d[j] = tab.Scores[1][j] - tab.Scores[0][j]
				}
				diffs[m] = append(diffs[m], d...)
				per[m] = append(per[m], d)
			}
		}
		for a := range w.measures {
			for b := a + 1; b < len(w.measures); b++ {
				rs := make([]float64, pools)
				for k := range rs {
					rs[k] = Pearson(per[a][k], per[b][k])
				}
				got, se := Pearson(diffs[a], diffs[b]), math.Sqrt(stats.Variance(rs)/pools)
				t.Logf("%s–%s: simulated %.4f, expected %.4f (data %.4f), MC SE %.4f", w.measures[a], w.measures[b], got, want[a][b], w.corr[a][b], se)
				if math.Abs(got-want[a][b]) > 4*se {
					t.Errorf("%s–%s: the pools' correlation %.4f, expected %.4f ± 4 × %.4f", w.measures[a], w.measures[b], got, want[a][b], se)
				}
			}
		}
	}
	t.Run("one challenger at its own effects: the data's", func(t *testing.T) {
		p := robust03Policy(t)
		p.Challengers = []policies.Pattern{{Text: "NLPR03vb10"}}
		check(t, p, true)
	})
	t.Run("two challengers at effect 0: the population's", func(t *testing.T) {
		check(t, robust03Policy(t), false)
	})
}

// populationCorrelation is the exact between-measure correlation of the
// simulated challenger's improvements over the population (every topic ×
// challenger) at the given shifts, risk scale 1.
func populationCorrelation(w *resampled, shifts []float64) [][]float64 {
	d := make([][]float64, len(w.measures))
	for m := range d {
		for k := range w.u[m] {
			for t := range w.champ[m] {
				d[m] = append(d[m], w.improvement(m, k, t, shifts[m], 1))
			}
		}
	}
	out := make([][]float64, len(d))
	for a := range d {
		out[a] = make([]float64, len(d))
		for b := range d {
			out[a][b] = Pearson(d[a], d[b])
		}
	}
	return out
}

// A calibration of several measures is bit-identical whatever GOMAXPROCS
// is: every pool's stream is fixed by its cell and replicate.
func TestRunMeasuresBitIdenticalAcrossGOMAXPROCS(t *testing.T) {
	ts := robust03Tables(t)
	p := robust03Policy(t)
	run := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r, err := Run(context.Background(), p, ts, Settings{Reps: 3, Effects: []float64{0, 0.05}, Risks: []float64{1, 2},
			MinEffect: 0.05, Seed: 9, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one, two := run(1), run(2)
	if !bytes.Equal(one, two) {
		t.Errorf("GOMAXPROCS 1 and 2 give different reports:\n%s\n%s", one, two)
	}
}

// A lower-is-better measure (a latency) is shifted its way and not
// clamped: at a guardrail effect of +5 (5 ms faster) the simulated
// challenger's latency is 5 ms below the champion's on average over the
// pools (within 4 Monte Carlo SE), while its map effect is the cell's.
func TestResamplingLowerIsBetter(t *testing.T) {
	t.Parallel()
	systems, topics := []string{"prod", "new", "old"}, engine.NumberedNames("t", 40)
	ap, ms := scores.NewTable("map", systems, topics), scores.NewTable("latency_ms", systems, topics)
	rng := Stream(3, 0, 0)
	for i := range systems {
		for j := range topics {
			ap.Scores[i][j] = min(1, max(0, 0.3+0.1*rng.NormFloat64()))
			ms.Scores[i][j] = 80 + 10*rng.NormFloat64()
		}
	}
	p, err := policies.Parse("p.yaml", []byte(`version: 1
name: latency
champion: prod
challengers: [new]
inputs: {measure: map, lower_is_better: [latency_ms]}
rules:
  - {id: better, quantity: tests.paired_t.p, alternative: greater, at_most: 0.025}
  - {id: not-slower, quantity: mean_diff, measure: latency_ms, at_least: -2}
  - {id: not-much-slower, quantity: bca.lo, measure: latency_ms, loss_weight: 1, margin: 5%, at_least: 0}
`))
	if err != nil {
		t.Fatal(err)
	}
	ts := engine.Tables{ap, ms}
	roles, err := p.Roles(systems)
	if err != nil {
		t.Fatal(err)
	}
	w, err := newResampled(p, ts, roles)
	if err != nil {
		t.Fatal(err)
	}
	if !w.bounded[0] || w.bounded[1] || w.lower[0] || !w.lower[1] {
		t.Fatalf("bounded %v, lower %v: expected map bounded and higher-is-better, latency_ms unbounded and lower-is-better", w.bounded, w.lower)
	}
	cells, grid, err := w.cells(Settings{Effects: []float64{0.03}, Risks: []float64{1}, GuardrailEffect: 5, MinEffect: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	if got := cells[0].Measures[1].Effect; math.Abs(float64(got)-5) > 1e-9 {
		t.Errorf("latency effect %v, expected 5 (exact: unclamped)", got)
	}
	if len(cells) != 4 || cells[0].Class != ClassBeneficial || cells[1].Edge[0] != "better" || cells[2].Edge[0] != "not-slower" || cells[3].Edge[0] != "not-much-slower" ||
		cells[2].Class != ClassHarmful || cells[3].Class != ClassHarmful {
		t.Errorf("cells %+v", cells)
	}
	if got := float64(cells[2].Measures[1].Effect); math.Abs(got+2) > 1e-9 {
		t.Errorf("the null edge of not-slower: latency effect %v, expected −2 (2 ms slower)", got)
	}
	// 5% of the champion's mean latency.
	if got, want := float64(cells[3].Measures[1].Effect), -0.05*stats.Mean(ms.Scores[0]); math.Abs(got-want) > 1e-9 {
		t.Errorf("the null edge of not-much-slower: latency effect %v, expected %v", got, want)
	}
	var diffs []float64
	for rep := range 400 {
		pool := w.simulate(Stream(1, 0, rep), grid[0].shifts, 1, systems, topics)
		diffs = append(diffs, stats.Mean(pool[1].Scores[1])-stats.Mean(pool[1].Scores[0]))
	}
	mean, se := stats.Mean(diffs), math.Sqrt(stats.Variance(diffs)/400)
	if math.Abs(mean+5) > 4*se {
		t.Errorf("the challenger's latency minus the champion's: %.3f ± %.3f over the pools, expected −5", mean, se)
	}
}

// BenchmarkResampledPool draws one pool of robust03's three measures (100
// topics, champion and challenger) at a cell's shifts: calibrate's cost per
// pool before the decision.
func BenchmarkResampledPool(b *testing.B) {
	ts := robust03Tables(b)
	p := robust03Policy(b)
	roles, err := p.Roles(ts[0].Systems)
	if err != nil {
		b.Fatal(err)
	}
	w, err := newResampled(p, ts, roles)
	if err != nil {
		b.Fatal(err)
	}
	shifts := []float64{0.05, 0, 0}
	systems, topics := []string{roles.Champion, roles.Challengers[0]}, engine.NumberedNames("t", w.topics())
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w.simulate(Stream(1, 0, i), shifts, 1, systems, topics)
	}
}
