package twosample

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/riskgate/riskgate/bayes/posterior"
	"gonum.org/v1/gonum/stat/distuv"
)

// A hand-made table: TP = 30, FP = 10, FN = 20, TN = 40 gives precision 0.75,
// recall 0.6, F1 = 2·0.75·0.6/1.35 = 2/3, F2 = 5·30/(5·30 + 4·20 + 10) = 0.625,
// accuracy 0.7 (van Rijsbergen's Fβ; Zhang et al. §3.1).
func TestClassifierMeasures(t *testing.T) {
	t.Parallel()
	c := Confusion{TP: 30, FP: 10, FN: 20, TN: 40}
	for _, tc := range []struct {
		spec string
		want float64
	}{{"precision", 0.75}, {"recall", 0.6}, {"f1", 2.0 / 3}, {"fbeta:2", 0.625}, {"fbeta:1", 2.0 / 3}, {"accuracy", 0.7}} {
		m, err := ParseClassifierMeasure(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Of(c); math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%s = %v, want %v", tc.spec, got, tc.want)
		}
		if m.String() != tc.spec {
			t.Errorf("String() = %q, want %q", m.String(), tc.spec)
		}
	}
	for _, bad := range []string{"", "f2", "fbeta:", "fbeta:-1", "fbeta:x", "F1"} {
		if _, err := ParseClassifierMeasure(bad); err == nil {
			t.Errorf("ParseClassifierMeasure(%q): no error", bad)
		}
	}
	if p, _ := ParseClassifierMeasure("precision"); !math.IsNaN(p.Of(Confusion{FN: 3, TN: 4})) {
		t.Error("precision with no positive prediction must be NaN")
	}
}

func TestJointCounts(t *testing.T) {
	t.Parallel()
	var c JointCounts
	// (positive, A, B)
	for _, d := range [][3]bool{{true, true, true}, {true, true, false}, {true, false, true}, {true, false, false},
		{true, true, false}, {false, true, true}, {false, false, true}, {false, false, false}, {false, false, false}} {
		c.Add(d[0], d[1], d[2])
	}
	if c.Pos != [4]int{1, 2, 1, 1} || c.Neg != [4]int{1, 0, 1, 2} {
		t.Fatalf("counts %+v", c)
	}
	if a := c.ConfusionA(); a != (Confusion{TP: 3, FN: 2, FP: 1, TN: 3}) {
		t.Errorf("A: %+v", a)
	}
	if b := c.ConfusionB(); b != (Confusion{TP: 2, FN: 3, FP: 2, TN: 2}) {
		t.Errorf("B: %+v", b)
	}
	if c.N() != 9 || c.NPos() != 5 || c.NNeg() != 4 {
		t.Errorf("N %d NPos %d NNeg %d", c.N(), c.NPos(), c.NNeg())
	}
	// s-test counts: A right & B wrong = Pos(1,0) + Neg(0,1) = 3; B right & A wrong = Pos(0,1) + Neg(1,0) = 1.
	if a, b := c.OnlyRight(); a != 3 || b != 1 {
		t.Errorf("only A right %d, only B right %d; want 3, 1", a, b)
	}
	if a, b := c.Right(); a != 6 || b != 4 {
		t.Errorf("A right %d, B right %d; want 6 (TP 3 + TN 3), 4 (TP 2 + TN 2)", a, b)
	}
	// The p-test's table (risk.TestProportionTest): A right on 160 of 200, B on 140.
	// On positives A predicts 1 on (1,1)+(1,0) = 90, B on (1,1)+(0,1) = 70; on
	// negatives A predicts 0 on (0,1)+(0,0) = 70, B on (1,0)+(0,0) = 70.
	p := JointCounts{Pos: [4]int{60, 30, 10, 0}, Neg: [4]int{20, 10, 10, 60}}
	if a, b := p.Right(); a != 160 || b != 140 || p.N() != 200 {
		t.Errorf("right %d and %d of %d; want 160 and 140 of 200", a, b, p.N())
	}
}

