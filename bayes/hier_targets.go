package bayes

// The estimates of a fit's decision targets (Target, TargetEstimate):
// Rao–Blackwellised where the fit's path allows it, else from the draws.

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/bayes/posterior"
)

// EstimateTargets estimates each target from f's draws (Rao–Blackwellised
// where f's path allows it; see TargetEstimate) and marks those farther than
// k·MCSE from every bound [k 4 when 0]. It works on any fit, sequential or
// not.
func (f *HierFit) EstimateTargets(targets []Target, k float64) ([]TargetEstimate, error) {
	if k == 0 {
		k = defaultSeqK
	}
	if !(k > 0) || math.IsInf(k, 0) {
		return nil, fmt.Errorf("k %v is not a positive number", k)
	}
	for i, t := range targets {
		if err := t.validate(len(f.Systems)); err != nil {
			return nil, fmt.Errorf("target %d: %w", i+1, err)
		}
	}
	return f.estimateTargets(targets, k), nil
}

// estimateTargets is EstimateTargets of validated targets.
func (f *HierFit) estimateTargets(targets []Target, k float64) []TargetEstimate {
	out := make([]TargetEstimate, len(targets))
	for i, t := range targets {
		w := f.estimate(t, k)
		w.diagnose()
		out[i] = w.e
	}
	return out
}

// targetWork is a target's estimate with the draws it came from, so that
// the convergence diagnostics can follow once the cheap part is known.
type targetWork struct {
	e    TargetEstimate
	d    [][]float64 // draws of S_A − S_B, chain by chain
	vals [][]float64 // a Rao–Blackwellised estimate's per-draw values
}

// contrastModel is implemented by collapsed models under which the system
// effects are jointly normal given the variance parameters: contrastMoments
// gives the conditional mean and SD of S_a − S_b at a draw's σ, SD_topic
// and SD_system. It must be safe for concurrent use.
type contrastModel interface {
	contrastMoments(sigma, sdTopic, sdSystem float64, a, b int) (mean, sd float64)
}

// estimate is a validated target's Value, MCSE, ESS and Decided; the
// diagnostics of the draws (Rhat, ESSBulk, ESSTail, ValuesRhat) are NaN
// until diagnose.
func (f *HierFit) estimate(t Target, k float64) *targetWork {
	nan := math.NaN()
	w := &targetWork{e: TargetEstimate{Target: t, Rhat: nan, ESSBulk: nan, ESSTail: nan, ValuesRhat: nan}}
	w.d = f.SystemDiffChains(t.A, t.B)
	if cm, ok := f.model.(contrastModel); ok && !t.FromDraws {
		f.estimateRB(w, cm)
	} else {
		f.estimateFromDraws(w)
	}
	e := &w.e
	e.Decided = !math.IsNaN(e.Value) && !math.IsNaN(e.MCSE)
	for _, b := range t.Bounds {
		if !(math.Abs(e.Value-b) > k*e.MCSE) {
			e.Decided = false
		}
	}
	return w
}

// diagnose fills the convergence diagnostics of the draws of S_A − S_B and
// of a Rao–Blackwellised estimate's per-draw values.
func (w *targetWork) diagnose() {
	s := posterior.SummarizeConvergence([][][]float64{w.d}, 1)[0]
	w.e.Rhat, w.e.ESSBulk, w.e.ESSTail = s.Rhat, s.ESSBulk, s.ESSTail
	if w.e.RaoBlackwell && !w.e.Exact {
		w.e.ValuesRhat = posterior.Rhat(w.vals)
	}
}

// perDraw applies g to every draw's conditional moments of S_a − S_b and σ,
// chain by chain.
func (f *HierFit) perDraw(cm contrastModel, a, b int, g func(mu, sd, sigma float64) float64) [][]float64 {
	sig, st, ss := f.Sampler.Draws[IdxSigma], f.Sampler.Draws[IdxSDTopic], f.Sampler.Draws[IdxSDSystem]
	out := make([][]float64, len(sig))
	for m := range sig {
		out[m] = make([]float64, len(sig[m]))
		for i, sigma := range sig[m] {
			mu, sd := cm.contrastMoments(sigma, st[m][i], ss[m][i], a, b)
			out[m][i] = g(mu, sd, sigma)
		}
	}
	return out
}

