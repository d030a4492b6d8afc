package engine

import (
	"slices"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/buildinfo"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
)

// result assembles the Result of the run from the decision and what was
// computed, the fits described. It computes the risk table's closed-form
// measures when no rule did, BCa or BRisk for the table only when a rule
// already asked for them, and the BRisk fits of the risk sweep when a rule
// needs BRisk.
func (c *core) result(d *policies.Decision, o Options) *result.Result {
	p, s := c.p, c.whole
	r := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          result.Tool{Name: "riskgate", Version: buildinfo.Version()},
		Policy:        result.NewPolicy(p, c.set.now),
		Decision:      d,
	}
	var ws []warning
	for _, w := range p.Warnings(c.set.now) {
		ws = append(ws, warning{text: w, kind: result.AboutPolicy})
	}
	r.Data = result.Data{
		Measure: s.t.Measure, Champion: c.roles.Champion, Challengers: c.roles.Challengers, Artifacts: c.roles.Artifacts,
		Topics: s.t.Topics, MissingCells: s.t.Missing(), TopicCoverage: jsonfloat.Float(c.facts.TopicCoverage), Example: o.Example,
	}
	if r.Data.Artifacts == nil {
		r.Data.Artifacts = []string{}
	}
	if o.Alignment.Summary() != "" {
		a := o.Alignment
		r.Data.Alignment = &a
		ws = append(ws, warning{text: "inputs: " + a.Summary(), kind: result.AboutInputs})
	}
	for _, w := range o.InputWarnings {
		ws = append(ws, warning{text: w, kind: result.AboutInputs})
	}
	for _, sy := range append([]int{s.champ}, s.chals...) {
		role := result.RoleChallenger
		if sy == s.champ {
			role = result.RoleChampion
		}
		row := result.SystemScores{System: s.t.Systems[sy], Role: role}
		for _, v := range s.t.Scores[sy] {
			row.Scores = append(row.Scores, jsonfloat.Float(v))
		}
		r.Data.Scores = append(r.Data.Scores, row)
	}

	r.RiskTable = s.riskTable()

	if c.wholeBayes() {
		r.Bayes = s.described(s.rawFit())
	}
	for _, w := range c.briskWeights() {
		r.BRisk = append(r.BRisk, s.described(s.briskFit(w)))
	}
	if c.smallPool != "" && len(r.Fits()) > 0 {
		ws = append(ws, warning{text: "the Bayesian models took the system spread from the day-one prior " + dayOnePrior +
			", not from the pool (" + c.smallPool + "): a Bayesian rule can still fail, and a pass counts as " + string(c.p.InsufficientPool()) +
			" (on_insufficient_pool); with more artifacts (riskgate pool) they learn it from your own systems",
			kind: string(policies.AnalysisBayes), about: []about{{analysis: policies.AnalysisBayes}, {analysis: policies.AnalysisBRisk}}})
	}
	for _, f := range r.Fits() {
		what, a := "Bayesian fit", about{analysis: policies.AnalysisBayes}
		if f.Pool == result.PoolRiskAdjusted {
			// A fit of the risk sweep at a weight no rule uses concerns no rule.
			what, a = "BRisk fit at w = "+numfmt.G(f.LossWeight), about{analysis: policies.AnalysisBRisk, w: f.LossWeight}
		}
		if f.Unavailable != "" {
			ws = append(ws, analysisWarning(what+": "+f.Unavailable, a))
			continue
		}
		if !f.Converged {
			// One line: which check failed, and the setting to change.
			ws = append(ws, analysisWarning(what+" did not converge, so its rules are inconclusive: "+f.NotConverged, a))
		}
		for _, w := range f.Warnings {
			ws = append(ws, analysisWarning(what+": "+w, a))
		}
	}
	ws = append(ws, c.segFitWarnings()...)
	r.SetWarnings(c.tie(append(ws, c.warnings...)))
	r.Analyses = c.analyses()
	r.Provenance = result.Provenance{Inputs: []result.InputFile{}}
	if c.ran[policies.AnalysisBCa] || c.ran[policies.AnalysisTests] {
		r.Provenance.BootstrapSamples = gateBootstrapSamples
	}
	if f := r.Bayes; f != nil && f.Diagnostics != nil {
		r.Provenance.Sampler = &result.SamplerSettings{Family: f.Family, Method: f.Method, Chains: f.Diagnostics.Chains,
			Warmup: f.Diagnostics.Warmup, TargetESS: p.Model.TargetESS, MaxRhat: p.Model.MaxRhat,
			AdaptDelta: f.Diagnostics.AdaptDelta, MaxDepth: f.Diagnostics.MaxDepth}
	}
	return r
}

// described is f's FitResult with what reports show (slice.describe).
func (s *slice) described(f *fitted) *result.FitResult {
	s.describe(f)
	return f.res
}

