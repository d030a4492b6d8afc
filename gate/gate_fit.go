package gate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/policies"
)

// A fitted hierarchical model as the gate uses it: its FitResult for the
// reports and, per challenger, the posterior draws of δ = S_challenger −
// S_champion that the bayes.*, brisk.* and rope.* quantities are read from.
type fitted struct {
	res   *FitResult
	diffs map[string][]float64 // challenger → δ draws, chains one after the other
}

// observe reads one query of a challenger off the fit. A fit that is
// unavailable or did not converge gives no value: its rules are inconclusive.
func (f *fitted) observe(challenger string, q policies.Query) policies.Observation {
	if f.res.Unavailable != "" {
		return policies.Unavailable(f.res.Unavailable)
	}
	what := "the Bayesian fit"
	if f.res.Pool == PoolRiskAdjusted {
		what = "the BRisk fit at loss weight " + fmtG(f.res.LossWeight)
	}
	if !f.res.Converged {
		return policies.Unavailable(what + " did not converge: " + strings.Join(f.res.Warnings, "; "))
	}
	d := f.diffs[challenger]
	level := q.Level
	switch q.Quantity {
	case "bayes.p_better":
		return policies.Number(bayes.ProbGreater(d, 0))
	case "brisk.p_riskier":
		return policies.Number(probLess(d, 0))
	case "bayes.diff.mean", "brisk.diff.mean":
		return policies.Number(bayes.Mean(d))
	case "bayes.diff.lo", "brisk.diff.lo":
		return policies.Number(bayes.Quantile(d, (1-level)/2))
	case "bayes.diff.hi", "brisk.diff.hi":
		return policies.Number(bayes.Quantile(d, (1+level)/2))
	case "rope.decision":
		r := bayes.ROPEDecision(d, bayes.ROPE{Lo: q.Rope[0], Hi: q.Rope[1]}, level)
		return policies.Category(string(r.Decision))
	case "topics_at_risk.count":
		for _, tr := range f.res.TopicsAtRisk {
			if tr.Challenger == challenger && tr.Level == level {
				return policies.Number(float64(len(tr.Topics)))
			}
		}
		return policies.Unavailable(fmt.Sprintf("%s has no topics-at-risk analysis at level %s", what, fmtG(level)))
	}
	return policies.Unavailable(fmt.Sprintf("%s does not give %s", what, q.Quantity))
}

// probLess is the share of draws strictly below threshold: P(θ < threshold).
func probLess(draws []float64, threshold float64) float64 {
	n := 0
	for _, v := range draws {
		if v < threshold {
			n++
		}
	}
	return float64(n) / float64(len(draws))
}

// predictiveLevel is the level of the per-topic predictive intervals.
const predictiveLevel = 0.95

// maxPredictiveDraws caps the posterior draws each predictive interval is
// simulated from, so that large tables stay fast.
const maxPredictiveDraws = 4000

// densityPoints is the size of the grid of Comparison.Density.
const densityPoints = 64

// summarizeFit fills res from the fit f of table t: parameters, effects,
// comparisons of every challenger with the champion (δ with its 95% and the
// rules' central intervals, the ROPE decisions the rules ask for, a density
// of δ), per-topic predictive intervals of the champion and the challengers
// (replicates drawn from a stream of seed), and the sampler's diagnostics.
func summarizeFit(f *bayes.HierFit, res *FitResult, t *bayes.Table, roles policies.Roles, levels []float64, ropes []policies.Query, seed uint64, maxRhat float64) *fitted {
	res.Family = string(policies.Gaussian)
	res.Method = string(f.Method)
	res.Priors = priorWords(f.Priors)
	res.Converged = f.Converged
	res.Warnings = slices.Clone(f.Warnings)

	role := func(s string) string {
		switch {
		case s == roles.Champion:
			return roleChampion
		case slices.Contains(roles.Challengers, s):
			return roleChallenger
		}
		return roleArtifact
	}
	// Every quantity of the model, summarised in parallel (each on its own).
	names := []string{"intercept", "sigma", "sd_topic", "sd_system"}
	effects := make([]Effect, len(f.Names))
	parallel.Each(len(f.Names), func(v int) {
		var name, r string
		switch {
		case v < len(names):
			name = names[v]
		case v < f.SystemIndex(0):
			name = f.Topics[v-f.TopicIndex(0)]
		default:
			name = f.Systems[v-f.SystemIndex(0)]
			r = role(name)
		}
		effects[v] = effectOf(name, r, f.Summary[v], pooled(f.DrawsOf(v)))
	})
	res.Parameters = effects[:len(names)]
	res.Topics = effects[f.TopicIndex(0):f.SystemIndex(0)]
	res.Systems = effects[f.SystemIndex(0):]

	out := &fitted{res: res, diffs: map[string][]float64{}}
	champ := slices.Index(f.Systems, roles.Champion)
	for _, c := range roles.Challengers {
		s := slices.Index(f.Systems, c)
		a, b := f.DrawsOf(f.SystemIndex(s)), f.DrawsOf(f.SystemIndex(champ))
		chains := make([][]float64, len(a))
		for m := range a {
			chains[m] = make([]float64, len(a[m]))
			for i := range a[m] {
				chains[m][i] = a[m][i] - b[m][i]
			}
		}
		d := pooled(chains)
		out.diffs[c] = d
		res.Comparisons = append(res.Comparisons, compare(c, chains, d, levels, ropes))
	}

	compared := append([]string{roles.Champion}, roles.Challengers...)
	res.Predictive = predictive(f, t, compared, seed)
	res.Diagnostics = diagnostics(f, maxRhat)
	return out
}