// estimateRB is the Rao–Blackwellised estimate (see TargetEstimate).
func (f *HierFit) estimateRB(w *targetWork, cm contrastModel) {
	e := &w.e
	e.RaoBlackwell = true
	t := e.Target
	switch t.Stat {
	case ProbAbove:
		w.vals = f.perDraw(cm, t.A, t.B, func(mu, sd, _ float64) float64 { return stdNormalCDF((mu - t.Threshold) / sd) })
	case ProbBelow:
		w.vals = f.perDraw(cm, t.A, t.B, func(mu, sd, _ float64) float64 { return stdNormalCDF((t.Threshold - mu) / sd) })
	case MeanDiff:
		w.vals = f.perDraw(cm, t.A, t.B, func(mu, _, _ float64) float64 { return mu })
	case QuantileDiff, PredictiveQuantileDiff:
		// given the draw, a replicated difference adds two errors: N(μ, s² + 2σ²)
		noise := 0.0
		if t.Stat == PredictiveQuantileDiff {
			noise = 2
		}
		mus := f.perDraw(cm, t.A, t.B, func(mu, _, _ float64) float64 { return mu })
		sds := f.perDraw(cm, t.A, t.B, func(_, sd, sigma float64) float64 { return math.Sqrt(sd*sd + noise*sigma*sigma) })
		q := mixtureQuantile(PoolChains(mus), PoolChains(sds), t.P)
		w.vals = make([][]float64, len(mus))
		dens, n := 0.0, 0
		for m := range mus {
			w.vals[m] = make([]float64, len(mus[m]))
			for i, mu := range mus[m] {
				z := (q - mu) / sds[m][i]
				w.vals[m][i] = stdNormalCDF(z)
				dens += stdNormalPDF(z) / sds[m][i]
				n++
			}
		}
		w.meanOfValues()
		e.Value = q
		if !e.Exact {
			e.MCSE /= dens / float64(n)
		}
		return
	}
	w.meanOfValues()
}

// meanOfValues sets Value, MCSE and ESS of the mean of w.vals (posterior's
// mcse_mean = sd/√ess_mean), or marks it Exact when they are constant.
func (w *targetWork) meanOfValues() {
	e := &w.e
	pooled := PoolChains(w.vals)
	e.Value = posterior.Mean(pooled)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range pooled {
		lo, hi = min(lo, v), max(hi, v)
	}
	if hi-lo < 0x1p-52 { // posterior's is_constant
		e.Exact, e.MCSE, e.ESS = true, 0, math.NaN()
		return
	}
	e.ESS = posterior.ESSMean(w.vals)
	e.MCSE = posterior.SD(pooled) / math.Sqrt(e.ESS)
}

// estimateFromDraws is the estimate from the draws of S_A − S_B (or, for a
// predictive quantile, from one replicated difference per draw).
func (f *HierFit) estimateFromDraws(w *targetWork) {
	e, d := &w.e, w.d
	t := e.Target
	pooled := PoolChains(d)
	switch t.Stat {
	case ProbAbove, ProbBelow:
		ind := make([][]float64, len(d))
		hits := 0
		for m, c := range d {
			ind[m] = make([]float64, len(c))
			for i, v := range c {
				if (t.Stat == ProbAbove && v > t.Threshold) || (t.Stat == ProbBelow && v < t.Threshold) {
					ind[m][i] = 1
					hits++
				}
			}
		}
		n := len(pooled)
		e.Value = float64(hits) / float64(n)
		if hits == 0 || hits == n {
			p := 0.5 / float64(n+1)
			e.ESS = posterior.ESSBulk(d)
			e.MCSE = math.Sqrt(p * (1 - p) / e.ESS)
		} else {
			e.ESS = posterior.ESSMean(ind)
			e.MCSE = posterior.SD(PoolChains(ind)) / math.Sqrt(e.ESS)
		}
	case MeanDiff:
		e.Value = posterior.Mean(pooled)
		e.ESS = posterior.ESSMean(d)
		e.MCSE = posterior.SD(pooled) / math.Sqrt(e.ESS)
	case QuantileDiff:
		e.Value = posterior.Quantile(pooled, t.P)
		e.ESS = posterior.ESSQuantile(d, t.P)
		e.MCSE = posterior.MCSEQuantile(d, t.P)
	case PredictiveQuantileDiff:
		y := f.predictiveDiffs(d)
		e.Value = posterior.Quantile(PoolChains(y), t.P)
		e.ESS = posterior.ESSQuantile(y, t.P)
		e.MCSE = posterior.MCSEQuantile(y, t.P)
	}
}

// predictiveStream is the PCG stream of the replicated differences of a
// predictive quantile target, apart from the chains' and the forecasts'.
const predictiveStream = forecastStream + 1<<30

// predictiveDiffs adds to each draw d of S_A − S_B the difference of two
// errors drawn from the fit's family at that draw's σ (and the family's
// parameters): a replicated y_rep[A, t] − y_rep[B, t], the topic's and the
// intercept's effects cancelling. The errors come from PCG(seed,
// predictiveStream), chains in order.
func (f *HierFit) predictiveDiffs(d [][]float64) [][]float64 {
	r := rand.New(rand.NewPCG(f.Sampler.Options.Seed, predictiveStream))
	_, gaussian := f.Family.(Gaussian)
	gaussian = gaussian || f.Family == nil
	extra := make([]float64, 0, 1)
	out := make([][]float64, len(d))
	for m, c := range d {
		out[m] = make([]float64, len(c))
		for i, v := range c {
			sigma := f.Sampler.Draws[IdxSigma][m][i]
			if gaussian {
				out[m][i] = v + sigma*(r.NormFloat64()-r.NormFloat64())
				continue
			}
			extra = extra[:0]
			for j := range f.Family.Params() {
				extra = append(extra, f.Sampler.Draws[f.FamilyIndex(j)][m][i])
			}
			out[m][i] = v + f.Family.Rand(r, 0, sigma, extra) - f.Family.Rand(r, 0, sigma, extra)
		}
	}
	return out
}
