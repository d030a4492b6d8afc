package bayes

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes/mcmc"
)

// simulatedSegmentPool is a pool drawn from the segment model with known
// effects: nS systems, segments of the given sizes (labelled so that their
// sorted order is not the topics'), system 0 the champion and system 1 a
// challenger whose true per-segment difference to it is d.
func simulatedSegmentPool(tb testing.TB, seed uint64, nS int, sizes []int, d []float64, missing float64) (*Table, []string, SegmentParams) {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, 26))
	var topicSeg []int
	var label []string
	for g, n := range sizes {
		for range n {
			topicSeg = append(topicSeg, g)
			label = append(label, fmt.Sprintf("seg%c", 'z'-g))
		}
	}
	p, err := NewSegmentParams(r, 0.3, 0.1, 0.15, 0.02, 0.02, nS, topicSeg)
	if err != nil {
		tb.Fatal(err)
	}
	if err := p.SetDifference(1, 0, d); err != nil {
		tb.Fatal(err)
	}
	var systems, topics []string
	for s := range nS {
		systems = append(systems, fmt.Sprintf("sys%02d", s))
	}
	for j := range topicSeg {
		topics = append(topics, fmt.Sprintf("q%03d", j))
	}
	tab, err := p.Scores(r, systems, topics, ScoreOptions{Missing: missing})
	if err != nil {
		tb.Fatal(err)
	}
	return tab, label, p
}

func TestSegmentShift(t *testing.T) {
	t.Parallel()
	// the "+0.03 overall, 0.10 worse on one segment of 10 topics" in 5 × 10 topics
	d, err := SegmentShift([]int{10, 10, 10, 10, 10}, 0.03, 2, -0.10)
	if err != nil {
		t.Fatal(err)
	}
	if want := []float64{0.0625, 0.0625, -0.10, 0.0625, 0.0625}; !slices.EqualFunc(d, want, func(a, b float64) bool { return math.Abs(a-b) < 1e-15 }) {
		t.Errorf("SegmentShift = %v, want %v", d, want)
	}
	d, _ = SegmentShift([]int{30, 10, 10}, 0.01, 1, -0.05)
	if mean := (30*d[0] + 10*d[1] + 10*d[2]) / 50; math.Abs(mean-0.01) > 1e-15 || d[1] != -0.05 || d[0] != d[2] {
		t.Errorf("SegmentShift = %v: topic-weighted mean %v, want 0.01 with segment 1 at −0.05", d, mean)
	}
	for _, bad := range []struct {
		sizes []int
		g     int
	}{{[]int{10, 10}, 2}, {[]int{10, 0}, 0}, {[]int{10}, 0}} {
		if _, err := SegmentShift(bad.sizes, 0.03, bad.g, -0.1); err == nil {
			t.Errorf("SegmentShift(%v, segment %d): no error", bad.sizes, bad.g)
		}
	}
}

