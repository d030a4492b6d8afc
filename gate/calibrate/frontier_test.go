package calibrate

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/internal/shared"
	"github.com/riskgate/riskgate/risk"
)

// The data behind the choice of the default policy (docs/policies.md): on
// pools simulated like rb04.csv (the generating model calibrate estimates
// from it, with Chal. 1–4 as the challengers), over a grid of true effects ×
// risk scales, every candidate statistic a release policy could bound, per
// pool — so that the operating characteristics of many candidate policies
// (primary rule × risk guardrail at loss weight w with margin δ) come from
// one simulation. It runs only when asked:
//
//	RISKGATE_FRONTIER=200 RISKGATE_FRONTIER_OUT=/tmp/frontier.csv go test ./gate/calibrate -run TestPolicyFrontier -timeout 4h
//
// and writes one row per pool: the cell (effect, risk), each weight's true
// risk-adjusted difference, and the statistics.
func TestPolicyFrontier(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("RISKGATE_FRONTIER"))
	out := os.Getenv("RISKGATE_FRONTIER_OUT")
	if n <= 0 || out == "" {
		t.Skip("set RISKGATE_FRONTIER=pools per cell and RISKGATE_FRONTIER_OUT=file.csv to simulate the data behind the default policy")
	}
	rb := shared.RB04(t)
	tab := &bayes.Table{Systems: rb.Systems, Topics: rb.Topics}
	for _, s := range rb.Systems {
		tab.Scores = append(tab.Scores, rb.Scores[s])
	}
	champ := slices.Index(tab.Systems, "Champion")
	var chals []int
	var artifacts []string
	for s, name := range tab.Systems {
		switch {
		case name == "Champion":
		case len(name) > 5 && name[:5] == "Chal.":
			chals = append(chals, s)
		default:
			artifacts = append(artifacts, name)
		}
	}
	model, err := bayes.EstimatePoolModel(tab, champ, chals)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("model %+v", model)
	effects := []float64{-0.02, 0, 0.02, 0.05, 0.1}
	risks := []float64{0.5, 1, 1.5, 2}
	weights := []float64{1.5, 2, 3, 5}
	margins := []float64{0, 0.01, 0.02, 0.03, 0.05}
	systems := append([]string{"Champion", "Chal"}, artifacts...)

	header := []string{"effect", "risk", "rep", "mean_diff", "paired_t_p_greater", "bayes_p_better", "bayes_converged"}
	for _, w := range weights {
		fw := strconv.FormatFloat(w, 'g', -1, 64)
		header = append(header, "true_risk_w"+fw, "urisk_w"+fw, "urisk_se_w"+fw, "bca90_lo_w"+fw, "brisk_converged_w"+fw)
		for _, m := range margins {
			header = append(header, "brisk_p_riskier_w"+fw+"_m"+strconv.FormatFloat(m, 'g', -1, 64))
		}
	}
	type job struct {
		e, k, rep int
		row       []string
	}
	cells := len(effects) * len(risks)
	jobs := make([]job, cells*n)
	truths := make([][]float64, cells)
	for c := range cells {
		m := model.WithRisk(risks[c%len(risks)])
		for _, w := range weights {
			_, rd, err := m.Truth(context.Background(), effects[c/len(risks)], w)
			if err != nil {
				t.Fatal(err)
			}
			truths[c] = append(truths[c], rd)
		}
	}
	// ESS 2,000 keeps the Monte Carlo error of a probability near 0.05 at about
	// ±0.005: enough to rank candidate policies, whose chosen one is then
	// measured by calibrate itself.
	hier := bayes.HierOptions{TargetESS: 2000, RhatMax: 1.01}
	parallel.For(len(jobs), 0, func() func(int) {
		return func(i int) {
			c, rep := i/n, i%n
			e, k := c/len(risks), c%len(risks)
			m := model.WithRisk(risks[k])
			pool, _, err := m.Simulate(Stream(11, c, rep), effects[e], systems, tab.Topics)
			if err != nil {
				t.Error(err)
				return
			}
			pair := risk.Pair{X: pool.Scores[1], Base: pool.Scores[0]}
			f := func(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
			tt, _ := pair.PairedT(0.95)
			h := hier
			h.Sampler = mcmc.NUTSOptions{Seed: uint64(i) + 1}
			fit, err := bayes.FitHier(pool, h)
			pb, conv := math.NaN(), false
			if err == nil {
				pb, conv = posterior.ProbGreater(fit.SystemDiff(1, 0), 0), fit.Converged
			}
			row := []string{f(effects[e]), f(risks[k]), strconv.Itoa(rep), f(posterior.Mean(pair.Deltas())), f(tt.PGreater), f(pb), strconv.FormatBool(conv)}
			for wi, w := range weights {
				u, _ := pair.URisk(w)
				tr, _ := pair.TRisk(w)
				b, err := pair.BCa(w, risk.BootstrapOptions{B: 20000, Level: 0.9, Seed: uint64(i) + 1})
				lo := math.NaN()
				if err == nil {
					lo = b.BCa.Lo
				}
				row = append(row, f(truths[c][wi]), f(u.Value), f(tr.SE), f(lo))
				br, err := bayes.BRisk(pool, 0, w, bayes.BRiskOptions{Hier: h, Challengers: []int{1}})
				if err != nil {
					row = append(row, "false")
					for range margins {
						row = append(row, "NaN")
					}
					continue
				}
				d := br.Fit.SystemDiff(1, 0)
				row = append(row, strconv.FormatBool(br.Converged))
				for _, mg := range margins {
					row = append(row, f(posterior.ProbLess(d, -mg)))
				}
			}
			jobs[i] = job{e: e, k: k, rep: rep, row: row}
		}
	})
	file, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	cw := csv.NewWriter(file)
	cw.Write(header)
	for _, j := range jobs {
		if j.row != nil {
			cw.Write(j.row)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(os.Stderr, "wrote %d pools to %s\n", len(jobs), out)
}
