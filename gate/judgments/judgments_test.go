package judgments

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/trec"
)

// A small pool, computed by hand below. Topic 1 judges a (2), b (1), c
// (0) and d (-1: pooled, not judged); topic 2 judges a (1).
const (
	smallQrels = "1 0 a 2\n1 0 b 1\n1 0 c 0\n1 0 d -1\n2 0 a 1\n"
	// Run A ranks for topic 1: x (unjudged), a, d (unjudged), b, c; for
	// topic 2: y (unjudged), a.
	smallRunA = "1 Q0 x 1 9 A\n1 Q0 a 2 8 A\n1 Q0 d 3 7 A\n1 Q0 b 4 6 A\n1 Q0 c 5 5 A\n2 Q0 y 1 2 A\n2 Q0 a 2 1 A\n"
	// Run B ranks for topic 1: a, b, z (unjudged); topic 2: a.
	smallRunB = "1 Q0 a 1 3 B\n1 Q0 b 2 2 B\n1 Q0 z 3 1 B\n2 Q0 a 1 1 B\n"
)

func smallPool(t *testing.T) (*trec.Qrels, []System) {
	t.Helper()
	q, err := trec.ReadQrels(strings.NewReader(smallQrels), "qrels")
	if err != nil {
		t.Fatal(err)
	}
	var runs []*trec.Run
	for i, text := range []string{smallRunA, smallRunB} {
		r, err := trec.ReadRun(strings.NewReader(text), fmt.Sprintf("run%d", i))
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	systems, err := RankRuns(runs, q, trec.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return q, systems
}

// Coverage by hand: judged@3 of A's topic 1 (x, a, d: two unjudged) is
// 1/3, of topic 2 (y, a) (3 − 1)/3 = 2/3 (the third rank, past the end,
// counts as judged); B's are 2/3 and 1.
func TestCoverageByHand(t *testing.T) {
	t.Parallel()
	_, systems := smallPool(t)
	a, b := NewCoverage(systems[0], 3), NewCoverage(systems[1], 3)
	if got := fmt.Sprint(a.Topics); got != fmt.Sprint([]TopicCoverage{{"1", 5, 2, 1.0 / 3}, {"2", 2, 1, 2.0 / 3}}) {
		t.Errorf("A's coverage: %s", got)
	}
	if a.Mean() != 0.5 || a.Unjudged() != 3 || a.System != "A" || a.K != 3 {
		t.Errorf("A: mean %v, unjudged %d, %s@%d", a.Mean(), a.Unjudged(), a.System, a.K)
	}
	// (1/3 − 2/3 + 2/3 − 1)/2 = −1/3
	if d, n := a.MeanDiff(b); math.Abs(d+1.0/3) > 1e-15 || n != 2 {
		t.Errorf("A − B: %v over %d topics; want −1/3 over 2", d, n)
	}
}

// The variants by hand, P@3 (P_3) with -l 1:
//
//	A topic 1 (x a d | b c): standard 1/3 (a); condensed, the list a b c:
//	2/3; optimistic, x, d and B's z relevant at level 1: x a d → 3/3.
//	A topic 2 (y a): standard 1/3, condensed (a) 1/3, optimistic (y a) 2/3.
//	B topic 1 (a b z): standard 2/3, condensed (a b) 2/3, optimistic 3/3.
//	B topic 2 (a): 1/3 under every variant.
func TestVariantsByHand(t *testing.T) {
	t.Parallel()
	q, systems := smallPool(t)
	vs, err := ScoreVariants(systems, q, "P@3", trec.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if vs.Measure != "P_3" || vs.Depth != 3 || vs.Lowest != 1 {
		t.Errorf("measure %s depth %d lowest %d", vs.Measure, vs.Depth, vs.Lowest)
	}
	third := 1.0 / 3
	want := map[string][numVariants][]float64{
		"A": {{third, third}, {2 * third, third}, {1, 2 * third}},
		"B": {{2 * third, third}, {2 * third, third}, {1, third}},
	}
	for _, s := range vs.Systems {
		if fmt.Sprint(s.Values) != fmt.Sprint(want[s.System]) {
			t.Errorf("%s: %v, want %v", s.System, s.Values, want[s.System])
		}
	}
	if got := fmt.Sprint(vs.Systems[0].Unjudged); got != "[[{x 1} {d 3}] [{y 1}]]" {
		t.Errorf("A's unjudged within the top 3: %s", got)
	}
	p, err := vs.Pair("A", "B")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(p.Topics, p.Challenger[Optimistic], p.Champion[Optimistic]) != fmt.Sprint([]string{"1", "2"}, []float64{1, 2 * third}, []float64{1, third}) {
		t.Errorf("Pair: %+v", p)
	}
	if _, err := vs.Pair("A", "C"); err == nil {
		t.Error("Pair with an unknown system: no error")
	}
	// The optimistic world is one for all systems: B alone does not make
	// A's x and d relevant, so B's topic 1 is (a b z) with z relevant and
	// R = 3: still 3/3, but A alone gets no help from z.
	alone, _ := ScoreVariants(systems[:1], q, "P@3", trec.DefaultOptions())
	if got := alone.Systems[0].Values[Optimistic]; fmt.Sprint(got) != fmt.Sprint([]float64{1, 2 * third}) {
		t.Errorf("A alone, optimistic: %v", got)
	}
	for _, bad := range []string{"judged@10", "num_ret", "unj.5", "Q(condensed=true)"} {
		if _, err := ScoreVariants(systems, q, bad, trec.DefaultOptions()); err == nil {
			t.Errorf("ScoreVariants(%s): no error", bad)
		}
	}
	if _, err := ScoreVariants(systems, q, "nosuch", trec.DefaultOptions()); err == nil {
		t.Error("an unknown measure: no error")
	}
}

// The worklist by hand, P@3 with the top level 2: every unjudged document
// within the top 3 moves P_3 by 1/3 (judged 2 against 0). recip_rank: A's
// x at rank 1 moves it from 1/2 to 1 (+1/2), d at rank 3, below a, does
// not move it and is left out; B's z (rank 3, below a) neither; A's y at
// rank 1 of topic 2 moves it from 1/2 to 1.
func TestWorklistByHand(t *testing.T) {
	t.Parallel()
	q, systems := smallPool(t)
	wl, err := BuildWorklist(systems, q, "P@3", trec.DefaultOptions(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range wl.Items {
		got = append(got, fmt.Sprintf("%s/%s %.4f %v", it.Topic, it.Doc, it.Weight, it.By))
	}
	want := "1/d 0.3333 [{A 3 0.3333333333333333}]; 1/x 0.3333 [{A 1 0.3333333333333333}]; " +
		"1/z 0.3333 [{B 3 0.33333333333333337}]; 2/y 0.3333 [{A 1 0.3333333333333333}]"
	if strings.Join(got, "; ") != want || wl.Unjudged != 4 || wl.Movable != 4 || wl.TopLevel != 2 || wl.Depth != 3 {
		t.Errorf("P@3 worklist: %s (unjudged %d, movable %d, top %d, depth %d)\nwant %s", strings.Join(got, "; "), wl.Unjudged, wl.Movable, wl.TopLevel, wl.Depth, want)
	}
	wl, err = BuildWorklist(systems, q, "recip_rank", trec.DefaultOptions(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(wl.Items) != 1 || wl.Items[0].Doc != "x" || wl.Items[0].Weight != 0.5 || wl.Unjudged != 4 || wl.Movable != 2 {
		t.Errorf("recip_rank worklist capped at 1: %+v", wl)
	}
}

// A worklist's weight is the difference of two evaluations of the system's
// run with the document judged at the top level and at 0 (reference:
// trec.Evaluator on qrels merged with the judgment, riskgate eval's path;
// tolerance 1e-15, the two sums being formed in different orders for map).
func TestWorklistWeightsAreEvaluations(t *testing.T) {
	t.Parallel()
	q, systems := smallPool(t)
	runs := map[string]string{"A": smallRunA, "B": smallRunB}
	for _, measure := range []string{"ndcg_cut.3", "map", "P.2", "Q", "nERR@3", "bpref", "recip_rank"} {
		wl, err := BuildWorklist(systems, q, measure, trec.DefaultOptions(), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range wl.Items {
			for _, by := range it.By {
				run, _ := trec.ReadRun(strings.NewReader(runs[by.System]), "run")
				value := func(level int64) float64 {
					qj, err := q.With("merged", []trec.Judgment{{Topic: it.Topic, Doc: it.Doc, Level: level}})
					if err != nil {
						t.Fatal(err)
					}
					return evaluate(t, qj, run, measure, trec.DefaultOptions())[it.Topic]
				}
				if want := value(wl.TopLevel) - value(0); math.Abs(by.Weight-want) > 1e-15 {
					t.Errorf("%s %s/%s by %s: weight %v, evaluations give %v", measure, it.Topic, it.Doc, by.System, by.Weight, want)
				}
			}
		}
	}
}

// evaluate returns the run's per-topic measure, by trec.Evaluator.
func evaluate(t *testing.T, q *trec.Qrels, run *trec.Run, measure string, opt trec.Options) map[string]float64 {
	t.Helper()
	ms, err := trec.MeasureForName(measure)
	if err != nil {
		t.Fatal(err)
	}
	name := ms.List()[0].Names()[0]
	out := map[string]float64{}
	opt.Missing = trec.MissingSkip
	if _, err := trec.NewEvaluator(q, ms, opt).Evaluate(run, func(tr *trec.TopicResult) error {
		out[tr.Topic], _ = tr.Value(ms, name)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestWithLevel(t *testing.T) {
	t.Parallel()
	base := []trec.LevelCount{{Level: 0, Count: 3}, {Level: 2, Count: 1}}
	for _, c := range []struct {
		level, n int64
		want     string
	}{
		{0, 1, "[{0 4} {2 1}]"}, {1, 2, "[{0 3} {1 2} {2 1}]"}, {2, 1, "[{0 3} {2 2}]"}, {5, 1, "[{0 3} {2 1} {5 1}]"},
	} {
		if got := fmt.Sprint(withLevel(base, c.level, c.n)); got != c.want {
			t.Errorf("withLevel(%d, %d) = %s, want %s", c.level, c.n, got, c.want)
		}
	}
	if fmt.Sprint(base) != "[{0 3} {2 1}]" {
		t.Errorf("withLevel changed its argument: %v", base)
	}
	if got := fmt.Sprint(withLevel(nil, 1, 2)); got != "[{1 2}]" {
		t.Errorf("withLevel(nil) = %s", got)
	}
}
