package engine

import (
	"slices"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/buildinfo"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
)

// result assembles the Result of the run from the decision and what was
// computed. It computes the risk table's closed-form measures when no rule
// did, and BCa or BRisk for the table only when a rule already asked for them.
func (g *gateRun) result(d *policies.Decision, facts policies.Facts, align scores.Alignment, example bool) *result.Result {
	p := g.p
	r := &result.Result{
		SchemaVersion: result.SchemaVersion,
		Tool:          result.Tool{Name: "riskgate", Version: buildinfo.Version()},
		Verdict:       d.Verdict,
		ExitStatus:    result.ExitStatus(d.Verdict),
		Policy:        result.NewPolicy(p, g.now),
		Decision:      d,
		Warnings:      []string{},
	}
	r.Data = result.Data{
		Measure: g.t.Measure, Champion: g.roles.Champion, Challengers: g.roles.Challengers, Artifacts: g.roles.Artifacts,
		Topics: g.t.Topics, MissingCells: g.t.Missing(), TopicCoverage: jsonfloat.Float(facts.TopicCoverage), Example: example,
	}
	if r.Data.Artifacts == nil {
		r.Data.Artifacts = []string{}
	}
	if align.Summary() != "" {
		a := align
		r.Data.Alignment = &a
		r.Warnings = append(r.Warnings, "inputs: "+align.Summary())
	}
	for _, s := range append([]int{g.champ}, g.chals...) {
		role := result.RoleChallenger
		if s == g.champ {
			role = result.RoleChampion
		}
		row := result.SystemScores{System: g.t.Systems[s], Role: role}
		for _, v := range g.t.Scores[s] {
			row.Scores = append(row.Scores, jsonfloat.Float(v))
		}
		r.Data.Scores = append(r.Data.Scores, row)
	}

	r.RiskTable = g.riskTable()

	if g.needs[policies.AnalysisBayes] {
		r.Bayes = g.bayesFit().res
	}
	for _, w := range g.briskWeights(r.Bayes != nil) {
		r.BRisk = append(r.BRisk, g.briskFit(w).res)
	}
	if g.smallPool != "" && len(r.Fits()) > 0 {
		r.Warnings = append(r.Warnings, "the Bayesian models were fitted over the champion and the challengers alone ("+g.smallPool+
			"): a Bayesian rule can still fail, and a pass counts as "+string(g.p.InsufficientPool())+" (on_insufficient_pool)")
	}
	for _, f := range r.Fits() {
		what := "Bayesian fit"
		if f.Pool == result.PoolRiskAdjusted {
			what = "BRisk fit at w = " + numfmt.G(f.LossWeight)
		}
		if f.Unavailable != "" {
			r.Warnings = append(r.Warnings, what+": "+f.Unavailable)
			continue
		}
		if !f.Converged {
			// One line: which check failed, and the setting to change.
			r.Warnings = append(r.Warnings, what+" did not converge, so its rules are inconclusive: "+f.NotConverged)
		}
		for _, w := range f.Warnings {
			r.Warnings = append(r.Warnings, what+": "+w)
		}
	}
	r.Warnings = append(r.Warnings, g.warnings...)
	r.Analyses = g.analyses()
	r.Provenance = result.Provenance{
		ToolVersion: buildinfo.Version(), PolicyFile: p.File, PolicySHA256: p.Digest, Seed: p.Seed, Inputs: []result.InputFile{},
	}
	if g.ran[policies.AnalysisBCa] || g.ran[policies.AnalysisTests] {
		r.Provenance.BootstrapSamples = gateBootstrapSamples
	}
	if f := r.Bayes; f != nil && f.Diagnostics != nil {
		r.Provenance.Sampler = &result.SamplerSettings{Family: f.Family, Method: f.Method, Chains: f.Diagnostics.Chains,
			Warmup: f.Diagnostics.Warmup, TargetESS: p.Model.TargetESS, MaxRhat: p.Model.MaxRhat,
			AdaptDelta: f.Diagnostics.AdaptDelta, MaxDepth: f.Diagnostics.MaxDepth}
	}
	return r
}

