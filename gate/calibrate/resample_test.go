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
func robust03Tables(t *testing.T) engine.Tables {
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
func robust03Policy(t *testing.T) *policies.Policy {
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
