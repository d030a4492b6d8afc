package trec

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// evalCommand runs a trec_eval command line (arguments as trec_eval takes
// them) with file arguments relative to dir, returning stdout and the error.
func evalCommand(t testing.TB, dir string, args []string) (string, error) {
	t.Helper()
	c, err := ParseCommandLine(args)
	if err != nil {
		return "", err
	}
	c.Qrels = filepath.Join(dir, c.Qrels)
	for i, r := range c.Runs {
		c.Runs[i] = filepath.Join(dir, r)
	}
	var out bytes.Buffer
	err = c.Execute(nil, &out, io.Discard)
	return out.String(), err
}

// diffFirst describes the first differing line of two outputs.
func diffFirst(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "identical"
}

// goldenCommands are the commands of ../shared/data/trec_eval/README.md §3
// that made each dataset's trec_eval/<run>.<suffix>.txt (v10).
var goldenCommands = map[string][]string{
	"all_trec":    {"-q", "-c", "-m", "all_trec"},
	"core":        {"-q", "-m", "ndcg_cut.5,10,20", "-m", "P.5,10,20", "-m", "map", "-m", "recip_rank", "-m", "Rprec", "-m", "bpref"},
	"core_l2":     {"-q", "-l", "2", "-m", "ndcg_cut.5,10,20", "-m", "P.5,10,20", "-m", "map", "-m", "recip_rank", "-m", "Rprec", "-m", "bpref"},
	"all_trec_l2": {"-q", "-c", "-l", "2", "-m", "all_trec"},
}

// TestGoldenDatasets reproduces every reference output of trec_eval v10 under
// ../shared/data/trec_eval/*/trec_eval/ byte for byte (tolerance: none).
func TestGoldenDatasets(t *testing.T) {
	t.Parallel()
	root := shared.Path(t, "data/trec_eval")
	files, err := filepath.Glob(filepath.Join(root, "*", "trec_eval", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files under %s: %v", root, err)
	}
	n := 0
	for _, golden := range files {
		base := filepath.Base(golden)
		if strings.HasSuffix(base, ".stderr.txt") {
			continue
		}
		dataset := filepath.Dir(filepath.Dir(golden))
		stem := strings.TrimSuffix(base, ".txt")
		dot := strings.LastIndex(stem, ".")
		runName, suffix := stem[:dot], stem[dot+1:]
		cmd, ok := goldenCommands[suffix]
		if !ok {
			t.Errorf("%s: no command known for suffix %q", golden, suffix)
			continue
		}
		n++
		t.Run(filepath.Base(dataset)+"/"+base, func(t *testing.T) {
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{}, cmd...), "qrels.txt", filepath.Join("runs", runName+".run"))
			got, runErr := evalCommand(t, dataset, args)
			stderrFile := strings.TrimSuffix(golden, ".txt") + ".stderr.txt"
			if _, statErr := os.Stat(stderrFile); statErr == nil {
				if runErr == nil {
					t.Errorf("trec_eval failed (%s) but riskgate eval succeeded", stderrFile)
				}
			} else if runErr != nil {
				t.Fatalf("unexpected error: %v", runErr)
			}
			if got != string(want) {
				t.Errorf("output differs from %s at %s", golden, diffFirst(got, string(want)))
			}
		})
	}
	if n < 20 {
		t.Errorf("only %d golden files found", n)
	}
}

// TestUpstreamQuicktest reproduces trec_eval's own "make quicktest" expected
// outputs (trec_eval_test/upstream_expected/out.*, commands in the README §3).
func TestUpstreamQuicktest(t *testing.T) {
	t.Parallel()
	root := shared.Path(t, "data/trec_eval")
	const (
		qrelsTest     = "trec_eval_test/qrels.txt"
		qrelsRelLevel = "trec_eval_test_rel_level/qrels.txt"
		resultsTest   = "trec_eval_test/runs/results.test.run"
		resultsTrunc  = "trec_eval_test/runs/results.trunc.run"
		withComments  = "trec_eval_test/extra_inputs/qrels.test.with-comments"
		ragQrels      = "trec_eval_test_rag24/qrels.txt"
		ragRun        = "trec_eval_test_rag24/runs/results.comment.test.run"
	)
	cases := []struct {
		out  string
		args []string
	}{
		{"out.test", []string{qrelsTest, resultsTest}},
		{"out.test.a", []string{"-m", "all_trec", qrelsTest, resultsTest}},
		{"out.test.aq", []string{"-m", "all_trec", "-q", qrelsTest, resultsTest}},
		{"out.test.aqc", []string{"-m", "all_trec", "-q", "-c", qrelsTest, resultsTrunc}},
		{"out.test.aqcM", []string{"-m", "all_trec", "-q", "-c", "-M100", qrelsTest, resultsTrunc}},
		{"out.test.aql", []string{"-m", "all_trec", "-mrelstring.20", "-q", "-l2", qrelsRelLevel, resultsTest}},
		{"out.test.meas_params", []string{"-q", "-miprec_at_recall..10,.20,.25,.75,.50", "-m", "P.5,7,3", "-m", "recall.20,2000",
			"-m", "Rprec_mult.5.0,0.2,0.35", "-mutility.2,-1,0,0", "-m", "11pt_avg..25,.5,.75", "-mndcg.1=3,2=9,4=4.5",
			"-mndcg_cut.10,20,23.4", "-msuccess.2,5,20", qrelsTest, resultsTest}},
		{"out.test", []string{withComments, resultsTest}},
		{"out.comment.test", []string{ragQrels, ragRun}},
	}
	for _, c := range cases {
		t.Run(c.out+" "+strings.Join(c.args[:len(c.args)-2], " "), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(root, "trec_eval_test/upstream_expected", c.out))
			if err != nil {
				t.Fatal(err)
			}
			got, err := evalCommand(t, root, c.args)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("differs from %s at %s", c.out, diffFirst(got, string(want)))
			}
		})
	}
}

