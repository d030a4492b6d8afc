package report

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/gate/result"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// A synthetic gate Result for the HTML report's tests: every section the
// report draws, with numbers from a simple generative model so that the
// plots look like real ones (the Result's numbers are not checked here; the
// gate's tests check them). Same config, same Result, bit for bit.

type synthConfig struct {
	champion    string
	challengers []string
	artifacts   int
	topics      int
	weights     []float64 // loss weights of the risk-adjusted fits
	noBayes     bool      // no Bayesian rule: neither fit ran
	briskMsg    string    // the risk-adjusted fits are unavailable, for this reason
	seed        uint64
	topicNames  func(j int) string // default "301", "302", …
	artifactFmt string             // default "art-%03d"
	// shift, when set, is added to challenger c's score on topic j (a
	// segment it regresses in; segments_fixture_test.go).
	shift func(c string, j int) float64
}

// hostileName is a run name that tries to inject markup, a mention, a
// shell command and a markdown table cell.
const hostileName = "@octocat <img src=x> | `rm -rf`"

const (
	z975 = 1.959963984540054
	z75  = 0.6744897501960817
)

// normalEffect summarises a normal posterior N(mean, sd²).
func normalEffect(name, role string, mean, sd float64) result.Effect {
	return result.Effect{Name: name, Role: role, Mean: jsonfloat.Float(mean), SD: jsonfloat.Float(sd),
		Q2_5: jsonfloat.Float(mean - z975*sd), Q25: jsonfloat.Float(mean - z75*sd), Q50: jsonfloat.Float(mean), Q75: jsonfloat.Float(mean + z75*sd), Q97_5: jsonfloat.Float(mean + z975*sd),
		HDILo: jsonfloat.Float(mean - z975*sd), HDIHi: jsonfloat.Float(mean + z975*sd), Rhat: 1.001, ESSBulk: 5123, ESSTail: 4876}
}

// normalDensity is the density of N(mean, sd²) on result.DensityPoints points over mean ± 4 sd.
func normalDensity(mean, sd float64) result.Density {
	d := result.Density{Bandwidth: jsonfloat.Float(sd / 5)}
	for i := range result.DensityPoints {
		x := mean - 4*sd + 8*sd*float64(i)/float64(result.DensityPoints-1)
		z := (x - mean) / sd
		d.X = append(d.X, jsonfloat.Float(x))
		d.Y = append(d.Y, jsonfloat.Float(math.Exp(-z*z/2)/(sd*math.Sqrt(2*math.Pi))))
	}
	return d
}

func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

func jf(x float64) *jsonfloat.Float { v := jsonfloat.Float(x); return &v }

