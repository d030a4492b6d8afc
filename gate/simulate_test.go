package gate

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readCSVFile reads a whole CSV file.
func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
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

// The same seed gives byte-identical files; the truth sits beside the pool
// with the names riskgate fit uses.
func TestSimulateFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := func(name, seed string) (string, string) {
		out := filepath.Join(dir, name+".csv")
		if code, _, errs := runMain(t, "simulate", "--n-systems", "12", "--n-topics", "15", "--seed", seed, "--output", out); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		a, _ := os.ReadFile(out)
		b, err := os.ReadFile(filepath.Join(dir, name+".truth.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(a), string(b)
	}
	p1, t1 := run("a", "5")
	p2, t2 := run("b", "5")
	p3, _ := run("c", "6")
	if p1 != p2 || t1 != t2 {
		t.Error("same seed, different files")
	}
	if p1 == p3 {
		t.Error("different seeds, same pool")
	}
	if fi, err := os.Stat(filepath.Join(dir, "a.csv")); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("pool file mode %v (%v), want 0644", fi.Mode(), err)
	}
	pool := readCSVFile(t, filepath.Join(dir, "a.csv"))
	if len(pool) != 1+12*15 || strings.Join(pool[0], ",") != "system,topic,score" || pool[1][0] != "s01" || pool[1][1] != "t01" {
		t.Fatalf("pool: %d rows, first %v %v", len(pool), pool[0], pool[1])
	}
	truth := readCSVFile(t, filepath.Join(dir, "a.truth.csv"))
	if len(truth) != 1+4+15+12 || truth[1][0] != "intercept" || truth[1][1] != "0.3" || truth[5][0] != "topic[t01]" || truth[20][0] != "system[s01]" {
		t.Fatalf("truth: %d rows: %v", len(truth), truth[:6])
	}
}

// --bound clamps to [0, 1]; --missing leaves cells out but keeps every
// system and topic.
func TestSimulateBoundAndMissing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "p.csv")
	if code, _, errs := runMain(t, "simulate", "--n-systems", "30", "--n-topics", "40", "--sigma", "0.5", "--bound", "--missing", "0.3", "--output", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := readCSVFile(t, out)[1:]
	sys, top := map[string]bool{}, map[string]bool{}
	zeros, ones := 0, 0
	for _, r := range rows {
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil || v < 0 || v > 1 {
			t.Fatalf("score %q out of [0, 1]", r[2])
		}
		if v == 0 {
			zeros++
		}
		if v == 1 {
			ones++
		}
		sys[r[0]], top[r[1]] = true, true
	}
	if len(sys) != 30 || len(top) != 40 {
		t.Errorf("%d systems and %d topics kept", len(sys), len(top))
	}
	if n := len(rows); n < 700 || n > 980 {
		t.Errorf("%d of 1200 cells kept with --missing 0.3", n)
	}
	if zeros == 0 || ones == 0 {
		t.Errorf("sigma 0.5 should clamp some scores: %d at 0, %d at 1", zeros, ones)
	}
}

// A simulated pool fitted by riskgate fit: the 95% intervals cover the true
// effects about 95% of the time.
func TestSimulateThenFitCoversTruth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "p.csv")
	if code, _, errs := runMain(t, "simulate", "--n-systems", "30", "--n-topics", "40", "--seed", "8", "--output", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, rep, errs := runMain(t, "fit", "--champion", "s01", "--target-ess", "2000", "--format", "json", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Systems, Topics []struct {
			Name        string
			Q2_5, Q97_5 float64
		}
	}
	if err := json.Unmarshal([]byte(rep), &r); err != nil {
		t.Fatal(err)
	}
	truth := map[string]float64{}
	for _, row := range readCSVFile(t, filepath.Join(dir, "p.truth.csv"))[1:] {
		truth[row[0]], _ = strconv.ParseFloat(row[1], 64)
	}
	covered, n := 0, 0
	for kind, list := range map[string][]struct {
		Name        string
		Q2_5, Q97_5 float64
	}{"system": r.Systems, "topic": r.Topics} {
		for _, e := range list {
			v := truth[kind+"["+e.Name+"]"]
			if e.Q2_5 <= v && v <= e.Q97_5 {
				covered++
			}
			n++
		}
	}
	// Binomial(70, 0.95) falls below 60 with probability 0.0005.
	if n != 70 || covered < 60 {
		t.Errorf("%d of %d true effects inside their 95%% intervals", covered, n)
	}
}

func TestSimulateErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--n-systems", "1", "--n-topics", "5", "--truth", "x"}, "at least 2"},
		{[]string{"--n-systems", "3", "--n-topics", "5", "--missing", "1", "--truth", "x"}, "--missing"},
		{[]string{"--n-systems", "3", "--n-topics", "5", "--sigma", "-1", "--truth", "x"}, "--sigma"},
		{[]string{"--n-systems", "3", "--n-topics", "5"}, "--truth"},
		{[]string{"--n-systems", "3", "--n-topics", "5", "--output", filepath.Join(t.TempDir(), "no", "such", "dir.csv")}, "dir.csv"},
	} {
		code, _, errs := runMain(t, append([]string{"simulate"}, tc.args...)...)
		if code != exitError || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestSimulateRenamedFlags: --systems and --topics (counts, where every other
// --topics is a mode) are now --n-systems and --n-topics; the old spellings
// work for one release with a warning (CHANGELOG.md).
func TestSimulateRenamedFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	newOut, oldOut := filepath.Join(dir, "new.csv"), filepath.Join(dir, "old.csv")
	code, _, errw := runMain(t, "simulate", "--n-systems", "3", "--n-topics", "4", "--output", newOut)
	if code != 0 || errw != "" {
		t.Fatalf("new spelling: exit %d, stderr %q", code, errw)
	}
	code, _, errw = runMain(t, "simulate", "--systems", "3", "--topics", "4", "--output", oldOut)
	if code != 0 || strings.Count(errw, "riskgate: warning: --") != 2 || !strings.Contains(errw, "--topics is deprecated") || !strings.Contains(errw, "use --n-topics") {
		t.Fatalf("old spelling: exit %d, stderr %q; want 0 and two deprecation warnings", code, errw)
	}
	a, _ := os.ReadFile(newOut)
	b, _ := os.ReadFile(oldOut)
	if len(a) == 0 || string(a) != string(b) {
		t.Error("the old spelling gives another pool than the new")
	}
	code, out, errw := runMain(t, "simulate", "--n-systems", "3")
	if code != exitError || out != "" || !strings.HasPrefix(errw, "riskgate: missing --n-topics (required)\n") {
		t.Errorf("without --n-topics: exit %d, stdout %q, stderr %q", code, out, errw)
	}
}
