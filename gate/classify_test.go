package gate

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/riskgate/riskgate/gate/classify"
)

// The test labels (testdata/classify_*) are synthetic: 300 documents in three
// classes (sport 129, politics 95, tech 76), classifier a right on 240 and b
// on 217, with errors concentrated on the same "hard" documents; the *_ids.tsv
// files hold the same labels as id<TAB>label lines, b's in shuffled order.
func classifyFiles(ids bool) []string {
	if ids {
		return []string{"--truth", "testdata/classify_truth_ids.tsv", "--a", "testdata/classify_a_ids.tsv", "--b", "testdata/classify_b_ids.tsv"}
	}
	return []string{"--truth", "testdata/classify_truth.txt", "--a", "testdata/classify_a.txt", "--b", "testdata/classify_b.txt"}
}

// Whole outputs of riskgate classify in every format and the main variants.
func TestClassifyGolden(t *testing.T) {
	t.Parallel()
	base := []string{"classify", "--draws", "20000", "--seed", "3"}
	cases := []struct {
		name string
		ids  bool
		args []string
	}{
		{"table", false, nil},
		{"md", false, []string{"--format", "md"}},
		{"json", false, []string{"--format", "json"}},
		{"csv", false, []string{"--format", "csv"}},
		{"unpaired_table", false, []string{"--unpaired"}},
		{"positive_ids_table", true, []string{"--positive", "tech", "--measure", "fbeta:2", "--rope", "-0.03,0.03"}},
		{"positive_json", false, []string{"--positive", "sport", "--measure", "accuracy", "--format", "json"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append(append([]string{}, base...), classifyFiles(c.ids)...), c.args...)
			checkGoldenRun(t, "classify_"+c.name+".golden", args...)
		})
	}
}

// The id layout (b in another order) gives the same comparison as bare labels.
func TestClassifyIDsMatchBareLabels(t *testing.T) {
	t.Parallel()
	run := func(ids bool) string {
		args := append([]string{"classify", "--draws", "2000", "--format", "csv"}, classifyFiles(ids)...)
		code, out, errw := runMain(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errw)
		}
		return out
	}
	if bare, ids := run(false), run(true); bare != ids {
		t.Errorf("id layout differs from bare labels:\n%s\n%s", bare, ids)
	}
}

// For single-label multi-class data the micro-averaged F1 of the observed
// tables equals accuracy (every error is one FP and one FN); and the JSON
// carries the fields the issue names.
func TestClassifyJSON(t *testing.T) {
	t.Parallel()
	args := append([]string{"classify", "--draws", "2000", "--format", "json"}, classifyFiles(false)...)
	code, out, errw := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var rep classify.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Comparisons) != 5 {
		t.Fatalf("%d comparisons, want 3 categories + macro + micro", len(rep.Comparisons))
	}
	micro := rep.Comparisons[4]
	if micro.Kind != "micro" || float64(micro.A.Sample) != 240.0/300 || float64(micro.B.Sample) != 217.0/300 {
		t.Errorf("micro F1 %v, %v; want the accuracies 0.8, 0.7233", micro.A.Sample, micro.B.Sample)
	}
	for _, c := range rep.Comparisons {
		if c.Diff.ROPE.Decision == "" || c.SignTest.Wins+c.SignTest.Losses == 0 {
			t.Errorf("%s: %+v", c.Name, c)
		}
	}
}

// Same seed: identical output whatever GOMAXPROCS (the draws are split into
// seeded blocks, not per goroutine).
func TestClassifyDeterministic(t *testing.T) {
	t.Parallel()
	args := append([]string{"classify", "--draws", "9000", "--format", "json"}, classifyFiles(false)...)
	runMainWithGOMAXPROCS(t, []int{1, 4}, args...)
}

