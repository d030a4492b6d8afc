package shared

import (
	"encoding/csv"
	"os"
	"slices"
	"strconv"
	"testing"
)

// Readers of the reference material for tests. Each fails the test on an
// error; give them a path from Path (or a test's own testdata file).

// ReadCSV returns every row of the CSV file at path, the header included.
func ReadCSV(tb testing.TB, path string) [][]string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return rows
}

// Records returns the rows after the header of the CSV file at path, each as
// a map from column name to value.
func Records(tb testing.TB, path string) []map[string]string {
	tb.Helper()
	rows := ReadCSV(tb, path)
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

// ParseFloat parses a reference value, failing the test when it is not a number.
func ParseFloat(tb testing.TB, s string) float64 {
	tb.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		tb.Fatalf("reference value %q: %v", s, err)
	}
	return v
}

// Table is a complete score table read from a system,topic,score CSV file.
type Table struct {
	Systems []string             // in the order the file first names them
	Topics  []string             // in byte order, as R's order(topic) sorts them in reference/scripts
	Scores  map[string][]float64 // Scores[system][i] is the system's score on Topics[i]
}

// RB04 reads data/bayesian-risk/rb04.csv: 45 systems × 50 Robust04 topics of
// AP (Benham et al., SIGIR 2020), the input of the R and paper references.
// It skips the test when the shared folder is absent.
func RB04(tb testing.TB) *Table {
	tb.Helper()
	rows := ReadCSV(tb, Path(tb, "data/bayesian-risk/rb04.csv"))
	byCell := map[[2]string]float64{}
	d := &Table{Scores: map[string][]float64{}}
	for _, r := range rows[1:] {
		if !slices.Contains(d.Systems, r[0]) {
			d.Systems = append(d.Systems, r[0])
		}
		if !slices.Contains(d.Topics, r[1]) {
			d.Topics = append(d.Topics, r[1])
		}
		byCell[[2]string{r[0], r[1]}] = ParseFloat(tb, r[2])
	}
	slices.Sort(d.Topics)
	for _, s := range d.Systems {
		row := make([]float64, len(d.Topics))
		for i, tp := range d.Topics {
			v, ok := byCell[[2]string{s, tp}]
			if !ok {
				tb.Fatalf("rb04.csv: no score for %s on %s", s, tp)
			}
			row[i] = v
		}
		d.Scores[s] = row
	}
	return d
}
