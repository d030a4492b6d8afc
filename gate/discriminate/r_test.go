package discriminate

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/shared"
)

// Discriminative power with the paired t test counts exactly the pairs R's
// t.test(paired = TRUE) finds significant, and Kendall's τ equals R's
// cor(method = "kendall") to 1e-12: on testdata/r/pool.csv (a seeded
// synthetic pool with tied means) and on rb04 (../shared). The numbers are
// testdata/r/discriminate.R's, stored in r_reference.csv; when Rscript is
// installed the script is also run afresh and compared.

type rReference struct {
	significant map[string]int     // "measure alpha" → count
	pairs       map[string]int     // "measure alpha" → pairs
	kendall     map[string]float64 // "m1 m2" → τ
}

func readRReference(t *testing.T, path string) rReference {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ref := rReference{map[string]int{}, map[string]int{}, map[string]float64{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		f := strings.Split(sc.Text(), ",")
		switch {
		case f[0] == "significant" && len(f) == 5:
			n, err1 := strconv.Atoi(f[3])
			p, err2 := strconv.Atoi(f[4])
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %q", path, sc.Text())
			}
			ref.significant[f[1]+" "+f[2]], ref.pairs[f[1]+" "+f[2]] = n, p
		case f[0] == "kendall" && len(f) == 4:
			v, err := strconv.ParseFloat(f[3], 64)
			if err != nil {
				t.Fatalf("%s: %q", path, sc.Text())
			}
			ref.kendall[f[1]+" "+f[2]] = v
		default:
			t.Fatalf("%s: unexpected line %q", path, sc.Text())
		}
	}
	return ref
}

// loadInputs reads one aligned table per measure from score files.
func loadInputs(t *testing.T, paths []string, measures ...string) []Input {
	t.Helper()
	var out []Input
	for _, m := range measures {
		raw, err := scores.Load(paths, scores.LoadOptions{Measures: []string{m}})
		if err != nil {
			t.Fatal(err)
		}
		tab, _, err := raw.Align(scores.Intersect)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Input{Measure: tab.Measure, Systems: tab.Systems, Topics: tab.Topics, Scores: tab.Scores})
	}
	return out
}

// checkAgainstR compares Build on the pool with R's numbers.
func checkAgainstR(t *testing.T, pool string, ref rReference) {
	t.Helper()
	measures := []string{"alpha", "beta", "coarse"}
	inputs := loadInputs(t, []string{pool}, measures...)
	checked := 0
	for _, alpha := range []float64{0.05, 0.01} {
		rep, err := Build(inputs, Options{Test: TestT, Alpha: alpha})
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range rep.Measures {
			key := m.Name + " " + strconv.FormatFloat(alpha, 'g', -1, 64)
			want, ok := ref.significant[key]
			if !ok {
				t.Fatalf("R reference lacks %s", key)
			}
			if m.Significant != want || len(m.Pairs) != ref.pairs[key] {
				t.Errorf("%s at α = %v: %d of %d pairs significant, R's t.test: %d of %d", m.Name, alpha, m.Significant, len(m.Pairs), want, ref.pairs[key])
			}
			checked++
			for j, o := range rep.Measures {
				want := ref.kendall[m.Name+" "+o.Name]
				if got := float64(rep.KendallTau[i][j]); math.Abs(got-want) > 1e-12 {
					t.Errorf("τ(%s, %s) = %.17g, R's cor(method = \"kendall\") = %.17g", m.Name, o.Name, got, want)
				}
				checked++
			}
		}
	}
	if checked != 2*(3+9) {
		t.Errorf("%d numbers checked", checked)
	}
}

func TestRReferenceStored(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "r")
	checkAgainstR(t, filepath.Join(dir, "pool.csv"), readRReference(t, filepath.Join(dir, "r_reference.csv")))
}

// rb04 (45 systems, 990 pairs, average precision): the counts R's t.test
// gives, stored in r_reference.csv.
func TestRReferenceRB04(t *testing.T) {
	t.Parallel()
	rb04 := shared.Path(t, "data/bayesian-risk/rb04.csv")
	ref := readRReference(t, filepath.Join("testdata", "r", "r_reference.csv"))
	inputs := loadInputs(t, []string{rb04}, "")
	for _, alpha := range []float64{0.05, 0.01} {
		rep, err := Build(inputs, Options{Test: TestT, Alpha: alpha})
		if err != nil {
			t.Fatal(err)
		}
		key := "rb04 " + strconv.FormatFloat(alpha, 'g', -1, 64)
		if m := rep.Measures[0]; m.Significant != ref.significant[key] || len(m.Pairs) != ref.pairs[key] {
			t.Errorf("rb04 at α = %v: %d of %d significant, R's t.test: %d of %d", alpha, m.Significant, len(m.Pairs), ref.significant[key], ref.pairs[key])
		}
	}
}

// With Rscript installed, the script is run afresh (into a temporary
// folder) and its numbers compared with Build on its pool.
func TestRReferenceLive(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Rscript (a few seconds)")
	}
	rscript, err := exec.LookPath("Rscript")
	if err != nil {
		t.Skip("Rscript is not installed; TestRReferenceStored compares the stored output")
	}
	t.Parallel()
	dir := t.TempDir()
	script, err := filepath.Abs(filepath.Join("testdata", "r", "discriminate.R"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(rscript, script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("Rscript: %v\n%s", err, out)
	}
	stored, _ := os.ReadFile(filepath.Join("testdata", "r", "pool.csv"))
	fresh, _ := os.ReadFile(filepath.Join(dir, "pool.csv"))
	if string(stored) != string(fresh) {
		t.Errorf("R generated another pool than testdata/r/pool.csv: regenerate the testdata (discriminate.R says how)")
	}
	checkAgainstR(t, filepath.Join(dir, "pool.csv"), readRReference(t, filepath.Join(dir, "r_reference.csv")))
}
