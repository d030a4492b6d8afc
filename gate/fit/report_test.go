package fit

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/golden"
	"github.com/riskgate/riskgate/internal/reportfmt"
)

// fitCase is one fit of testdata/scores.csv (prod the champion, cand-a and
// cand-b the challengers, art-1 to art-3 artifacts; 10 topics of
// ndcg_cut_10, art-3 unscored on t04), assembled as riskgate fit assembles
// it (gate/cmd_fit.go, through Build).
type fitCase struct {
	name       string
	topics     scores.TopicMode
	family     bayes.Family
	lossWeight float64
	extras     bool // --forecast, --pool-sweep 0,2 and --prior-sensitivity
}

func (c fitCase) report(t *testing.T) *Report {
	t.Helper()
	tab, err := scores.Load([]string{filepath.Join("testdata", "scores.csv")}, scores.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tab, align, err := tab.Align(c.topics)
	if err != nil {
		t.Fatal(err)
	}
	role := make([]string, len(tab.Systems))
	for i := range role {
		role[i] = "artifact"
	}
	champ, chals := tab.SystemIndex("prod"), []int{tab.SystemIndex("cand-a"), tab.SystemIndex("cand-b")}
	role[champ], role[chals[0]], role[chals[1]] = "champion", "challenger", "challenger"

	set := Settings{Hier: bayes.HierOptions{Sampler: mcmc.NUTSOptions{Seed: 11}, TargetESS: 400, Family: c.family}, LossWeight: c.lossWeight}
	if c.extras {
		set.Forecast, set.PoolSweep, set.PriorSensitivity = true, []int{0, 2}, true
	}
	rep, err := Build(tab, role, align, set)
	if err != nil {
		t.Fatal(err)
	}
	rep.ElapsedMS = 0 // the goldens hold no clock
	return rep
}

// Whole reports in every format: a Gaussian fit of the risk-adjusted pool
// (w = 2; art-3's missing topic dropped, --topics intersect) with the
// forecasts, pool sweep and prior sensitivity, and a skew-normal fit of the
// scores (w = 1) keeping the missing cell, with the head of its draws. The
// numbers are tested against rstanarm and brms in bayes and through
// riskgate fit in gate (TestFitGolden, TestFitSkewNormalFlags); these
// goldens pin the report, so that an edit here is checked without the
// gate's end-to-end suite (go test ./gate/fit -update rewrites them).
func TestReportGolden(t *testing.T) {
	t.Parallel()
	for _, c := range []fitCase{
		{name: "gaussian_w2", topics: scores.Intersect, family: bayes.Gaussian{}, lossWeight: 2, extras: true},
		{name: "skew_normal_keep", topics: scores.Keep, family: bayes.SkewNormal{}, lossWeight: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := c.report(t)
			for _, format := range reportfmt.Formats {
				var out bytes.Buffer
				var err error
				if format == "json" {
					err = rep.WriteJSON(&out)
				} else {
					err = reportfmt.Write(&out, format, nil, rep.WriteCSV, rep.WriteText)
				}
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", c.name+"."+format+".golden"), out.Bytes())
			}
			var draws bytes.Buffer
			if err := WriteDraws(&draws, rep.fit); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", c.name+".draws_head.golden"), []byte(head(draws.String(), 4)))
		})
	}
}

// head is the first n lines of s (the draws run to thousands of lines).
func head(s string, n int) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for i := 0; i < n && sc.Scan(); i++ {
		b.WriteString(sc.Text() + "\n")
	}
	return b.String()
}

// ParsePoolSweep reads counts ≥ 0 and refuses anything else.
func TestParsePoolSweep(t *testing.T) {
	t.Parallel()
	if got, err := ParsePoolSweep(" 0, 2,10"); err != nil || len(got) != 3 || got[0] != 0 || got[1] != 2 || got[2] != 10 {
		t.Errorf("ParsePoolSweep(\" 0, 2,10\") = %v, %v", got, err)
	}
	for _, bad := range []string{"", "1,,2", "-1", "x", "1e3"} {
		if _, err := ParsePoolSweep(bad); err == nil {
			t.Errorf("ParsePoolSweep(%q): no error", bad)
		}
	}
}
