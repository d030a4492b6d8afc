package gate

import (
	"cmp"
	"io"

	"github.com/riskgate/riskgate/gate/compare"

	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riskgate/riskgate/gate/scores"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/internal/shared"
)

// TestCompareBRiskJSONContract checks the brisk fields the issue fixes: a
// brisk object with mean, lo and hi on every system, and diff {mean, lo, hi},
// p_riskier and topics_at_risk on each challenger.
func TestCompareBRiskJSONContract(t *testing.T) {
	t.Parallel()
	code, out, errw := runMain(t, "compare", "--champion", "base", "--challenger", "fusion", "--samples", "1000", "--tukey-samples", "0",
		"--format", "json", "--target-ess", "1000", filepath.Join("testdata", "compare_small.csv"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	top, ok := doc["brisk"].(map[string]any)
	if !ok {
		t.Fatal("no top-level brisk object")
	}
	for _, k := range []string{"family", "method", "loss_weight", "level", "priors", "converged", "min_ess_bulk", "max_rhat", "systems", "p_greater", "p_best"} {
		if _, ok := top[k]; !ok {
			t.Errorf("brisk lacks %q", k)
		}
	}
	for _, s := range doc["systems"].([]any) {
		m := s.(map[string]any)
		b, ok := m["brisk"].(map[string]any)
		if !ok {
			t.Errorf("system %v lacks brisk", m["name"])
			continue
		}
		for _, k := range []string{"mean", "lo", "hi"} {
			if _, ok := b[k].(float64); !ok {
				t.Errorf("%v brisk lacks %q", m["name"], k)
			}
		}
		_, hasDiff := b["diff"]
		if chal := m["role"] == "challenger"; chal != hasDiff {
			t.Errorf("%v (%v): diff present %v", m["name"], m["role"], hasDiff)
		}
		if m["role"] == "challenger" {
			for _, k := range []string{"mean", "lo", "hi"} {
				if _, ok := b["diff"].(map[string]any)[k].(float64); !ok {
					t.Errorf("diff lacks %q", k)
				}
			}
			if _, ok := b["p_riskier"].(float64); !ok {
				t.Error("challenger lacks p_riskier")
			}
			if _, ok := b["topics_at_risk"].([]any); !ok {
				t.Error("challenger lacks topics_at_risk (an empty list when none)")
			}
		}
	}
	// --brisk=false leaves the brisk objects out and costs no MCMC
	code, out, _ = runMain(t, "compare", "--champion", "base", "--challenger", "fusion", "--samples", "1000", "--tukey-samples", "0",
		"--format", "json", "--brisk=false", filepath.Join("testdata", "compare_small.csv"))
	if code != 0 || strings.Contains(out, `"brisk"`) {
		t.Errorf("--brisk=false: exit %d, brisk in output %v", code, strings.Contains(out, `"brisk"`))
	}
}

// TestCompareTable3 is the check of riskgate compare --loss-weight 5
// on rb04.csv: the table view lays the systems out as Table 3 of Benham et
// al. (URisk, TRisk, BCa, BRisk, ZRisk, GeoRisk) with the topics at risk
// below it; the BRisk numbers are bayes.BRisk's for the same seed; and
// against reference/paper/table3.csv's BRisk⁻ column (fitted by the authors
// with 79 artifacts where rb04.csv holds 40) the systems come in the same
// order and every challenger's difference to the champion has the same sign
// (docs/brisk.md compares the digits).
func TestCompareTable3(t *testing.T) {
	t.Parallel()
	data := shared.Path(t, "data/bayesian-risk/rb04.csv")
	args := []string{"compare", "--champion", "Champion", "--challenger", "Chal. *", "--loss-weight", "5", "--tukey-samples", "0", "--samples", "2000"}
	// The layout from a shorter fit (--target-ess 1000: 0.17 CPU-s against
	// 0.55): the columns and sections are the same, only BRisk's digits
	// differ; the numbers below come from the default fit.
	code, out, errw := runMain(t, append(append([]string{}, args...), "--risk-view", "--target-ess", "1000", data)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	lines := strings.Split(out, "\n")
	hi := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "System") && strings.Contains(l, "URisk⁻") })
	if hi < 0 {
		t.Fatalf("no Table 3 header in\n%s", out)
	}
	cols := strings.Fields(lines[hi])
	var order []string
	for _, c := range cols {
		for _, name := range []string{"URisk", "TRisk", "BCa", "BRisk", "ZRisk", "GeoRisk"} {
			if strings.HasPrefix(c, name+"⁻") {
				order = append(order, name)
			}
		}
	}
	if want := []string{"URisk", "TRisk", "BCa", "BRisk", "ZRisk", "GeoRisk"}; !slices.Equal(order, want) {
		t.Errorf("Table 3 columns %v, want %v", order, want)
	}
	tar := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Topics at risk") })
	if tar < hi {
		t.Errorf("no topics-at-risk section below Table 3")
	}

	code, out, errw = runMain(t, append(append([]string{}, args...), "--format", "json", data)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var rep compare.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	tab := loadTable(t, data)
	champ := tab.SystemIndex("Champion")
	var chals []int
	for _, s := range rep.Systems {
		if s.Role == "challenger" {
			chals = append(chals, tab.SystemIndex(s.Name))
		}
	}
	r, err := bayes.BRisk(&bayes.Table{Systems: tab.Systems, Topics: tab.Topics, Scores: tab.Scores}, champ, 5, bayes.BRiskOptions{Challengers: chals,
		Hier: bayes.HierOptions{Sampler: mcmc.NUTSOptions{Seed: 1}, TargetESS: 10000}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Describe()
	if err != nil {
		t.Fatal(err)
	}
	bySys := map[string]compare.System{}
	for _, s := range rep.Systems {
		bySys[s.Name] = s
		want := d.Systems[tab.SystemIndex(s.Name)]
		if float64(s.BRisk.Mean) != want.Mean || float64(s.BRisk.Lo) != want.Lo || float64(s.BRisk.Hi) != want.Hi {
			t.Errorf("%s: compare's BRisk %+v, bayes.BRisk %+v", s.Name, *s.BRisk, want)
		}
	}
	for _, c := range r.Challengers {
		s := bySys[c.Name].BRisk
		if float64(s.Diff.Mean) != c.Diff.Mean || float64(*s.PRiskier) != c.PRiskier || len(*s.TopicsAtRisk) != len(d.Challenger(c.System).AtRisk) {
			t.Errorf("%s: compare's diff %+v p %v, bayes.BRisk %+v p %v", c.Name, *s.Diff, *s.PRiskier, c.Diff, c.PRiskier)
		}
	}
	if !rep.BRisk.Converged {
		t.Errorf("BRisk did not converge: %v", rep.BRisk.Warnings)
	}

	// The paper's BRisk⁻ ordering and the signs of the differences.
	table3 := shared.Records(t, shared.Path(t, "reference/paper/table3.csv"))
	paper := map[string]float64{}
	for _, row := range table3 {
		paper[row["system"]] = shared.ParseFloat(t, row["brisk_minus"])
	}
	names := []string{"Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}
	byPaper, byUs := slices.Clone(names), slices.Clone(names)
	slices.SortFunc(byPaper, func(a, b string) int { return cmp.Compare(paper[a], paper[b]) })
	slices.SortFunc(byUs, func(a, b string) int {
		return cmp.Compare(-float64(bySys[a].BRisk.Mean), -float64(bySys[b].BRisk.Mean))
	})
	if !slices.Equal(byPaper, byUs) {
		t.Errorf("BRisk⁻ order %v, the paper's %v", byUs, byPaper)
	}
	for _, n := range names[1:] {
		p := paper[n] - paper["Champion"]        // BRisk⁻ difference: positive = riskier
		us := -float64(bySys[n].BRisk.Diff.Mean) // −(S_c − S_champion)
		if (p > 0) != (us > 0) {
			t.Errorf("%s: BRisk⁻ difference to the champion %.3f, the paper's %.3f", n, us, p)
		}
	}
}

// loadTable reads a score file through the commands' loader.
func loadTable(t *testing.T, path string) *scores.Table {
	t.Helper()
	o := &inputOptions{Paths: []string{path}, Topics: optional[string]{Value: "error"}}
	tab, _, err := o.load(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}
