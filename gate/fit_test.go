package gate

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// fitPool simulates a small pool into a temporary directory.
func fitPool(t *testing.T, args ...string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pool.csv")
	if code, _, errs := runMain(t, append([]string{"simulate", "--output", p}, args...)...); code != 0 {
		t.Fatalf("simulate: %d %s", code, errs)
	}
	return p
}

// The JSON report carries every field of the contract, for rb04.csv.
func TestFitJSONContract(t *testing.T) {
	t.Parallel()
	rb04 := shared.Path(t, "data/bayesian-risk/rb04.csv")
	code, out, errs := runMain(t, "fit", "--champion", "Champion", "--challenger", "Chal.*", "--target-ess", "2000", "--format", "json", rb04)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"intercept", "sigma", "sd_topic", "sd_system"} {
		s, ok := r[k].(map[string]any)
		if !ok {
			t.Fatalf("%s missing", k)
		}
		for _, f := range []string{"mean", "sd", "q2_5", "q50", "q97_5", "hdi_lo", "hdi_hi", "rhat", "ess_bulk", "ess_tail", "mcse_mean"} {
			if _, ok := s[f].(float64); !ok {
				t.Errorf("%s.%s missing", k, f)
			}
		}
	}
	for k, n := range map[string]int{"systems": 45, "topics": 50} {
		list, _ := r[k].([]any)
		if len(list) != n {
			t.Fatalf("%s: %d entries, want %d", k, len(list), n)
		}
		for _, e := range list {
			m := e.(map[string]any)
			for _, f := range []string{"mean", "sd", "q2_5", "q50", "q97_5", "hdi_lo", "hdi_hi"} {
				if _, ok := m[f].(float64); !ok {
					t.Fatalf("%s entry %v: %s missing", k, m["name"], f)
				}
			}
		}
	}
	roles := map[string]string{}
	for _, e := range r["systems"].([]any) {
		m := e.(map[string]any)
		roles[m["name"].(string)] = m["role"].(string)
	}
	if roles["Champion"] != "champion" || roles["Chal. 3"] != "challenger" || roles["input.uic0401"] != "artifact" {
		t.Errorf("roles %v", roles)
	}
	d := r["diagnostics"].(map[string]any)
	if params := d["parameters"].([]any); len(params) != 4+45+50 {
		t.Errorf("%d diagnostics, want 99", len(params))
	} else if p := params[0].(map[string]any); p["name"] != "intercept" || p["rhat"] == nil || p["ess_bulk"] == nil || p["ess_tail"] == nil {
		t.Errorf("diagnostics entry %v", p)
	}
	for _, k := range []string{"divergences", "max_treedepth_hits"} {
		if _, ok := d[k].(float64); !ok {
			t.Errorf("diagnostics.%s missing", k)
		}
	}
	for _, k := range []string{"draws", "chains", "seed", "elapsed_ms"} {
		if _, ok := r[k].(float64); !ok {
			t.Errorf("%s missing", k)
		}
	}
	if r["converged"] != true || r["chains"].(float64) != 4 || r["seed"].(float64) != 1 {
		t.Errorf("converged %v chains %v seed %v", r["converged"], r["chains"], r["seed"])
	}
	if c := r["comparisons"].([]any); len(c) != 4 {
		t.Errorf("%d comparisons, want one per challenger", len(c))
	}
}

var fitElapsed = regexp.MustCompile(`; [0-9]+ ms|"elapsed_ms": [0-9]+`)

// Whole outputs on a small simulated pool, elapsed time masked.
func TestFitGolden(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "6", "--n-topics", "8", "--seed", "5")
	for _, o := range []string{"table", "md"} {
		code, out, errs := runMain(t, "fit", "--champion", "s1", "--challenger", "s2", "--challenger", "s3", "--target-ess", "1000", "--format", o, pool)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		checkGolden(t, "fit_small."+o, fitElapsed.ReplaceAllString(out, "; ELAPSED ms"))
	}
}

// The same seed gives the same report; another seed does not.
func TestFitDeterministic(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "5", "--n-topics", "7", "--seed", "9", "--missing", "0.2")
	run := func(seed string) string {
		code, out, errs := runMain(t, "fit", "--champion", "s1", "--seed", seed, "--target-ess", "500", "--topics", "keep", "--format", "json", pool)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		return fitElapsed.ReplaceAllString(out, "")
	}
	a, b, c := run("7"), run("7"), run("8")
	if a != b {
		t.Error("same seed, different reports")
	}
	if a == c {
		t.Error("different seeds, same report")
	}
}