// Recall has closed-form posteriors. Paired: recall_A = θ⁺₁₁ + θ⁺₁₀ aggregates two
// Dirichlet(1 + c) cells, so it is Beta(2 + TP_A, 2 + FN_A); unpaired: ρ⁺_A ~
// Beta(1 + TP_A, 1 + FN_A). Compare quantiles of the draws with gonum's Beta.
// The paired recall difference θ⁺₁₀ − θ⁺₀₁ has mean (c₁₀ − c₀₁)/(4 + n⁺).
func TestClassifierRecallPosteriors(t *testing.T) {
	t.Parallel()
	c := JointCounts{Pos: [4]int{40, 25, 10, 25}, Neg: [4]int{5, 10, 15, 170}}
	recall, _ := ParseClassifierMeasure("recall")
	const s = 100000
	for _, paired := range []bool{true, false} {
		d, err := SampleClassifiers([]JointCounts{c}, ClassifierOptions{Measure: recall, Paired: paired, Prior: 1, Draws: s, Seed: 77})
		if err != nil {
			t.Fatal(err)
		}
		ca := c.ConfusionA()
		beta := distuv.Beta{Alpha: 1 + ca.TP, Beta: 1 + ca.FN}
		if paired {
			beta = distuv.Beta{Alpha: 2 + ca.TP, Beta: 2 + ca.FN}
		}
		y := slices.Clone(d.A[0])
		slices.Sort(y)
		for _, p := range []float64{0.025, 0.5, 0.975} {
			if got, want := posterior.QuantileSorted(y, p), beta.Quantile(p); math.Abs(got-want) > 4*quantileMCSE(y, p, s) {
				t.Errorf("paired=%v: recall_A quantile %v = %v, Beta %v", paired, p, got, want)
			}
		}
		if paired {
			diff := diffDraws(d.A[0], d.B[0])
			want := float64(c.Pos[OnlyA10]-c.Pos[OnlyB01]) / float64(4+c.NPos())
			if got := posterior.Mean(diff); math.Abs(got-want) > 4*posterior.SD(diff)/math.Sqrt(s) {
				t.Errorf("paired recall difference mean %v, want %v", got, want)
			}
		}
	}
}