func TestSetDifference(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	p, err := NewSegmentParams(r, 0.3, 0.1, 0.15, 0.02, 0.03, 4, []int{0, 0, 1, 2, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	d := []float64{0.05, -0.1, 0.02}
	if err := p.SetDifference(3, 1, d); err != nil {
		t.Fatal(err)
	}
	for g := range d {
		got := (p.System[3] + p.Cell[3][g]) - (p.System[1] + p.Cell[1][g])
		if math.Abs(got-d[g]) > 1e-15 {
			t.Errorf("segment %d: true difference %v, want %v", g, got, d[g])
		}
	}
	if dbar := (2*0.05 - 0.1 + 3*0.02) / 6; math.Abs(p.System[3]-p.System[1]-dbar) > 1e-15 {
		t.Errorf("S_3 − S_1 = %v, want the topic-weighted mean %v", p.System[3]-p.System[1], dbar)
	}
	if err := p.SetDifference(1, 1, d); err == nil {
		t.Error("a system against itself: no error")
	}
	if err := p.SetDifference(3, 1, d[:2]); err == nil {
		t.Error("two differences for three segments: no error")
	}
	if _, err := NewSegmentParams(r, 0.3, 0.1, 0.1, 0.1, 0.1, 3, []int{0, 2}); err == nil {
		t.Error("segment 1 without a topic: no error")
	}
	bad := p
	bad.TopicSegment = []int{0, 0, 1, 2, 2, 3}
	if _, err := bad.Scores(r, []string{"a", "b", "c", "d"}, []string{"1", "2", "3", "4", "5", "6"}, ScoreOptions{}); err == nil {
		t.Error("a topic in segment 3 of 3: no error")
	}
}

// TestFitSegmentsRecovers fits simulated pools whose challenger is +0.03
// overall but worse than the champion on its last segment — 16 systems × 40
// topics in segments of 20, 10, 5 and 5, 0.10 worse on 5 topics (complete);
// 10 systems × 20 topics in segments of 10, 5 and 5, 0.15 worse on 5 topics,
// 10% of the cells missing (the Schur path) — and checks that every
// segment's true δ_g lies within its central 99% interval, that the
// regressing segment is found (P(δ < 0) > 0.8 there, < 0.5 elsewhere) and
// that σ is recovered within 10%.
func TestFitSegmentsRecovers(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		nS      int
		sizes   []int
		delta   float64
		missing float64
	}{
		{16, []int{20, 10, 5, 5}, -0.10, 0},
		{10, []int{10, 5, 5}, -0.15, 0.1},
	} {
		t.Run(fmt.Sprintf("missing=%g", c.missing), func(t *testing.T) {
			if c.missing > 0 {
				skipInShortMode(t, "the Schur path's recovery (its exactness is TestSegmentModelsAgainstDenseGaussian's)")
			}
			t.Parallel()
			last := len(c.sizes) - 1
			d, err := SegmentShift(c.sizes, 0.03, last, c.delta)
			if err != nil {
				t.Fatal(err)
			}
			tab, label, truth := simulatedSegmentPool(t, 7, c.nS, c.sizes, d, c.missing)
			f, err := FitSegments(tab, label, SegmentOptions{Sampler: mcmc.NUTSOptions{Seed: 3}})
			if err != nil {
				t.Fatal(err)
			}
			if f.Method != MethodCollapsed || !f.Converged || (c.missing > 0) != (f.Missing > 0) {
				t.Fatalf("method %s, converged %v, %d missing cells: %v", f.Method, f.Converged, f.Missing, f.Warnings)
			}
			diffs, err := f.SegmentDiffs(1, 0, 0, 0.99)
			if err != nil {
				t.Fatal(err)
			}
			for _, sd := range diffs {
				g := int('z' - sd.Segment[3]) // label "seg<z − g>"
				if want := d[g]; !(sd.Interval.Lo < want && want < sd.Interval.Hi) {
					t.Errorf("segment %s: true δ %.4f outside the 99%% interval [%.4f, %.4f]", sd.Segment, want, sd.Interval.Lo, sd.Interval.Hi)
				}
				if regress := g == last; regress != (sd.PBelow > 0.5) || (regress && sd.PBelow < 0.8) {
					t.Errorf("segment %s (true δ %.3f): P(δ < 0) = %.3f", sd.Segment, d[g], sd.PBelow)
				}
				if sd.Topics != c.sizes[g] || !(sd.PBelowMCSE > 0 || sd.PBelow == 0 || sd.PBelow == 1) {
					t.Errorf("segment %s: %d topics (want %d), MCSE of P %v", sd.Segment, sd.Topics, c.sizes[g], sd.PBelowMCSE)
				}
			}
			if s := f.Describe()[IdxSigma].Mean; math.Abs(s/truth.Sigma-1) > 0.1 {
				t.Errorf("σ: posterior mean %.4f, truth %.4f", s, truth.Sigma)
			}
		})
	}
}

// TestSegmentFitDeterministic checks that the same seed gives bit-identical
// draws, summaries and differences with GOMAXPROCS 1 and 2 on every path,
// and that another seed gives other draws.
func TestSegmentFitDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	complete := smallTable(r, 6, 9, 0)
	missing := smallTable(r, 5, 7, 0.2)
	for _, tc := range []struct {
		name  string
		tab   *Table
		label []string
		opt   SegmentOptions
	}{
		{"collapsed-balanced", complete, labelsBy(4, 3, 2), SegmentOptions{Method: MethodCollapsed}},
		{"collapsed-schur", missing, labelsBy(4, 3), SegmentOptions{Method: MethodCollapsed}},
		{"general", missing, labelsBy(4, 3), SegmentOptions{Method: MethodGeneral}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fit := func(procs int, seed uint64) *SegmentFit {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				opt := tc.opt
				// short chains and trees: the draws need not be good, only the same
				opt.Sampler = mcmc.NUTSOptions{Seed: seed, Warmup: 150, Draws: 100, MaxDepth: 6}
				opt.TargetESS = 1
				f, err := FitSegments(tc.tab, tc.label, opt)
				if err != nil {
					t.Fatal(err)
				}
				return f
			}
			a, b := fit(1, 99), fit(2, 99)
			for v := range a.Names {
				for m := range a.Chains {
					for i, x := range a.Sampler.Draws[v][m] {
						if y := b.Sampler.Draws[v][m][i]; math.Float64bits(x) != math.Float64bits(y) {
							t.Fatalf("%s chain %d draw %d: %v with GOMAXPROCS 1, %v with 2", a.Names[v], m, i, x, y)
						}
					}
				}
				if sa, sb := a.Describe()[v], b.Describe()[v]; sa != sb && !(math.IsNaN(sa.Rhat) && math.IsNaN(sb.Rhat)) {
					t.Fatalf("%s: summaries differ: %+v vs %+v", a.Names[v], sa, sb)
				}
			}
			da, _ := a.SegmentDiffs(2, 0, 0.01, 0.9)
			db, _ := b.SegmentDiffs(2, 0, 0.01, 0.9)
			if fmt.Sprint(da) != fmt.Sprint(db) {
				t.Fatalf("segment differences differ:\n%v\n%v", da, db)
			}
			if tc.name == "collapsed-balanced" {
				if c := fit(2, 100); c.Sampler.Draws[IdxSigma][0][0] == a.Sampler.Draws[IdxSigma][0][0] {
					t.Error("seeds 99 and 100 give the same first draw")
				}
			}
		})
	}
}

