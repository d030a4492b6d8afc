package risk

import (
	"encoding/csv"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// Helpers that read the reference material in ../shared in place (never
// copied into the repository); tests that use them skip on a fresh clone.

// rb04 is data/bayesian-risk/rb04.csv (45 systems × 50 topics of AP, from
// Benham et al. SIGIR 2020) as a score table with topics in byte order, the
// order R's order(w$topic) gives in reference/scripts/freq_ref.R.
type rb04 struct {
	systems []string
	topics  []string
	scores  map[string][]float64
}

func loadRB04(t testing.TB) *rb04 {
	t.Helper()
	rows := readCSV(t, "data/bayesian-risk/rb04.csv")
	byCell := map[[2]string]float64{}
	d := &rb04{scores: map[string][]float64{}}
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(d.systems, r[0]) {
			d.systems = append(d.systems, r[0])
		}
		if !slices.Contains(d.topics, r[1]) {
			d.topics = append(d.topics, r[1])
		}
		byCell[[2]string{r[0], r[1]}] = v
	}
	slices.Sort(d.topics)
	for _, s := range d.systems {
		row := make([]float64, len(d.topics))
		for i, tp := range d.topics {
			v, ok := byCell[[2]string{s, tp}]
			if !ok {
				t.Fatalf("rb04.csv: no score for %s on %s", s, tp)
			}
			row[i] = v
		}
		d.scores[s] = row
	}
	return d
}

func (d *rb04) pair(challenger string) Pair {
	return Pair{X: d.scores[challenger], Base: d.scores["Champion"]}
}

// five returns Champion and Chal. 1…4 in the order of the named slice.
func (d *rb04) systemsNamed(names ...string) Systems {
	s := make(Systems, len(names))
	for i, n := range names {
		s[i] = d.scores[n]
	}
	return s
}

var challengers = []string{"Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}

func readCSV(t testing.TB, rel string) [][]string {
	t.Helper()
	f, err := os.Open(shared.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// csvRecords returns the rows of a CSV file with a header as maps.
func csvRecords(t testing.TB, rel string) []map[string]string {
	rows := readCSV(t, rel)
	var out []map[string]string
	for _, r := range rows[1:] {
		m := map[string]string{}
		for i, h := range rows[0] {
			m[h] = r[i]
		}
		out = append(out, m)
	}
	return out
}

func num(t testing.TB, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("reference value %q: %v", s, err)
	}
	return v
}

// relClose reports |got − want| ≤ tol·|want| (absolute tol when want is 0).
func relClose(got, want, tol float64) bool {
	if want == 0 {
		return math.Abs(got) <= tol
	}
	return math.Abs(got-want) <= tol*math.Abs(want)
}

// worst tracks the largest deviation seen by a reference test, for the log.
type worst struct {
	what string
	dev  float64
}

func (w *worst) rel(what string, got, want float64) float64 {
	d := math.Abs(got - want)
	if want != 0 {
		d /= math.Abs(want)
	}
	if d > w.dev || w.what == "" {
		w.what, w.dev = what, d
	}
	return d
}

func (w *worst) abs(what string, got, want float64) float64 {
	d := math.Abs(got - want)
	if d > w.dev || w.what == "" {
		w.what, w.dev = what, d
	}
	return d
}
