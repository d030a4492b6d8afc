package result

import (
	"math"
	"slices"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"
)

// DefaultWorst is how many regressions per challenger a result lists
// unless told otherwise (riskgate gate --worst).
const DefaultWorst = 5

// Regressions are the topics one challenger loses most on against the
// champion, worst first: what a reviewer of a ranker change asks first.
type Regressions struct {
	Challenger string `json:"challenger"`
	// Losses counts the topics on which the challenger scores below the
	// champion (the L of W/T/L); Topics lists the worst of them.
	Losses int `json:"losses"`
	// LossWeight is the w of the BRisk fit whose topics at risk flag the
	// regressions (the loss weight that decides); 0 when no BRisk fit ran,
	// and AtRisk is then absent.
	LossWeight float64      `json:"loss_weight,omitempty"`
	Topics     []Regression `json:"topics"`
}

// Regression is one topic a challenger loses on: the observed scores and
// their difference Δ = challenger − champion (negative).
type Regression struct {
	Topic      string          `json:"topic"`
	Champion   jsonfloat.Float `json:"champion"`
	Challenger jsonfloat.Float `json:"challenger"`
	Diff       jsonfloat.Float `json:"diff"`
	// AtRisk says whether the model flags the topic as at risk (its
	// risk-adjusted difference below its posterior predictive interval in
	// the BRisk fit at LossWeight); absent when there is no such fit.
	AtRisk *bool `json:"at_risk,omitempty"`
}

// NewRegressions lists, for every challenger of r, its worst topics
// against the champion from r.Data.Scores: those with Δ < 0, most negative
// first (ties in data order), at most worst of them (DefaultWorst when
// worst ≤ 0). Topics missing for either system are left out. The at-risk
// flag comes from the BRisk fit at r.DecidingLossWeight.
func NewRegressions(r *Result, worst int) []Regressions {
	if worst <= 0 {
		worst = DefaultWorst
	}
	champ := r.Data.SystemScores(r.Data.Champion)
	if champ == nil {
		return nil
	}
	w := r.DecidingLossWeight()
	atRisk := r.TopicsAtRisk(w)
	var out []Regressions
	for _, name := range r.Data.Challengers {
		chal := r.Data.SystemScores(name)
		if chal == nil {
			continue
		}
		var losses []Regression
		for j, topic := range r.Data.Topics {
			if j >= len(champ) || j >= len(chal) {
				break
			}
			a, b := float64(champ[j]), float64(chal[j])
			if math.IsNaN(a) || math.IsNaN(b) || b >= a {
				continue
			}
			losses = append(losses, Regression{Topic: topic, Champion: champ[j], Challenger: chal[j], Diff: jsonfloat.Float(b - a)})
		}
		slices.SortStableFunc(losses, func(x, y Regression) int {
			switch {
			case x.Diff < y.Diff:
				return -1
			case x.Diff > y.Diff:
				return 1
			}
			return 0
		})
		reg := Regressions{Challenger: name, Losses: len(losses), Topics: losses[:min(len(losses), worst)]}
		if atRisk != nil {
			reg.LossWeight = w
			for i := range reg.Topics {
				flag := atRisk[name][reg.Topics[i].Topic]
				reg.Topics[i].AtRisk = &flag
			}
		}
		if reg.Topics == nil {
			reg.Topics = []Regression{}
		}
		out = append(out, reg)
	}
	return out
}

// SystemScores are the per-topic scores of the champion or a challenger,
// nil when the data holds none for it.
func (d *Data) SystemScores(system string) []jsonfloat.Float {
	for _, s := range d.Scores {
		if s.System == system {
			return s.Scores
		}
	}
	return nil
}

// DecidingLossWeight is the loss weight that decides the run: that of the
// first fail-severity rule that weighs losses (then of any rule that does),
// else the policy's; 0 when there is none.
func (r *Result) DecidingLossWeight() float64 {
	if rule := r.RiskRule(); rule != nil {
		return rule.Query.LossWeight
	}
	return r.Policy.LossWeight
}

// RiskRule is the rule whose figure a summary shows as the risk the policy
// uses: the first fail-severity rule that weighs losses, else the first rule
// that does, as applied to the first challenger; nil when no rule weighs
// losses.
func (r *Result) RiskRule() *policies.RuleResult {
	if r.Decision == nil || len(r.Decision.Challengers) == 0 {
		return nil
	}
	rules := r.Decision.Challengers[0].Rules
	for _, failOnly := range []bool{true, false} {
		for i := range rules {
			if rules[i].Query.LossWeight > 0 && (!failOnly || rules[i].Severity == policies.SeverityFail) {
				return &rules[i]
			}
		}
	}
	return nil
}

// TopicsAtRisk are the topics at risk of each challenger in the BRisk fit
// at loss weight w, at PredictiveLevel; nil when there is no such fit.
func (r *Result) TopicsAtRisk(w float64) map[string]map[string]bool {
	for _, f := range r.BRisk {
		if f == nil || f.LossWeight != w || f.Unavailable != "" {
			continue
		}
		out := map[string]map[string]bool{}
		for _, c := range f.Comparisons {
			out[c.Challenger] = map[string]bool{}
		}
		for _, tr := range f.TopicsAtRisk {
			if tr.Level != PredictiveLevel {
				continue
			}
			if out[tr.Challenger] == nil {
				out[tr.Challenger] = map[string]bool{}
			}
			for _, t := range tr.Topics {
				out[tr.Challenger][t.Topic] = true
			}
		}
		return out
	}
	return nil
}
