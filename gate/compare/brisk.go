package compare

import (
	"fmt"
	"strconv"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/bayes/mcmc"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// BRisk in riskgate compare: Benham et al.'s Bayesian risk over the whole
// pool (every system of the input, artifacts included), its column of Table 3
// and the topics at risk.

// BRisk describes the BRisk fit of a comparison: the model, its
// convergence, and the many-versus-many probabilities among the champion and
// the challengers.
type BRisk struct {
	Family      string            `json:"family"` // gaussian or skew_normal
	Method      string            `json:"method"` // collapsed or general
	LossWeight  float64           `json:"loss_weight"`
	Level       float64           `json:"level"` // of every credible and predictive interval (not corrected: one joint model)
	Priors      map[string]string `json:"priors"`
	PoolSize    int               `json:"pool_size"` // systems in the risk-adjusted pool
	Chains      int               `json:"chains"`
	Draws       int               `json:"draws"` // per chain
	TargetESS   float64           `json:"target_ess"`
	MinESSBulk  jsonfloat.Float   `json:"min_ess_bulk"`
	MinESSTail  jsonfloat.Float   `json:"min_ess_tail"`
	MaxRhat     jsonfloat.Float   `json:"max_rhat"`
	Divergences int               `json:"divergences"`
	Converged   bool              `json:"converged"`
	// Ranking orders the champion and the challengers.
	result.Ranking
	Warnings []string `json:"warnings,omitempty"`
}

// BRiskSystem is a system's effect S in the risk-adjusted pool with
// its credible interval (Benham et al.'s BRisk⁻ is −mean [−hi, −lo]), and
// for a challenger its difference to the champion, P(riskier) and the topics
// at risk.
type BRiskSystem struct {
	Mean         jsonfloat.Float       `json:"mean"`
	Lo           jsonfloat.Float       `json:"lo"`
	Hi           jsonfloat.Float       `json:"hi"`
	Diff         *result.Estimate      `json:"diff,omitempty"`      // S_challenger − S_champion
	PRiskier     *jsonfloat.Float      `json:"p_riskier,omitempty"` // P(S_challenger < S_champion)
	TopicsAtRisk *[]result.TopicAtRisk `json:"topics_at_risk,omitempty"`
}

// fillCompareBRisk fits BRisk over every system of t and fills rep.BRisk and
// each system's brisk object. rep.Systems must be in Build's order
// (champion, challengers, artifacts).
func fillCompareBRisk(rep *Report, t *scores.Table, champ int, challengers []int, order []int, cfg Settings) error {
	opt := bayes.BRiskOptions{Challengers: challengers, Level: cfg.Level,
		Hier: bayes.HierOptions{Family: cfg.Family, Sampler: mcmc.NUTSOptions{Seed: cfg.Seed, Context: cfg.Context}, TargetESS: cfg.TargetESS}}
	r, err := bayes.BRisk(&bayes.Table{Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}, champ, cfg.LossWeight, opt)
	if err != nil {
		return fmt.Errorf("BRisk: %w", err)
	}
	d, err := r.Describe()
	if err != nil {
		return fmt.Errorf("BRisk: %w", err)
	}
	f := r.Fit
	minB, minT, maxR := f.WorstConvergence()
	b := &BRisk{Family: f.Family.Name(), Method: string(f.Method), LossWeight: r.W, Level: r.Level,
		Priors: f.Priors.Describe(f.Family), PoolSize: len(t.Systems), Chains: f.Chains, Draws: f.Draws,
		TargetESS: f.TargetESS, MinESSBulk: jsonfloat.Float(minB), MinESSTail: jsonfloat.Float(minT), MaxRhat: jsonfloat.Float(maxR),
		Divergences: f.Divergences, Converged: r.Converged, Warnings: r.Warnings}
	b.Ranking = result.NewRanking(f, append([]int{champ}, challengers...), t.Systems)
	rep.BRisk = b
	for i, s := range order {
		e := d.Systems[s]
		sys := &BRiskSystem{Mean: jsonfloat.Float(e.Mean), Lo: jsonfloat.Float(e.Lo), Hi: jsonfloat.Float(e.Hi)}
		if c := r.Challenger(s); c != nil {
			diff, at := result.NewEstimate(c.Diff), result.NewTopicsAtRisk(d.Challenger(s).AtRisk)
			sys.Diff, sys.PRiskier, sys.TopicsAtRisk = &diff, jsonfloat.Ptr(c.PRiskier), &at
		}
		rep.Systems[i].BRisk = sys
	}
	return nil
}

// briskCell is a system's BRisk cell of the Table 3 view: the effect and its
// interval, negated (BRisk⁻) in the risk view.
func (v *compareView) briskCell(s System) string {
	if s.BRisk == nil {
		return "–"
	}
	m, lo, hi := float64(s.BRisk.Mean), float64(s.BRisk.Lo), float64(s.BRisk.Hi)
	if v.risk {
		m, lo, hi = -m, -hi, -lo
	}
	return numfmt.R.Fixed(m, 3) + " " + numfmt.R.Interval(lo, hi, 3)
}

// brisk writes the BRisk sections under Table 3: the fit, each challenger
// against the champion, P(S_i > S_j), and the topics at risk.
func (v *compareView) brisk(champ System, chals []System) {
	b := v.rep.BRisk
	if b == nil {
		return
	}
	model := "Gaussian"
	if b.Family == "skew_normal" {
		model = "skew-normal"
	}
	status := "converged"
	if !b.Converged {
		status = "NOT CONVERGED: no evidence"
	}
	v.heading(fmt.Sprintf("BRisk: %s hierarchical model on the risk-adjusted pool (%s)", model, status))
	v.para(fmt.Sprintf("%d systems, the champion's scores kept and every other's replaced by champion + d (losses × %s); %s intervals; "+
		"%d chains × %d draws (%s sampler), min bulk-ESS %s, min tail-ESS %s, max R-hat %s, %d divergences.",
		b.PoolSize, numfmt.G(b.LossWeight), numfmt.Percent(b.Level), b.Chains, b.Draws, b.Method,
		numfmt.R.Fixed(float64(b.MinESSBulk), 0), numfmt.R.Fixed(float64(b.MinESSTail), 0), numfmt.R.Fixed(float64(b.MaxRhat), 4), b.Divergences))
	if len(chals) > 0 {
		rows := [][]string{{"System", "S − S_champion " + numfmt.Percent(b.Level), "P(riskier)", "P(best)", "topics at risk"}}
		rows = append(rows, []string{champ.Name, "–", "–", numfmt.R.P(float64(b.PBest[0])), "–"})
		for i, s := range chals {
			br := s.BRisk
			n := 0
			if br.TopicsAtRisk != nil {
				n = len(*br.TopicsAtRisk)
			}
			rows = append(rows, []string{s.Name, numfmt.R.Fixed(float64(br.Diff.Mean), 3) + " " + numfmt.R.Interval(float64(br.Diff.Lo), float64(br.Diff.Hi), 3),
				numfmt.R.P(float64(*br.PRiskier)), numfmt.R.P(float64(b.PBest[1+i])), strconv.Itoa(n)})
		}
		v.table(rows)
		v.para("P(row system's effect > column system's), from the same draws (one model: no multiple-comparison correction):")
		head := []string{"System"}
		head = append(head, b.Systems...)
		rows = append([][]string{head}, b.PGreaterRows()...)
		v.table(rows)
	}
	v.heading(fmt.Sprintf("Topics at risk (risk-adjusted difference d below its %s posterior predictive interval)", numfmt.Percent(b.Level)))
	rows := [][]string{{"System", "Topic", "d", "predictive interval"}}
	for _, s := range chals {
		if s.BRisk == nil || s.BRisk.TopicsAtRisk == nil {
			continue
		}
		for _, tr := range *s.BRisk.TopicsAtRisk {
			rows = append(rows, []string{s.Name, tr.Topic, numfmt.R.Fixed(float64(tr.Observed), 4), numfmt.R.Interval(float64(tr.Lo), float64(tr.Hi), 4)})
		}
	}
	if len(rows) == 1 {
		v.para("None: every challenger's topics lie within what the model expects.")
		return
	}
	v.table(rows)
}

// briskCSV are the brisk columns of the CSV view for one system.
func briskCSV(s System) []string {
	out := make([]string, 8)
	if s.BRisk == nil {
		return out
	}
	b := s.BRisk
	out[0], out[1], out[2] = numfmt.CSV(b.Mean), numfmt.CSV(b.Lo), numfmt.CSV(b.Hi)
	if b.Diff != nil {
		out[3], out[4], out[5] = numfmt.CSV(b.Diff.Mean), numfmt.CSV(b.Diff.Lo), numfmt.CSV(b.Diff.Hi)
		out[6] = numfmt.CSV(*b.PRiskier)
		out[7] = strconv.Itoa(len(*b.TopicsAtRisk))
	}
	return out
}

// briskCSVHeader names briskCSV's columns.
var briskCSVHeader = []string{"brisk_mean", "brisk_lo", "brisk_hi", "brisk_diff_mean", "brisk_diff_lo", "brisk_diff_hi", "brisk_p_riskier", "brisk_topics_at_risk"}