// riskTable computes the Table 3 view at the policy's loss weight.
func (s *slice) riskTable() result.RiskTable {
	w := s.tableLossWeight()
	rt := result.RiskTable{LossWeight: w, Pool: "champion and challengers"}
	m := s.risk(w)

	var bca map[int]bcaOutcome
	if s.needs[policies.AnalysisBCa] {
		for _, q := range s.p.Queries() {
			if q.Analysis() == policies.AnalysisBCa && q.By == "" {
				rt.BCaLevel = q.IntervalLevel(len(s.chals))
				bca = s.bca(w, rt.BCaLevel)
				break
			}
		}
	}
	var brisk *result.FitResult
	if slices.Contains(s.wholeBRiskWeights(), w) {
		if f := s.described(s.briskFit(w)); f.Unavailable == "" {
			brisk = f
		}
	}

	for _, sy := range append([]int{s.champ}, s.chals...) {
		row := result.SystemRisk{Name: s.t.Systems[sy], Role: result.RoleChallenger, Mean: jsonfloat.Float(stats.MeanDefined(s.t.Scores[sy]))}
		if sy == s.champ {
			row.Role = result.RoleChampion
		} else {
			if o, err := s.pair(sy).Outcomes(); err == nil {
				row.Wins, row.Ties, row.Losses = &o.Wins, &o.Ties, &o.Losses
			}
			if v, err := s.descriptive(sy, policies.StatMeanDiff); err == nil {
				row.MeanDiff = jsonfloat.Ptr(v)
			}
			if m.errs[sy] == nil {
				row.URisk = jsonfloat.Ptr(m.urisk[sy].Value)
				row.TRisk = jsonfloat.Ptr(m.trisk[sy].T)
				row.TRiskP = jsonfloat.Ptr(m.trisk[sy].P)
			}
			if b, ok := bca[sy]; ok && b.err == nil {
				row.BCa = &result.Interval{Estimate: jsonfloat.Float(b.r.Estimate), Lo: jsonfloat.Float(b.r.BCa.Lo), Hi: jsonfloat.Float(b.r.BCa.Hi), Level: b.r.BCa.Level}
			}
		}
		if m.poolErr == nil {
			row.ZRisk = jsonfloat.Ptr(m.zrisk[sy])
			row.GeoRisk = jsonfloat.Ptr(m.georisk[sy])
		}
		if brisk != nil {
			for _, e := range brisk.Systems {
				if e.Name == row.Name {
					row.BRisk = &result.Interval{Estimate: e.Mean, Lo: e.Q2_5, Hi: e.Q97_5, Level: 0.95}
				}
			}
		}
		rt.Systems = append(rt.Systems, row)
	}
	if m.poolErr != nil {
		s.warnings = append(s.warnings, analysisWarning("ZRisk and GeoRisk: "+m.poolErr.Error(),
			about{analysis: policies.AnalysisRisk, quantities: []string{"zrisk", "georisk"}}))
	}
	return rt
}

// analyses says, for every analysis a policy can ask for, whether it ran.
func (c *core) analyses() []result.Analysis {
	var out []result.Analysis
	for _, a := range []policies.Analysis{policies.AnalysisDescriptive, policies.AnalysisRisk, policies.AnalysisTests,
		policies.AnalysisBCa, policies.AnalysisBayes, policies.AnalysisBRisk} {
		ra := result.Analysis{Name: a, Needed: c.needs[a], Computed: c.ran[a]}
		switch {
		case c.needs[a] && c.unmet[a] != "" && a.UsesArtifacts() && c.smallPool != "" && c.unmet[a] == c.smallPool:
			ra.Reason = "fitted with the day-one prior on the system spread (" + c.smallPool + "): its rules can fail, and a pass counts as " + string(c.p.InsufficientPool()) + " (on_insufficient_pool)"
		case c.needs[a] && c.unmet[a] != "":
			ra.Reason = "data requirements not met (" + c.unmet[a] + "): its rules can fail but cannot pass"
		case c.failed[a] != "":
			ra.Reason = c.failed[a]
		case !c.needs[a] && ra.Computed:
			ra.Reason = "no rule uses it; computed for the risk table"
		case !c.needs[a]:
			ra.Reason = "no rule uses it"
		}
		out = append(out, ra)
	}
	return out
}

// briskWeights are the loss weights of the run's BRisk fits, ascending: those
// the rules use and, when they use any, the --risk-sweep weights for the
// risk-against-loss-weight plot (w = 1 is the raw-score fit, so it is left
// out when a rule needs that fit: it is in the result anyway).
func (c *core) briskWeights() []float64 {
	haveRaw := c.wholeBayes()
	ws := c.wholeBRiskWeights()
	if len(ws) == 0 {
		return nil
	}
	for _, w := range c.set.sweep {
		if !(w == 1 && haveRaw) && !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	slices.Sort(ws)
	return ws
}
