package posterior

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// edgeCases reads testdata/posterior_edge_draws.csv: synthetic draws made by
// testdata/posterior_edge.R (R 4.2.2, posterior 1.4.0), case → chains[m][i].
func edgeCases(t *testing.T) (order []string, cases map[string][][]float64) {
	rows := shared.ReadCSV(t, "testdata/posterior_edge_draws.csv")
	cases = map[string][][]float64{}
	for _, r := range rows[1:] {
		name := r[0]
		m, _ := strconv.Atoi(r[1])
		x, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := cases[name]; !ok {
			order = append(order, name)
		}
		for len(cases[name]) < m {
			cases[name] = append(cases[name], nil)
		}
		cases[name][m-1] = append(cases[name][m-1], x)
	}
	return order, cases
}

// Every diagnostic against posterior 1.4.0 on edge cases: odd N, one chain,
// N = 1 to 8 (including R's transposed split for N = 3), ties, a constant
// chain, constant folded draws, constant draws, an antithetic chain whose ESS
// is capped at S·log10(S), and a slowly mixing chain whose Geyer sequence
// reaches the FFT path. Values: testdata/posterior_edge_values.csv, made by
// testdata/posterior_edge.R. Tolerance 1e-10 relative; NA must be NaN.
func TestDiagnosticsEdgeCasesMatchPosterior(t *testing.T) {
	t.Parallel()
	_, cases := edgeCases(t)
	rows := shared.ReadCSV(t, "testdata/posterior_edge_values.csv")
	worst := 0.0
	for _, r := range rows[1:] {
		name, measure := r[0], r[1]
		want := math.NaN()
		if r[2] != "NA" {
			want, _ = strconv.ParseFloat(r[2], 64)
		}
		x := cases[name]
		sum := Summarize(x)
		var got float64
		switch {
		case measure == "mean":
			got = sum.Mean
		case measure == "median":
			got = sum.Median
		case measure == "sd":
			got = sum.SD
		case measure == "mad":
			got = sum.MAD
		case measure == "rhat":
			got = Rhat(x)
			checkSame(t, name, measure, got, sum.Rhat)
		case measure == "rhat_basic":
			got = RhatBasic(x)
			checkSame(t, name, measure, got, sum.RhatBasic)
		case measure == "ess_bulk":
			got = ESSBulk(x)
			checkSame(t, name, measure, got, sum.ESSBulk)
		case measure == "ess_tail":
			got = ESSTail(x)
			checkSame(t, name, measure, got, sum.ESSTail)
		case measure == "ess_basic":
			got = ESSBasic(x)
			checkSame(t, name, measure, got, sum.ESSBasic)
		case measure == "ess_mean":
			got = ESSMean(x)
		case measure == "ess_sd":
			got = ESSSd(x)
		case measure == "mcse_mean":
			got = MCSEMean(x)
			checkSame(t, name, measure, got, sum.MCSEMean)
		case measure == "mcse_sd":
			got = MCSESd(x)
			checkSame(t, name, measure, got, sum.MCSESd)
		case strings.HasPrefix(measure, "quantile_"):
			got = Quantile(flatten(x), prob(t, measure))
		case strings.HasPrefix(measure, "ess_quantile_"):
			got = ESSQuantile(x, prob(t, measure))
		case strings.HasPrefix(measure, "mcse_quantile_"):
			p := prob(t, measure)
			got = MCSEQuantile(x, p)
			switch p {
			case 0.025:
				checkSame(t, name, measure, got, sum.MCSEQ2_5)
			case 0.975:
				checkSame(t, name, measure, got, sum.MCSEQ97_5)
			}
		default:
			t.Fatalf("unknown measure %q", measure)
		}
		e := relErr(got, want)
		worst = max(worst, e)
		if e > 1e-10 {
			t.Errorf("%s: %s = %.17g, posterior %.17g (relative error %.2g)", name, measure, got, want, e)
		}
	}
	t.Logf("worst relative error %.2g over %d values", worst, len(rows)-1)
}

func prob(t *testing.T, measure string) float64 {
	p, err := strconv.ParseFloat(measure[strings.LastIndexByte(measure, '_')+1:], 64)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkSame fails unless Summarize gave bit for bit what the single function gave.
func checkSame(t *testing.T, name, measure string, single, summarized float64) {
	t.Helper()
	if math.Float64bits(single) != math.Float64bits(summarized) && !(math.IsNaN(single) && math.IsNaN(summarized)) {
		t.Errorf("%s: %s: function gives %v, Summarize %v", name, measure, single, summarized)
	}
}

func flatten(chains [][]float64) []float64 {
	var all []float64
	for _, c := range chains {
		all = append(all, c...)
	}
	return all
}