func synthResult(cfg synthConfig) *result.Result {
	if cfg.champion == "" {
		cfg.champion = "Champion"
	}
	if cfg.topicNames == nil {
		cfg.topicNames = func(j int) string { return fmt.Sprint(301 + j) }
	}
	if cfg.artifactFmt == "" {
		cfg.artifactFmt = "art-%03d"
	}
	rng := rand.New(rand.NewPCG(cfg.seed, 0x68746d6c))
	nT := cfg.topics
	topics := make([]string, nT)
	topicEff := make([]float64, nT)
	for j := range topics {
		topics[j] = cfg.topicNames(j)
		topicEff[j] = 0.14 * rng.NormFloat64()
	}
	const beta0, sigma = 0.26, 0.08
	type sys struct {
		name, role string
		eff, risk  float64 // system effect; spread of its per-topic deviations from the champion
		scores     []float64
	}
	var systems []sys
	systems = append(systems, sys{name: cfg.champion, role: result.RoleChampion, eff: 0.01})
	chalEff := []float64{0.08, 0.045, 0.03, 0.07, 0.012}
	chalRisk := []float64{0.004, 0.09, 0.05, 0.03, 0.04}
	for i, c := range cfg.challengers {
		systems = append(systems, sys{name: c, role: result.RoleChallenger, eff: chalEff[i%len(chalEff)], risk: chalRisk[i%len(chalRisk)]})
	}
	var artifacts []string
	for a := range cfg.artifacts {
		name := fmt.Sprintf(cfg.artifactFmt, a+1)
		artifacts = append(artifacts, name)
		systems = append(systems, sys{name: name, role: result.RoleArtifact, eff: -0.01 + 0.035*rng.NormFloat64(), risk: 0.05 + 0.03*rng.Float64()})
	}
	champ := &systems[0]
	champ.scores = make([]float64, nT)
	for j := range nT {
		champ.scores[j] = math.Min(math.Max(beta0+topicEff[j]+champ.eff+sigma*rng.NormFloat64(), 0), 1)
	}
	for i := 1; i < len(systems); i++ {
		s := &systems[i]
		s.scores = make([]float64, nT)
		for j := range nT {
			s.scores[j] = math.Min(math.Max(champ.scores[j]+(s.eff-champ.eff)+s.risk*rng.NormFloat64(), 0), 1)
			if cfg.shift != nil && s.role == result.RoleChallenger {
				s.scores[j] = math.Min(math.Max(s.scores[j]+cfg.shift(s.name, j), 0), 1)
			}
		}
	}
	// adjusted is s's score in the risk-adjusted pool at w: champion + d, losses × w.
	adjusted := func(s *sys, j int, w float64) float64 {
		if s.role == result.RoleChampion {
			return s.scores[j]
		}
		d := s.scores[j] - champ.scores[j]
		if d < 0 {
			d *= w
		}
		return champ.scores[j] + d
	}
	meanAdj := func(s *sys, w float64) float64 {
		sum := 0.0
		for j := range nT {
			sum += adjusted(s, j, w)
		}
		return sum / float64(nT)
	}
	grand := 0.0
	for i := range systems {
		grand += meanAdj(&systems[i], 1)
	}
	grand /= float64(len(systems))

	const seSys, seDiff, sePred = 0.012, 0.016, 0.085
	fit := func(w float64) *result.FitResult {
		f := &result.FitResult{Pool: result.PoolRaw, Family: "gaussian", Method: "collapsed", Converged: true,
			Priors: map[string]string{"intercept": "normal(0.26, 2.5)", "sigma": "exponential(5)", "sd_topic": "τ·sigma, τ ~ gamma(1, 1)", "sd_system": "τ·sigma, τ ~ gamma(1, 1)"}}
		if w != 1 {
			f.Pool, f.LossWeight = result.PoolRiskAdjusted, w
		}
		f.Parameters = []result.Effect{normalEffect("intercept", "", beta0, 0.02), normalEffect("sigma", "", sigma*math.Sqrt(w), 0.002),
			normalEffect("sd_topic", "", 0.14, 0.015), normalEffect("sd_system", "", 0.035, 0.004)}
		effects := map[string]float64{}
		for i := range systems {
			s := &systems[i]
			e := meanAdj(s, w) - grand
			effects[s.name] = e
			f.Systems = append(f.Systems, normalEffect(s.name, s.role, e, seSys*math.Sqrt(w)))
		}
		for j, t := range topics {
			f.Topics = append(f.Topics, normalEffect(t, "", topicEff[j], 0.03))
		}
		for _, c := range cfg.challengers {
			m, sd := effects[c]-effects[cfg.champion], seDiff*math.Sqrt(w)
			f.Comparisons = append(f.Comparisons, result.Comparison{Challenger: c, PBetter: jsonfloat.Float(1 - normalCDF(-m/sd)), PWorse: jsonfloat.Float(normalCDF(-m / sd)),
				Diff: result.Effect{Name: "diff", Mean: jsonfloat.Float(m), SD: jsonfloat.Float(sd), Q2_5: jsonfloat.Float(m - z975*sd), Q25: jsonfloat.Float(m - z75*sd), Q50: jsonfloat.Float(m),
					Q75: jsonfloat.Float(m + z75*sd), Q97_5: jsonfloat.Float(m + z975*sd), HDILo: jsonfloat.Float(m - z975*sd), HDIHi: jsonfloat.Float(m + z975*sd),
					Rhat: jsonfloat.Float(math.NaN()), ESSBulk: jsonfloat.Float(math.NaN()), ESSTail: jsonfloat.Float(math.NaN())},
				Intervals: []result.Interval{{Estimate: jsonfloat.Float(m), Lo: jsonfloat.Float(m - z975*sd), Hi: jsonfloat.Float(m + z975*sd), Level: 0.95}},
				Density:   normalDensity(m, sd)})
		}
		for i := range systems[:1+len(cfg.challengers)] {
			s := &systems[i]
			for j, t := range topics {
				m := beta0 + topicEff[j] + effects[s.name]
				f.Predictive = append(f.Predictive, result.Prediction{System: s.name, Topic: t, Observed: jsonfloat.Float(adjusted(s, j, w)),
					Mean: jsonfloat.Float(m), Lo: jsonfloat.Float(m - z975*sePred*math.Sqrt(w)), Hi: jsonfloat.Float(m + z975*sePred*math.Sqrt(w)), Level: 0.95})
			}
		}
		if w != 1 {
			for i := range cfg.challengers {
				s := &systems[1+i]
				tr := result.TopicsAtRisk{Challenger: s.name, Level: 0.95, Topics: []result.TopicAtRisk{}}
				mid := effects[s.name] - effects[cfg.champion]
				lo, hi := mid-z975*1.6*sePred*math.Sqrt(w), mid+z975*1.6*sePred*math.Sqrt(w)
				for j, t := range topics {
					if d := adjusted(s, j, w) - champ.scores[j]; d < lo {
						tr.Topics = append(tr.Topics, result.TopicAtRisk{Topic: t, Observed: jsonfloat.Float(d), Lo: jsonfloat.Float(lo), Hi: jsonfloat.Float(hi)})
					}
				}
				f.TopicsAtRisk = append(f.TopicsAtRisk, tr)
			}
		}
		f.Diagnostics = &result.Diagnostics{Chains: 4, Draws: 1000, Warmup: 1000, Thin: 1, AdaptDelta: 0.9, MaxDepth: 10, TargetESS: 4000, MaxRhat: 1.01,
			EBFMI: []jsonfloat.Float{1.02, 0.97, 1.05, 0.99}, WorstRhat: 1.003, WorstESSBulk: 4321, WorstESSTail: 4102}
		return f
	}

	r := &result.Result{SchemaVersion: result.SchemaVersion, Tool: result.Tool{Name: "riskgate", Version: "v0.0.0-test"}}
	r.Policy = result.Policy{Name: "release <gate>", File: "policies/release.yaml", SHA256: "3f1d…", Description: "Ship a challenger that is better on average & not riskier.",
		LossWeight: 5, Seed: 12345, Model: result.Model{Family: policies.Gaussian, Chains: 4, TargetESS: 4000, MaxRhat: 1.01},
		Requirements: result.Requirements{MinTopics: 25, MinArtifacts: 10, MinTopicCoverage: 0.9}, Select: policies.SelectBest, RankBy: "bayes.diff.mean",
		OnInconclusive: policies.Inconclusive}
	r.Data = result.Data{Measure: "ap", Champion: cfg.champion, Challengers: cfg.challengers, Artifacts: artifacts, Topics: topics, TopicCoverage: 1}
	for i := range systems[:1+len(cfg.challengers)] {
		s := &systems[i]
		ss := result.SystemScores{System: s.name, Role: s.role}
		for _, v := range s.scores {
			ss.Scores = append(ss.Scores, jsonfloat.Float(v))
		}
		r.Data.Scores = append(r.Data.Scores, ss)
	}

	// The Table 3 view at the policy's loss weight.
	w := r.Policy.LossWeight
	r.RiskTable = result.RiskTable{LossWeight: w, Pool: "champion and challengers"}
	for i := range systems[:1+len(cfg.challengers)] {
		s := &systems[i]
		row := result.SystemRisk{Name: s.name, Role: s.role, Mean: jsonfloat.Float(meanAdj(s, 1)), ZRisk: jf(-10 + 3*float64(i)), GeoRisk: jf(0.35 + 0.01*float64(i))}
		if s.role == result.RoleChallenger {
			var wins, ties, losses int
			var sum, sum2 float64
			for j := range nT {
				d := s.scores[j] - champ.scores[j]
				switch {
				case d > 0:
					wins++
				case d < 0:
					losses++
				default:
					ties++
				}
				a := adjusted(s, j, w) - champ.scores[j]
				sum += a
				sum2 += a * a
			}
			mean := sum / float64(nT)
			sd := math.Sqrt((sum2 - float64(nT)*mean*mean) / float64(nT-1))
			row.MeanDiff, row.Wins, row.Ties, row.Losses = jf(meanAdj(s, 1)-meanAdj(champ, 1)), &wins, &ties, &losses
			row.URisk, row.TRisk, row.TRiskP = jf(mean), jf(mean/(sd/math.Sqrt(float64(nT)))), jf(2*normalCDF(-math.Abs(mean/(sd/math.Sqrt(float64(nT))))))
		}
		r.RiskTable.Systems = append(r.RiskTable.Systems, row)
	}

	r.Analyses = []result.Analysis{
		{Name: policies.AnalysisDescriptive, Computed: true, Reason: "no rule uses it; computed for the risk table"},
		{Name: policies.AnalysisRisk, Computed: true, Reason: "no rule uses it; computed for the risk table"},
		{Name: policies.AnalysisBayes, Computed: !cfg.noBayes, Needed: !cfg.noBayes},
		{Name: policies.AnalysisBRisk, Computed: !cfg.noBayes && cfg.briskMsg == "", Needed: !cfg.noBayes, Reason: cfg.briskMsg},
	}
	if cfg.noBayes {
		r.Analyses[2].Reason, r.Analyses[3].Reason = "no rule uses it", "no rule uses it"
	}
	if !cfg.noBayes {
		r.Bayes = fit(1)
		for _, w := range cfg.weights {
			if cfg.briskMsg != "" {
				r.BRisk = append(r.BRisk, &result.FitResult{Pool: result.PoolRiskAdjusted, LossWeight: w, Unavailable: cfg.briskMsg})
				r.Warnings = append(r.Warnings, fmt.Sprintf("BRisk fit at w = %s: %s", numfmt.G(w), cfg.briskMsg))
				continue
			}
			r.BRisk = append(r.BRisk, fit(w))
		}
	}

	// The decision: better on average on the raw fit, not riskier at w = 5.
	d := &policies.Decision{Policy: r.Policy.Name, Select: policies.SelectBest, RankBy: r.Policy.RankBy, Selected: []string{}}
	better := policies.Query{Quantity: "bayes.p_better"}
	riskier := policies.Query{Quantity: "brisk.p_riskier", LossWeight: 5}
	geo := policies.Query{Quantity: "georisk", LossWeight: 5}
	r.Policy.Rules = []result.Rule{
		{ID: "better-on-average", Line: 12, Column: 5, Quantity: better.Quantity, Query: better.String(), Bound: policies.Bound{Op: policies.AtLeast, Value: 0.95}, BoundWords: "at least 0.95", Severity: policies.SeverityFail},
		{ID: "not-riskier", Line: 17, Column: 5, Quantity: riskier.Quantity, Query: riskier.String(), Bound: policies.Bound{Op: policies.AtMost, Value: 0.05}, BoundWords: "at most 0.05", Severity: policies.SeverityFail},
		{ID: "georisk-not-worse", Line: 22, Column: 5, Quantity: geo.Quantity, Query: geo.String(), Bound: policies.Bound{Op: policies.AtLeast, Value: 0.365}, BoundWords: "at least 0.365", Severity: policies.SeverityWarn},
	}
	r.Policy.Waivers = []result.Waiver{
		{Rule: "georisk-not-worse", Challenger: "Chal. *", Reason: "GeoRisk <regressed> on purpose", Approver: "@lead", Expires: "2030-01-31", Active: true},
		{Rule: "not-riskier", Challenger: "Chal. 2", Reason: "old exception", Approver: "@lead", Expires: "2020-01-31", Active: false},
	}
	best, bestV := "", math.Inf(-1)
	for i, c := range cfg.challengers {
		cd := policies.ChallengerDecision{Name: c, Verdict: policies.Pass}
		obs := func(f *result.FitResult, get func(result.Comparison) float64) policies.Observation {
			switch {
			case f == nil:
				return policies.Unavailable("no rule needed the fit")
			case f.Unavailable != "":
				return policies.Unavailable(f.Unavailable)
			}
			cmp, _ := comparison(f, c)
			return policies.Number(get(cmp))
		}
		var brisk5 *result.FitResult
		for _, f := range r.BRisk {
			if f.LossWeight == 5 {
				brisk5 = f
			}
		}
		if len(r.BRisk) > 0 && brisk5 == nil {
			brisk5 = &result.FitResult{Unavailable: "no fit at w = 5"}
		}
		var raw *result.FitResult = r.Bayes
		results := []struct {
			q    policies.Query
			rule result.Rule
			o    policies.Observation
		}{
			{better, r.Policy.Rules[0], obs(raw, func(c result.Comparison) float64 { return float64(c.PBetter) })},
			{riskier, r.Policy.Rules[1], obs(brisk5, func(c result.Comparison) float64 { return float64(c.PWorse) })},
			{geo, r.Policy.Rules[2], policies.Number(float64(*r.RiskTable.Systems[1+i].GeoRisk))},
		}
		for k, x := range results {
			rr := policies.RuleResult{Rule: x.rule.ID, Quantity: x.q.Quantity, Query: x.q, Severity: x.rule.Severity, Bound: x.rule.Bound,
				BoundWords: x.rule.BoundWords, Observed: x.o, Outcome: policies.OutcomePass}
			switch {
			case !x.o.Present():
				rr.Outcome, rr.Reason = policies.OutcomeInconclusive, x.o.Missing()
			case !x.rule.Bound.Holds(x.o) && x.rule.Severity == policies.SeverityWarn:
				rr.Outcome, rr.WaivedOutcome, rr.Reason = policies.OutcomeWaived, policies.OutcomeWarn, "observed "+observedText(x.o, x.rule.Bound)+"; needs "+x.rule.BoundWords
				rr.Waiver = &policies.WaiverUse{Rule: x.rule.ID, Challenger: "Chal. *", Reason: "GeoRisk <regressed> on purpose", Approver: "@lead", Expires: "2030-01-31", Applied: true}
			case !x.rule.Bound.Holds(x.o):
				rr.Outcome, rr.Reason = policies.OutcomeFail, "observed "+observedText(x.o, x.rule.Bound)+"; needs "+x.rule.BoundWords
				if k == 1 && i == 1 {
					rr.Waiver = &policies.WaiverUse{Rule: x.rule.ID, Challenger: "Chal. 2", Reason: "old exception", Approver: "@lead", Expires: "2020-01-31",
						Note: "waiver expired on 2020-01-31 and no longer applies"}
				}
			}
			switch {
			case rr.Outcome == policies.OutcomeFail:
				cd.Verdict = policies.Fail
			case rr.Outcome == policies.OutcomeInconclusive && cd.Verdict != policies.Fail:
				cd.Verdict = policies.Inconclusive
			}
			cd.Rules = append(cd.Rules, rr)
		}
		cd.Reason = string(cd.Verdict)
		if cd.Verdict == policies.Pass {
			if v, ok := cd.Rules[0].Observed.Number(); ok && v > bestV {
				best, bestV = c, v
			}
		}
		d.Challengers = append(d.Challengers, cd)
	}
	// No challenger passes: inconclusive when one could still pass, else fail.
	d.Verdict = policies.Fail
	for i := range d.Challengers {
		if d.Challengers[i].Verdict == policies.Inconclusive {
			d.Verdict = policies.Inconclusive
		}
	}
	for i := range d.Challengers {
		if d.Challengers[i].Name == best {
			d.Challengers[i].Selected = true
			d.Selected = []string{best}
			d.Verdict = policies.Pass
		}
	}
	d.Raw = d.Verdict
	d.Reason = "the decision of a synthetic run <for tests>"
	d.Notes = []string{"waiver for not-riskier on Chal. 2 expired on 2020-01-31 and no longer applies"}
	r.Decision = d
	r.Warnings = append(r.Warnings, "2 topic(s) were dropped: not scored for every system")
	r.Provenance = result.Provenance{
		Inputs:  []result.InputFile{{Role: "scores", Path: "runs/<rb04>.csv", SHA256: "9b2c…", Bytes: 123456}},
		Command: "riskgate gate --policy policies/release.yaml 'runs/<rb04>.csv'", StartedAt: "2026-01-02T03:04:05Z", ElapsedMS: 1234,
		Timings: map[string]int64{"risk": 1, "bayes": 800, "brisk": 900}}
	if !cfg.noBayes {
		r.Provenance.Sampler = &result.SamplerSettings{Family: "gaussian", Method: "collapsed", Chains: 4, Warmup: 1000, TargetESS: 4000, MaxRhat: 1.01, AdaptDelta: 0.9, MaxDepth: 10}
	}
	return r
}
