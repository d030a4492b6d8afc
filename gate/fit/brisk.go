package fit

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
)

// The BRisk parts of riskgate fit: the challengers against the champion in
// the (risk-adjusted) pool with their topics at risk, the many-versus-many
// probabilities, the posterior predictive intervals of every cell, the
// pool-size sweep and the prior sensitivity.

// BRisk is what BRisk adds to a fit report.
type BRisk struct {
	LossWeight  float64           `json:"loss_weight"` // 1: the plain scores
	Level       float64           `json:"level"`
	Challengers []BRiskChallenger `json:"challengers"`
	// Ranking orders the champion and the challengers.
	result.Ranking
}

// BRiskChallenger is a challenger against the champion in the pool.
type BRiskChallenger struct {
	Name     string          `json:"name"`
	Diff     result.Estimate `json:"diff"`      // S_challenger − S_champion
	PRiskier jsonfloat.Float `json:"p_riskier"` // P(S_challenger < S_champion)
	AtRisk   int             `json:"topics_at_risk"`
	Topics   []TopicRisk     `json:"topics"` // every topic, with its predictive interval
}

// TopicRisk is a challenger's difference to the champion on a topic
// (risk-adjusted when the loss weight is not 1) and its posterior predictive
// interval.
type TopicRisk struct {
	Topic    string          `json:"topic"`
	Observed jsonfloat.Float `json:"observed"`
	Lo       jsonfloat.Float `json:"lo"`
	Hi       jsonfloat.Float `json:"hi"`
	AtRisk   bool            `json:"at_risk"`
}

func NewBRisk(r *bayes.BRiskResult, d *bayes.BRiskDescription) *BRisk {
	b := &BRisk{LossWeight: r.W, Level: r.Level, Challengers: []BRiskChallenger{}}
	compared := []int{r.Champion}
	for i, c := range r.Challengers {
		compared = append(compared, c.System)
		topics := d.Challengers[i]
		fc := BRiskChallenger{Name: c.Name, Diff: result.NewEstimate(c.Diff), PRiskier: jsonfloat.Float(c.PRiskier), AtRisk: len(topics.AtRisk)}
		for _, t := range topics.Topics {
			fc.Topics = append(fc.Topics, TopicRisk{t.Topic, jsonfloat.Float(t.Observed), jsonfloat.Float(t.Lo), jsonfloat.Float(t.Hi), t.AtRisk})
		}
		b.Challengers = append(b.Challengers, fc)
	}
	b.Ranking = result.NewRanking(r.Fit, compared, r.Pool.Systems)
	return b
}

// Forecast is one cell's posterior predictive interval.
type Forecast struct {
	System   string          `json:"system"`
	Topic    string          `json:"topic"`
	Observed jsonfloat.Float `json:"observed"` // null when the cell is missing
	Lo       jsonfloat.Float `json:"lo"`
	Hi       jsonfloat.Float `json:"hi"`
}

func NewForecasts(f *bayes.Forecast, t *bayes.Table) []Forecast {
	var out []Forecast
	for i, s := range f.Systems {
		for j, c := range f.Cells[i] {
			out = append(out, Forecast{t.Systems[s], t.Topics[j], jsonfloat.Float(c.Observed), jsonfloat.Float(c.Lo), jsonfloat.Float(c.Hi)})
		}
	}
	return out
}

// SweepStep is one pool size of --pool-sweep.
type SweepStep struct {
	M           int               `json:"m"`
	Artifacts   []string          `json:"artifacts"`
	Champion    result.Estimate   `json:"champion"`
	Challengers []SweepSeparation `json:"challengers"`
	Converged   bool              `json:"converged"`
	Warnings    []string          `json:"warnings,omitempty"`
}

type SweepSeparation struct {
	Name     string          `json:"name"`
	Effect   result.Estimate `json:"effect"`
	Diff     result.Estimate `json:"diff"`
	PRiskier jsonfloat.Float `json:"p_riskier"`
	Gap      jsonfloat.Float `json:"gap"` // between the two credible intervals; negative: they overlap
}

func NewSweep(steps []bayes.PoolSweepStep) []SweepStep {
	var out []SweepStep
	for _, s := range steps {
		st := SweepStep{M: s.M, Artifacts: append([]string{}, s.Artifacts...), Champion: result.NewEstimate(s.Champion), Converged: s.Converged, Warnings: s.Warnings}
		for _, c := range s.Challengers {
			st.Challengers = append(st.Challengers, SweepSeparation{c.Name, result.NewEstimate(c.Effect), result.NewEstimate(c.Diff), jsonfloat.Float(c.PRiskier), jsonfloat.Float(c.Gap)})
		}
		out = append(out, st)
	}
	return out
}

// PriorSensitivity is --prior-sensitivity's result.
type PriorSensitivity struct {
	Robust  bool                `json:"robust"`
	Fits    []PriorFit          `json:"fits"`
	Changes []bayes.PriorChange `json:"changes"`
}

type PriorFit struct {
	Name        string            `json:"name"`
	Priors      map[string]string `json:"priors"`
	Converged   bool              `json:"converged"`
	Challengers []PriorReading    `json:"challengers"`
	Warnings    []string          `json:"warnings,omitempty"`
}

type PriorReading struct {
	Name     string          `json:"name"`
	Diff     result.Estimate `json:"diff"`
	PRiskier jsonfloat.Float `json:"p_riskier"`
}

