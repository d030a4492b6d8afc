package risk

import (
	"fmt"
	"math"
	"testing"

	"github.com/riskgate/riskgate/internal/stats"
)

// Reference values printed by testdata/reference.R (R 4.2.2, boot 1.3-28.1,
// run on rb04.csv); each test names the section of its output. The script is
// in the repository so the values can be regenerated; ../shared is not needed
// for the tests that use no data.

// TestPTukey checks the test vectors of docs/statistics.md §9.2 (a Python
// port checked against published q tables; five decimals) and R's ptukey at
// full precision ("== ptukey / qtukey ==").
func TestPTukey(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ q, m, df, want float64 }{
		{3.773, 3, 12, 0.95000}, {2.772, 2, 1e6, 0.95002}, {4.232, 5, 20, 0.95001},
		{4.653, 10, 60, 0.95062}, {3.0, 2, 10, 0.94011},
	} {
		if got := PTukey(c.q, c.m, c.df); math.Abs(got-c.want) > 0.5e-5 {
			t.Errorf("PTukey(%v, %v, %v) = %.6f, statistics.md §9.2 %.5f", c.q, c.m, c.df, got, c.want)
		}
	}
	var dev worst
	for _, c := range []struct{ q, m, df, lower, upper float64 }{
		{3.773, 3, 12, 0.95000441481989795, 0.049995585180102053},
		{2.772, 2, 1e6, 0.95001589644894424, 0.049984103551055759},
		{4.232, 5, 20, 0.95001036048167264, 0.049989639518327356},
		{4.653, 10, 60, 0.95061588526657526, 0.049384114733424744},
		{3, 2, 10, 0.94010967561227843, 0.059890324387721572},
		{1.5, 5, 196, 0.17363948063919848, 0.82636051936080146},
		{6.5, 5, 196, 0.9999250884473776, 7.4911552622403121e-05},
		{3.2, 45, 2156, 0.019143286947214462, 0.98085671305278554},
		{0.5, 4, 3, 0.017800861684269878, 0.98219913831573014},
		{5, 20, 30000, 0.9486353365457455, 0.0513646634542545},
	} {
		got := PTukey(c.q, c.m, c.df)
		label := fmt.Sprintf("ptukey(%v, %v, %v)", c.q, c.m, c.df)
		if d := dev.rel(label, got, c.lower); d > 1e-12 {
			t.Errorf("%s = %.17g, R %.17g (rel. %.2g)", label, got, c.lower, d)
		}
		// The upper tail is 1 − P: R's and Go's Φ differ in the last bit,
		// which the subtraction turns into ~1e-9 relative at P ≈ 1 − 1e-4.
		if d := dev.rel(label+" upper", 1-got, c.upper); d > 1e-8 {
			t.Errorf("%s upper = %.17g, R %.17g (rel. %.2g)", label, 1-got, c.upper, d)
		}
	}
	t.Logf("worst relative deviation from R: %.2g (%s)", dev.dev, dev.what)
	if !math.IsNaN(PTukey(3, 1, 10)) || !math.IsNaN(PTukey(3, 3, 1)) || PTukey(-1, 3, 10) != 0 || PTukey(math.Inf(1), 3, 10) != 1 {
		t.Error("PTukey edge cases differ from R's (NaN for nmeans < 2 or df < 2, 0 for q ≤ 0, 1 for q = ∞)")
	}
}

// TestQTukey checks R's qtukey ("== ptukey / qtukey ==").
func TestQTukey(t *testing.T) {
	t.Parallel()
	var dev worst
	for _, c := range []struct{ p, m, df, want float64 }{
		{0.95, 5, 196, 3.8938098736383693}, {0.95, 5, 245, 3.8865435463317035},
		{0.99, 3, 12, 5.0459343031090409}, {0.9, 45, 2156, 5.2908125198320928},
		{0.5, 2, 5, 1.0276903900906982},
	} {
		got := QTukey(c.p, c.m, c.df)
		if d := dev.rel(fmt.Sprint(c), got, c.want); d > 1e-12 {
			t.Errorf("QTukey(%v, %v, %v) = %.17g, R %.17g", c.p, c.m, c.df, got, c.want)
		}
	}
	t.Logf("worst relative deviation from R: %.2g (%s)", dev.dev, dev.what)
}