// predictiveStream is the PCG stream of the predictive replicates ("pred").
const predictiveStream = 0x70726564

// pooled returns the draws of all chains, one chain after the other.
func pooled(chains [][]float64) []float64 {
	var out []float64
	for _, c := range chains {
		out = append(out, c...)
	}
	return out
}

// effectOf summarises a quantity from its summary and its pooled draws.
func effectOf(name, role string, s bayes.VarSummary, draws []float64) Effect {
	y := slices.Clone(draws)
	slices.Sort(y)
	return Effect{
		Name: name, Role: role,
		Mean: JSONFloat(s.Mean), SD: JSONFloat(s.SD),
		Q2_5: JSONFloat(s.Q2_5), Q25: JSONFloat(bayes.QuantileSorted(y, 0.25)), Q50: JSONFloat(s.Q50),
		Q75: JSONFloat(bayes.QuantileSorted(y, 0.75)), Q97_5: JSONFloat(s.Q97_5),
		HDILo: JSONFloat(s.HDILo), HDIHi: JSONFloat(s.HDIHi),
		Rhat: JSONFloat(s.Rhat), ESSBulk: JSONFloat(s.ESSBulk), ESSTail: JSONFloat(s.ESSTail),
	}
}

// compare summarises δ = S_challenger − S_champion from its draws (per
// chain, and pooled d).
func compare(challenger string, chains [][]float64, d []float64, levels []float64, ropes []policies.Query) Comparison {
	c := Comparison{
		Challenger: challenger,
		PBetter:    JSONFloat(bayes.ProbGreater(d, 0)),
		PWorse:     JSONFloat(probLess(d, 0)),
		Diff:       effectOf("diff", "", bayes.Summarize(chains), d),
	}
	y := slices.Clone(d)
	slices.Sort(y)
	all := []float64{0.95}
	for _, l := range levels {
		if !slices.Contains(all, l) {
			all = append(all, l)
		}
	}
	slices.Sort(all)
	for _, l := range all {
		c.Intervals = append(c.Intervals, ResultInterval{Estimate: JSONFloat(bayes.Mean(d)),
			Lo: JSONFloat(bayes.QuantileSorted(y, (1-l)/2)), Hi: JSONFloat(bayes.QuantileSorted(y, (1+l)/2)), Level: l})
	}
	for _, q := range ropes {
		r := bayes.ROPEDecision(d, bayes.ROPE{Lo: q.Rope[0], Hi: q.Rope[1]}, q.Level)
		c.ROPE = append(c.ROPE, ROPEResult{Lo: r.Lo, Hi: r.Hi, Level: r.CredMass, HDILo: JSONFloat(r.HDILo), HDIHi: JSONFloat(r.HDIHi),
			Inside: JSONFloat(r.Inside), Decision: string(r.Decision)})
	}
	c.Density = density(y, d)
	return c
}

// density estimates the density of the draws (y sorted, d as drawn) with a
// Gaussian kernel and R's default bandwidth (bayes.BandwidthNRD0) on an even
// grid from the 0.05% to the 99.95% quantile, widened by two bandwidths.
func density(y, d []float64) Density {
	h := bayes.BandwidthNRD0(d)
	out := Density{Bandwidth: JSONFloat(h)}
	if !(h > 0) || len(y) < 2 {
		return out
	}
	lo := bayes.QuantileSorted(y, 0.0005) - 2*h
	hi := bayes.QuantileSorted(y, 0.9995) + 2*h
	for i := range densityPoints {
		x := lo + (hi-lo)*float64(i)/float64(densityPoints-1)
		out.X = append(out.X, JSONFloat(x))
		out.Y = append(out.Y, JSONFloat(bayes.KernelDensityBW(y, x, h)))
	}
	return out
}

