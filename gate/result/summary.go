package result

import (
	"encoding/json"
	"math"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"
)

// Summary is one challenger's line of the summary every report leads with:
// what changed (the means, Δ and Δ%, wins, ties and losses over topics), how
// sure the model is that it is better, the risk figure the policy decides
// on, and the verdict with its reason. Numbers are NaN (null) when not
// computed.
type Summary struct {
	Challenger string           `json:"challenger"`
	Verdict    policies.Verdict `json:"verdict"`
	Selected   bool             `json:"selected"`
	Reason     string           `json:"reason"`
	// Means over the topics each system was scored on (the risk table's).
	ChampionMean jsonfloat.Float `json:"champion_mean"`
	Mean         jsonfloat.Float `json:"mean"`
	// Diff is Mean − ChampionMean; DiffPercent is Diff as a percentage of
	// ChampionMean.
	Diff        jsonfloat.Float `json:"diff"`
	DiffPercent jsonfloat.Float `json:"diff_percent"`
	Wins        *int            `json:"wins,omitempty"`
	Ties        *int            `json:"ties,omitempty"`
	Losses      *int            `json:"losses,omitempty"`
	// PBetter is P(δ > 0) in the raw-score fit (or BRisk's at w = 1, the same
	// model); absent without one, or when it did not converge. PBetterFit
	// names the fit it came from: FitHier or FitBRiskRaw.
	PBetter    *jsonfloat.Float `json:"p_better,omitempty"`
	PBetterFit string           `json:"p_better_fit,omitempty"`
	// RiskRule and Risk are the policy's risk rule (Result.RiskRule) and
	// what it observed for this challenger; absent when no rule weighs
	// losses, and the reports then show URisk at the risk table's w.
	RiskRule string                `json:"risk_rule,omitempty"`
	Risk     *policies.Observation `json:"risk,omitempty"`
	// Measures are the challenger's change on every other measure a rule
	// uses (Data.Measures after the first), in natural units; absent for a
	// one-measure gate.
	Measures []MeasureDelta `json:"measures,omitempty"`
}

// MeasureDelta is a challenger's change on one measure, in the measure's
// natural units: the means over the topics both were scored on, Diff =
// Mean − ChampionMean (negative is better when LowerIsBetter), DiffPercent
// = 100·Diff/ChampionMean, and wins, ties and losses counted in the
// measure's direction (a win on a lower-is-better measure is a lower score).
type MeasureDelta struct {
	Measure       string          `json:"measure"`
	LowerIsBetter bool            `json:"lower_is_better,omitempty"`
	ChampionMean  jsonfloat.Float `json:"champion_mean"`
	Mean          jsonfloat.Float `json:"mean"`
	Diff          jsonfloat.Float `json:"diff"`
	DiffPercent   jsonfloat.Float `json:"diff_percent"`
	Wins          int             `json:"wins"`
	Ties          int             `json:"ties"`
	Losses        int             `json:"losses"`
}

// NewSummary is the summary of r: one Summary per challenger of the
// decision, in its order.
func NewSummary(r *Result) []Summary {
	if r.Decision == nil {
		return nil
	}
	champMean := math.NaN()
	rows := map[string]SystemRisk{}
	for _, sr := range r.RiskTable.Systems {
		if sr.Role == RoleChampion {
			champMean = float64(sr.Mean)
		}
		rows[sr.Name] = sr
	}
	pBetter := map[string]jsonfloat.Float{}
	raw, rawFit := r.RawFit()
	if raw != nil && raw.Unavailable == "" && raw.Converged {
		for _, c := range raw.Comparisons {
			pBetter[c.Challenger] = c.PBetter
		}
	}
	risk := r.RiskRule()
	out := []Summary{}
	for _, c := range r.Decision.Challengers {
		s := Summary{Challenger: c.Name, Verdict: c.Verdict, Selected: c.Selected, Reason: c.Reason,
			ChampionMean: jsonfloat.Float(champMean), Mean: jsonfloat.Float(math.NaN()), Diff: jsonfloat.Float(math.NaN()), DiffPercent: jsonfloat.Float(math.NaN())}
		if sr, ok := rows[c.Name]; ok {
			s.Mean = sr.Mean
			if sr.MeanDiff != nil {
				s.Diff = *sr.MeanDiff
				if champMean != 0 {
					s.DiffPercent = jsonfloat.Float(100 * float64(*sr.MeanDiff) / champMean)
				}
			}
			s.Wins, s.Ties, s.Losses = sr.Wins, sr.Ties, sr.Losses
		}
		if p, ok := pBetter[c.Name]; ok {
			s.PBetter, s.PBetterFit = &p, rawFit
		}
		if risk != nil {
			for _, rr := range c.Rules {
				if rr.Rule == risk.Rule {
					s.RiskRule = rr.Rule
					o := rr.Observed
					s.Risk = &o
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// UnmarshalJSON reads a summary, including its policies.Observation.
func (s *Summary) UnmarshalJSON(data []byte) error {
	type plain Summary
	aux := struct {
		*plain
		Risk *observationJSON `json:"risk"`
	}{plain: (*plain)(s)}
	if err := json.Unmarshal(data, &aux); err != nil {
		return withoutAlias(err)
	}
	s.Risk = aux.Risk.observation()
	return nil
}