// A fit that misses its ESS target is marked in every output format, and
// the command still succeeds.
func TestFitNotConvergedIsMarked(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "5", "--n-topics", "6", "--seed", "2")
	args := []string{"fit", "--champion", "s1", "--draws", "100", "--warmup", "100", "--target-ess", "1e9", "--max-draws", "150"}
	for _, o := range []string{"table", "md", "json", "csv"} {
		code, out, errs := runMain(t, append(args, "--format", o, pool)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", o, code, errs)
		}
		if !strings.Contains(errs, "NOT CONVERGE") || !strings.Contains(errs, "below the target") {
			t.Errorf("%s: stderr does not warn: %q", o, errs)
		}
		switch o {
		case "table", "md":
			if !strings.Contains(out, "NOT CONVERGED") {
				t.Errorf("%s: no NOT CONVERGED in the report", o)
			}
		case "json":
			var r struct {
				Converged *bool    `json:"converged"`
				Warnings  []string `json:"warnings"`
			}
			if err := json.Unmarshal([]byte(out), &r); err != nil || r.Converged == nil || *r.Converged || len(r.Warnings) == 0 {
				t.Errorf("json: converged %v warnings %v (%v)", r.Converged, r.Warnings, err)
			}
		case "csv":
			rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			col := len(rows[0]) - 1
			if rows[0][col] != "converged" {
				t.Fatalf("last csv column %q", rows[0][col])
			}
			for _, r := range rows[1:] {
				if r[col] != "false" {
					t.Fatalf("csv row %v not marked", r)
				}
			}
		}
	}
}

// --draws-out writes every draw, and their means are the report's.
func TestFitDrawsOut(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "4", "--n-topics", "5", "--seed", "4")
	drawsPath := filepath.Join(t.TempDir(), "draws.csv")
	code, out, errs := runMain(t, "fit", "--champion", "s1", "--chains", "2", "--draws", "300", "--target-ess", "1", "--format", "json", "--draws-out", drawsPath, pool)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows := readCSVFile(t, drawsPath)
	want := []string{"chain", "iteration", "intercept", "sigma", "sd_topic", "sd_system", "topic[t1]"}
	for i, w := range want {
		if rows[0][i] != w {
			t.Fatalf("header %v, want it to start %v", rows[0], want)
		}
	}
	if len(rows) != 1+2*300 || len(rows[0]) != 2+4+5+4 {
		t.Fatalf("%d rows × %d columns", len(rows), len(rows[0]))
	}
	sum := 0.0
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		sum += v
	}
	var rep struct {
		Intercept struct{ Mean float64 } `json:"intercept"`
	}
	json.Unmarshal([]byte(out), &rep)
	if m := sum / 600; math.Abs(m-rep.Intercept.Mean) > 1e-12 {
		t.Errorf("mean of the intercept draws %v, report %v", m, rep.Intercept.Mean)
	}
	if rows[600][0] != "2" || rows[600][1] != "300" {
		t.Errorf("last row starts %v", rows[600][:2])
	}
}

func TestFitErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	pool := fitPool(t, "--n-systems", "3", "--n-topics", "4", "--seed", "1")
	oneSystem := write("one.csv", "system,topic,score\nA,1,0.5\nA,2,0.6\n")
	constant := write("const.csv", "system,topic,score\nA,1,0.5\nA,2,0.5\nB,1,0.5\nB,2,0.5\n")
	nan := write("nan.csv", "system,topic,score\nA,1,0.5\nA,2,NaN\nB,1,0.5\nB,2,0.1\n")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"unknown champion", []string{"--champion", "nope", pool}, `--champion "nope" is not in the data`},
		{"unknown challenger", []string{"--champion", "s1", "--challenger", "z*", pool}, `--challenger "z*" is not in the data`},
		{"literal bracket", []string{"--champion", "s1", "--challenger", "[", pool}, `--challenger "[" is not in the data`},
		{"bad format", []string{"--champion", "s1", "--format", "xml", pool}, "--format"},
		{"bad prior", []string{"--champion", "s1", "--prior-sigma", "normal(0)", pool}, "--prior-sigma"},
		{"positive intercept prior", []string{"--champion", "s1", "--prior-intercept", "exponential(1)", pool}, "unbounded"},
		{"tau and sd", []string{"--champion", "s1", "--prior-tau", "gamma(1,1)", "--prior-sd", "half_normal(1)", pool}, "exclude each other"},
		{"bad method", []string{"--champion", "s1", "--method", "magic", pool}, "unknown method"},
		{"no chains", []string{"--champion", "s1", "--chains", "0", pool}, "--chains"},
		{"one system", []string{"--champion", "A", oneSystem}, "at least 2 systems"},
		{"constant", []string{"--champion", "A", constant}, "same"},
		{"nan", []string{"--champion", "A", nan}, "nan.csv:3"},
		{"no input", []string{"--champion", "A"}, "no INPUT"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := runMain(t, append([]string{"fit"}, tc.args...)...)
			if code != exitError || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want 2 and one line containing %q", code, errs, tc.want)
			}
		})
	}
}