// The prior density of the recall difference at 0 is known: paired,
// (θ⁺₁₀, θ⁺₀₁, rest) ~ Dir(1, 1, 2) gives ∫₀^½ 6(1 − 2t) dt = 1.5 (the density
// is 1.5(1 − |δ|)²); unpaired, the difference of two independent uniforms has
// the triangular density 1 − |δ|, 1 at 0. SymmetricDensity, which
// CompareClassifiers uses for the prior, must find them within 2.5% from
// 400,000 prior draws (standard error ≈ 0.7%). (A Gaussian kernel estimate
// flattens both kinks: it is logged for comparison, about 3% low here and
// 5–7% low at 50,000 draws.)
func TestClassifierPriorDensityAtNull(t *testing.T) {
	t.Parallel()
	recall, _ := ParseClassifierMeasure("recall")
	for _, c := range []struct {
		paired bool
		want   float64
	}{{true, 1.5}, {false, 1}} {
		d, err := SampleClassifiers([]JointCounts{{}}, ClassifierOptions{Measure: recall, Paired: c.paired, Prior: 1, Draws: 400000, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		delta := diffDraws(d.A[0], d.B[0])
		got := posterior.SymmetricDensity(delta, 0)
		if math.Abs(got/c.want-1) > 0.025 {
			t.Errorf("paired=%v: prior density at 0 = %v, want %v", c.paired, got, c.want)
		}
		kde := posterior.KernelDensity(delta, 0)
		t.Logf("paired=%v: exact %v, SymmetricDensity %.4f, KernelDensity %.4f", c.paired, c.want, got, kde)
	}
}

// The draws do not depend on GOMAXPROCS.
func TestSampleClassifiersGOMAXPROCS(t *testing.T) {
	cats := []JointCounts{
		{Pos: [4]int{40, 25, 10, 25}, Neg: [4]int{5, 10, 15, 170}},
		{Pos: [4]int{30, 5, 12, 3}, Neg: [4]int{8, 9, 11, 222}},
		{Pos: [4]int{1, 2, 3, 4}, Neg: [4]int{9, 8, 7, 266}},
	}
	f1, _ := ParseClassifierMeasure("f1")
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	one, err := SampleClassifiers(cats, ClassifierOptions{Measure: f1, Paired: true, Prior: 1, Draws: 3*drawBlock + 17, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GOMAXPROCS(4)
	four, _ := SampleClassifiers(cats, ClassifierOptions{Measure: f1, Paired: true, Prior: 1, Draws: 3*drawBlock + 17, Seed: 5})
	for c := range cats {
		if !slices.Equal(one.A[c], four.A[c]) || !slices.Equal(one.B[c], four.B[c]) {
			t.Fatalf("category %d: draws differ between GOMAXPROCS 1 and 4", c)
		}
	}
	if !slices.Equal(one.MicroA, four.MicroA) || !slices.Equal(one.MacroB, four.MacroB) {
		t.Fatal("averages differ between GOMAXPROCS 1 and 4")
	}
}

// Macro and micro rows: the macro sample value is the mean of the categories',
// the micro one the measure of the pooled table; the macro posterior mean is
// the mean of the categories' posterior means (it is a per-draw mean).
func TestCompareClassifiersAverages(t *testing.T) {
	t.Parallel()
	cats := []Category{
		{"x", JointCounts{Pos: [4]int{40, 25, 10, 25}, Neg: [4]int{5, 10, 15, 170}}},
		{"y", JointCounts{Pos: [4]int{30, 5, 12, 3}, Neg: [4]int{8, 9, 11, 222}}},
	}
	opt := DefaultClassifierOptions()
	opt.Paired = true
	opt.Draws = 20000
	res, err := CompareClassifiers(cats, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 || res.Rows[2].Kind != "macro" || res.Rows[3].Kind != "micro" {
		t.Fatalf("rows %+v", res.Rows)
	}
	x, y, macro, micro := res.Rows[0], res.Rows[1], res.Rows[2], res.Rows[3]
	if math.Abs(macro.SampleA-(x.SampleA+y.SampleA)/2) > 1e-15 {
		t.Errorf("macro sample %v", macro.SampleA)
	}
	if math.Abs(macro.A.EAP-(x.A.EAP+y.A.EAP)/2) > 1e-12 {
		t.Errorf("macro EAP %v, categories %v %v", macro.A.EAP, x.A.EAP, y.A.EAP)
	}
	pooled := cats[0].Counts.Plus(cats[1].Counts)
	if want := opt.Measure.Of(pooled.ConfusionA()); math.Abs(micro.SampleA-want) > 1e-15 {
		t.Errorf("micro sample %v, want %v", micro.SampleA, want)
	}
	if micro.N != 600 {
		t.Errorf("micro N %d", micro.N)
	}
	for _, r := range res.Rows {
		if r.Diff.ROPE.Decision == "" || math.IsNaN(r.BayesFactor.BF01) {
			t.Errorf("row %s: decision %q, BF01 %v", r.Name, r.Diff.ROPE.Decision, r.BayesFactor.BF01)
		}
		if s := r.Diff.PGreater + r.PLess; s > 1+1e-12 {
			t.Errorf("row %s: P(>0) + P(<0) = %v", r.Name, s)
		}
	}
}

func TestCompareClassifiersErrors(t *testing.T) {
	t.Parallel()
	opt := DefaultClassifierOptions()
	opt.Draws = 100
	for _, cats := range [][]Category{
		nil,
		{{"empty", JointCounts{Neg: [4]int{1, 2, 3, 4}}}},
		{{"all positive", JointCounts{Pos: [4]int{1, 2, 3, 4}}}},
	} {
		if _, err := CompareClassifiers(cats, opt); err == nil {
			t.Errorf("%+v: no error", cats)
		}
	}
	bad := opt
	bad.ROPE = posterior.ROPE{Lo: 0.1, Hi: -0.1}
	if _, err := CompareClassifiers([]Category{{"x", JointCounts{Pos: [4]int{1}, Neg: [4]int{1}}}}, bad); err == nil {
		t.Error("reversed ROPE: no error")
	}
}

func BenchmarkCompareClassifiersBinaryPaired(b *testing.B) {
	cats := []Category{{"x", JointCounts{Pos: [4]int{400, 250, 100, 250}, Neg: [4]int{50, 100, 150, 1700}}}}
	opt := DefaultClassifierOptions()
	opt.Paired = true
	for b.Loop() {
		if _, err := CompareClassifiers(cats, opt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSampleClassifiersPaired(b *testing.B) {
	cats := []JointCounts{{Pos: [4]int{400, 250, 100, 250}, Neg: [4]int{50, 100, 150, 1700}}}
	f1, _ := ParseClassifierMeasure("f1")
	for b.Loop() {
		if _, err := SampleClassifiers(cats, ClassifierOptions{Measure: f1, Paired: true, Prior: 1, Draws: 50000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompareClassifiers20CategoriesPaired(b *testing.B) {
	var cats []Category
	for k := range 20 {
		cats = append(cats, Category{string(rune('a' + k)), JointCounts{
			Pos: [4]int{300 + k, 30, 20 + k, 50}, Neg: [4]int{20, 15, 10 + k, 7000}}})
	}
	opt := DefaultClassifierOptions()
	opt.Paired = true
	for b.Loop() {
		if _, err := CompareClassifiers(cats, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParseClassifierMeasure: no input panics, and whatever parses prints as
// text that parses back to the same measure.
func FuzzParseClassifierMeasure(f *testing.F) {
	for _, s := range []string{"f1", "precision", "recall", "accuracy", "fbeta:0.5", "fbeta:2", "fbeta:", "fbeta:-1", "fbeta:NaN", "F1", "fbeta:1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseClassifierMeasure(s)
		if err != nil {
			return
		}
		again, err := ParseClassifierMeasure(m.String())
		if err != nil || again != m {
			t.Fatalf("%q parsed as %+v, which reparses as %+v, %v", s, m, again, err)
		}
	})
}
