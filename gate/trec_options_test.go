package gate

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/internal/shared"
	"github.com/urfave/cli/v3"
)

// gateTables resolves riskgate gate's command line args as the gate does
// (flags, policy, loadRuleMeasures) and returns the score tables it would
// decide on, and its replay command.
func gateTables(t *testing.T, args ...string) (engine.Tables, string) {
	t.Helper()
	var out, errw bytes.Buffer
	s := &streams{In: strings.NewReader(""), Out: &out, Err: &errw}
	var tables engine.Tables
	var replay string
	cmd := newGateCommand(s, testDeps(), func(ctx context.Context, o *gateOptions) error {
		g, err := o.resolve(ctx, s, 1<<40)
		if err != nil {
			return err
		}
		tables, replay = g.tables, o.replayCommand(g.policy)
		return nil
	})
	cmd.ExitErrHandler = func(context.Context, *cli.Command, error) {}
	if err := cmd.Run(context.Background(), append([]string{"gate"}, args...)); err != nil {
		t.Fatalf("gate %s: %v\n%s", strings.Join(args, " "), err, errw.String())
	}
	return tables, replay
}

// evalPerTopic runs riskgate eval -q with args (one run last) and returns
// its per-topic values: measure → topic → value.
func evalPerTopic(t *testing.T, args ...string) map[string]map[string]float64 {
	t.Helper()
	code, out, errw := runMain(t, append([]string{"eval", "-q"}, args...)...)
	if code != 0 {
		t.Fatalf("eval %s: exit %d: %s", strings.Join(args, " "), code, errw)
	}
	got := map[string]map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("eval line %q", line)
		}
		m, topic := strings.TrimSpace(f[0]), f[1]
		if topic == "all" {
			continue
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("eval line %q: %v", line, err)
		}
		if got[m] == nil {
			got[m] = map[string]float64{}
		}
		got[m][topic] = v
	}
	return got
}

// The gate scores runs with trec_eval's -l, -J and -M as riskgate eval does
// (issue 28): on robust03's three runs, every per-topic score of map (the
// default measure) and ndcg_cut.10 (a rule's) that the gate decides on
// equals riskgate eval -q's with the same option (reference: riskgate eval,
// byte-compatible with trec_eval v10; tolerance 5e-5, eval printing 4
// decimals), each option changes some score (the test could fail), and the
// replay command names it.
func TestGateTrecOptionsScoreAsEval(t *testing.T) {
	t.Parallel()
	base := shared.Path(t, "data/trec_eval/robust03")
	qrels := filepath.Join(base, "qrels.txt")
	var runs []string
	for _, run := range []string{"NLPR03vb10", "pircRBa1", "rutcor03100"} {
		runs = append(runs, filepath.Join(base, "runs", run+".run"))
	}
	policy := filepath.Join(robust03Measures, "policy.yaml")
	gate := func(opts ...string) (engine.Tables, string) {
		args := append([]string{"--policy", policy, "--qrels", qrels}, opts...)
		return gateTables(t, append(args, runs...)...)
	}
	plain, _ := gate()
	options := [][]string{{"-J"}, {"-l", "2"}, {"-M", "100"}}
	if testing.Short() {
		options = options[:1] // each option scores robust03's runs twice more (a second)
	}
	for _, opts := range options {
		tables, replay := gate(opts...)
		if !strings.Contains(replay, " "+strings.Join(opts, " ")+" ") {
			t.Errorf("%v: the replay command %q does not name the option", opts, replay)
		}
		want := map[string]map[string]map[string]float64{} // run → measure → topic → value
		for _, run := range runs {
			name := strings.TrimSuffix(filepath.Base(run), ".run")
			want[name] = evalPerTopic(t, append(append([]string{"-m", "map", "-m", "ndcg_cut.10", "-m", "recall.1000"}, opts...), qrels, run)...)
		}
		changed := 0
		for k, tab := range tables {
			measure := strings.ReplaceAll(tab.Measure, ".", "_") // trec_eval prints ndcg_cut.10 as ndcg_cut_10
			cells := 0
			for i, sys := range tab.Systems {
				for j, topic := range tab.Topics {
					v, ok := want[sys][measure][topic]
					if !ok {
						t.Errorf("%v %s %s %s: no eval value", opts, sys, measure, topic)
						continue
					}
					cells++
					if got := tab.Scores[i][j]; math.Abs(got-v) > 5e-5 || math.IsNaN(got) {
						t.Errorf("%v %s %s topic %s: gate %v, eval %v", opts, sys, measure, topic, got, v)
					}
					if tab.Scores[i][j] != plain[k].Scores[i][j] {
						changed++
					}
				}
			}
			if cells != 3*len(want[tab.Systems[0]][measure]) || cells == 0 {
				t.Errorf("%v %s: %d cells compared, eval has %d topics per run", opts, measure, cells, len(want[tab.Systems[0]][measure]))
			}
		}
		if changed == 0 {
			t.Errorf("%v: no score differs from the gate's without the option", opts)
		}
		t.Logf("%v: %d cells of 3 measures differ from the default scoring", opts, changed)
	}
}

// -l, -J and -M score runs: given with score files, or with a pool add that
// could not record them, they are refused (exit 2, one line).
func TestTrecOptionsRefusedWithoutRuns(t *testing.T) {
	t.Parallel()
	csv := writeTemp(t, "scores.csv", "system,topic,score\na,1,0.5\nb,1,0.4\na,2,0.3\nb,2,0.2\n")
	code, out, errw := runMain(t, "compare", "--champion", "b", "--challenger", "a", "-J", csv)
	checkOneLineError(t, code, out, errw, "-l, -J, -M and --judgments score TREC runs against qrels, and no input is a run")
	code, out, errw = runMain(t, "compare", "--champion", "b", "--challenger", "a", "-M", "-1", csv)
	checkOneLineError(t, code, out, errw, "-M (--Max_retrieved_per_topic) -1 is below 0")
	code, out, errw = runMain(t, "pool", "add", "--pool", filepath.Join(t.TempDir(), "pool"), "-l", "2", csv)
	checkOneLineError(t, code, out, errw, "-l, -J, -M and --judgments (which a pool does not record) are refused")
}