// Priors chosen by name change the reported priors and the path.
func TestFitPriorFlags(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "4", "--n-topics", "6", "--seed", "3")
	code, out, errs := runMain(t, "fit", "--champion", "s1", "--target-ess", "400", "--format", "json",
		"--prior-intercept", "student_t(3, 0.3, 1)", "--prior-sigma", "half_normal(0.5)", "--prior-sd", "half_student_t(3, 2.5)", pool)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Method string            `json:"method"`
		Priors map[string]string `json:"priors"`
	}
	json.Unmarshal([]byte(out), &r)
	if r.Method != "general" || r.Priors["intercept"] != "student_t(3, 0.3, 1)" || r.Priors["sd_topic"] != "half_student_t(3, 2.5)" || r.Priors["sigma"] != "half_normal(0.5)" {
		t.Errorf("method %s priors %v", r.Method, r.Priors)
	}
}

// --output writes the report to a file, and --input-format names the input layout.
func TestFitOutputFile(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "4", "--n-topics", "5", "--seed", "6")
	out := filepath.Join(t.TempDir(), "fit.json")
	code, stdout, errs := runMain(t, "fit", "--champion", "s1", "--target-ess", "400", "--format", "json", "--input-format", "csv-long", "-o", out, pool)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, errs)
	}
	b, err := os.ReadFile(out)
	var r map[string]any
	if err != nil || json.Unmarshal(b, &r) != nil || r["converged"] != true {
		t.Fatalf("report file: %v %s", err, b)
	}
}

// The draws file is what riskgate diagnose reads, and it reproduces the
// fit's own diagnostics.
func TestFitDrawsOutThroughDiagnose(t *testing.T) {
	t.Parallel()
	pool := fitPool(t, "--n-systems", "4", "--n-topics", "6", "--seed", "7")
	draws := filepath.Join(t.TempDir(), "draws.csv")
	code, fitCSV, errs := runMain(t, "fit", "--champion", "s1", "--target-ess", "1000", "--format", "csv", "--draws-out", draws, pool)
	if code != 0 {
		t.Fatalf("fit: exit %d: %s", code, errs)
	}
	code, diagCSV, errs := runMain(t, "diagnose", "--format", "csv", draws)
	if code != 0 {
		t.Fatalf("diagnose: exit %d: %s", code, errs)
	}
	col := func(rows [][]string, name string) int {
		for i, h := range rows[0] {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %q in %v", name, rows[0])
		return -1
	}
	fr, _ := csv.NewReader(strings.NewReader(fitCSV)).ReadAll()
	dr, _ := csv.NewReader(strings.NewReader(diagCSV)).ReadAll()
	if len(fr) != len(dr) {
		t.Fatalf("%d fit rows, %d diagnose rows", len(fr), len(dr))
	}
	byName := map[string][]string{}
	for _, r := range dr[1:] {
		byName[r[0]] = r
	}
	for _, r := range fr[1:] {
		d, ok := byName[r[0]]
		if !ok {
			t.Fatalf("diagnose has no %q", r[0])
		}
		for _, c := range []string{"mean", "rhat", "ess_bulk", "ess_tail"} {
			if a, b := r[col(fr, c)], d[col(dr, c)]; a != b {
				t.Errorf("%s %s: fit %s, diagnose %s", r[0], c, a, b)
			}
		}
	}
}
