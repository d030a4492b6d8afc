package gate

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/riskgate/riskgate/gate/report"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/mdcheck"
	"github.com/riskgate/riskgate/internal/shared"
)

// The reports a reviewer reads for Robust04 under the default policy
// (riskgate gate --champion Champion --challenger 'Chal.*'): the comment
// fits a pull request — under 15,000 characters, no table above the fold
// wider than six columns as GFM renders it — and report.md, the terminal
// table and result.json name each challenger's worst regressions with their
// observed scores: t_311 for Chal. 4 (AP 0.484 → 0.323), t_601 and t_366 for
// Chal. 3. The scores are read from rb04.csv itself; none of this depends on
// the policy's rules, which only decide the verdict.
func TestRB04ReviewerReports(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("gates the paper's 45 systems × 249 topics with the default policy (2.5 CPU-s); -short checks the reports' structure and fold on the example (TestGateExampleGolden, gate/report)")
	}
	rb04 := shared.Path(t, "data/bayesian-risk/rb04.csv")
	scores := readRB04(t, rb04)
	run := defaultGateRB04(t, rb04)
	code, stdout, stderr := run.code, run.stdout, run.stderr
	if code != exitPass && code != exitFail && code != exitInconclusive {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	md := run.files["report.md"]
	var r result.Result
	if err := json.Unmarshal([]byte(run.files["result.json"]), &r); err != nil {
		t.Fatal(err)
	}

	mdcheck.Structure(t, md, report.MaxMarkdownBytes)
	fold := mdcheck.CheckFold(t, md, 6)
	if n := utf8.RuneCountInString(md); n >= 15_000 {
		t.Errorf("report.md is %d characters, want under 15,000", n)
	}
	t.Logf("report.md: %d characters (%d bytes); tables above the fold %v columns, below %v", utf8.RuneCountInString(md), len(md), fold.AboveColumns, fold.BelowColumns)

	for _, c := range []struct{ challenger, topic string }{{"Chal. 4", "t_311"}, {"Chal. 3", "t_601"}, {"Chal. 3", "t_366"}} {
		champ, chal := scores["Champion"][c.topic], scores[c.challenger][c.topic]
		var found *result.Regression
		for _, g := range r.Regressions {
			if g.Challenger != c.challenger {
				continue
			}
			for i := range g.Topics {
				if g.Topics[i].Topic == c.topic {
					found = &g.Topics[i]
				}
			}
		}
		if found == nil {
			t.Errorf("result.json: %s is not among %s's regressions", c.topic, c.challenger)
		} else if math.Abs(float64(found.Champion)-champ) > 1e-12 || math.Abs(float64(found.Challenger)-chal) > 1e-12 || math.Abs(float64(found.Diff)-(chal-champ)) > 1e-12 {
			t.Errorf("result.json: %s of %s %+v, want %g → %g", c.topic, c.challenger, *found, champ, chal)
		}
		// One row per regression, the challenger named on its first:
		// "| Chal. 4 | t_311 | 0.484 | 0.323 | -0.161 |" or "|  | t_366 | …".
		row := regexp.QuoteMeta(c.topic) + ` \| ` + regexp.QuoteMeta(strconv.FormatFloat(champ, 'f', 3, 64)) + ` \| ` + regexp.QuoteMeta(strconv.FormatFloat(chal, 'f', 3, 64)) + ` \| `
		if !regexp.MustCompile(row).MatchString(md) || !strings.Contains(fold.Above, c.topic) {
			t.Errorf("report.md does not show %s of %s above the fold (%s)", c.topic, c.challenger, row)
		}
		line := regexp.QuoteMeta(c.topic) + ` +` + regexp.QuoteMeta(strconv.FormatFloat(champ, 'f', 3, 64)) + ` +` + regexp.QuoteMeta(strconv.FormatFloat(chal, 'f', 3, 64)) + ` `
		if !regexp.MustCompile(line).MatchString(stdout) {
			t.Errorf("the terminal table does not show %s of %s:\n%s", c.topic, c.challenger, stdout)
		}
	}
	if len(r.Summary) != 4 {
		t.Errorf("result.json summary has %d rows, want 4", len(r.Summary))
	}
	for _, s := range r.Summary {
		if s.Wins == nil || *s.Wins+*s.Ties+*s.Losses != len(r.Data.Topics) || math.Abs(float64(s.Diff)-(float64(s.Mean)-float64(s.ChampionMean))) > 1e-12 {
			t.Errorf("summary of %s: %+v", s.Challenger, s)
		}
	}
	if !strings.Contains(md, "| Chal. 4 | t_311 | 0.484 | 0.323 |") {
		t.Errorf("Chal. 4's worst regression is not t_311 (0.484 → 0.323) in report.md")
	}
}

// readRB04 reads rb04.csv: system → topic → score.
func readRB04(t *testing.T, path string) map[string]map[string]float64 {
	t.Helper()
	f, err := os.Open(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]float64{}
	for _, rec := range recs[1:] {
		v, err := strconv.ParseFloat(rec[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		if out[rec[0]] == nil {
			out[rec[0]] = map[string]float64{}
		}
		out[rec[0]][rec[1]] = v
	}
	return out
}

// gateRun is what one riskgate gate --out run printed and wrote.
type gateRun struct {
	code           int
	stdout, stderr string
	files          map[string]string // report.FileNames → content
}

// rb04Default is the default policy on the paper's data, riskgate gate
// --champion Champion --challenger 'Chal.*' --out DIR rb04.csv, run once
// for the tests that read it (TestRB04ReviewerReports,
// TestDefaultPolicyOnPublicData).
var rb04Default struct {
	once sync.Once
	run  gateRun
	err  error
}

// defaultGateRB04 returns rb04Default's run of rb04 (the path of rb04.csv).
func defaultGateRB04(t *testing.T, rb04 string) gateRun {
	t.Helper()
	rb04Default.once.Do(func() {
		dir, err := os.MkdirTemp("", "riskgate-rb04-")
		if err != nil {
			rb04Default.err = err
			return
		}
		defer os.RemoveAll(dir)
		var out, errw bytes.Buffer
		code := Main(context.Background(), []string{"riskgate", "gate", "--champion", "Champion", "--challenger", "Chal.*", "--out", dir, rb04},
			strings.NewReader(""), &out, &errw)
		run := gateRun{code: code, stdout: out.String(), stderr: errw.String(), files: map[string]string{}}
		for _, name := range report.FileNames {
			if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				run.files[name] = string(data)
			}
		}
		rb04Default.run = run
	})
	if rb04Default.err != nil {
		t.Fatal(rb04Default.err)
	}
	return rb04Default.run
}