// Bad input: one line naming file:line where there is one, exit status 2.
func TestClassifyErrors(t *testing.T) {
	t.Parallel()
	truth := writeTemp(t, "truth.txt", "x\ny\nx\ny\n")
	short := writeTemp(t, "short.txt", "x\ny\nx\n")
	good := writeTemp(t, "good.txt", "x\ny\ny\ny\n")
	alien := writeTemp(t, "alien.txt", "x\nz\nx\ny\n")
	blank := writeTemp(t, "blank.txt", "x\n\nx\ny\n")
	onlyX := writeTemp(t, "onlyx.txt", "x\nx\nx\nx\n")
	tIDs := writeTemp(t, "truth.tsv", "d1\tx\nd2\ty\nd3\tx\n")
	aIDs := writeTemp(t, "a.tsv", "d1\tx\nd2\ty\nd4\tx\n")
	missing := writeTemp(t, "missing.tsv", "d1\tx\nd2\ty\n")
	dupID := writeTemp(t, "dup.tsv", "d1\tx\nd2\ty\nd1\tx\n")
	mixed := writeTemp(t, "mixed.tsv", "d1\tx\ny\nd3\tx\n")
	empty := writeTemp(t, "empty.txt", "")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"different lengths", []string{"--truth", truth, "--a", short, "--b", good}, "short.txt: 3 labels, but"},
		{"unknown id", []string{"--truth", tIDs, "--a", aIDs, "--b", tIDs}, `a.tsv:3: document "d4" is not in`},
		{"missing id", []string{"--truth", tIDs, "--a", missing, "--b", tIDs}, `missing.tsv: no prediction for document "d3"`},
		{"layouts differ", []string{"--truth", truth, "--a", tIDs, "--b", truth}, "truth.tsv:1: id<TAB>label lines, but"},
		{"positive absent", []string{"--truth", truth, "--a", good, "--b", good, "--positive", "z"}, `--positive "z": no document`},
		{"positive everywhere", []string{"--truth", onlyX, "--a", good, "--b", good, "--positive", "x"}, "negative class is empty"},
		{"empty category", []string{"--truth", truth, "--a", alien, "--b", good}, `alien.txt:2: label "z" does not occur`},
		{"one class", []string{"--truth", onlyX, "--a", good, "--b", good}, "at least two classes"},
		{"blank line", []string{"--truth", truth, "--a", blank, "--b", good}, "blank.txt:2: blank line"},
		{"duplicate id", []string{"--truth", dupID, "--a", tIDs, "--b", tIDs}, `dup.tsv:3: document "d1" again (first at line 1)`},
		{"mixed layout", []string{"--truth", mixed, "--a", tIDs, "--b", tIDs}, "mixed.tsv:2: bare label"},
		{"empty file", []string{"--truth", empty, "--a", good, "--b", good}, "empty.txt: no labels"},
		{"no such file", []string{"--truth", filepath.Join(t.TempDir(), "nope.txt"), "--a", good, "--b", good}, "no such file"},
		{"bad measure", []string{"--truth", truth, "--a", good, "--b", good, "--measure", "f2"}, "--measure"},
		{"bad rope", []string{"--truth", truth, "--a", good, "--b", good, "--rope", "0.05"}, "--rope"},
		{"both models", []string{"--truth", truth, "--a", good, "--b", good, "--paired", "--unpaired"}, "not both"},
		{"positional", []string{"--truth", truth, "--a", good, "--b", good, "extra"}, "no positional"},
		{"bad format", []string{"--truth", truth, "--a", good, "--b", good, "--format", "html"}, "--format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errw := runMain(t, append([]string{"classify", "--draws", "200"}, c.args...)...)
			checkOneLineError(t, code, out, errw, c.want)
		})
	}
}

func BenchmarkClassifyCommand(b *testing.B) {
	args := append([]string{"classify", "--format", "json"}, classifyFiles(false)...)
	for b.Loop() {
		if code, _, errw := runMain(b, args...); code != 0 {
			b.Fatal(errw)
		}
	}
}
