package classify

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes/twosample"
	"github.com/riskgate/riskgate/internal/inputerr"
)

// The parser's layouts and rules.
func TestParseLabels(t *testing.T) {
	f, err := ParseLabels("x", strings.NewReader("\ufeffd1\t pos \r\nd2\tneg\nd3\tsci fi\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(f.IDs, ",") != "d1,d2,d3" || strings.Join(f.Labels, ",") != "pos,neg,sci fi" {
		t.Errorf("ids %q labels %q", f.IDs, f.Labels)
	}
	f, err = ParseLabels("x", strings.NewReader("a\nb"))
	if err != nil || f.IDs != nil || strings.Join(f.Labels, ",") != "a,b" {
		t.Errorf("bare: %+v %v", f, err)
	}
	for _, bad := range []string{"a\n \nb\n", "d\ta\tb\n", "\ta\n", "d\t\n", "a\nd\tb\n", "d\ta\nb\n", "d\ta\nd\tb\n"} {
		_, err := ParseLabels("x", strings.NewReader(bad))
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
		lf, err := ParseLabels("labels.txt", strings.NewReader(in))
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
		again, err := ParseLabels("labels.txt", strings.NewReader(b.String()))
		if err != nil {
			t.Fatalf("round trip of %q: %v", b.String(), err)
		}
		if strings.Join(again.Labels, "\x00") != strings.Join(lf.Labels, "\x00") || strings.Join(again.IDs, "\x00") != strings.Join(lf.IDs, "\x00") {
			t.Fatalf("round trip changed %q", in)
		}
	})
}

// The classical tests beside the Bayesian comparison: per category and
// micro, the sign test of the documents only one classifier gets right (the
// micro one on the pooled tables: A right & B wrong = Pos(1,0) + Neg(0,1))
// and the p-test of the accuracies; macro, the sign test and paired t test
// of the categories' observed measures.
func TestClassifyReportClassicalTests(t *testing.T) {
	cats := []twosample.Category{
		{Name: "x", Counts: twosample.JointCounts{Pos: [4]int{40, 25, 10, 25}, Neg: [4]int{5, 10, 15, 170}}},
		{Name: "y", Counts: twosample.JointCounts{Pos: [4]int{30, 5, 12, 3}, Neg: [4]int{8, 9, 11, 222}}},
	}
	opt := twosample.DefaultClassifierOptions()
	opt.Paired, opt.Draws = true, 1000
	res, err := twosample.CompareClassifiers(cats, opt)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Build(res, cats, "t", "a", "b", "", 600)
	if err != nil {
		t.Fatal(err)
	}
	pooled := cats[0].Counts.Plus(cats[1].Counts)
	for i, counts := range []twosample.JointCounts{cats[0].Counts, cats[1].Counts, {}, pooled} {
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
