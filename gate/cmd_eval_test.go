package gate

import (
	"strings"
	"testing"
)

// TestEvalTinyExample runs the README's first command on examples/tiny and
// checks values derived by hand from the files:
//   - run_a (baseline), topic 101 ranks keepers(2) coastal-maps(0) fog(1)
//     harbour-cafes(unjudged) history(1); R = 3, so
//     AP = (1/1 + 2/3 + 3/5)/3 = 0.7556 and P@5 = 3/5.
//   - run_c (keyword), topic 102 ties rye-bread and sourdough-starter at 12;
//     docno descending puts sourdough-starter (2) first, then rye-bread (1),
//     bakery-tours (unjudged): relstring '21-', AP = (1/1 + 2/2)/3 = 0.6667.
//     Topic 103 is missing: 0 under -c, an error (status 2) without it.
func TestEvalTinyExample(t *testing.T) {
	t.Parallel()
	status, out, errs := runMain(t, "eval", "-q", "-m", "map", "-m", "P.5", "-m", "ndcg_cut.5",
		"../examples/tiny/qrels.txt", "../examples/tiny/run_a.txt", "../examples/tiny/run_b.txt")
	if status != 0 {
		t.Fatalf("status %d: %s", status, errs)
	}
	for _, want := range []string{"map                   \t101\t0.7556\n", "P_5                   \t101\t0.6000\n"} {
		if !strings.HasPrefix(out, want) && !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\tall\t"); n != 6 {
		t.Errorf("%d summary lines, want 3 per run", n)
	}

	status, out, _ = runMain(t, "eval", "-q", "-c", "-m", "map", "-mrelstring", "../examples/tiny/qrels.txt", "../examples/tiny/run_c.txt")
	if status != 0 || !strings.Contains(out, "map                   \t102\t0.6667\nrelstring             \t102\t'21-'\n") ||
		!strings.Contains(out, "map                   \t103\t0.0000\n") {
		t.Errorf("status %d, output:\n%s", status, out)
	}

	status, _, errs = runMain(t, "eval", "-m", "map", "../examples/tiny/qrels.txt", "../examples/tiny/run_c.txt")
	if status != exitError || !strings.Contains(errs, "qrels.txt:10:") || strings.Count(errs, "\n") != 1 {
		t.Errorf("missing topic without -c: status %d, stderr %q", status, errs)
	}
}

func TestEvalUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"eval"}, {"eval", "-l"}, {"eval", "-m", "nope", "a", "b"}, {"eval", "-Z", "z", "a", "b"}} {
		status, _, errs := runMain(t, args...)
		if status != exitError || !strings.HasPrefix(errs, "riskgate: ") || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: status %d, stderr %q", args, status, errs)
		}
	}
	status, out, _ := runMain(t, "eval", "-h")
	if status != 0 || !strings.Contains(out, "usage: riskgate eval") {
		t.Errorf("-h: status %d, %q", status, out)
	}
	status, _, errs := runMain(t, "eval", "-m", "map", "../examples/tiny/qrels.txt", "no-such-run.txt")
	if status != exitError || !strings.Contains(errs, "no-such-run.txt") {
		t.Errorf("missing file: status %d, %q", status, errs)
	}
}
