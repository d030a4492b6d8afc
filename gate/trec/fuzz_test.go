package trec

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/internal/inputerr"
	"github.com/riskgate/riskgate/internal/linelimit"
)

const fuzzQrels = "q1 0 a 2\nq1 0 b 0\nq1 0 c -1\nq2 0 a 1\nq3 0 z 0\n"
const fuzzRun = "q1 Q0 a 1 2.5 r\nq1 Q0 x 2 2.5 r\nq2 Q0 b 1 1 r\nq9 Q0 a 1 1 r\n"

// evalEverything scores run against q with every measure, with and without
// -c, and formats the output, so a fuzzer reaches all of the scoring code.
func evalEverything(t *testing.T, q *Qrels, run *Run) {
	ms, err := ParseMeasures([]string{"all_trec", "dcg", "ideal_dcg", "ndcg_rel.0=0.5,1=2.5,2=1", "relstring.3"})
	if err != nil {
		t.Fatal(err)
	}
	for _, missing := range []MissingTopics{MissingZero, MissingSkip, MissingFail} {
		opt := DefaultOptions()
		opt.Missing = missing
		opt.MaxDocs = 3
		if out, ok := evaluateOutput(t, q, run, ms, opt); ok && !bytes.Contains(out, []byte("num_q ")) {
			t.Fatalf("summary without num_q:\n%s", out)
		}
	}
}

// evaluateOutput scores run against q with ms and opt and returns what eval
// prints (every topic, then the summary); false when the evaluation refused
// the input, which must then be an input error.
func evaluateOutput(t *testing.T, q *Qrels, run *Run, ms *Measures, opt Options) ([]byte, bool) {
	t.Helper()
	var out []byte
	s, err := NewEvaluator(q, ms, opt).Evaluate(run, func(tr *TopicResult) error {
		out = AppendTopic(out, ms, tr)
		return nil
	})
	if err != nil {
		var ie *inputerr.Error
		if !errors.As(err, &ie) {
			t.Fatalf("evaluation error is not an input error: %v", err)
		}
		return nil, false
	}
	return AppendSummary(out, ms, s), true
}

func checkInputError(t *testing.T, err error) {
	var ie *inputerr.Error
	if !errors.As(err, &ie) {
		t.Fatalf("error is not an *inputerr.Error: %v", err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("error message is not one line: %q", err)
	}
}

// FuzzReadRun: any input either parses into a consistent Run or gives a
// one-line file:line error; parsed runs evaluate without panicking.
func FuzzReadRun(f *testing.F) {
	f.Add([]byte(fuzzRun))
	f.Add([]byte("# c\n\n  q1\tQ0 d#1 x 0x1p3 t extra\r\nq1 Q0 d2 1 5abc t\n"))
	f.Add([]byte("q1 Q0 d 1 2\n"))
	f.Add([]byte("q1 Q0 d 1 nan r\nq1 Q0 e 1 -inf r\nq1 Q0 d 1 1e400 r\n"))
	q, err := ReadQrels(strings.NewReader(fuzzQrels), "qrels")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		run, err := ReadRun(bytes.NewReader(data), "run")
		// Read in chunks of 5 bytes, or by 3 parsers, the run is the same.
		want := runFingerprint(run, err)
		if got := runFingerprint(readRun(bytes.NewReader(data), "run", reading{5, linelimit.Max})); got != want {
			t.Fatalf("read in chunks:\n%s\nin one piece:\n%s", got, want)
		}
		if got := runFingerprint(readRunParts(bytes.NewReader(data), int64(len(data)), "run", 3, reading{5, linelimit.Max})); got != want {
			t.Fatalf("read in 3 parts:\n%s\nin one piece:\n%s", got, want)
		}
		if err != nil {
			checkInputError(t, err)
			return
		}
		n := 0
		for ti := range run.bounds {
			_, docs := run.ranked(int32(ti))
			n += len(docs)
			for k := 1; k < len(docs); k++ {
				if docs[k-1].score < docs[k].score {
					t.Fatalf("topic %d not sorted by score", ti)
				}
			}
		}
		if n != run.Lines || run.RunID == "" {
			t.Fatalf("%d documents in topics, %d lines, run id %q", n, run.Lines, run.RunID)
		}
		evalEverything(t, q, run)
	})
}

// FuzzReadQrels: any input either parses or gives a one-line file:line
// error; parsed qrels evaluate a fixed run without panicking.
func FuzzReadQrels(f *testing.F) {
	f.Add([]byte(fuzzQrels))
	f.Add([]byte("# c\n# x y 1\nq1 0 d1 1.9\n  q1\t0 d2 2abc  \r\n"))
	f.Add([]byte("q1 0 d1\n"))
	f.Add([]byte("q1 0 d1 1\n\nq1 0 d2 0\n"))
	f.Add([]byte("q1 0 a 99999999999\nq1 0 b -5\nq2 0 a 0\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		q, err := ReadQrels(bytes.NewReader(data), "qrels")
		if err != nil {
			checkInputError(t, err)
			return
		}
		ids := q.Topics()
		for i := 1; i < len(ids); i++ {
			if ids[i-1] >= ids[i] {
				t.Fatalf("topics not in strcmp order: %q", ids)
			}
		}
		for _, tp := range q.topics {
			var n int64
			for _, lc := range tp.levels {
				n += lc.count
			}
			var judged int64
			for _, j := range tp.judged {
				if j.rel >= 0 {
					judged++
				}
			}
			if n != judged {
				t.Fatalf("level counts %d, judgments ≥ 0: %d", n, judged)
			}
		}
		run, err := ReadRun(strings.NewReader(fuzzRun), "run")
		if err != nil {
			t.Fatal(err)
		}
		evalEverything(t, q, run)
	})
}

// FuzzAtof: on every string that both C's strtod grammar and strconv accept
// in full (decimal forms), atof agrees with strconv.ParseFloat exactly.
func FuzzAtof(f *testing.F) {
	for _, s := range []string{"1", "-0.5", "12.3456", ".25e1", "1e-310", "123456789012345678901234567890", "0.1e23", "9007199254740993"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := atof([]byte(s))
		if strings.ContainsAny(s, "_xXpPnNiI \t\n\v\f\r") {
			return
		}
		want, err := strconv.ParseFloat(s, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return
		}
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("atof(%q) = %v, strconv %v", s, got, want)
		}
	})
}
