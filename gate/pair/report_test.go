package pair

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/riskgate/riskgate/bayes/twosample"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/reportfmt"
)

// Whole reports of both of Sakai's models in every format, from
// testdata/scores.csv: new-ranker (a) against bm25 (b) over 12 topics,
// new-ranker unscored on t07 (left out of the paired model, with a
// warning). The numbers themselves are tested against Sakai's rstan fits
// (bayes/twosample: TestSakaiMatchesRstan; gate: TestPairMatchesSakaiReference);
// these goldens pin the report, so that an edit here is checked without
// the gate's end-to-end suite (go test ./gate/pair -update rewrites them).
func TestReportGolden(t *testing.T) {
	t.Parallel()
	tab, err := scores.Load([]string{filepath.Join("testdata", "scores.csv")}, scores.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab, align, err := tab.Align(scores.Keep)
	if err != nil {
		t.Fatal(err)
	}
	a, b := tab.SystemIndex("new-ranker"), tab.SystemIndex("bm25")
	for _, model := range []string{"paired", "unpaired"} {
		opt := twosample.DefaultOptions()
		opt.Paired = model == "paired"
		opt.Draws, opt.Seed = 20000, 7
		rep, err := Build(tab.Measure, "new-ranker", "bm25", tab.Topics, tab.Scores[a], tab.Scores[b], opt)
		if err != nil {
			t.Fatal(err)
		}
		rep.Alignment = align
		for _, format := range reportfmt.Formats {
			var out bytes.Buffer
			if err := Write(&out, rep, format); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", model+"."+format+".golden"), out.Bytes())
		}
	}
}

// Too few topics is an error naming both systems, not a report.
func TestBuildTooFewTopics(t *testing.T) {
	t.Parallel()
	_, err := Build("ap", "a", "b", []string{"t1"}, []float64{0.5}, []float64{0.4}, twosample.DefaultOptions())
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(`1 topic(s) scored for "a" and "b"`)) {
		t.Errorf("err = %v", err)
	}
}
