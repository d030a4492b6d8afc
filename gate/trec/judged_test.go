package trec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// judgedLines reads the lines "name_or_prefix k \t topic \t value" of a
// trec_eval output for the measure named prefix+k: per cutoff, the topics
// in output order with their values.
func judgedLines(t *testing.T, out, prefix string) map[int64][]topicValue {
	t.Helper()
	got := map[int64][]topicValue{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || !strings.HasPrefix(f[0], prefix) {
			continue
		}
		k, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(f[0], prefix)), 10, 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		got[k] = append(got[k], topicValue{f[1], v})
	}
	return got
}

type topicValue struct {
	topic string
	value float64
}

// compareJudgedWithUnj checks judged@k against trec_eval's unj_k, topic by
// topic: the same topics in the same order, and per topic the judged count
// k·judged@k equal to k − u, where u = k·unj_k is the unjudged count; both
// counts are read back from the values printed to 4 decimals, which is
// exact for k < 5,000 (a printed value is within 5e-5 of the count over k).
// The "all" line, the mean, is compared with the mean of (k − u)/k over
// the topics to its printed precision (5e-5). It returns the number of values compared and a
// description of every difference.
func compareJudgedWithUnj(judged, unj map[int64][]topicValue) (int, []string) {
	var diffs []string
	n := 0
	for k, ref := range unj {
		got := judged[k]
		if len(got) != len(ref) {
			diffs = append(diffs, fmt.Sprintf("judged@%d: %d lines, unj_%d: %d", k, len(got), k, len(ref)))
			continue
		}
		sum, topics := 0.0, 0
		for i, r := range ref {
			g := got[i]
			n++
			if g.topic != r.topic {
				diffs = append(diffs, fmt.Sprintf("judged@%d line %d: topic %q, unj_%d's %q", k, i+1, g.topic, k, r.topic))
				continue
			}
			if r.topic == "all" {
				if mean := sum / float64(topics); math.Abs(g.value-mean) > 5e-5+1e-12 {
					diffs = append(diffs, fmt.Sprintf("judged@%d all = %v; the mean of 1 − unj_%d over the topics = %v", k, g.value, k, mean))
				}
				continue
			}
			u, judged := math.Round(r.value*float64(k)), math.Round(g.value*float64(k))
			sum += (float64(k) - u) / float64(k)
			topics++
			if judged != float64(k)-u {
				diffs = append(diffs, fmt.Sprintf("judged@%d topic %s = %v (%v judged); unj_%d = %v (%v unjudged)", k, r.topic, g.value, judged, k, r.value, u))
			}
		}
	}
	return n, diffs
}

// judged@k is 1 − unj_k on every dataset of ../shared/data/trec_eval:
// reference trec_eval v10's -q -c -m all_trec output (unj_5, unj_10,
// unj_20), topic by topic to the count (tolerance none), the mean to its
// printed 4 decimals.
func TestJudgedEqualsOneMinusUnjOnDatasets(t *testing.T) {
	t.Parallel()
	root := shared.Path(t, "data/trec_eval")
	files, err := filepath.Glob(filepath.Join(root, "*", "trec_eval", "*.all_trec.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no all_trec outputs under %s: %v", root, err)
	}
	total := 0
	for _, golden := range files {
		dataset := filepath.Dir(filepath.Dir(golden))
		run := strings.TrimSuffix(filepath.Base(golden), ".all_trec.txt")
		want := readFile(t, golden)
		got, err := evalCommand(t, dataset, []string{"-q", "-c", "-m", "judged@5", "-m", "judged@10", "-m", "Judged@20", "qrels.txt", filepath.Join("runs", run+".run")})
		if err != nil {
			t.Errorf("%s: %v", golden, err)
			continue
		}
		n, diffs := compareJudgedWithUnj(judgedLines(t, got, "judged@"), judgedLines(t, want, "unj_"))
		total += n
		if n == 0 {
			t.Errorf("%s: no unj lines compared", golden)
		}
		for _, d := range diffs {
			t.Errorf("%s: %s", golden, d)
		}
	}
	t.Logf("%d values of %d reference outputs compared", total, len(files))
}