func TestSegmentLayout(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	tab := smallTable(r, 3, 5, 0)
	f, err := FitSegments(tab, labelsBy(3, 2), SegmentOptions{Sampler: mcmc.NUTSOptions{Seed: 1, Warmup: 100, Draws: 100}, TargetESS: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(f.Segments, []string{"a_last", "g0"}) || !slices.Equal(f.TopicSegment, []int{1, 1, 1, 0, 0}) || !slices.Equal(f.SegmentTopics, []int{2, 3}) {
		t.Fatalf("segments %v, topic segments %v, sizes %v", f.Segments, f.TopicSegment, f.SegmentTopics)
	}
	for _, c := range []struct {
		i    int
		want string
	}{
		{IdxIntercept, "intercept"}, {IdxSigma, "sigma"}, {IdxSDTopic, "sd_topic"}, {IdxSDSystem, "sd_system"},
		{IdxSDSegment, "sd_system:segment"}, {f.TopicIndex(4), "topic[te]"}, {f.SystemIndex(1), "system[sB]"},
		{f.CellIndex(2, 0), "system:segment[sC:a_last]"}, {len(f.Names) - 1, "system:segment[sC:g0]"},
	} {
		if f.Names[c.i] != c.want {
			t.Errorf("Names[%d] = %q, want %q", c.i, f.Names[c.i], c.want)
		}
	}
	if len(f.Names) != 5+5+3+3*2 || len(f.Describe()) != len(f.Names) {
		t.Errorf("%d names, %d summaries", len(f.Names), len(f.Describe()))
	}
	// a cell's effect is S_s + SG_{s,g}; a difference is the difference of two cells' effects
	cell, diff := f.CellChains(2, 1), f.SegmentDiffChains(2, 0, 1)
	for m := range f.Chains {
		for i := range f.Draws {
			s2, c2 := f.Sampler.Draws[f.SystemIndex(2)][m][i], f.Sampler.Draws[f.CellIndex(2, 1)][m][i]
			s0, c0 := f.Sampler.Draws[f.SystemIndex(0)][m][i], f.Sampler.Draws[f.CellIndex(0, 1)][m][i]
			if cell[m][i] != s2+c2 || diff[m][i] != (s2+c2)-(s0+c0) {
				t.Fatalf("chain %d draw %d: cell %v, difference %v", m, i, cell[m][i], diff[m][i])
			}
		}
	}
}

func TestFitSegmentsRejects(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	tab := smallTable(r, 3, 4, 0)
	ok := labelsBy(2, 2)
	for _, c := range []struct {
		name  string
		label []string
		opt   SegmentOptions
		want  string
	}{
		{"too few labels", ok[:3], SegmentOptions{}, "3 segment labels for 4 topics"},
		{"empty label", []string{"a", "", "b", "b"}, SegmentOptions{}, `topic "tb" has an empty segment label`},
		{"method", ok, SegmentOptions{Method: "exact"}, `unknown method "exact"`},
		{"warm start", ok, SegmentOptions{Sampler: mcmc.NUTSOptions{WarmStart: &mcmc.Adaptation{}}}, "no warm start"},
		{"sd_segment prior", ok, SegmentOptions{Priors: &SegmentPriors{HierPriors: TableRstanarmPriors(tab), SDSegment: Normal{0, 1}}}, "sd_segment prior"},
		{"collapsed without a normal intercept", ok, SegmentOptions{Method: MethodCollapsed,
			Priors: &SegmentPriors{HierPriors: HierPriors{Intercept: StudentT{3, 0, 1}, Sigma: Exponential{1}, SDTopic: Gamma{1, 1}, SDSystem: Gamma{1, 1}}, SDSegment: Gamma{1, 1}}},
			"needs a normal intercept prior"},
	} {
		if _, err := FitSegments(tab, c.label, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	f, err := FitSegments(tab, ok, SegmentOptions{Sampler: mcmc.NUTSOptions{Seed: 1, Warmup: 50, Draws: 50}, TargetESS: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		c, champ      int
		margin, level float64
	}{{1, 1, 0, 0.9}, {3, 0, 0, 0.9}, {1, 0, math.NaN(), 0.9}, {1, 0, 0, 1}} {
		if _, err := f.SegmentDiffs(c.c, c.champ, c.margin, c.level); err == nil {
			t.Errorf("SegmentDiffs(%d, %d, %v, %v): no error", c.c, c.champ, c.margin, c.level)
		}
	}
	if _, err := SegmentBRisk(tab, ok, 0, 2, SegmentBRiskOptions{Challengers: []int{0}}); err == nil {
		t.Error("SegmentBRisk with the champion as a challenger: no error")
	}
}

// TestFitSegmentsCancel checks that a cancelled context stops the fit with
// its error.
func TestFitSegmentsCancel(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 8))
	tab := smallTable(r, 4, 6, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := FitSegments(tab, labelsBy(3, 3), SegmentOptions{Sampler: mcmc.NUTSOptions{Context: ctx}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
}

// TestSegmentBRisk checks the risk-adjusted form: it is the segment fit of
// BRiskPool(t, champion, w), draw for draw (w = 1: of t itself), and on a
// pool whose challenger loses only in one segment the losses, counted w
// times, lower that segment's δ by about (w − 1) times its mean loss.
func TestSegmentBRisk(t *testing.T) {
	t.Parallel()
	sizes := []int{15, 10, 5}
	d, _ := SegmentShift(sizes, 0.02, 2, -0.1)
	tab, label, _ := simulatedSegmentPool(t, 9, 6, sizes, d, 0)
	opt := SegmentBRiskOptions{Fit: SegmentOptions{Sampler: mcmc.NUTSOptions{Seed: 5, Warmup: 400, Draws: 400}, TargetESS: 200},
		Challengers: []int{1}, Margin: 0.01}
	plain, err := SegmentBRisk(tab, label, 0, 1, opt)
	if err != nil {
		t.Fatal(err)
	}
	risk, err := SegmentBRisk(tab, label, 0, 5, opt)
	if err != nil {
		t.Fatal(err)
	}
	pool, _ := BRiskPool(tab, 0, 5)
	direct, err := FitSegments(pool, label, opt.Fit)
	if err != nil {
		t.Fatal(err)
	}
	for v := range direct.Names {
		if fmt.Sprint(direct.Sampler.Draws[v]) != fmt.Sprint(risk.Fit.Sampler.Draws[v]) {
			t.Fatalf("%s: SegmentBRisk's draws differ from FitSegments' on BRiskPool", direct.Names[v])
		}
	}
	if !plain.Converged || !risk.Converged || len(risk.Challengers) != 1 || risk.W != 5 || risk.Margin != 0.01 {
		t.Fatalf("converged %v/%v, %d challengers, w %v, margin %v", plain.Converged, risk.Converged, len(risk.Challengers), risk.W, risk.Margin)
	}
	for g, name := range risk.Fit.Segments {
		p, q := plain.Challengers[0].Segments[g], risk.Challengers[0].Segments[g]
		// the mean loss of the challenger in this segment, from the data
		loss, n := 0.0, 0
		for j, l := range label {
			if l == name {
				loss += math.Min(0, tab.Scores[1][j]-tab.Scores[0][j])
				n++
			}
		}
		want := p.Summary.Mean + 4*loss/float64(n)
		if math.Abs(q.Summary.Mean-want) > 2*q.Summary.SD {
			t.Errorf("segment %s: risk-adjusted δ %.4f, plain %.4f + 4 × mean loss %.4f = %.4f", name, q.Summary.Mean, p.Summary.Mean, loss/float64(n), want)
		}
		if q.PBelow < p.PBelow {
			t.Errorf("segment %s: P(δ < −0.01) %.3f risk-adjusted, below the plain %.3f", name, q.PBelow, p.PBelow)
		}
	}
}

// TestResidualPair checks Scores with correlated residuals: ρ = 0 draws the
// same table as no pair at all (the same stream, so the same bytes), and the
// pair's per-topic differences have the variance 2σ²(1 − ρ) that
// ResidualCorrelation inverts, within 4 standard errors over 20,000 topics
// (unbounded scores; the SE of a sample variance of normal data is
// v·√(2/(n − 1))), while the other systems' residuals stay independent.
func TestResidualPair(t *testing.T) {
	t.Parallel()
	const n = 20000
	topicSeg := make([]int, n)
	for j := range topicSeg {
		topicSeg[j] = j % 4
	}
	p, err := NewSegmentParams(rand.New(rand.NewPCG(3, 4)), 0.3, 0.1, 0.15, 0.02, 0.02, 3, topicSeg)
	if err != nil {
		t.Fatal(err)
	}
	systems := []string{"a", "b", "c"}
	topics := make([]string, n)
	for j := range topics {
		topics[j] = fmt.Sprint(j)
	}
	plain, _ := p.Scores(rand.New(rand.NewPCG(5, 6)), systems, topics, ScoreOptions{})
	zero := p
	zero.Paired = ResidualPair{System: 1, Base: 0}
	same, _ := zero.Scores(rand.New(rand.NewPCG(5, 6)), systems, topics, ScoreOptions{})
	for s := range systems {
		if !slices.Equal(plain.Scores[s], same.Scores[s]) {
			t.Fatalf("ρ = 0: system %d's scores differ from an unpaired draw's", s)
		}
	}
	diffVar := func(tab *Table, a, b int) float64 {
		d := make([]float64, n)
		for j := range d {
			d[j] = tab.Scores[a][j] - tab.Scores[b][j] - (p.System[a] + p.Cell[a][topicSeg[j]] - p.System[b] - p.Cell[b][topicSeg[j]])
		}
		m, v := 0.0, 0.0
		for _, x := range d {
			m += x
		}
		m /= n
		for _, x := range d {
			v += (x - m) * (x - m)
		}
		return v / (n - 1)
	}
	rho, err := ResidualCorrelation(0.09, 0.1)
	if err != nil || math.Abs(rho-0.595) > 1e-12 {
		t.Fatalf("ResidualCorrelation(0.09, 0.1) = %v, %v; want 1 − 0.0081/0.02 = 0.595", rho, err)
	}
	paired := p
	paired.Paired = ResidualPair{System: 2, Base: 0, Rho: rho}
	tab, err := paired.Scores(rand.New(rand.NewPCG(7, 8)), systems, topics, ScoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// e_2 = ρ·e_0 + √(1 − ρ²)·ε: var(e_2 − e_0) = 2σ²(1 − ρ) = 0.09²; e_1
	// is independent of both: var(e_1 − e_0) = var(e_2 − e_1) = 2σ².
	for _, c := range []struct {
		a, b int
		want float64
	}{{2, 0, 0.09 * 0.09}, {1, 0, 2 * 0.01}, {2, 1, 2 * 0.01}} {
		got := diffVar(tab, c.a, c.b)
		if se := c.want * math.Sqrt(2.0/(n-1)); math.Abs(got-c.want) > 4*se {
			t.Errorf("var(e_%d − e_%d) = %.6f, want %.6f ± 4·%.6f", c.a, c.b, got, c.want, se)
		}
	}
	for _, bad := range []ResidualPair{{System: 1, Base: 1, Rho: 0.5}, {System: 3, Base: 0, Rho: 0.5}, {System: 1, Base: 0, Rho: 1.5}} {
		q := p
		q.Paired = bad
		if _, err := q.Scores(rand.New(rand.NewPCG(1, 1)), systems, topics, ScoreOptions{}); err == nil {
			t.Errorf("pair %+v: no error", bad)
		}
	}
	if _, err := ResidualCorrelation(0.3, 0.1); err == nil {
		t.Error("a difference SD beyond 2σ: no error")
	}
}