// TestDistributions checks the t quantiles and tail probability behind the
// t tests ("== qt / pt ==").
func TestDistributions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ got, want float64 }{
		{tQuantile(0.975, 49), 2.0095752371292397},
		{tQuantile(0.99375, 49), 2.5932596588441301},
		{tQuantile(0.995, 3), 5.8409093097333544},
		{tQuantile(0.025, 49), -2.0095752371292397},
		{tTwoSided(6.33725568736737, 49), 7.0550540955307137e-08},
	} {
		if !relClose(c.got, c.want, 1e-12) {
			t.Errorf("got %.17g, R %.17g", c.got, c.want)
		}
	}
}

// TestPSignRank checks R's psignrank ("== psignrank ==").
func TestPSignRank(t *testing.T) {
	t.Parallel()
	want := []float64{2.9802322387695299e-08, 1.281499862670898e-06, 0.00081267952919006337, 0.04786673188209533, 0.37549647688865656, 0.843833327293396, 0.99997729063034058}
	for i, v := range []float64{0, 10, 50, 100, 150, 200, 300} {
		if got := PSignRank(v, 25); !relClose(got, want[i], 1e-13) {
			t.Errorf("PSignRank(%v, 25) = %.17g, R %.17g", v, got, want[i])
		}
	}
	// Upper tails, R's psignrank(q, 12, lower.tail = FALSE) = P(V ≥ q + 1).
	upper := []float64{0.99755859375, 0.74072265624999989, 0.046142578125000035}
	for i, v := range []float64{5, 30, 60} {
		if got := signRankUpper(v+1, 12); !relClose(got, upper[i], 1e-13) {
			t.Errorf("P(V ≥ %v; 12) = %.17g, R %.17g", v+1, got, upper[i])
		}
	}
	if PSignRank(-1, 5) != 0 || PSignRank(15, 5) != 1 {
		t.Error("PSignRank bounds")
	}
}

// TestWilcoxonExact checks the exact branch and the zero-difference fallback
// of R's default wilcox.test(paired = TRUE) on the first topics of rb04
// ("== wilcox exact ==").
func TestWilcoxonExact(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	p := Pair{X: d.Scores["Chal. 2"][:20], Base: d.Scores["Champion"][:20]}
	w, err := p.Wilcoxon(WilcoxonAuto)
	if err != nil {
		t.Fatal(err)
	}
	if !w.Exact || w.V != 169 || !relClose(w.P, 0.01531219482421875, 1e-12) {
		t.Errorf("Chal. 2, 20 topics: %+v; R: exact, V = 169, p = 0.01531219482421875", w)
	}
	// Zeros among the differences: R falls back to the normal approximation.
	p = Pair{X: d.Scores["Chal. 3"][:30], Base: d.Scores["Champion"][:30]}
	w, _ = p.Wilcoxon(WilcoxonAuto)
	if w.Exact || w.Zeros == 0 || w.V != 141 || !relClose(w.P, 0.10030779095420028, 1e-12) {
		t.Errorf("Chal. 3, 30 topics: %+v; R: normal approximation, V = 141, p = 0.10030779095420028", w)
	}
}