// The differential test of judged@k against trec_eval v10's unj: the
// random qrels and runs of TestDifferentialTrecEval, with -q, and at
// random -c, -J, -l and -M, each evaluated by trec_eval with -m unj.K and
// by riskgate eval with -m judged@k for the same cutoffs K; reference
// trec_eval built from ../shared/tools/trec_eval; tolerance as
// compareJudgedWithUnj (per topic the count exactly). RISKGATE_DIFF_SEED and
// RISKGATE_DIFF_CASES as TestDifferentialTrecEval (default 500 cases).
func TestDifferentialJudged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds trec_eval (TestJudgedEqualsOneMinusUnjOnDatasets checks judged@k in -short)")
	}
	bin := buildTrecEval(t)
	seed := diffSeed(t)
	want := envInt(t, "RISKGATE_DIFF_CASES", 500)
	t.Logf("seed %d (RISKGATE_DIFF_SEED=%d reproduces this run), %d cases", seed, seed, want)
	d := &diffRunner{trecEval: bin, dir: t.TempDir()}
	r := rand.New(rand.NewPCG(seed, 0x6a75646765644b))
	skipped := map[string]int{}
	compared, values, mismatches := 0, 0, 0
	for compared < int(want) {
		c := genDiffCase(r)
		c.opts, c.optsAfterFiles = [][]string{{"-q"}}, 0
		if chance(r, 0.3) {
			c.opts = append(c.opts, []string{"-c"})
		}
		if chance(r, 0.2) {
			c.opts = append(c.opts, []string{"-J"})
		}
		if chance(r, 0.3) {
			c.opts = append(c.opts, []string{"-l", pick(r, "0", "2", "3", "-1")})
		}
		if chance(r, 0.3) {
			c.opts = append(c.opts, []string{"-M", pick(r, "1", "2", "3", "5", "10")})
		}
		cuts := []int64{pick[int64](r, 1, 2, 3), pick[int64](r, 5, 7, 10), pick[int64](r, 20, 160, 1000)}
		unj := c.clone()
		unj.opts = append(unj.opts, []string{"-m", fmt.Sprintf("unj.%d,%d,%d", cuts[0], cuts[1], cuts[2])})
		if why := knownTrecEvalBug(unj); why != "" {
			skipped[why]++
			continue
		}
		if why, stops := deliberateDifference(unj); stops {
			// The others (stale level counts) do not touch unj.
			skipped[why]++
			continue
		}
		ref, err := d.reference(unj)
		if err != nil {
			t.Fatal(err)
		}
		if ref.crashed != "" {
			skipped["trec_eval crashed ("+ref.crashed+")"]++
			continue
		}
		judged := c.clone()
		for _, k := range cuts {
			judged.opts = append(judged.opts, []string{"-m", "judged@" + strconv.FormatInt(k, 10)})
		}
		got, err := d.riskgate(judged)
		if err != nil {
			t.Fatal(err)
		}
		compared++
		var diffs []string
		if got.failed != ref.failed {
			diffs = append(diffs, fmt.Sprintf("riskgate %s, trec_eval %s", got.class(), ref.class()))
		}
		n, more := compareJudgedWithUnj(judgedLines(t, string(got.stdout), "judged@"), judgedLines(t, string(ref.stdout), "unj_"))
		values += n
		if diffs = append(diffs, more...); len(diffs) > 0 {
			mismatches++
			if mismatches <= 5 {
				t.Errorf("case (seed %d):\n%s\n%s", seed, unj, strings.Join(diffs, "\n"))
			}
		}
	}
	t.Logf("%d cases compared (%d values), %d differ; skipped: %s", compared, values, mismatches, countList(skipped))
	if mismatches > 0 {
		t.Errorf("%d of %d cases differ from trec_eval's unj (seed %d)", mismatches, compared, seed)
	}
}

// Under -c a topic the run lacks is 1: trec_eval clears its unj_k to 0.
func TestJudgedMissingTopicAndShortRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "qrels"), "1 0 a 1\n1 0 b 0\n2 0 a 1\n")
	writeFile(t, filepath.Join(dir, "run"), "1 Q0 a 1 3 r\n1 Q0 x 2 2 r\n1 Q0 b 3 1 r\n")
	out, err := evalCommand(t, dir, []string{"-q", "-c", "-m", "judged@2", "-m", "judged@5", "qrels", "run"})
	if err != nil {
		t.Fatal(err)
	}
	// Topic 1: a judged, x not, b judged; at 2 one of two ranks is
	// unjudged; at 5, one of five (ranks 4 and 5 are past the run's end).
	want := "judged@2              \t1\t0.5000\njudged@5              \t1\t0.8000\n" +
		"judged@2              \t2\t1.0000\njudged@5              \t2\t1.0000\n" +
		"judged@2              \tall\t0.7500\njudged@5              \tall\t0.9000\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
