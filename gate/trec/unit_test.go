package trec

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// TestAtof: C atof semantics, from behaviours/09_score_parsing and glibc's
// strtod grammar.
func TestAtof(t *testing.T) {
	t.Parallel()
	cases := map[string]float64{
		"99": 99, "1e2": 100, "0x10": 16, "5abc": 5, "abc": 0, "-1": -1, "+50.5": 50.5,
		".25e1": 2.5, "1.": 1, "-.5": -0.5, "1e": 1, "1e+": 1, "2e-1x": 0.2, "0x": 0, "0x1p-2": 0.25,
		"0x.8": 0.5, "0xAp1": 20, "": 0, "-": 0, ".": 0, "1e400": math.Inf(1), "-1e400": math.Inf(-1),
		"1e-400": 0, "0.50000000001": 0.50000000001, "  7": 7, "12.3456": 12.3456,
		"123456789012345678901234567890": 123456789012345678901234567890.0,
	}
	for s, want := range cases {
		if got := atof([]byte(s)); got != want {
			t.Errorf("atof(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"inf", "INF", "infinity", "+Inf"} {
		if got := atof([]byte(s)); !math.IsInf(got, 1) {
			t.Errorf("atof(%q) = %v", s, got)
		}
	}
	if got := atof([]byte("nan")); !math.IsNaN(got) {
		t.Errorf("atof(nan) = %v", got)
	}
	if got := atof([]byte("-0")); !math.Signbit(got) {
		t.Error("atof(-0) lost the sign")
	}
}

func TestAtol(t *testing.T) {
	t.Parallel()
	cases := map[string]int64{"1.9": 1, "2abc": 2, "abc": 0, "-1": -1, " +7": 7, "99999999999999999999": math.MaxInt64,
		"-99999999999999999999": math.MinInt64, "": 0}
	for s, want := range cases {
		if got := atol([]byte(s)); got != want {
			t.Errorf("atol(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestFormat: printf("%6.4f") as glibc prints it. Go's strconv agreed with
// glibc on 2,000,000 doubles (random bit patterns and exact ties) when this
// was written; these are the cases that matter most.
func TestFormat(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v    float64
		want string
	}{
		{0.03125, "0.0312"}, {0.03135, "0.0314"}, {0.00005, "0.0001"}, {-369, "-369.0000"},
		{math.Copysign(0, -1), "-0.0000"}, {1, "1.0000"}, {math.Inf(1), "   inf"}, {math.Inf(-1), "  -inf"},
		{math.NaN(), "   nan"}, {math.Copysign(math.NaN(), -1), "  -nan"}, {12345.6789, "12345.6789"},
	}
	for _, c := range cases {
		if got := string(appendC6_4f(nil, c.v)); got != c.want {
			t.Errorf("%v: %q, want %q", c.v, got, c.want)
		}
	}
	// The fast path agrees with strconv's exact rounding (expected:
	// appendC6_4fExact) on random values, on the ties k/10⁴ + 1/(2·10⁴) and
	// on the doubles a few ulps either side of them.
	r := rand.New(rand.NewPCG(20, 3))
	var got, want []byte // reused: 2 million values, no allocation each
	check := func(v float64) {
		got, want = appendC6_4f(got[:0], v), appendC6_4fExact(want[:0], v)
		if !bytes.Equal(got, want) {
			t.Fatalf("%v (%x): %q, want %q", v, math.Float64bits(v), got, want)
		}
	}
	for range 200000 {
		check(r.Float64())
		check(-r.Float64() * 100)
		check(math.Float64frombits(r.Uint64()))
		tie := (float64(r.IntN(1e7)) + 0.5) / 1e4
		if r.IntN(2) == 0 {
			tie = (float64(r.IntN(1e13)) + 0.5) / 1e4
		}
		for k := -3; k <= 3; k++ {
			check(math.Float64frombits(uint64(int64(math.Float64bits(tie)) + int64(k))))
		}
	}
	if got := string(appendName(nil, "a_name_longer_than_22_chars", "q")); got != "a_name_longer_than_22_chars\tq\t" {
		t.Errorf("long name: %q", got)
	}
}

func TestParseCommandLine(t *testing.T) {
	t.Parallel()
	c, err := ParseCommandLine([]string{"-qc", "-l2", "-M", "100", "-mP.5,10", "-m", "map", "qrels", "run1", "-n", "run2", "--measure=ndcg", "--level_for", "3", "--", "-odd"})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Query || !c.Complete || !c.NoSummary || c.RelLevel != 3 || c.MaxDocs != 100 ||
		strings.Join(c.Measures, " ") != "P.5,10 map ndcg" || c.Qrels != "qrels" || strings.Join(c.Runs, " ") != "run1 run2 -odd" {
		t.Errorf("%+v", c)
	}
	for _, bad := range [][]string{
		{"qrels"}, {"-R", "prefs", "q", "r"}, {"-M", "-1", "q", "r"}, {"-T", "x", "q", "r"}, {"-Z", "z", "q", "r"},
		{"-x", "q", "r"}, {"--bogus", "q", "r"}, {"-m"}, {"q", "-", "-"}, {"--nosummary=1", "q", "r"},
	} {
		_, err := ParseCommandLine(bad)
		var ue *UsageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: want a usage error, got %v", bad, err)
		}
	}
	if c, err := ParseCommandLine([]string{"--help"}); err != nil || !c.Help {
		t.Errorf("--help: %v %v", c, err)
	}
}

// TestMeasureNames: the printed names of parameterised measures, as in
// trec_eval's out.test.meas_params and README §3.
func TestMeasureNames(t *testing.T) {
	t.Parallel()
	ms, err := ParseMeasures([]string{"-m", "Rprec_mult.5.0,0.2,0.35", "ndcg_cut.10,20,23.4", "P.10,5", "utility.2,-1,0,0",
		"ndcg.1=0.5,2=10,3=1", "set_F.0.5", "iprec_at_recall.123456.789", "P.7", "relstring.20"}[1:])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms.List() {
		got = append(got, m.Names()...)
	}
	want := "iprec_at_recall_123456.7 P_5 P_10 relstring_20 Rprec_mult_0.20 Rprec_mult_0.35 Rprec_mult_5.00 " +
		"utility_2,-1,0,0 ndcg_1=0.5,2=10,3=1 ndcg_cut_10 ndcg_cut_20 ndcg_cut_23 set_F_0.5"
	if strings.Join(got, " ") != want {
		t.Errorf("names\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, bad := range []string{"P.", "P.0", "P.5,5", "bogus", "ndcg.1=2,3", "ndcg.1=2=3", "utility.1,2", "prefs_simp", "map_avgjg", "Rprec_mult.nan"} {
		if _, err := ParseMeasures([]string{bad}); err == nil {
			t.Errorf("-m %s accepted", bad)
		}
	}
	for name, fam := range map[string]string{"map": "map", "": "map", "P_7": "P", "ndcg_cut_10": "ndcg_cut",
		"iprec_at_recall_0.10": "iprec_at_recall", "Rprec_mult_0.20": "Rprec_mult", "Rprec": "Rprec",
		"rbp_resid": "rbp_resid", "utility_2,-1,0,0": "utility", "map_cut_5": "map_cut", "unj_5": "unj", "set_F": "set_F"} {
		ms, err := MeasureForName(name)
		if err != nil || len(ms.List()) != 1 || ms.List()[0].Name() != fam {
			t.Errorf("MeasureForName(%q): %v, %v", name, ms, err)
		}
	}
	for _, bad := range []string{"gm_map", "runid", "relstring", "num_q", "P_0", "nope", "ndcg_cut_x"} {
		if _, err := MeasureForName(bad); err == nil {
			t.Errorf("MeasureForName(%q) accepted", bad)
		}
	}
}

// TestGainSortBug: trec_eval's gain comparator truncates gain differences to
// int, so with gains 0.5, 10, 1 for levels 1, 2, 3 the ideal ranking stops
// before the 0.5 gain: ndcg = 1/(10 + 1/log2 3) = 0.0941 instead of 0.0919
// (README §4.14, behaviours/14_ndcg_gains).
func TestGainSortBug(t *testing.T) {
	t.Parallel()
	r := &ranking{levels: []levelCount{{0, 1}, {1, 1}, {2, 1}, {3, 1}}, numRelLevels: 4}
	g := setupGains([]gainPair{{"1", 0.5}, {"2", 10}, {"3", 1}}, r, nil)
	var order []float64
	for _, x := range g {
		order = append(order, x.gain)
	}
	if want := []float64{0.5, 0, 1, 10}; !equalFloats(order, want) {
		t.Errorf("gain order %v, want glibc merge sort's %v", order, want)
	}
	r.rel = []int32{1, 0, 3}
	var out [1]float64
	calcNDCG(r, &Measure{pairs: []gainPair{{"1", 0.5}, {"2", 10}, {"3", 1}}}, out[:])
	if want := 1 / (10 + 1/math.Log2(3)); math.Abs(out[0]-want) > 1e-15 {
		t.Errorf("ndcg %v, want %v", out[0], want)
	}
	// Integer gains sort properly: ndcg.1=2,2=10,3=1 gives 0.2126.
	calcNDCG(r, &Measure{pairs: []gainPair{{"1", 2}, {"2", 10}, {"3", 1}}}, out[:])
	if want := (2 + 1/math.Log2(4)) / (10 + 2/math.Log2(3) + 1/math.Log2(4)); math.Abs(out[0]-want) > 1e-15 {
		t.Errorf("integer gains: ndcg %v, want %v", out[0], want)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestInputErrors: every bad input is one *inputerr.Error naming file:line.
func TestInputErrors(t *testing.T) {
	t.Parallel()
	q, err := ReadQrels(strings.NewReader("q1 0 a 1\nq1 0 b 0\nq2 0 a 1\n"), "qrels.txt")
	if err != nil {
		t.Fatal(err)
	}
	dupQ, _ := ReadQrels(strings.NewReader("q1 0 a 1\nq1 0 b 0\nq1 0 a 0\n"), "dup.qrels")
	ms, _ := ParseMeasures([]string{"map"})
	cases := []struct {
		name, text string
		qrels      bool
		q          *Qrels
		missing    MissingTopics
		prefix     string
	}{
		{"short run line", "q1 Q0 a 1 2 r\n\nq1 Q0 b 2 1\n", false, q, MissingZero, "run.txt:3: 5 fields"},
		{"empty run", "", false, q, MissingZero, "run.txt: empty run file"},
		{"comments only", "# x\n\n", false, q, MissingZero, "run.txt:2: no run lines"},
		{"duplicate doc", "q1 Q0 a 1 2 r\nq1 Q0 b 2 1 r\nq1 Q0 a 3 0 r\n", false, q, MissingZero, "run.txt:3: document \"a\" retrieved twice"},
		{"no common topic", "q7 Q0 a 1 2 r\n", false, q, MissingFail, "run.txt:1: no topic of the run"},
		{"missing topic", "q1 Q0 a 1 2 r\n", false, q, MissingFail, "qrels.txt:3: topic \"q2\" has judgments"},
		{"qrels duplicate", "q1 Q0 a 1 2 r\n", false, dupQ, MissingZero, "dup.qrels:3: document \"a\" judged twice"},
		{"qrels 3 fields", "q1 0 a 1\nq1 0 b\n", true, nil, 0, "qrels.txt:2: 3 fields"},
		{"qrels 5 fields", "q1 0 a 1 x\n", true, nil, 0, "qrels.txt:1: 5 fields"},
		{"qrels blank", "q1 0 a 1\n\n", true, nil, 0, "qrels.txt:2: blank line"},
		{"qrels empty", "", true, nil, 0, "qrels.txt: empty qrels"},
		{"qrels comment only", "# x\n", true, nil, 0, "qrels.txt:1: no judgments"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.qrels {
				_, err = ReadQrels(strings.NewReader(c.text), "qrels.txt")
			} else {
				var run *Run
				run, err = ReadRun(strings.NewReader(c.text), "run.txt")
				if err == nil {
					opt := DefaultOptions()
					opt.Missing = c.missing
					_, err = NewEvaluator(c.q, ms, opt).Evaluate(run, nil)
				}
			}
			var ie *inputerr.Error
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), c.prefix) {
				t.Errorf("got %v, want an input error starting %q", err, c.prefix)
			}
		})
	}
}

// TestLongLine: lines longer than the read buffer parse like others.
func TestLongLine(t *testing.T) {
	t.Parallel()
	doc := strings.Repeat("d", 200000)
	run, err := ReadRun(strings.NewReader("q1 Q0 "+doc+" 1 2 r\nq1 Q0 e 1 1 r"), "run")
	if err != nil || run.Lines != 2 || string(run.segs[0].docnos.at(run.segs[0].all[0].doc)) != doc {
		t.Fatalf("%v %v", run, err)
	}
}

func TestCountLevels(t *testing.T) {
	t.Parallel()
	var js []judgment
	for i := 0; i < 300; i++ {
		js = append(js, judgment{rel: int32(i % 150)}, judgment{rel: -1})
	}
	got := countLevels(js)
	if len(got) != 150 {
		t.Fatalf("%d levels", len(got))
	}
	for i, lc := range got {
		if lc.level != int64(i) || lc.count != 2 {
			t.Fatalf("level %d: %+v", i, lc)
		}
	}
}

// TestInterleavedTopics: a run whose topics alternate scores like the same
// lines grouped by topic (trec_eval ignores line order).
func TestInterleavedTopics(t *testing.T) {
	t.Parallel()
	q, _ := ReadQrels(strings.NewReader("q1 0 a 1\nq1 0 c 1\nq2 0 b 1\n"), "qrels")
	ms, _ := ParseMeasures([]string{"all_trec"})
	out := func(text string) string {
		run, err := ReadRun(strings.NewReader(text), "run")
		if err != nil {
			t.Fatal(err)
		}
		var b []byte
		s, err := NewEvaluator(q, ms, DefaultOptions()).Evaluate(run, func(tr *TopicResult) error {
			b = AppendTopic(b, ms, tr)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(AppendSummary(b, ms, s))
	}
	grouped := out("q1 Q0 a 1 1 r\nq1 Q0 x 1 2 r\nq1 Q0 c 1 0 r\nq2 Q0 y 1 3 r\nq2 Q0 b 1 2 r\n")
	mixed := out("q1 Q0 c 1 0 r\nq2 Q0 b 1 2 r\nq1 Q0 a 1 1 r\nq2 Q0 y 1 3 r\nq1 Q0 x 1 2 r\n")
	if grouped != mixed {
		t.Errorf("interleaved run scores differently: %s", diffFirst(mixed, grouped))
	}
	if !strings.Contains(grouped, "relstring             \tq1\t'-11'") {
		t.Errorf("unexpected ranking:\n%s", grouped)
	}
}