// TestCorrections checks R's p.adjust ("== p.adjust ==").
func TestCorrections(t *testing.T) {
	t.Parallel()
	nan := math.NaN()
	p := []float64{0.01, 0.04, 0.03, 0.005, 0.5, 0.04, nan, 0.2}
	for _, c := range []struct {
		corr Correction
		want []float64
	}{
		{Bonferroni, []float64{0.070000000000000007, 0.28000000000000003, 0.20999999999999999, 0.035000000000000003, 1, 0.28000000000000003, nan, 1}},
		{Holm, []float64{0.059999999999999998, 0.16, 0.14999999999999999, 0.035000000000000003, 0.5, 0.16, nan, 0.40000000000000002}},
		{BH, []float64{0.035000000000000003, 0.055999999999999994, 0.055999999999999994, 0.035000000000000003, 0.5, 0.055999999999999994, nan, 0.23333333333333336}},
		{NoCorrection, p},
	} {
		got := c.corr.Adjust(p)
		for i := range got {
			if math.IsNaN(c.want[i]) != math.IsNaN(got[i]) || !math.IsNaN(got[i]) && !relClose(got[i], c.want[i], 1e-14) {
				t.Errorf("%s: adjusted[%d] = %v, R %v", c.corr, i, got[i], c.want[i])
			}
		}
	}
	if got := Bonferroni.Level(0.95, 4); got != 1-0.05/4 {
		t.Errorf("Bonferroni level = %v", got)
	}
	if got := NoCorrection.Level(0.95, 4); got != 0.95 {
		t.Errorf("no-correction level = %v", got)
	}
	for _, s := range []string{"bonferroni", "holm", "bh", "BH", "fdr", "none"} {
		if _, err := ParseCorrection(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseCorrection("sidak"); err == nil {
		t.Error("ParseCorrection accepted an unknown correction")
	}
}

// TestEffectSizes checks Glass's Δ with either system as the reference and
// Cohen's d_z against R arithmetic ("== effect sizes ==").
func TestEffectSizes(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	want := map[string][3]float64{
		"Chal. 1": {0.23952971253203451, 0.21494546743759504, 0.56788344710145577},
		"Chal. 2": {0.23450618256159952, 0.21184952694479844, 0.57817294504860728},
		"Chal. 3": {-0.048138097872030786, -0.052218576611674207, -0.15441078850895726},
		"Chal. 4": {0.5174528502361686, 0.47826820368941536, 0.89622329413009683},
	}
	for name, w := range want {
		p := d.pair(name)
		g, _ := p.GlassDelta()
		c, _ := p.CohenD()
		for i, got := range []float64{g.ByBase, g.ByX, c.D} {
			if !relClose(got, w[i], 1e-10) {
				t.Errorf("%s effect %d = %.17g, R %.17g", name, i, got, w[i])
			}
		}
	}
}

// TestTTestLevels checks the t intervals at the Bonferroni level
// ("== t.test at the Bonferroni level ==").
func TestTTestLevels(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	want := map[string][4]float64{
		"Chal. 1": {0.017395196432745893, 0.080828803567254109, -0.061389060994658934, 0.15961306099465902},
		"Chal. 2": {0.017582988718246897, 0.078581011281753099, -0.062008836876615035, 0.15817283687661504},
		"Chal. 3": {-0.033312315893222803, 0.013572315893222801, -0.11023652488730547, 0.090496524887305474},
		"Chal. 4": {0.062680602178325023, 0.14951139782167502, -0.0026235836925634359, 0.21481558369256346},
	}
	for name, w := range want {
		p := d.pair(name)
		pt, _ := p.PairedT(1 - 0.05/4)
		wt, _ := p.WelchT(1 - 0.05/4)
		for i, got := range []float64{pt.CI.Lo, pt.CI.Hi, wt.CI.Lo, wt.CI.Hi} {
			if !relClose(got, w[i], 1e-8) {
				t.Errorf("%s interval end %d = %.17g, R %.17g", name, i, got, w[i])
			}
		}
	}
}

// TestZRiskGeoRisk checks Dinçer's ZRisk and GeoRisk against the formula in
// R ("== ZRisk / GeoRisk ==") over the champion and challengers and over all
// 45 systems.
func TestZRiskGeoRisk(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	five := d.systemsNamed("Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4")
	check := func(label string, got, want []float64) {
		t.Helper()
		for i := range want {
			if !relClose(got[i], want[i], 1e-12) {
				t.Errorf("%s[%d] = %.17g, R %.17g", label, i, got[i], want[i])
			}
		}
	}
	for _, c := range []struct {
		w      float64
		z, geo []float64
	}{
		{5, []float64{-10.070293564995879, -8.3154335742194121, -7.5643930036578055, -8.9075879670315654, -8.1192244071881454},
			[]float64{0.3391503769970472, 0.37430454469553376, 0.37624624153124198, 0.33657078240437849, 0.40671754814663158}},
		{6, []float64{-12.424356823628326, -10.230111524150873, -9.3112335513112914, -11.03600943302478, -10.654066433236288},
			[]float64{0.33167799442768447, 0.36777178664047516, 0.37032335748814516, 0.32998078104758882, 0.3973309787461527}},
	} {
		g, err := five.GeoRisk(c.w)
		if err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("ZRisk w=%v", c.w), g.ZRisk.Values, c.z)
		check(fmt.Sprintf("GeoRisk w=%v", c.w), g.Values, c.geo)
	}
	all := d.systemsNamed(d.Systems...)
	g, err := all.GeoRisk(5)
	if err != nil {
		t.Fatal(err)
	}
	// R's first five systems in file order: Chal. 1, Chal. 2, Chal. 3, Chal. 4, Champion.
	check("ZRisk (45 systems)", g.ZRisk.Values[:5], []float64{-14.640101159821818, -14.193622718216192, -14.958187894633975, -6.9739581312136973, -16.041023883803497})
	check("GeoRisk (45 systems)", g.Values[:5], []float64{0.35248448399734095, 0.35348083282874943, 0.31765685937263549, 0.4109144498393279, 0.32004089934867069})
}

// TestBCaOnFixedReplicates checks the deterministic half of the bootstrap —
// z0, a, the adjusted levels and norm.inter — against boot.ci on the same
// replicates ("== BCa on fixed replicates =="): Chal. 3's risk-adjusted
// differences at w = 5 and 9,999 replicates t_b = x̄ + ((7919·b mod 10007) −
// 5003)/10⁵ + (b mod 7)/10³, with L = x − x̄.
func TestBCaOnFixedReplicates(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	x := d.pair("Chal. 3").Adjusted(5)
	const b = 9999
	for _, c := range []struct {
		level float64
		want  [4]float64 // BCa lo, hi, percentile lo, hi
	}{
		{0.95, [4]float64{-0.151896, -0.057065862501111085, -0.14927599999999999, -0.054056}},
		{1 - 0.05/4, [4]float64{-0.15418076701520153, -0.053696000000000001, -0.15226592915871962, -0.0510960708412804}},
	} {
		tb := make([]float64, b)
		xbar := stats.Mean(x)
		for i := range tb {
			k := i + 1
			tb[i] = xbar + float64((k*7919)%10007-5003)/100000 + float64(k%7)/1000
		}
		r := bcaFromReplicates(x, tb, c.level)
		for i, got := range []float64{r.BCa.Lo, r.BCa.Hi, r.Percentile.Lo, r.Percentile.Hi} {
			if !relClose(got, c.want[i], 1e-10) {
				t.Errorf("level %v end %d = %.17g, boot.ci %.17g", c.level, i, got, c.want[i])
			}
		}
	}
}

// TestBCaExpectationAgainstR compares the average endpoints of 20 bootstraps
// (B = 100,000, seeds 1…20) with R's average over 20 seeds ("== BCa and
// percentile endpoints averaged over 20 seeds =="), at four combined
// standard errors. A single pair of runs differs by Monte-Carlo error alone
// (the BCa lower end of Chal. 3 at w = 10 has an SD of about 0.0035 per run);
// averages show that the two implementations estimate the same quantity.
func TestBCaExpectationAgainstR(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	for _, c := range []struct {
		name     string
		w        float64
		mean, sd [4]float64 // R: BCa lo, hi, percentile lo, hi
	}{
		{"Chal. 3", 10, [4]float64{-0.47791441816738889, -0.10120180276465354, -0.4159537435696633, -0.079696561363480245},
			[4]float64{0.0019930889555056521, 0.000635029380716659, 0.001298694005779012, 0.00054498511302971981}},
		{"Chal. 4", 10, [4]float64{-0.17103108225188438, 0.11427659254911307, -0.11717720479239283, 0.13028080743490281},
			[4]float64{0.0032286496114534509, 0.0003185558993119528, 0.0011423369607726794, 0.00032454000335160286}},
		{"Chal. 1", 5, [4]float64{-0.019966252574693519, 0.06643151680414966, -0.019170026198098197, 0.067141753092011563},
			[4]float64{0.00035161630093451691, 0.00017755369729863975, 0.00033301141331862545, 0.00018407674714239643}},
	} {
		const runs = 20
		ends := make([][]float64, 4)
		p := d.pair(c.name)
		for s := range runs {
			r, err := p.BCa(c.w, BootstrapOptions{B: 100_000, Level: 1 - 0.05/4, Seed: uint64(s + 1)})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range []float64{r.BCa.Lo, r.BCa.Hi, r.Percentile.Lo, r.Percentile.Hi} {
				ends[i] = append(ends[i], v)
			}
		}
		for i := range ends {
			m, sd := stats.Mean(ends[i]), math.Sqrt(stats.Variance(ends[i]))
			tol := 4 * math.Sqrt((sd*sd+c.sd[i]*c.sd[i])/runs)
			if math.Abs(m-c.mean[i]) > tol {
				t.Errorf("%s w=%v end %d: mean %.5f (sd %.5f), R %.5f (sd %.5f): |diff| %.5f > %.5f",
					c.name, c.w, i, m, sd, c.mean[i], c.sd[i], math.Abs(m-c.mean[i]), tol)
			}
		}
	}
}

// TestOneSidedTAndCorrelation checks, for each challenger of rb04 against
// the Champion, the one-sided p-values of H1: mean difference > 0 of the
// paired and the Welch t test, and Pearson's r, against R ("== one-sided t
// tests (alternative = "greater") and cor, by challenger ==" of
// testdata/reference.R), 1e-12 relative; and that the one-sided p-value is
// half the two-sided one when t > 0 (one minus half of it when t < 0), to
// 1e-12.
func TestOneSidedTAndCorrelation(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	want := map[string][3]float64{ // paired p, Welch p, r
		"Chal. 1": {0.00010158879236660893, 0.13037980098913024, 0.9260443690721466},
		"Chal. 2": {8.0506638463788177e-05, 0.13453242563039267, 0.93085818313422741},
		"Chal. 3": {0.85988052274686355, 0.59854708781253796, 0.95059757976196946},
		"Chal. 4": {3.5275270477653377e-08, 0.0073586032750848612, 0.84904569282487852},
	}
	var dev worst
	for _, name := range challengers {
		p := d.pair(name)
		pt, err := p.PairedT(0.95)
		if err != nil {
			t.Fatal(err)
		}
		wt, err := p.WelchT(0.95)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.Pearson()
		if err != nil {
			t.Fatal(err)
		}
		for i, got := range []float64{pt.PGreater, wt.PGreater, r.R} {
			what := name + " " + [...]string{"paired p_greater", "Welch p_greater", "r"}[i]
			if e := dev.rel(what, got, want[name][i]); e > 1e-12 {
				t.Errorf("%s = %.17g, R %.17g (rel. %.2g)", what, got, want[name][i], e)
			}
		}
		for _, c := range []TTest{pt, wt} {
			half := c.P / 2
			if c.T < 0 {
				half = 1 - c.P/2
			}
			if math.Abs(c.PGreater-half) > 1e-12 {
				t.Errorf("%s: one-sided p %v, want %v", name, c.PGreater, half)
			}
		}
	}
	t.Logf("worst relative deviation from R: %.2g (%s)", dev.dev, dev.what)
}

// TestTwoSamplesUnequalSizes: Welch's t test and Glass's Δ of independent
// samples of sizes 5 and 7 against R ("== Welch t test and Glass's delta of
// two samples of sizes 5 and 7 ==" of testdata/reference.R), 1e-12 relative.
func TestTwoSamplesUnequalSizes(t *testing.T) {
	t.Parallel()
	s := TwoSamples{X: []float64{0.31, 0.45, 0.12, 0.60, 0.28}, Base: []float64{0.25, 0.41, 0.15, 0.49, 0.20, 0.55, 0.02}}
	w, err := s.WelchT(0.95)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.GlassDelta()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"t", w.T, 0.51539344270471388}, {"df", w.DF, 9.1125828608041974}, {"p", w.P, 0.61854767334043048},
		{"CI lo", w.CI.Lo, -0.19029821632447141}, {"CI hi", w.CI.Hi, 0.30286964489589996},
		{"p_greater", w.PGreater, 0.30927383667021524},
		{"Glass's Δ by Base", g.ByBase, 0.29132482681862343}, {"Glass's Δ by X", g.ByX, 0.30998359328510694},
	} {
		if !relClose(c.got, c.want, 1e-12) {
			t.Errorf("%s = %.17g, R %.17g", c.what, c.got, c.want)
		}
	}
	if _, err := (TwoSamples{X: []float64{1}, Base: []float64{1, 2}}).WelchT(0.95); err == nil {
		t.Error("a sample of one: no error")
	}
	if _, err := (TwoSamples{X: []float64{1, math.NaN()}, Base: []float64{1, 2}}).GlassDelta(); err == nil {
		t.Error("a NaN score: no error")
	}
}
