package risk

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// rLevels is the order of R's factor levels (sorted names), which fixes the
// order of R's TukeyHSD rows.
var rLevels = []string{"Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4", "Champion"}

// TestANOVAAgainstR checks the ANOVA tables against R's aov over the five
// systems: to the precision printed in reference/r_freq/rb04_anova.txt, and
// to 1e-8 relative against the full-precision values of
// testdata/reference.R ("== ANOVA over the five systems ==").
func TestANOVAAgainstR(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	s := d.systemsNamed(rLevels...)
	two, err := s.TwoWayANOVA()
	if err != nil {
		t.Fatal(err)
	}
	one, err := s.OneWayANOVA()
	if err != nil {
		t.Fatal(err)
	}
	// rb04_anova.txt as printed: Df, Sum Sq, Mean Sq, F value.
	printed := []struct {
		row          ANOVARow
		df           float64
		ss, ms, f    float64
		ssd, msd, fd float64 // half a unit of the last printed digit
	}{
		{two.Rows[0], 4, 0.430, 0.10744, 27.12, 0.0005, 0.000005, 0.005},
		{two.Rows[1], 49, 10.528, 0.21485, 54.24, 0.0005, 0.000005, 0.005},
		{two.Rows[2], 196, 0.776, 0.00396, math.NaN(), 0.0005, 0.000005, 0},
		{one.Rows[0], 4, 0.43, 0.10744, 2.329, 0.005, 0.000005, 0.0005},
		{one.Rows[1], 245, 11.30, 0.04614, math.NaN(), 0.005, 0.000005, 0},
	}
	for _, c := range printed {
		r := c.row
		if r.DF != c.df || math.Abs(r.SS-c.ss) > c.ssd || math.Abs(r.MS-c.ms) > c.msd || (!math.IsNaN(c.f) && math.Abs(r.F-c.f) > c.fd) {
			t.Errorf("%s row %+v differs from rb04_anova.txt (Df %v, Sum Sq %v, Mean Sq %v, F %v)", r.Source, r, c.df, c.ss, c.ms, c.f)
		}
	}
	if math.Abs(one.Rows[0].P-0.0568) > 0.00005 || two.Rows[0].P >= 2e-16 || two.Rows[1].P >= 2e-16 {
		t.Errorf("p-values: one-way %v (R 0.0568), two-way %v, %v (R < 2e-16)", one.Rows[0].P, two.Rows[0].P, two.Rows[1].P)
	}
	full := []struct {
		row  ANOVARow
		want [5]float64 // Df, Sum Sq, Mean Sq, F, Pr(>F)
	}{
		{two.Rows[0], [5]float64{4, 0.4297693051999989, 0.10744232629999972, 27.124098041294367, 6.3880146409296718e-18}},
		{two.Rows[1], [5]float64{49, 10.527600720000006, 0.21484899428571441, 54.239194047301872, 1.4738199681710141e-90}},
		{two.Rows[2], [5]float64{196, 0.77638327079999825, 0.003961139136734685}},
		{one.Rows[0], [5]float64{4, 0.4297693051999989, 0.10744232629999972, 2.3286807522837787, 0.056774524750772444}},
		{one.Rows[1], [5]float64{245, 11.303983990799999, 0.046138710166530608}},
	}
	var dev worst
	for _, c := range full {
		got := [5]float64{c.row.DF, c.row.SS, c.row.MS, c.row.F, c.row.P}
		n := 5
		if c.row.Source == "residuals" {
			n = 3
		}
		for i := range n {
			if d := dev.rel(fmt.Sprintf("%s %d", c.row.Source, i), got[i], c.want[i]); d > 1e-8 {
				t.Errorf("%s column %d = %.17g, R %.17g (rel. %.2g)", c.row.Source, i, got[i], c.want[i], d)
			}
		}
	}
	t.Logf("worst relative deviation from R's aov: %.2g (%s)", dev.dev, dev.what)
}

