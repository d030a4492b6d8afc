package compare

import (
	"bytes"
	"math"
	"path/filepath"
	"testing"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/reportfmt"
	"github.com/riskgate/riskgate/risk"
)

// Whole reports in every format from testdata/scores.csv: champion base,
// challengers fusion (better, tied on t03) and exp-risky (better on average
// with two large losses), artifacts art-1 and art-2, 12 topics of map. The
// numbers are tested against R and the paper in risk and through riskgate
// compare in gate (TestCompareAgainstReferences, TestCompareTable3); these
// goldens pin the report, so that an edit here is checked without the
// gate's end-to-end suite (go test ./gate/compare -update rewrites them).
func TestReportGolden(t *testing.T) {
	t.Parallel()
	tab, err := scores.Load([]string{filepath.Join("testdata", "scores.csv")}, scores.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	champ := tab.SystemIndex("base")
	challengers := []int{tab.SystemIndex("fusion"), tab.SystemIndex("exp-risky")}
	base := Settings{LossWeight: 2, Level: 0.95, Correction: risk.Bonferroni, Seed: 3, Samples: 2000, TukeySamples: 500}
	withBRisk := base
	withBRisk.PoolAll, withBRisk.Correction, withBRisk.Brisk, withBRisk.TargetESS = true, risk.Holm, true, 400
	for _, c := range []struct {
		name string
		cfg  Settings
	}{
		{"compared", base},            // the defaults' shape: pool of the compared systems, Bonferroni
		{"all_holm_brisk", withBRisk}, // every system in the pool, Holm, the BRisk column
	} {
		rep, err := Build(tab, champ, challengers, c.cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, format := range reportfmt.Formats {
			for _, riskView := range []bool{false, true} {
				if riskView && (format == "json" || format == "csv") {
					continue // the risk view changes the signs of the table and md views only
				}
				name := c.name + "." + format
				if riskView {
					name = c.name + ".riskview." + format
				}
				var out bytes.Buffer
				if err := Write(&out, rep, format, riskView); err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", name+".golden"), out.Bytes())
			}
		}
	}
}

// The risk view prints the same report with Benham et al.'s "⁻" signs; the
// JSON and CSV are the same with or without it.
func TestRiskViewOnlyChangesTheViews(t *testing.T) {
	t.Parallel()
	tab, err := scores.Load([]string{filepath.Join("testdata", "scores.csv")}, scores.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Build(tab, tab.SystemIndex("base"), []int{tab.SystemIndex("fusion")},
		Settings{LossWeight: 2, Level: 0.95, Correction: risk.Bonferroni, Seed: 3, Samples: 200})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "csv"} {
		var plain, view bytes.Buffer
		if err := Write(&plain, rep, format, false); err != nil {
			t.Fatal(err)
		}
		if err := Write(&view, rep, format, true); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(plain.Bytes(), view.Bytes()) {
			t.Errorf("%s differs with the risk view", format)
		}
	}
}

// A table with a missing cell or a single topic is an error, not a report.
func TestBuildRefusesIncompleteTables(t *testing.T) {
	t.Parallel()
	one := scores.NewTable("map", []string{"a", "b"}, []string{"t1"})
	one.Scores[0][0], one.Scores[1][0] = 0.5, 0.4
	if _, err := Build(one, 0, []int{1}, Settings{LossWeight: 2, Level: 0.95, Correction: risk.NoCorrection, Samples: 200}); err == nil {
		t.Error("one topic: no error")
	}
	holey := scores.NewTable("map", []string{"a", "b"}, []string{"t1", "t2", "t3"})
	for s := range holey.Scores {
		for i := range holey.Scores[s] {
			holey.Scores[s][i] = 0.1 * float64(s+i+1)
		}
	}
	holey.Scores[1][2] = math.NaN()
	if _, err := Build(holey, 0, []int{1}, Settings{LossWeight: 2, Level: 0.95, Correction: risk.NoCorrection, Samples: 200}); err == nil {
		t.Error("a missing cell: no error")
	}
}
