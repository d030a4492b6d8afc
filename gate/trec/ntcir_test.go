package trec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/shared"
)

// NTCIREVAL's measures through riskgate eval: pyNTCIREVAL's sample (one
// topic, gate/ntcir/testdata/pyntcireval) written as TREC qrels and a run
// whose scores rank it as sample.res does, scored by eval's own entry point,
// print NTCIREVAL's published values at 4 decimals — plain (-g 1:2:3 and
// 1:4:9), at cutoff 2, and condensed with -J and with condensed=true.

const pyNTCIREVAL = "../ntcir/testdata/pyntcireval"

// sampleAsTREC writes sample.rel as qrels (L3 → level 3) and sample.res as
// a run with decreasing scores, and returns their paths.
func sampleAsTREC(t *testing.T) (qrels, run string) {
	t.Helper()
	dir := t.TempDir()
	read := func(name string) []string {
		b, err := os.ReadFile(filepath.Join(pyNTCIREVAL, name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Fields(strings.ReplaceAll(string(b), "\n", " \n "))
	}
	var q, r strings.Builder
	rel := read("sample.rel")
	for i := 0; i+1 < len(rel); i += 2 {
		fmt.Fprintf(&q, "q1 0 %s %s\n", rel[i], strings.TrimPrefix(rel[i+1], "L"))
	}
	for i, doc := range read("sample.res") {
		fmt.Fprintf(&r, "q1 Q0 %s %d %d sample\n", doc, i+1, 100-i)
	}
	qrels, run = filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
	if err := os.WriteFile(qrels, []byte(q.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(run, []byte(r.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return qrels, run
}

// ntcirOutput reads ntcir_eval compute's output as measure name (in the
// registry's spelling, NTCIREVAL's meaning) → printed value.
func ntcirOutput(t *testing.T, name string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(pyNTCIREVAL, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok || strings.HasPrefix(n, "#") {
			continue
		}
		c, err := CanonicalMeasure("ntcir:" + n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out[c] = strings.TrimSpace(v)
	}
	return out
}

// evalLines runs riskgate eval and returns its per-topic values of q1 by
// measure name.
func evalLines(t *testing.T, args ...string) map[string]string {
	t.Helper()
	cl, err := ParseCommandLine(args)
	if err != nil {
		t.Fatal(err)
	}
	var out, warn bytes.Buffer
	if err := cl.Execute(nil, &out, &warn); err != nil {
		t.Fatalf("eval %q: %v", args, err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 3 && f[1] == "q1" {
			got[strings.TrimSpace(f[0])] = f[2]
		}
	}
	return got
}

func TestEvalNTCIREVALReference(t *testing.T) {
	t.Parallel()
	qrels, run := sampleAsTREC(t)
	for _, c := range []struct {
		ref  string
		args []string
	}{
		{"res_test_compute.txt", []string{"-m", "ntcir", "-g", "1:2:3"}},
		{"res_test_compute_grade.txt", []string{"-m", "ntcir", "-g1:4:9"}},
		{"res_test_compute_cutoff.txt", []string{"-m", "ntcir", "-g", "1:2:3", "-m", "ntcir:AP@2", "-m", "Q@2", "-m", "ntcir:nDCG@2",
			"-m", "MSnDCG@2", "-m", "ntcir:P@2", "-m", "nERR@2", "-m", "Hit@2"}},
		{"res_test_compute_label_j.txt", []string{"-J", "-m", "ntcir", "-g", "1:2:3"}},
	} {
		want := ntcirOutput(t, c.ref)
		got := evalLines(t, append(append([]string{"-q"}, c.args...), qrels, run)...)
		for name, v := range want {
			if got[name] != v {
				t.Errorf("%s (eval %s): %s = %q, NTCIREVAL prints %s", c.ref, strings.Join(c.args, " "), name, got[name], v)
			}
		}
	}
	// condensed=true in the name is -J for that measure alone.
	want := ntcirOutput(t, "res_test_compute_label_j.txt")
	got := evalLines(t, "-q", "-m", "Q(condensed=true)", "-m", "nERR(condensed=true)@1000", "-m", "Q", qrels, run)
	if got["Q(condensed=true)"] != want["Q"] || got["nERR(condensed=true)@1000"] != want["nERR@1000"] || got["Q"] != "0.0967" {
		t.Errorf("condensed=true: %v; want Q %s, nERR@1000 %s (and plain Q 0.0967)", got, want["Q"], want["nERR@1000"])
	}
	// Gains in the name override -g; without either, each level's number.
	got = evalLines(t, "-q", "-m", "Q(gains=1:4:9)", "-m", "Q", "-g", "1:2:3", qrels, run)
	if got["Q(gains=1:4:9)"] != "0.0929" || got["Q"] != "0.0967" {
		t.Errorf("gains: %v", got)
	}
	if got := evalLines(t, "-q", "-m", "Q", qrels, run); got["Q"] != "0.0967" {
		t.Errorf("default gains (levels 1, 2, 3): Q = %s, want -g 1:2:3's 0.0967", got["Q"])
	}
}

// NTCIREVAL's measures that are trec_eval's under another name give
// trec_eval v10's printed values on real data: MSnDCG@k with each level's
// number as its gain is ndcg_cut_k, ntcir:AP is map, ntcir:RR recip_rank,
// ntcir:P@k P_k (robust03, graded qrels 0–2; trec_eval's outputs in
// ../shared). Two implementations written apart agree on 3 runs × 100
// topics.
func TestNTCIREVALMatchesTrecEval(t *testing.T) {
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03")
	pairs := map[string]string{"map": "ntcir:AP", "recip_rank": "ntcir:RR", "P_10": "ntcir:P@10", "P_5": "ntcir:P@5",
		"ndcg_cut_5": "MSnDCG@5", "ndcg_cut_10": "MSnDCG@10", "ndcg_cut_20": "MSnDCG@20"}
	for _, run := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		ref, err := os.ReadFile(filepath.Join(dir, "trec_eval", run+".core.txt"))
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"-q"}
		for _, nt := range pairs {
			args = append(args, "-m", nt)
		}
		cl, err := ParseCommandLine(append(args, filepath.Join(dir, "qrels.txt"), filepath.Join(dir, "runs", run+".run")))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := cl.Execute(nil, &out, nil); err != nil {
			t.Fatal(err)
		}
		ours := map[string]string{}
		for _, line := range strings.Split(out.String(), "\n") {
			if f := strings.Split(line, "\t"); len(f) == 3 {
				ours[strings.TrimSpace(f[0])+" "+f[1]] = f[2]
			}
		}
		n := 0
		for _, line := range strings.Split(string(ref), "\n") {
			f := strings.Split(line, "\t")
			if len(f) != 3 {
				continue
			}
			nt, ok := pairs[strings.TrimSpace(f[0])]
			if !ok {
				continue
			}
			n++
			if got := ours[nt+" "+f[1]]; got != strings.TrimSpace(f[2]) {
				t.Errorf("%s topic %s: %s = %s, trec_eval's %s = %s", run, f[1], nt, got, strings.TrimSpace(f[0]), f[2])
			}
		}
		if n < 7*50 {
			t.Errorf("%s: only %d values compared", run, n)
		}
	}
}

// Bad NTCIREVAL parameters on eval's command line: one line naming the
// parameter, a usage error (exit 2).
func TestEvalNTCIREVALBadParameters(t *testing.T) {
	t.Parallel()
	qrels, run := sampleAsTREC(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-g", "1:0:3"}, `option -g: gains "1:0:3": level 2's gain is 0`},
		{[]string{"-g", "1:x"}, `option -g: gains "1:x": level 2's gain "x" is not a number`},
		{[]string{"--gains=2:1"}, `option --gains: gains "2:1": level 2 gains 1, less than level 1's 2`},
		{[]string{"-m", "Q(beta=0)"}, "-m Q(beta=0): measure \"Q(beta=0)\": beta = 0; expected a number > 0"},
		{[]string{"-m", "RBP(p=1)"}, "persistence p = 1; expected 0 < p < 1"},
		{[]string{"-m", "nERR@0"}, `cutoff "0": 0 ranks measure nothing`},
		{[]string{"-m", "P@0"}, `cutoff "0"; expected a whole number ≥ 1`},
		{[]string{"-m", "nDCG(b=2)@10"}, "NTCIREVAL's measure of that name is ntcir:nDCG(b=2)@10"},
		{[]string{"-m", "ERR@20"}, "gdeval"},
		{[]string{"-m", "Judged@0"}, `cutoff "0"; expected a whole number ≥ 1 (as in judged@10)`},
		{[]string{"-m", "ntcir:nDGC@10"}, `did you mean "nDCG@10"?`},
		{[]string{"-m", "nERR"}, "nERR needs a cutoff"},
	} {
		args := append(append([]string{}, c.args...), "-m", "Q", qrels, run)
		cl, err := ParseCommandLine(args)
		if err == nil {
			err = cl.Execute(nil, &bytes.Buffer{}, nil)
		}
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("eval %q: %v; want a one-line usage error containing %q", c.args, err, c.want)
		}
	}
	// A qrels level the gains do not cover: the qrels line, not a usage error.
	cl, err := ParseCommandLine([]string{"-m", "Q", "-g", "1:2", qrels, run})
	if err != nil {
		t.Fatal(err)
	}
	err = cl.Execute(nil, &bytes.Buffer{}, nil)
	var ie *inputerr.Error
	if !errors.As(err, &ie) || ie.Line != 1 || !strings.Contains(err.Error(), "relevance level 3, but -g 1:2 gives gains to levels 1 to 2 only") {
		t.Errorf("level above -g: %v", err)
	}
	cl, _ = ParseCommandLine([]string{"-m", "Q(gains=1)", qrels, run})
	if err := cl.Execute(nil, &bytes.Buffer{}, nil); err == nil || !strings.Contains(err.Error(), "but Q(gains=1) gives gains to levels 1 to 1 only") {
		t.Errorf("level above the measure's gains: %v", err)
	}
}

// The registry: every spelling names one measure, printed one way.
func TestMeasureRegistry(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		// trec_eval's, unchanged
		"ndcg_cut.10": "ndcg_cut_10", "ndcg_cut_10": "ndcg_cut_10", "map": "map", "P.5": "P_5", "recall.100": "recall_100",
		// ir_measures' names of trec_eval measures
		"nDCG@10": "ndcg_cut_10", "nDCG": "ndcg", "AP": "map", "AP@10": "map_cut_10", "RR": "recip_rank", "P@5": "P_5",
		"R@100": "recall_100", "Success@1": "success_1", "Rprec": "Rprec", "Bpref": "bpref", "IPrec@0.1": "iprec_at_recall_0.10",
		"infAP": "infAP", "NumRet": "num_ret", "NumRel": "num_rel", "SetP": "set_P", "SetR": "set_recall", "SetF": "set_F",
		"SetAP": "set_map",
		// NTCIREVAL's
		"Q": "Q", "Q-measure": "Q", "P-plus": "P+", "nERR@10": "nERR@10", "nERR@0010": "nERR@10", "Hit@1": "Hit@1",
		"MSnDCG@10": "MSnDCG@10", "ntcir:nDCG@10": "ntcir:nDCG@10", "ntcir:AP@10": "ntcir:AP@10", "ntcir:RR": "ntcir:RR",
		"ntcir:AP": "ntcir:AP", "ntcir:P@5": "ntcir:P@5", "ntcir:Q": "Q", "ntcir:Hit@3": "Hit@3",
		"Q(beta=10)": "Q(beta=10)", "ntcir:nDCG(b=10)@5": "ntcir:nDCG(b=10)@5", "RBP(p=0.8)": "RBP(p=0.8)",
		"Q(condensed=true)": "Q(condensed=true)", "ntcir:AP(condensed=true)": "ntcir:AP(condensed=true)",
		// coverage: judged@k, and ir_measures' name of it
		"judged@10": "judged@10", "Judged@10": "judged@10", "Judged@0020": "judged@20",
	} {
		got, err := CanonicalMeasure(in)
		if err != nil || got != want {
			t.Errorf("CanonicalMeasure(%q) = %q, %v; want %q", in, got, err, want)
			continue
		}
		if again, err := CanonicalMeasure(got); again != got || err != nil {
			t.Errorf("CanonicalMeasure(%q) = %q, %v: not a fixed point", got, again, err)
		}
		if MeasureName(in) != want {
			t.Errorf("MeasureName(%q) = %q, want %q", in, MeasureName(in), want)
		}
		ms, err := MeasureForName(in)
		if err != nil || len(ms.list) != 1 || ms.list[0].names[0] != want {
			t.Errorf("MeasureForName(%q) = %v, %v; want the one value %s", in, ms, err, want)
		}
	}
	for in, want := range map[string]string{
		"nDGC@10":   `did you mean "nDCG@10"?`,
		"nERR@1O":   `cutoff "1O"`,
		"ERR@20":    "gdeval",
		"Judged":    "needs a cutoff",
		"judged@-1": `cutoff "-1"`,
		"NumQ":      "no per-topic value",
		"q":         `did you mean "Q"?`,
		"P@5(x)":    `cutoff "5(x)"`,
		"AP(rel=2)": "parameters are riskgate eval's options",
	} {
		if _, err := CanonicalMeasure(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CanonicalMeasure(%q): %v; want an error containing %q", in, err, want)
		}
	}
	// eval -m: ir_measures' cutoffs of one family combine; NTCIREVAL's
	// measures follow trec_eval's in the order given, once each.
	ms, err := ParseMeasures([]string{"P@10", "nERR@10", "P@5", "map", "Q", "nERR@0010", "P@5"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms.list {
		names = append(names, m.names...)
	}
	if got := strings.Join(names, " "); got != "map P_5 P_10 nERR@10 Q" {
		t.Errorf("-m P@10 nERR@10 P@5 map Q nERR@0010 P@5 prints %s", got)
	}
}