// TestTukeyHSDAgainstR checks TukeyHSD(aov(...), "system") for the two-way
// and one-way models: every printed digit of rb04_anova.txt, and 1e-8
// relative against the full-precision values of testdata/reference.R
// ("== TukeyHSD two-way and one-way ==").
func TestTukeyHSDAgainstR(t *testing.T) {
	t.Parallel()
	d := loadRB04(t)
	s := d.systemsNamed(rLevels...)
	printed := readTukeyTables(t)
	full := map[bool][][4]float64{
		true: {
			{-0.0010299999999999754, -0.035687704028788118, 0.033627704028788168, 0.99998977181069693},
			{-0.058981999999999479, -0.093639704028787629, -0.024324295971211336, 5.0854854281356943e-05},
			{0.056984000000000035, 0.022326295971211892, 0.091641704028788185, 0.00010062953586620349},
			{-0.0491120000000001, -0.08376970402878825, -0.014454295971211957, 0.001227934566394695},
			{-0.057951999999999504, -0.092609704028787654, -0.023294295971211361, 7.2464463935384416e-05},
			{0.05801400000000001, 0.023356295971211867, 0.09267170402878816, 7.0945914932063481e-05},
			{-0.048082000000000125, -0.082739704028788275, -0.013424295971211982, 0.0016641026951553783},
			{0.11596599999999951, 0.081308295971211364, 0.15062370402878766, 1.2345680033831741e-13},
			{0.0098699999999993793, -0.024787704028788764, 0.044527704028787522, 0.93497573880934537},
			{-0.10609600000000013, -0.14075370402878828, -0.071438295971211985, 2.0095036745715333e-13},
		},
		false: {
			{-0.0010299999999999754, -0.11909230572121525, 0.1170323057212153, 0.99999992454366082},
			{-0.058981999999999479, -0.17704430572121477, 0.059080305721215795, 0.64557661831702395},
			{0.056984000000000035, -0.06107830572121524, 0.17504630572121532, 0.67500112952485369},
			{-0.0491120000000001, -0.16717430572121539, 0.068950305721215174, 0.78334638848621441},
			{-0.057951999999999504, -0.17601430572121479, 0.06011030572121577, 0.66081149670358408},
			{0.05801400000000001, -0.060048305721215264, 0.1760763057212153, 0.65989819803937466},
			{-0.048082000000000125, -0.16614430572121541, 0.06998030572121515, 0.79629255766027351},
			{0.11596599999999951, -0.0020963057212157604, 0.2340283057212148, 0.056908856212073311},
			{0.0098699999999993793, -0.1081923057212159, 0.12793230572121467, 0.99937929691581917},
			{-0.10609600000000013, -0.22415830572121542, 0.01196630572121514, 0.10099609052515102},
		},
	}
	var dev worst
	for _, twoWay := range []bool{true, false} {
		h, err := s.TukeyHSD(twoWay, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		table := printed[twoWay]
		if len(h.Pairs) != len(table) {
			t.Fatalf("%d pairs, R has %d", len(h.Pairs), len(table))
		}
		for i, p := range h.Pairs {
			label := rLevels[p.B] + "-" + rLevels[p.A]
			row := table[i]
			if row.label != label {
				t.Fatalf("pair %d is %s, R's is %s", i, label, row.label)
			}
			got := [4]float64{p.Diff, p.Lo, p.Hi, p.P}
			for k := range got {
				// Printed: agree to half a unit of the last digit R printed.
				if math.Abs(got[k]-row.vals[k]) > row.halfUnit[k]*(1+1e-9) {
					t.Errorf("%s %s column %d = %.10f, printed %s", h.Model, label, k, got[k], row.text[k])
				}
				want := full[twoWay][i][k]
				if k == 3 && want < 1e-9 {
					// p = 1 − P with P within 1e-12 of 1: R's and this value
					// keep absolute, not relative, precision (a few ulps of 1).
					if math.Abs(got[k]-want) > 5e-13 {
						t.Errorf("%s %s p = %.3g, R %.3g (|diff| > 5e-13)", h.Model, label, got[k], want)
					}
					continue
				}
				if d := dev.rel(h.Model+" "+label+fmt.Sprint(" ", k), got[k], want); d > 1e-8 {
					t.Errorf("%s %s column %d = %.17g, R %.17g (rel. %.2g)", h.Model, label, k, got[k], full[twoWay][i][k], d)
				}
			}
		}
	}
	t.Logf("worst relative deviation from R's TukeyHSD: %.2g (%s)", dev.dev, dev.what)
}

type printedTukeyRow struct {
	label    string
	text     [4]string
	vals     [4]float64
	halfUnit [4]float64
}

// readTukeyTables parses the two TukeyHSD tables of rb04_anova.txt, keyed by
// twoWay.
func readTukeyTables(t *testing.T) map[bool][]printedTukeyRow {
	f, err := os.Open(shared.Path(t, "reference/r_freq/rb04_anova.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[bool][]printedTukeyRow{}
	twoWay := true
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, "one-way model") {
			twoWay = false
		}
		// Rows look like "Chal. 2-Chal. 1  -0.001030 -0.0356877  0.0336277 0.9999898".
		fields := strings.Fields(line)
		if len(fields) < 5 || !strings.Contains(line, "-") || !strings.HasPrefix(line, "C") {
			continue
		}
		nums := fields[len(fields)-4:]
		var r printedTukeyRow
		r.label = strings.Join(fields[:len(fields)-4], " ")
		for k, s := range nums {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatalf("rb04_anova.txt: %q: %v", line, err)
			}
			decimals := 0
			if i := strings.IndexByte(s, '.'); i >= 0 {
				decimals = len(s) - i - 1
			}
			r.text[k], r.vals[k], r.halfUnit[k] = s, v, 0.5*math.Pow(10, -float64(decimals))
		}
		out[twoWay] = append(out[twoWay], r)
	}
	if len(out[true]) != 10 || len(out[false]) != 10 {
		t.Fatalf("rb04_anova.txt: parsed %d and %d Tukey rows, want 10 and 10", len(out[true]), len(out[false]))
	}
	return out
}
