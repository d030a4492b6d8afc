package trec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Regression tests for the disagreements with trec_eval v10 that random
// inputs found (issue 16, and TestDifferentialTrecEval since). Each holds
// the minimal input; every expected output is what trec_eval v10, built
// from ../shared/tools/trec_eval, prints for it (tolerance: none, byte for
// byte).

// evalFiles writes qrels and run into a temporary directory and runs the
// trec_eval command line args there ("qrels" and "run" name the files).
func evalFiles(t *testing.T, qrels, run string, args ...string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"qrels": qrels, "run": run} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return evalCommand(t, dir, args)
}

func wantEval(t *testing.T, qrels, run string, args []string, want string) {
	t.Helper()
	got, err := evalFiles(t, qrels, run, args...)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
	if got != want {
		t.Errorf("%s:\n%s\ngot:\n%s", strings.Join(args, " "), diffFirst(got, want), got)
	}
}

// The input of issue 16's rbp_resid report: topic B ranks u1 (not in the
// qrels), b1 (relevant), u2, b2 (judged 0).
const (
	issue16Qrels = "A 0 a1 1\nB 0 b1 1\nB 0 b2 0\n"
	issue16Run   = "A Q0 x 1 1 r\nB Q0 u1 1 4 r\nB Q0 b1 2 3 r\nB Q0 u2 3 2 r\nB Q0 b2 4 1 r\n"
)

// TestRBPResidParameter: rbp_resid takes rbp's "p=…" parameter and prints
// it in its name. By hand: A = 0.5 + 0.5·1 = 1; B = 0.5⁴ + 0.5·(1 + 0.5²) =
// 0.6875; mean 0.84375.
func TestRBPResidParameter(t *testing.T) {
	t.Parallel()
	wantEval(t, issue16Qrels, issue16Run, []string{"-q", "-m", "rbp_resid.p=0.5", "qrels", "run"},
		"rbp_resid_p=0.5       \tA\t1.0000\n"+
			"rbp_resid_p=0.5       \tB\t0.6875\n"+
			"rbp_resid_p=0.5       \tall\t0.8438\n")
}

// TestRBPResidRounding: with the default p = 0.9, 1 − p must be the double
// C computes, 0.09999999999999998, not 0.1 folded by the compiler: the mean
// (1 + 0.9⁴ + (1 − p)·1.81)/2 falls on either side of 0.91855.
func TestRBPResidRounding(t *testing.T) {
	t.Parallel()
	wantEval(t, issue16Qrels, issue16Run, []string{"-q", "-m", "rbp_resid", "qrels", "run"},
		"rbp_resid             \tA\t1.0000\n"+
			"rbp_resid             \tB\t0.8371\n"+
			"rbp_resid             \tall\t0.9185\n")
}

// TestNegativeNaN: G with a negative gain takes log2 of a negative number,
// which glibc returns as a NaN with the sign bit set, printed "-nan".
func TestNegativeNaN(t *testing.T) {
	t.Parallel()
	wantEval(t, issue16Qrels, issue16Run, []string{"-q", "-m", "G.-1=9", "qrels", "run"},
		"G_-1=9                \tA\t  -nan\n"+
			"G_-1=9                \tB\t  -nan\n"+
			"G_-1=9                \tall\t  -nan\n")
	if got := cLog(-1); !isNegNaN(got) {
		t.Errorf("cLog(-1) = %v, want -nan", got)
	}
	if got := cLog2(-0.5); !isNegNaN(got) {
		t.Errorf("cLog2(-0.5) = %v, want -nan", got)
	}
}

func isNegNaN(v float64) bool {
	return v != v && strings.HasPrefix(string(appendC6_4f(nil, v)), "  -nan")
}

// TestDuplicatesWithoutRanking: trec_eval finds duplicate documents while
// forming a topic's ranking, which runid and num_q never ask for; with
// another measure both inputs are refused.
func TestDuplicatesWithoutRanking(t *testing.T) {
	t.Parallel()
	dupRun := "A Q0 x 1 1 r\nA Q0 x 2 1 r\nB Q0 b1 1 1 r\n"
	dupQrels := "A 0 a1 1\nA 0 a1 0\nB 0 b1 1\n"
	want := "runid                 \tall\tr\nnum_q                 \tall\t2\n"
	wantEval(t, issue16Qrels, dupRun, []string{"-m", "runid", "-m", "num_q", "qrels", "run"}, want)
	wantEval(t, dupQrels, issue16Run, []string{"-m", "runid", "-m", "num_q", "qrels", "run"}, want)
	if _, err := evalFiles(t, issue16Qrels, dupRun, "-m", "map", "qrels", "run"); err == nil {
		t.Error("a duplicate document with -m map was accepted (trec_eval: duplicate docs x, exit 4)")
	}
	if _, err := evalFiles(t, dupQrels, issue16Run, "-m", "num_q", "-m", "num_ret", "qrels", "run"); err == nil {
		t.Error("a duplicate judgment with -m num_ret was accepted (trec_eval: duplicate docs a1, exit 4)")
	}
}