// riskTable computes the Table 3 view at the policy's loss weight.
func (g *gateRun) riskTable() result.RiskTable {
	w := g.tableLossWeight()
	rt := result.RiskTable{LossWeight: w, Pool: "champion and challengers"}
	m := g.risk(w)

	var bca map[int]bcaOutcome
	if g.needs[policies.AnalysisBCa] {
		for _, q := range g.p.Queries() {
			if q.Analysis() == policies.AnalysisBCa {
				rt.BCaLevel = q.IntervalLevel(len(g.chals))
				bca = g.bca(w, rt.BCaLevel)
				break
			}
		}
	}
	var brisk *result.FitResult
	if slices.Contains(g.p.BRiskWeights(), w) {
		if f := g.briskFit(w).res; f.Unavailable == "" {
			brisk = f
		}
	}

	for _, s := range append([]int{g.champ}, g.chals...) {
		row := result.SystemRisk{Name: g.t.Systems[s], Role: result.RoleChallenger, Mean: jsonfloat.Float(stats.MeanDefined(g.t.Scores[s]))}
		if s == g.champ {
			row.Role = result.RoleChampion
		} else {
			if o, err := g.pair(s).Outcomes(); err == nil {
				row.Wins, row.Ties, row.Losses = &o.Wins, &o.Ties, &o.Losses
			}
			if v, err := g.descriptive(s, policies.StatMeanDiff); err == nil {
				row.MeanDiff = jsonfloat.Ptr(v)
			}
			if m.errs[s] == nil {
				row.URisk = jsonfloat.Ptr(m.urisk[s].Value)
				row.TRisk = jsonfloat.Ptr(m.trisk[s].T)
				row.TRiskP = jsonfloat.Ptr(m.trisk[s].P)
			}
			if b, ok := bca[s]; ok && b.err == nil {
				row.BCa = &result.Interval{Estimate: jsonfloat.Float(b.r.Estimate), Lo: jsonfloat.Float(b.r.BCa.Lo), Hi: jsonfloat.Float(b.r.BCa.Hi), Level: b.r.BCa.Level}
			}
		}
		if m.poolErr == nil {
			row.ZRisk = jsonfloat.Ptr(m.zrisk[s])
			row.GeoRisk = jsonfloat.Ptr(m.georisk[s])
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
		g.warnings = append(g.warnings, "ZRisk and GeoRisk: "+m.poolErr.Error())
	}
	return rt
}

// analyses says, for every analysis a policy can ask for, whether it ran.
func (g *gateRun) analyses() []result.Analysis {
	var out []result.Analysis
	for _, a := range []policies.Analysis{policies.AnalysisDescriptive, policies.AnalysisRisk, policies.AnalysisTests,
		policies.AnalysisBCa, policies.AnalysisBayes, policies.AnalysisBRisk} {
		ra := result.Analysis{Name: a, Needed: g.needs[a], Computed: g.ran[a]}
		switch {
		case g.needs[a] && g.unmet[a] != "" && a.UsesArtifacts() && g.smallPool != "" && g.unmet[a] == g.smallPool:
			ra.Reason = "fitted over the champion and the challengers alone (" + g.smallPool + "): its rules can fail, and a pass counts as " + string(g.p.InsufficientPool()) + " (on_insufficient_pool)"
		case g.needs[a] && g.unmet[a] != "":
			ra.Reason = "data requirements not met (" + g.unmet[a] + "): its rules can fail but cannot pass"
		case g.failed[a] != "":
			ra.Reason = g.failed[a]
		case !g.needs[a] && ra.Computed:
			ra.Reason = "no rule uses it; computed for the risk table"
		case !g.needs[a]:
			ra.Reason = "no rule uses it"
		}
		out = append(out, ra)
	}
	return out
}

// briskWeights are the loss weights of the run's BRisk fits, ascending: those
// the rules use and, when they use any, the --risk-sweep weights for the
// risk-against-loss-weight plot (w = 1 is the raw-score fit, so it is left
// out when that fit is in the result anyway).
func (g *gateRun) briskWeights(haveRaw bool) []float64 {
	ws := slices.Clone(g.p.BRiskWeights())
	if len(ws) == 0 {
		return nil
	}
	for _, w := range g.sweep {
		if !(w == 1 && haveRaw) && !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	slices.Sort(ws)
	return ws
}
