package discriminate

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/mdcheck"
	"github.com/riskgate/riskgate/risk"
)

var poolPath = filepath.Join("testdata", "r", "pool.csv")

// Every output format of the synthetic pool (testdata/r/pool.csv), whole.
func TestGoldenFormats(t *testing.T) {
	t.Parallel()
	inputs := loadInputs(t, []string{poolPath}, "alpha", "beta", "coarse")
	for _, test := range Tests {
		rep, err := Build(inputs, Options{Test: test, Alpha: 0.05, B: 1000, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range Formats {
			if test != TestT && format != "table" && format != "json" {
				continue
			}
			var b bytes.Buffer
			if err := Write(&b, rep, format); err != nil {
				t.Fatal(err)
			}
			if format == "md" {
				mdcheck.Structure(t, b.String(), 65536)
			}
			golden.Check(t, filepath.Join("testdata", "golden", test+"."+format), b.Bytes())
		}
	}
}

// A bootstrap's and a Tukey test's report is the same, bit for bit, for
// one seed, whatever GOMAXPROCS; another seed changes it.
func TestDeterministic(t *testing.T) {
	inputs := loadInputs(t, []string{poolPath}, "alpha", "beta", "coarse")
	for _, test := range []string{TestBootstrap, TestTukey} {
		var first []byte
		for _, procs := range []int{1, 4, 1} {
			old := runtime.GOMAXPROCS(procs)
			rep, err := Build(inputs, Options{Test: test, Alpha: 0.05, B: 500, Seed: 7})
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(rep)
			if first == nil {
				first = b
			} else if !bytes.Equal(b, first) {
				t.Errorf("%s: GOMAXPROCS %d gives another report", test, procs)
			}
		}
		rep, _ := Build(inputs, Options{Test: test, Alpha: 0.05, B: 500, Seed: 8})
		if b, _ := json.Marshal(rep); bytes.Equal(b, first) {
			t.Errorf("%s: seeds 7 and 8 give the same report", test)
		}
	}
}

// A pair's ASL is the risk package's test of that pair (bootstrap: seeded
// by the names, so the same whatever the other systems and measures).
func TestPairsAreRiskTests(t *testing.T) {
	t.Parallel()
	inputs := loadInputs(t, []string{poolPath}, "alpha", "beta")
	rep, err := Build(inputs, Options{Test: TestBootstrap, Alpha: 0.05, B: 400, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Build([]Input{trim(inputs[1], 5)}, Options{Test: TestBootstrap, Alpha: 0.05, B: 400, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	beta := rep.Measures[0]
	if beta.Name != "beta" {
		beta = rep.Measures[1]
	}
	for _, p := range alone.Measures[0].Pairs {
		for _, q := range beta.Pairs {
			if p.A == q.A && p.B == q.B && (p.ASL != q.ASL || p.Required != q.Required) {
				t.Errorf("%s-%s: ASL %v with 5 systems, %v with all", p.A, p.B, p.ASL, q.ASL)
			}
		}
	}
	in := inputs[0]
	a, b := 2, 9
	r, c, err := risk.Pair{X: in.Scores[b], Base: in.Scores[a]}.StudentizedBootstrapCritical(400, pairSeed(3, "alpha", in.Systems[a], in.Systems[b]), 0.05)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range rep.Measures {
		for _, p := range m.Pairs {
			if m.Name == "alpha" && p.A == in.Systems[a] && p.B == in.Systems[b] && (float64(p.ASL) != r.P || math.IsNaN(c)) {
				t.Errorf("ASL %v, risk's %v", p.ASL, r.P)
			}
		}
	}
}

// trim keeps the first n systems of an input.
func trim(in Input, n int) Input {
	in.Systems, in.Scores = in.Systems[:n], in.Scores[:n]
	return in
}

// Kendall's τ_b against its definition on random rankings with ties, and
// τ_AP on hand-worked cases.
func TestKendallAndTauAP(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 2 + r.IntN(12)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(r.IntN(5)), float64(r.IntN(5))
		}
		// The definition, pair by pair, with sign products as R sums them.
		num, sx, sy := 0.0, 0.0, 0.0
		for i := range n {
			for j := range n {
				if i < j {
					a, b := sign(x[i]-x[j]), sign(y[i]-y[j])
					num += a * b
					sx += a * a
					sy += b * b
				}
			}
		}
		want := num / (math.Sqrt(sx) * math.Sqrt(sy))
		got := KendallTau(x, y)
		if !(math.Abs(got-want) <= 1e-15) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("τ(%v, %v) = %v, definition %v", x, y, got, want)
		}
	}
	names := []string{"A", "B", "C"}
	for _, c := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{3, 2, 1}, []float64{3, 2, 1}, 1},
		{[]float64{3, 2, 1}, []float64{1, 2, 3}, -1},
		{[]float64{3, 2, 1}, []float64{2, 3, 1}, 0},   // the top two swapped
		{[]float64{3, 2, 1}, []float64{3, 1, 2}, 0.5}, // the bottom two swapped
	} {
		if got := TauAP(c.x, c.y, names); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("τ_AP(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}

func sign(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func TestBadOptions(t *testing.T) {
	t.Parallel()
	inputs := loadInputs(t, []string{poolPath}, "alpha")
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Test: "wilcoxon", Alpha: 0.05}, `--test "wilcoxon": expected one of t, bootstrap, tukey`},
		{Options{Test: TestT, Alpha: 0}, "--alpha 0: expected a significance level between 0 and 1"},
		{Options{Test: TestT, Alpha: 1.5}, "--alpha 1.5"},
		{Options{Test: TestBootstrap, Alpha: 0.05, B: 10}, "-B 10: expected from 100"},
	} {
		if _, err := Build(inputs, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want %q", c.opt, err, c.want)
		}
	}
	in := inputs[0]
	in.Scores = append([][]float64{}, in.Scores...)
	in.Scores[0] = append([]float64{math.NaN()}, in.Scores[0][1:]...)
	if _, err := Build([]Input{in}, Options{Test: TestT, Alpha: 0.05}); err == nil || !strings.Contains(err.Error(), "has no score for topic") {
		t.Errorf("a missing score: %v", err)
	}
}
