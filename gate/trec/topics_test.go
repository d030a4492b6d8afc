package trec

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/shared"
)

// Rank and TopicScorer give every per-topic measure the value Evaluate
// gives it (reference: Evaluate, itself trec_eval v10 byte for byte and
// NTCIREVAL at 4 decimals; tolerance none, bit for bit) on robust03's runs
// under trec_eval's default options, -J, -M 50 and -l 2: every per-topic
// value of -m all_trec, judged@10 and NTCIREVAL's measures. -short checks
// one run under the default options and -J.
func TestTopicScorerEqualsEvaluate(t *testing.T) {
	t.Parallel()
	dir := shared.Path(t, "data/trec_eval/robust03")
	q, err := ReadQrelsFile(filepath.Join(dir, "qrels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Split(perTopicNames(), ", ")
	names = append(names, "judged@10", "Q", "P+", "nERR@10", "ntcir:nDCG@10", "RBP", "ntcir:AP(condensed=true)@10")
	runs := []string{"NLPR03vb10", "pircRBa1", "rutcor03100"}
	opts := map[string]Options{"default": DefaultOptions(), "-J": {RelLevel: 1, MaxDocs: math.MaxInt64, JudgedOnly: true},
		"-M 50": {RelLevel: 1, MaxDocs: 50}, "-l 2": {RelLevel: 2, MaxDocs: math.MaxInt64}}
	if testing.Short() {
		runs = runs[:1]
		delete(opts, "-M 50")
		delete(opts, "-l 2")
	}
	compared := 0
	for _, name := range runs {
		run, err := ReadRunFile(filepath.Join(dir, "runs", name+".run"), nil)
		if err != nil {
			t.Fatal(err)
		}
		for label, opt := range opts {
			ms, err := ParseMeasures(append([]string{"all_trec"}, names[len(names)-7:]...))
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][]float64{} // topic → values
			opt.Missing = MissingSkip
			if _, err := NewEvaluator(q, ms, opt).Evaluate(run, func(tr *TopicResult) error {
				want[tr.Topic] = slices.Clone(tr.Values)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			lists, err := Rank(run, q, opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(lists) != len(want) {
				t.Fatalf("%s %s: Rank gives %d topics, Evaluate %d", name, label, len(lists), len(want))
			}
			for _, measure := range names {
				s, err := NewTopicScorer(q, measure, opt)
				if err != nil {
					t.Fatal(err)
				}
				for _, tl := range lists {
					got := s.Score(tl.Labels, q.Levels(tl.Topic))
					w, _ := (&TopicResult{Values: want[tl.Topic]}).Value(ms, s.Measure())
					if math.Float64bits(got) != math.Float64bits(w) {
						t.Errorf("%s %s topic %s %s: TopicScorer %v, Evaluate %v", name, label, tl.Topic, measure, got, w)
					}
					compared++
				}
			}
		}
	}
	t.Logf("%d values compared", compared)
}

// Rank's lists: trec_eval's order (score descending, ties by docno
// descending), -M, and each document's label.
func TestRank(t *testing.T) {
	t.Parallel()
	q := mustQrels(t, "1 0 a 2\n1 0 b 0\n1 0 c -1\n2 0 a 1\n3 0 z 1\n")
	run := mustRun(t, "1 Q0 b 1 5 r\n1 Q0 x 2 7 r\n1 Q0 a 3 5 r\n1 Q0 c 4 1 r\n2 Q0 a 1 1 r\n9 Q0 a 1 1 r\n")
	opt := DefaultOptions()
	opt.JudgedOnly = true // ignored
	lists, err := Rank(run, q, opt)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(lists)
	want := "[{1 [x b a c] [-1 0 2 -2] 1} {2 [a] [1] 5}]"
	if got != want {
		t.Errorf("Rank = %s, want %s", got, want)
	}
	opt.MaxDocs = 2
	lists, _ = Rank(run, q, opt)
	if got := fmt.Sprint(lists[0].Docs, lists[0].Labels); got != "[x b] [-1 0]" {
		t.Errorf("-M 2: %s", got)
	}
	if _, err := Rank(mustRun(t, "7 Q0 a 1 1 r\n"), q, DefaultOptions()); err == nil || !strings.Contains(err.Error(), "no topic of the run is in the qrels") {
		t.Errorf("no common topic: %v", err)
	}
	if lv := fmt.Sprint(q.Levels("1"), q.Levels("none"), q.MaxLevel(), q.HasTopic("3"), q.HasTopic("4")); lv != "[{0 1} {2 1}] [] 2 true false" {
		t.Errorf("Levels, MaxLevel, HasTopic: %s", lv)
	}
}

// What a scorer says of its measure: the depth it reads, the lowest
// relevant level, whether it reads levels at all, and condensing.
func TestTopicScorerMeasureFacts(t *testing.T) {
	t.Parallel()
	q := mustQrels(t, "1 0 a 2\n")
	opt := DefaultOptions()
	opt.RelLevel = 2
	for _, c := range []struct {
		name      string
		depth     int64
		lowest    int64
		relevance bool
		condensed bool
	}{
		{"ndcg_cut.10", 10, 2, true, false}, {"P@5", 5, 2, true, false}, {"map", 0, 2, true, false},
		{"nERR@20", 20, 1, true, false}, {"Q", 0, 1, true, false}, {"Q(condensed=true)", 0, 1, true, true},
		{"judged@10", 10, 2, false, false}, {"unj.5", 5, 2, false, false}, {"num_ret", 0, 2, false, false},
		{"bpref", 0, 2, true, false},
	} {
		s, err := NewTopicScorer(q, c.name, opt)
		if err != nil {
			t.Fatal(err)
		}
		if s.Depth() != c.depth || s.LowestRelevantLevel() != c.lowest || s.ReadsRelevance() != c.relevance || s.Condensed() != c.condensed {
			t.Errorf("%s: depth %d, lowest %d, relevance %v, condensed %v; want %+v", c.name, s.Depth(), s.LowestRelevantLevel(), s.ReadsRelevance(), s.Condensed(), c)
		}
	}
	if _, err := NewTopicScorer(q, "gm_map", opt); err == nil {
		t.Error("gm_map has no per-topic value, yet a scorer was made")
	}
}

// Qrels.With: a judgment replaces every judgment of its document and
// topic, a later one an earlier one, a new topic is added; the merged
// qrels evaluate as the qrels file written out with those judgments
// (reference: ReadQrels of that file; tolerance none).
func TestQrelsWith(t *testing.T) {
	t.Parallel()
	q := mustQrels(t, "1 0 a 1\n1 0 b 0\n1 0 b 2\n2 0 a 0\n")
	merged, err := q.With("merged", []Judgment{
		{Topic: "1", Doc: "b", Level: 1, Line: 3}, {Topic: "1", Doc: "c", Level: 0, Line: 4},
		{Topic: "1", Doc: "c", Level: 2, Line: 5}, {Topic: "0", Doc: "x", Level: 3, Line: 6},
	})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, j := range merged.Judgments() {
		lines = append(lines, fmt.Sprintf("%s 0 %s %d", j.Topic, j.Doc, j.Level))
	}
	if got := strings.Join(lines, "; "); got != "0 0 x 3; 1 0 a 1; 1 0 b 1; 1 0 c 2; 2 0 a 0" {
		t.Errorf("merged judgments: %s", got)
	}
	if len(q.Judgments()) != 4 || q.NumJudgments() != 4 {
		t.Errorf("With changed q: %v", q.Judgments())
	}
	want := mustQrels(t, strings.Join(lines, "\n")+"\n")
	run := mustRun(t, "1 Q0 c 1 5 r\n1 Q0 b 2 4 r\n1 Q0 a 3 3 r\n0 Q0 x 1 1 r\n2 Q0 a 1 1 r\n")
	for _, qr := range []*Qrels{merged, want} {
		ms, _ := ParseMeasures([]string{"all_trec", "Q"})
		var b strings.Builder
		opt := DefaultOptions()
		opt.Missing = MissingZero
		s, err := NewEvaluator(qr, ms, opt).Evaluate(run, func(tr *TopicResult) error {
			b.Write(AppendTopic(nil, ms, tr))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(AppendSummary(nil, ms, s))
		lines = append(lines, b.String())
	}
	if got, want := lines[len(lines)-2], lines[len(lines)-1]; got != want {
		t.Errorf("merged qrels evaluate differently from the written file: %s", diffFirst(got, want))
	}
}

func mustQrels(t *testing.T, text string) *Qrels {
	t.Helper()
	q, err := ReadQrels(strings.NewReader(text), "qrels")
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func mustRun(t *testing.T, text string) *Run {
	t.Helper()
	r, err := ReadRun(strings.NewReader(text), "run")
	if err != nil {
		t.Fatal(err)
	}
	return r
}