// TestTrecEvalOptionValues: -R qrels and -T trec_results are the defaults;
// -l, -M and -N are read with atol; yaap is a measure of plain qrels.
// yaap by hand at -l 1 (from "1.5"): A has no relevant document retrieved,
// log(1/2); B has b1 at rank 2, S = 1/2, log(1.5/1.5) = 0.
func TestTrecEvalOptionValues(t *testing.T) {
	t.Parallel()
	wantEval(t, issue16Qrels, issue16Run, []string{"-R", "qrels", "-T", "trec_results", "-N", "-5", "-M", "1.5",
		"-m", "utility", "-m", "num_ret", "qrels", "run"},
		"num_ret               \tall\t2\nutility               \tall\t-1.0000\n")
	wantEval(t, issue16Qrels, issue16Run, []string{"-q", "-m", "yaap", "-l", "1.5", "qrels", "run"},
		"yaap                  \tA\t-0.6931\nyaap                  \tB\t0.0000\nyaap                  \tall\t-0.3466\n")
	wantEval(t, issue16Qrels, issue16Run, []string{"-m", "yaap", "-labc", "qrels", "run"},
		"yaap                  \tall\t-0.3466\n")
	c, err := ParseCommandLine([]string{"-l", "abc", "-M", "1.5", "-N", "-5", "-J", "q", "r"})
	if err != nil || c.RelLevel != 0 || c.MaxDocs != 1 || c.NumDocs != -5 || !c.JudgedOnly {
		t.Errorf("atol values: %+v, %v", c, err)
	}
	for _, bad := range [][]string{{"-R", "prefs", "q", "r"}, {"-R", "bogus", "q", "r"}, {"-T", "other", "q", "r"}, {"-M", "-1", "q", "r"}} {
		if _, err := ParseCommandLine(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestJudgedOnly: -J drops documents without a judgment after -M and
// before scoring: B keeps b1 (1) and b2 (0).
func TestJudgedOnly(t *testing.T) {
	t.Parallel()
	wantEval(t, issue16Qrels, issue16Run, []string{"-q", "-J", "-m", "num_ret", "-m", "relstring", "-m", "P.2", "qrels", "run"},
		"num_ret               \tA\t0\nP_2                   \tA\t0.0000\nrelstring             \tA\t''\n"+
			"num_ret               \tB\t2\nP_2                   \tB\t0.5000\nrelstring             \tB\t'10'\n"+
			"num_ret               \tall\t2\nP_2                   \tall\t0.2500\n")
}

// TestNaNScoreRanking: a NaN score is neither above nor below another, so
// trec_eval's comparator falls to the docnos (d11 > d0) and glibc's merge
// sort puts d11 first.
func TestNaNScoreRanking(t *testing.T) {
	t.Parallel()
	wantEval(t, "101 Q0 d0 1\n", "101 0 d0 4 1 run1\n101 q d11 0 -nan run2\n", []string{"-q", "-m", "relstring", "-m", "map", "qrels", "run"},
		"map                   \t101\t0.5000\nrelstring             \t101\t'-1'\nmap                   \tall\t0.5000\n")
}

// TestGlibcMsort: the merge order of glibc's msort_with_tmp on a
// comparator that is no order (NaN compares equal to everything here):
// hand-traced, [NaN 3 1 2] sorts halves [NaN 3] → [NaN 3] (NaN ≤ 3) and
// [1 2] → [1 2], then merges NaN, 1, 2, 3.
func TestGlibcMsort(t *testing.T) {
	t.Parallel()
	nan := negNaN
	s := []float64{nan, 3, 1, 2}
	glibcMsort(s, make([]float64, 0, len(s)), func(a, b *float64) int {
		switch {
		case *a < *b:
			return -1
		case *a > *b:
			return 1
		}
		return 0
	})
	if s[0] == s[0] || s[1] != 1 || s[2] != 2 || s[3] != 3 {
		t.Errorf("got %v, want [NaN 1 2 3]", s)
	}
}

// TestRBPUnjudgedLevels: rbp's gain table holds every level up to the
// highest judged one, judged or not; with rbp.2=-1 the unjudged level 1
// (gain 1) makes max = 1, so gains scale by (g + 1)/2 and the document
// judged 0 gains 0.5: (1 − 0.9)·0.5 = 0.05.
func TestRBPUnjudgedLevels(t *testing.T) {
	t.Parallel()
	wantEval(t, "10 Q0 2 0\n10 0 14 2\n", "10 Q0 2 7 0 r\n", []string{"-m", "rbp.2=-1", "qrels", "run"},
		"rbp_2=-1              \tall\t0.0500\n")
}
