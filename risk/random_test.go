package risk

import (
	"math"
	"reflect"
	"runtime"
	"slices"
	"testing"
)

// exactRandomizationP is the exact two-sided p-value of the paired
// randomisation test for differences that are integers after scaling by
// 10⁴ (rb04's AP scores have four decimals): the distribution of Σ s_i·k_i
// over all 2ⁿ sign vectors by convolution.
func exactRandomizationP(t *testing.T, d []float64) float64 {
	ks := make([]int, len(d))
	total, obs := 0, 0
	for i, v := range d {
		k := math.Round(v * 1e4)
		if math.Abs(k-v*1e4) > 1e-6 {
			t.Fatalf("difference %v is not a multiple of 1e-4", v)
		}
		ks[i] = int(k)
		total += int(math.Abs(k))
		obs += int(k)
	}
	prob := make([]float64, 2*total+1) // index s + total
	prob[total] = 1
	next := make([]float64, len(prob))
	for _, k := range ks {
		clear(next)
		for s, p := range prob {
			if p == 0 {
				continue
			}
			next[s+k] += p / 2
			next[s-k] += p / 2
		}
		prob, next = next, prob
	}
	p := 0.0
	for s, q := range prob {
		if abs(s-total) >= abs(obs) {
			p += q
		}
	}
	return p
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestRandomizationAgainstExact compares the Monte-Carlo randomisation test
// (B = 100,000) with the exact permutation p-value, within four binomial
// standard errors.
func TestRandomizationAgainstExact(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	for _, name := range challengers {
		p := d.pair(name)
		exact := exactRandomizationP(t, p.Deltas())
		r, err := p.Randomization(100_000, 7)
		if err != nil {
			t.Fatal(err)
		}
		se := math.Sqrt(exact*(1-exact)/float64(r.B)) + 1/float64(r.B)
		if math.Abs(r.P-exact) > 4*se {
			t.Errorf("%s: randomisation p = %.5f, exact %.5f (4 SE = %.5f)", name, r.P, exact, 4*se)
		}
		t.Logf("%s: p = %.5f, exact %.6f", name, r.P, exact)
	}
}

// TestStudentizedBootstrapAgainstR compares Sakai's test (B = 100,000) with
// an R implementation of the same algorithm at B = 400,000
// (testdata/reference.R, "== Sakai studentised bootstrap test =="), within
// four combined binomial standard errors.
func TestStudentizedBootstrapAgainstR(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	want := map[string]float64{"Chal. 1": 0.0025025, "Chal. 2": 0.0024575, "Chal. 3": 0.28741499999999998, "Chal. 4": 0}
	for name, pr := range want {
		r, err := d.pair(name).StudentizedBootstrap(100_000, 3)
		if err != nil {
			t.Fatal(err)
		}
		se := math.Sqrt(pr*(1-pr)*(1/1e5+1/4e5)) + 1e-5
		if math.Abs(r.P-pr) > 4*se {
			t.Errorf("%s: ASL = %.5f, R %.5f (4 SE = %.5f)", name, r.P, pr, 4*se)
		}
	}
}

// TestRandomizedTukeyAgainstR compares the randomised Tukey HSD over the
// champion and four challengers (B = 100,000) with an R implementation of
// Carterette's algorithm at B = 100,000 (testdata/reference.R, "==
// randomised Tukey HSD =="), within four combined binomial standard errors.
func TestRandomizedTukeyAgainstR(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	names := []string{"Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}
	want := map[[2]string]float64{
		{"Champion", "Chal. 1"}: 0.01162, {"Champion", "Chal. 2"}: 0.01456, {"Champion", "Chal. 3"}: 0.96947000000000005,
		{"Champion", "Chal. 4"}: 0, {"Chal. 1", "Chal. 2"}: 1, {"Chal. 1", "Chal. 3"}: 0.0011000000000000001,
		{"Chal. 1", "Chal. 4"}: 0.00183, {"Chal. 2", "Chal. 3"}: 0.0014599999999999999,
		{"Chal. 2", "Chal. 4"}: 0.0014499999999999999, {"Chal. 3", "Chal. 4"}: 0,
	}
	r, err := d.systemsNamed(names...).RandomizedTukeyHSD(100_000, 11)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Pairs) != len(want) {
		t.Fatalf("%d pairs, want %d", len(r.Pairs), len(want))
	}
	for _, p := range r.Pairs {
		pr := want[[2]string{names[p.A], names[p.B]}]
		se := math.Sqrt(pr*(1-pr)*2/1e5) + 1e-5
		if math.Abs(p.P-pr) > 4*se {
			t.Errorf("%s vs %s: p = %.5f, R %.5f (4 SE = %.5f)", names[p.A], names[p.B], p.P, pr, 4*se)
		}
	}
}

// TestRandomizedTukeyMatchesTukeyOrder checks that the randomised test ranks
// pairs as the classical one does: a larger |difference| never gets a larger
// p-value (the p-values come from one null distribution of the range).
func TestRandomizedTukeyMonotone(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	r, err := d.systemsNamed(d.Systems[:12]...).RandomizedTukeyHSD(2000, 5)
	if err != nil {
		t.Fatal(err)
	}
	pairs := slices.Clone(r.Pairs)
	slices.SortFunc(pairs, func(a, b RandomizedPair) int {
		switch {
		case math.Abs(a.Diff) < math.Abs(b.Diff):
			return -1
		case math.Abs(a.Diff) > math.Abs(b.Diff):
			return 1
		}
		return 0
	})
	for i := 1; i < len(pairs); i++ {
		if pairs[i].P > pairs[i-1].P {
			t.Fatalf("|diff| %v has p %v > p %v of |diff| %v", pairs[i].Diff, pairs[i].P, pairs[i-1].P, pairs[i-1].Diff)
		}
	}
}

// TestDeterminism runs every randomised procedure under GOMAXPROCS 1 and 2
// and requires bit-identical results, and different results for another seed.
func TestDeterminism(t *testing.T) {
	d := loadRB04(t)
	p := d.pair("Chal. 3")
	sys := d.systemsNamed(d.Systems...)
	run := func(seed uint64) []any {
		bc, _ := p.BCa(5, BootstrapOptions{B: 30_001, Level: 0.95, Seed: seed})
		rz, _ := p.Randomization(30_001, seed)
		sb, _ := p.StudentizedBootstrap(30_001, seed)
		rt, _ := sys.RandomizedTukeyHSD(1_001, seed)
		return []any{bc, rz, sb, rt}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	one := run(42)
	runtime.GOMAXPROCS(2)
	two := run(42)
	runtime.GOMAXPROCS(4)
	four := run(42)
	for i := range one {
		if !reflect.DeepEqual(one[i], two[i]) || !reflect.DeepEqual(one[i], four[i]) {
			t.Errorf("procedure %d differs with GOMAXPROCS:\n1: %+v\n2: %+v\n4: %+v", i, one[i], two[i], four[i])
		}
	}
	other := run(43)
	for i := range one {
		if reflect.DeepEqual(one[i], other[i]) {
			t.Errorf("procedure %d gives the same result for seeds 42 and 43", i)
		}
	}
}

// TestNormInterCases checks norm.inter's special cases: an integer rk takes
// the order statistic itself, rk below 1 or above B the extremes (with the
// warning flag).
func TestNormInterCases(t *testing.T) {
	t.Parallel()
	t9 := []float64{9, 1, 8, 2, 7, 3, 6, 4, 5} // B = 9: (B+1)α = 10α
	ends, extreme := normInter(slices.Clone(t9), []float64{0.3, 0.5})
	if extreme || ends[0] != 3 || ends[1] != 5 {
		t.Errorf("integer ranks: %v, %v; want [3 5], false", ends, extreme)
	}
	ends, extreme = normInter(slices.Clone(t9), []float64{0.05, 0.99})
	if !extreme || ends[0] != 1 || ends[1] != 9 {
		t.Errorf("extreme ranks: %v, %v; want [1 9], true", ends, extreme)
	}
	// rk = 2.5: between t(2) = 2 and t(3) = 3 on the normal scale.
	ends, _ = normInter(slices.Clone(t9), []float64{0.25})
	z := normalQuantile
	want := 2 + (z(0.25)-z(0.2))/(z(0.3)-z(0.2))*1
	if math.Abs(ends[0]-want) > 1e-15 {
		t.Errorf("interpolated: %v, want %v", ends[0], want)
	}
}

// TestDegenerate covers the documented degenerate cases and input errors.
func TestDegenerate(t *testing.T) {
	t.Parallel()
	base := []float64{0.1, 0.2, 0.3, 0.4}
	up := []float64{0.2, 0.3, 0.4, 0.5} // every topic +0.1 (in exact arithmetic)
	same := Pair{X: base, Base: base}
	shift := Pair{X: up, Base: base}

	tr, err := same.TRisk(5)
	if err != nil || !math.IsNaN(tr.T) || !math.IsNaN(tr.P) || len(tr.Warnings) == 0 {
		t.Errorf("identical systems: TRisk %+v, %v; want NaN with a warning", tr, err)
	}
	c := Pair{X: []float64{1, 1, 1}, Base: []float64{0.5, 0.5, 0.5}}
	tr, _ = c.TRisk(5)
	if !math.IsInf(tr.T, 1) || tr.P != 0 || len(tr.Warnings) == 0 {
		t.Errorf("constant gain: TRisk %+v; want +Inf, p 0, a warning", tr)
	}
	tr, _ = Pair{X: c.Base, Base: c.X}.TRisk(5)
	if !math.IsInf(tr.T, -1) {
		t.Errorf("constant loss: TRisk %v; want −Inf", tr.T)
	}
	pt, _ := c.PairedT(0.95)
	if !math.IsInf(pt.T, 1) || pt.CI.Lo != 0.5 || pt.CI.Hi != 0.5 || len(pt.Warnings) == 0 {
		t.Errorf("constant gain: paired t %+v", pt)
	}
	if pt.PGreater != 0 {
		t.Errorf("constant gain: one-sided p %v, want 0", pt.PGreater)
	}
	if r, _ := (Pair{X: []float64{1, 1, 1}, Base: base[:3]}).Pearson(); !math.IsNaN(r.R) || len(r.Warnings) == 0 {
		t.Errorf("constant system: correlation %+v; want NaN with a warning", r)
	}
	bc, err := c.BCa(5, BootstrapOptions{B: 1000, Level: 0.95, Seed: 1})
	if err != nil || !math.IsNaN(bc.BCa.Lo) || !math.IsNaN(bc.Percentile.Hi) || len(bc.Warnings) == 0 {
		t.Errorf("constant data: BCa %+v, %v; want NaN endpoints with a warning", bc, err)
	}
	// t0 below every replicate cannot happen for a mean, but B = 2 with two
	// distinct values can put every replicate on one side.
	bc, _ = BCaMean([]float64{0, 1}, BootstrapOptions{B: 2, Level: 0.95, Seed: 1})
	if len(bc.Warnings) == 0 {
		t.Errorf("B = 2: %+v; want warnings (extreme order statistics or infinite z0)", bc)
	}
	w, _ := same.Wilcoxon(WilcoxonAuto)
	if !math.IsNaN(w.P) || len(w.Warnings) == 0 {
		t.Errorf("identical systems: Wilcoxon %+v", w)
	}
	s, _ := same.Sign()
	if s.P != 1 || len(s.Warnings) == 0 {
		t.Errorf("identical systems: sign %+v", s)
	}
	rz, _ := same.Randomization(100, 1)
	if rz.P != 1 || len(rz.Warnings) == 0 {
		t.Errorf("identical systems: randomisation %+v", rz)
	}
	sb, _ := same.StudentizedBootstrap(100, 1)
	if !math.IsNaN(sb.P) || len(sb.Warnings) == 0 {
		t.Errorf("identical systems: bootstrap test %+v", sb)
	}

	for _, bad := range []Pair{
		{X: []float64{1}, Base: []float64{1}},
		{X: []float64{1, 2}, Base: []float64{1}},
		{X: []float64{1, math.NaN()}, Base: []float64{1, 2}},
	} {
		if _, err := bad.URisk(1); err == nil {
			t.Errorf("URisk accepted %v", bad)
		}
		if _, err := bad.BCa(1, BootstrapOptions{B: 10, Level: 0.9}); err == nil {
			t.Errorf("BCa accepted %v", bad)
		}
	}
	if _, err := shift.URisk(0); err == nil {
		t.Error("URisk accepted w = 0")
	}
	if _, err := shift.BCa(1, BootstrapOptions{B: 10, Level: 1}); err == nil {
		t.Error("BCa accepted level 1")
	}
	if _, err := (Systems{{1, 2}}).TwoWayANOVA(); err == nil {
		t.Error("ANOVA accepted one system")
	}
	if _, err := (Systems{{1, 2}, {1}}).ZRisk(1); err == nil {
		t.Error("ZRisk accepted a ragged table")
	}
	if _, err := (Systems{{1, -2}, {1, 1}}).ZRisk(1); err == nil {
		t.Error("ZRisk accepted a negative score")
	}
	z, err := (Systems{{0, 0}, {0, 0}}).GeoRisk(2)
	if err != nil || z.Values[0] != 0 || len(z.Warnings) == 0 {
		t.Errorf("all-zero table: %+v, %v", z, err)
	}
	z, _ = (Systems{{0, 1}, {0, 2}}).GeoRisk(2)
	if len(z.Warnings) == 0 || !finite(z.Values[0]) {
		t.Errorf("a topic scored 0 by all: %+v", z)
	}
	a, _ := (Systems{{1, 2, 3}, {2, 3, 4}}).TwoWayANOVA()
	if len(a.Warnings) == 0 {
		t.Errorf("exact additive fit: %+v; want a warning", a)
	}
}

// TestURiskParts checks URisk = Reward − w·Risk on a hand-made pair.
func TestURiskParts(t *testing.T) {
	t.Parallel()
	p := Pair{X: []float64{0.5, 0.2, 0.4, 0.1}, Base: []float64{0.25, 0.25, 0.5, 0.1}}
	// Δ = 0.25, −0.05, −0.1, 0: Reward = 0.25/4, Risk = 0.15/4.
	u, err := p.URisk(3)
	if err != nil {
		t.Fatal(err)
	}
	want := URisk{Value: (0.25 - 3*0.15) / 4, Reward: 0.25 / 4, Risk: 0.15 / 4, W: 3, N: 4}
	if math.Abs(u.Value-want.Value) > 1e-15 || math.Abs(u.Reward-want.Reward) > 1e-15 || math.Abs(u.Risk-want.Risk) > 1e-15 || u.W != 3 || u.N != 4 {
		t.Errorf("URisk = %+v, want %+v", u, want)
	}
	o, _ := p.Outcomes()
	if o != (Outcomes{Wins: 1, Ties: 1, Losses: 2}) {
		t.Errorf("outcomes %+v", o)
	}
}
