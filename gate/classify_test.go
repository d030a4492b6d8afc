package gate

import (
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/internal/inputerr"
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
	args := append([]string{"classify", "--draws", "2000", "--format", "json"}, classifyFiles(false)...)
	code, out, errw := runMain(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var rep ClassifyReport
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
	args := append([]string{"classify", "--draws", "9000", "--format", "json"}, classifyFiles(false)...)
	runMainWithGOMAXPROCS(t, []int{1, 4}, args...)
}

// Bad input: one line naming file:line where there is one, exit status 2.
func TestClassifyErrors(t *testing.T) {
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

// The parser's layouts and rules.
func TestParseLabels(t *testing.T) {
	f, err := parseLabels("x", strings.NewReader("\ufeffd1\t pos \r\nd2\tneg\nd3\tsci fi\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.IDs, ",") != "d1,d2,d3" || strings.Join(f.Labels, ",") != "pos,neg,sci fi" {
		t.Errorf("ids %q labels %q", f.IDs, f.Labels)
	}
	f, err = parseLabels("x", strings.NewReader("a\nb"))
	if err != nil || f.IDs != nil || strings.Join(f.Labels, ",") != "a,b" {
		t.Errorf("bare: %+v %v", f, err)
	}
	for _, bad := range []string{"a\n \nb\n", "d\ta\tb\n", "\ta\n", "d\t\n", "a\nd\tb\n", "d\ta\nb\n", "d\ta\nd\tb\n"} {
		_, err := parseLabels("x", strings.NewReader(bad))
		var ie *inputerr.Error
		if !errors.As(err, &ie) || ie.Line == 0 {
			t.Errorf("%q: error %v, want one at a line", bad, err)
		}
	}
}

// Labels sort numerically when all are integers (20 Newsgroups' 0…19).
func TestSortLabels(t *testing.T) {
	n := []string{"10", "2", "1", "0"}
	sortLabels(n)
	if strings.Join(n, ",") != "0,1,2,10" {
		t.Errorf("%v", n)
	}
	s := []string{"b", "10", "a"}
	sortLabels(s)
	if strings.Join(s, ",") != "10,a,b" {
		t.Errorf("%v", s)
	}
}

// FuzzParseLabels: any input either parses into a consistent file that
// prints back to itself, or fails with one *inputerr.Error naming the file
// and a one-line message. Never a panic.
// go test ./gate -run '^$' -fuzz FuzzParseLabels -fuzztime 60s
func FuzzParseLabels(f *testing.F) {
	for _, seed := range []string{
		"pos\nneg\npos\n", "d1\tpos\nd2\tneg\n", "\ufeffa\r\nb\r\n", "a\n\nb\n", "d1\ta\td\n", "d1\ta\nd1\tb\n",
		"x", "\t\n", "d1\t a \n", "a\nd\tb\n", "   \n", "é\n中文\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		lf, err := parseLabels("labels.txt", strings.NewReader(in))
		if err != nil {
			var ie *inputerr.Error
			if !errors.As(err, &ie) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if ie.File != "labels.txt" || strings.Contains(err.Error(), "\n") {
				t.Fatalf("bad error %q", err)
			}
			return
		}
		if len(lf.Labels) == 0 || len(lf.Lines) != len(lf.Labels) || (lf.IDs != nil && len(lf.IDs) != len(lf.Labels)) {
			t.Fatalf("inconsistent %+v", lf)
		}
		// Print back and parse again: the same documents.
		var b strings.Builder
		for i, l := range lf.Labels {
			if lf.IDs != nil {
				b.WriteString(lf.IDs[i] + "\t")
			}
			b.WriteString(l + "\n")
		}
		again, err := parseLabels("labels.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("round trip of %q: %v", b.String(), err)
		}
		if strings.Join(again.Labels, "\x00") != strings.Join(lf.Labels, "\x00") || strings.Join(again.IDs, "\x00") != strings.Join(lf.IDs, "\x00") {
			t.Fatalf("round trip changed %q", in)
		}
	})
}

func BenchmarkClassifyCommand(b *testing.B) {
	args := append([]string{"classify", "--format", "json"}, classifyFiles(false)...)
	for b.Loop() {
		if code, _, errw := runMain(b, args...); code != 0 {
			b.Fatal(errw)
		}
	}
}

// The classical tests beside the Bayesian comparison: per category and
// micro, the sign test of the documents only one classifier gets right (the
// micro one on the pooled tables: A right & B wrong = Pos(1,0) + Neg(0,1))
// and the p-test of the accuracies; macro, the sign test and paired t test
// of the categories' observed measures.
func TestClassifyReportClassicalTests(t *testing.T) {
	cats := []bayes.Category{
		{Name: "x", Counts: bayes.JointCounts{Pos: [4]int{40, 25, 10, 25}, Neg: [4]int{5, 10, 15, 170}}},
		{Name: "y", Counts: bayes.JointCounts{Pos: [4]int{30, 5, 12, 3}, Neg: [4]int{8, 9, 11, 222}}},
	}
	opt := bayes.DefaultClassifierOptions()
	opt.Paired, opt.Draws = true, 1000
	res, err := bayes.CompareClassifiers(cats, opt)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := buildClassifyReport(res, cats, "t", "a", "b", "", 600)
	if err != nil {
		t.Fatal(err)
	}
	pooled := cats[0].Counts.Plus(cats[1].Counts)
	for i, counts := range []bayes.JointCounts{cats[0].Counts, cats[1].Counts, {}, pooled} {
		c := rep.Comparisons[i]
		if c.Kind == "macro" {
			if c.PTest != nil || c.TTest == nil {
				t.Errorf("macro: p-test %v, T-test %v", c.PTest, c.TTest)
			}
			continue
		}
		wins, losses := counts.OnlyRight()
		ra, rb := counts.Right()
		if c.SignTest.Wins != wins || c.SignTest.Losses != losses || c.PTest == nil || c.TTest != nil ||
			float64(c.PTest.AccuracyA) != float64(ra)/float64(counts.N()) || float64(c.PTest.AccuracyB) != float64(rb)/float64(counts.N()) {
			t.Errorf("%s: sign test %+v, p-test %+v, T-test %v; want %d/%d and accuracies %d, %d of %d",
				c.Name, c.SignTest, c.PTest, c.TTest, wins, losses, ra, rb, counts.N())
		}
	}
}

// The macro T-test is the paired t-test of the categories' measures, left
// out where a measure is undefined: R's t.test(c(.6,.5,.7,.4),
// c(.5,.45,.72,.3), paired=TRUE) gives (options(digits=17)) t =
// 2.0250370845489343, df = 3, p.value = 0.13599335601467524; tolerance 1e-12.
func TestClassifyMacroTests(t *testing.T) {
	sign, tt, _, err := macroTests([]float64{0.6, 0.5, 0.7, 0.4, math.NaN()}, []float64{0.5, 0.45, 0.72, 0.3, 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if sign.Wins != 3 || sign.Losses != 1 {
		t.Errorf("S-test %+v", sign)
	}
	if math.Abs(float64(tt.T)-2.0250370845489343) > 1e-12 || tt.DF != 3 || math.Abs(float64(tt.P)-0.13599335601467524) > 1e-12 {
		t.Errorf("T-test t=%v df=%v p=%v", tt.T, tt.DF, tt.P)
	}
	sign, tt, _, _ = macroTests([]float64{0.6, math.NaN()}, []float64{0.5, 0.1})
	if sign.Wins != 1 || float64(sign.P) != 1 || !math.IsNaN(float64(tt.T)) {
		t.Errorf("one defined category: S-test %+v, T-test %+v; want p 1 and no T-test", sign, tt)
	}
}