// behaviourCase is one command of a behaviours/NN_*/output_trec_eval_v10.txt
// transcript.
type behaviourCase struct {
	args   []string
	stdout string
	status int
}

func parseTranscript(t *testing.T, path string) []behaviourCase {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []behaviourCase
	var cur *behaviourCase
	var out strings.Builder
	for _, line := range strings.SplitAfter(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "$ trec_eval "):
			cases = append(cases, behaviourCase{args: strings.Fields(strings.TrimPrefix(line, "$ trec_eval "))})
			cur = &cases[len(cases)-1]
			out.Reset()
		case strings.HasPrefix(line, "[stderr] "):
		case strings.HasPrefix(line, "[exit status "):
			if _, err := fmt.Sscanf(line, "[exit status %d]", &cur.status); err != nil {
				t.Fatalf("%s: %q: %v", path, line, err)
			}
			cur.stdout = out.String()
		case cur != nil:
			out.WriteString(line)
		}
	}
	return cases
}

// knownDivergence lists behaviour commands whose trec_eval output depends on
// uninitialised memory, with what riskgate prints instead and why.
var knownDivergence = map[string]string{
	// m_rbp.c reads min and max uninitialised; in this measure combination
	// the stack left max = 3, so rbp printed 0.1810/3. Every other command
	// (and every golden all_trec file) gives the correct 0.1810 that
	// riskgate prints (README §4.16).
	"16_rbp_uninitialized -q -m rbp -m rbp_resid -m unj -m utility -m binG -m G -m infAP -m gm_bpref qrels.txt run.txt": "rbp",
}

// TestBehaviours runs every hand-made case of behaviours/ and requires
// trec_eval v10's stdout and the same exit status class (0, or fatal).
func TestBehaviours(t *testing.T) {
	t.Parallel()
	root := shared.Path(t, "data/trec_eval/behaviours")
	dirs, err := filepath.Glob(filepath.Join(root, "[0-9]*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no behaviour cases: %v", err)
	}
	for _, dir := range dirs {
		for _, c := range parseTranscript(t, filepath.Join(dir, "output_trec_eval_v10.txt")) {
			key := filepath.Base(dir) + " " + strings.Join(c.args, " ")
			t.Run(key, func(t *testing.T) {
				got, err := evalCommand(t, dir, c.args)
				if (err != nil) != (c.status != 0) {
					t.Errorf("error %v, trec_eval exit status %d", err, c.status)
				}
				if measure, ok := knownDivergence[key]; ok {
					got, want := dropLines(got, measure), dropLines(c.stdout, measure)
					if got != want {
						t.Errorf("apart from %s: %s", measure, diffFirst(got, want))
					}
					return
				}
				if got != c.stdout {
					t.Errorf("stdout %s", diffFirst(got, c.stdout))
				}
			})
		}
	}
}

func dropLines(s, measure string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == measure {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// TestDeterministicAcrossGOMAXPROCS: several runs in one call (parsed
// concurrently with scoring) give the same bytes with 1 and 2 processors,
// and the same as the runs evaluated one call each.
func TestDeterministicAcrossGOMAXPROCS(t *testing.T) {
	dir := shared.Path(t, "data/trec_eval/robust03")
	args := []string{"-q", "-c", "-m", "all_trec", "qrels.txt", "runs/rutcor03100.run", "runs/NLPR03vb10.run", "runs/rutcor03100.run"}
	var outs []string
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		out, err := evalCommand(t, dir, args)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, out)
	}
	if outs[0] != outs[1] {
		t.Errorf("GOMAXPROCS 1 and 2 differ at %s", diffFirst(outs[0], outs[1]))
	}
	var want strings.Builder
	for _, run := range args[5:] {
		out, err := evalCommand(t, dir, append(append([]string{}, args[:4]...), "qrels.txt", run))
		if err != nil {
			t.Fatal(err)
		}
		want.WriteString(out)
	}
	if outs[0] != want.String() {
		t.Errorf("one call for three runs differs from three calls at %s", diffFirst(outs[0], want.String()))
	}
}