func NewPriorSensitivity(ps *bayes.PriorSensitivity) *PriorSensitivity {
	out := &PriorSensitivity{Robust: ps.Robust, Changes: append([]bayes.PriorChange{}, ps.Changes...)}
	for _, f := range ps.Fits {
		pf := PriorFit{Name: f.Name, Priors: f.Priors.Describe(f.Family), Converged: f.Converged, Warnings: f.Warnings}
		for _, c := range f.Challengers {
			pf.Challengers = append(pf.Challengers, PriorReading{c.Name, result.NewEstimate(c.Diff), jsonfloat.Float(c.PRiskier)})
		}
		out.Fits = append(out.Fits, pf)
	}
	return out
}

// ParsePoolSweep reads --pool-sweep: pool sizes separated by commas.
func ParsePoolSweep(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		m, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || m < 0 {
			return nil, fmt.Errorf("--pool-sweep %q: expected artifact counts ≥ 0 separated by commas, e.g. 1,5,10,20,40", s)
		}
		out = append(out, m)
	}
	return out, nil
}

// writeBRiskText writes the text or markdown sections of the BRisk parts.
func (r *Report) writeBRiskText(w io.Writer, md bool, heading func(string)) {
	b := r.BRisk
	if b != nil && len(b.Challengers) > 0 {
		pool := "the scores"
		if b.LossWeight != 1 {
			pool = fmt.Sprintf("the risk-adjusted pool (losses × %s)", numfmt.G(b.LossWeight))
		}
		heading(fmt.Sprintf("Risk against the champion in %s", pool))
		rows := [][]string{{b.Systems[0], "–", numfmt.R.Fixed(float64(b.PBest[0]), 3), "–"}}
		for i, c := range b.Challengers {
			rows = append(rows, []string{c.Name, numfmt.R.Fixed(float64(c.PRiskier), 3), numfmt.R.Fixed(float64(b.PBest[1+i]), 3), strconv.Itoa(c.AtRisk)})
		}
		table(w, md, []string{"system", "P(riskier)", "P(best)", "topics at risk"}, rows)
		heading("P(row system's effect > column system's)")
		table(w, md, append([]string{"system"}, b.Systems...), b.PGreaterRows())
		heading(fmt.Sprintf("Topics at risk (difference to the champion below its %s posterior predictive interval)", numfmt.Percent(b.Level)))
		rows = rows[:0]
		for _, c := range b.Challengers {
			for _, t := range c.Topics {
				if t.AtRisk {
					rows = append(rows, []string{c.Name, t.Topic, numfmt.R.Fixed(float64(t.Observed), 4), numfmt.R.Fixed(float64(t.Lo), 4), numfmt.R.Fixed(float64(t.Hi), 4)})
				}
			}
		}
		if len(rows) == 0 {
			fmt.Fprintf(w, "none\n\n")
		} else {
			table(w, md, []string{"challenger", "topic", "difference", "lo", "hi"}, rows)
		}
	}
	if len(r.PoolSweep) > 0 {
		heading("Pool-size sweep (top-m artifacts by mean score)")
		var rows [][]string
		for _, s := range r.PoolSweep {
			conv := ""
			if !s.Converged {
				conv = " NOT CONVERGED"
			}
			for _, c := range s.Challengers {
				rows = append(rows, []string{strconv.Itoa(s.M) + conv, c.Name, numfmt.R.Fixed(float64(c.Diff.Mean), 4), numfmt.R.Fixed(float64(c.Diff.Lo), 4), numfmt.R.Fixed(float64(c.Diff.Hi), 4),
					numfmt.R.Fixed(float64(c.PRiskier), 3), numfmt.R.Fixed(float64(c.Gap), 4)})
			}
		}
		table(w, md, []string{"m", "challenger", "S − S_champion", "lo", "hi", "P(riskier)", "interval gap"}, rows)
	}
	if ps := r.PriorSensitivity; ps != nil {
		verdict := "robust: no challenger's interval sign or P(riskier) ≥ 0.95 changes"
		if !ps.Robust {
			verdict = "NOT robust"
		}
		heading("Prior sensitivity (" + verdict + ")")
		var rows [][]string
		for _, f := range ps.Fits {
			conv := ""
			if !f.Converged {
				conv = " (NOT CONVERGED)"
			}
			for _, c := range f.Challengers {
				rows = append(rows, []string{f.Name + conv, c.Name, numfmt.R.Fixed(float64(c.Diff.Mean), 4), numfmt.R.Fixed(float64(c.Diff.Lo), 4), numfmt.R.Fixed(float64(c.Diff.Hi), 4), numfmt.R.Fixed(float64(c.PRiskier), 3)})
			}
		}
		table(w, md, []string{"priors", "challenger", "S − S_champion", "lo", "hi", "P(riskier)"}, rows)
		for _, f := range ps.Fits {
			fmt.Fprintf(w, "%s: intercept ~ %s; sigma ~ %s; %s; %s", f.Name, f.Priors["intercept"], f.Priors["sigma"],
				priorPhrase("sd_topic", f.Priors["sd_topic"]), priorPhrase("sd_system", f.Priors["sd_system"]))
			if a, ok := f.Priors["alpha"]; ok {
				fmt.Fprintf(w, "; alpha ~ %s", a)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w)
		for _, c := range ps.Changes {
			fmt.Fprintf(w, "- %s under %s: %s %s → %s\n", c.Challenger, c.Set, c.Quantity, c.Base, c.Alt)
		}
		if len(ps.Changes) > 0 {
			fmt.Fprintln(w)
		}
	}
}

// priorPhrase is "name ~ prior", or "name = τ·sigma, …" for rstanarm's
// relative group SDs.
func priorPhrase(name, prior string) string {
	if strings.HasPrefix(prior, "τ") {
		return name + " = " + prior
	}
	return name + " ~ " + prior
}