// predictive simulates, for every topic of each named system, replicates
// y_rep = β0 + T_t + S_s + σ·z (z ~ N(0, 1)) from up to maxPredictiveDraws
// posterior draws spread evenly over the chains, and returns their mean and
// central predictiveLevel interval beside the observed score. Each cell
// draws its z from its own stream PCG(seed, predictiveStream + cell), so the
// result does not depend on how the cells are spread over goroutines.
func predictive(f *bayes.HierFit, t *bayes.Table, systems []string, seed uint64) []Prediction {
	S := f.Chains * f.Draws
	n := min(S, maxPredictiveDraws)
	// The chain and iteration of each of the n draws used.
	chain, iter := make([]int, n), make([]int, n)
	beta, sigma := make([]float64, n), make([]float64, n)
	d := f.Sampler.Draws
	for k := range n {
		g := k * S / n
		chain[k], iter[k] = g/f.Draws, g%f.Draws
		beta[k], sigma[k] = d[bayes.IdxIntercept][chain[k]][iter[k]], d[bayes.IdxSigma][chain[k]][iter[k]]
	}
	nT := len(f.Topics)
	out := make([]Prediction, len(systems)*nT)
	parallel.For(len(out), 0, func() func(int) {
		y := make([]float64, n)
		return func(cell int) {
			name, j := systems[cell/nT], cell%nT
			s := slices.Index(f.Systems, name)
			topic, system := d[f.TopicIndex(j)], d[f.SystemIndex(s)]
			r := rand.New(rand.NewPCG(seed, predictiveStream+uint64(cell)))
			sum := 0.0
			for k := range n {
				y[k] = beta[k] + topic[chain[k]][iter[k]] + system[chain[k]][iter[k]] + sigma[k]*r.NormFloat64()
				sum += y[k]
			}
			slices.Sort(y)
			out[cell] = Prediction{System: name, Topic: f.Topics[j], Observed: JSONFloat(t.Scores[s][j]),
				Mean: JSONFloat(sum / float64(n)), Lo: JSONFloat(bayes.QuantileSorted(y, (1-predictiveLevel)/2)),
				Hi: JSONFloat(bayes.QuantileSorted(y, (1+predictiveLevel)/2)), Level: predictiveLevel}
		}
	})
	return out
}

// diagnostics collects the sampler's settings and the worst convergence figures.
func diagnostics(f *bayes.HierFit, maxRhat float64) *Diagnostics {
	so := f.Sampler.Options
	d := &Diagnostics{Chains: f.Chains, Draws: f.Draws, Warmup: max(so.Warmup, 0), Thin: so.Thin, Extended: f.Extended,
		AdaptDelta: so.AdaptDelta, MaxDepth: so.MaxDepth, TargetESS: f.TargetESS, MaxRhat: maxRhat,
		Divergences: f.Divergences, MaxDepthHits: f.MaxDepthHits}
	for _, e := range f.EBFMI {
		d.EBFMI = append(d.EBFMI, JSONFloat(e))
	}
	worstR, worstB, worstT := math.Inf(-1), math.Inf(1), math.Inf(1)
	for _, s := range f.Summary {
		worstR, worstB, worstT = nanMax(worstR, s.Rhat), nanMin(worstB, s.ESSBulk), nanMin(worstT, s.ESSTail)
	}
	d.WorstRhat, d.WorstESSBulk, d.WorstESSTail = JSONFloat(worstR), JSONFloat(worstB), JSONFloat(worstT)
	return d
}

// priorWords names the priors of a fit as rstanarm prints them.
func priorWords(p bayes.HierPriors) map[string]string {
	m := map[string]string{"intercept": p.Intercept.String(), "sigma": p.Sigma.String()}
	if p.Relative {
		m["sd_topic"] = "τ·sigma, τ ~ " + p.SDTopic.String()
		m["sd_system"] = "τ·sigma, τ ~ " + p.SDSystem.String()
	} else {
		m["sd_topic"], m["sd_system"] = p.SDTopic.String(), p.SDSystem.String()
	}
	return m
}
