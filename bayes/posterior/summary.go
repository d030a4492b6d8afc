package posterior

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/internal/stats"
)

// HDI returns the shortest interval containing a share prob of the draws (the
// highest-density interval of a unimodal posterior). With y sorted and
// k = ⌈prob·S⌉, it is [y_i, y_{i+k}] for the i minimising y_{i+k} − y_i
// (Kruschke, Doing Bayesian Data Analysis, 2nd ed., 2015, HDIofMCMC). Ties
// between equally short intervals are broken as R's bayestestR::hdi does: the
// rightmost if the minima are not contiguous, else the middle one (rounded down).
// It returns NaNs when fewer than two draws fall inside or none outside.
func HDI(draws []float64, prob float64) (lo, hi float64) {
	y := slices.Clone(draws)
	slices.Sort(y)
	return HDISorted(y, prob)
}

// HDISorted is HDI for already sorted draws.
func HDISorted(y []float64, prob float64) (lo, hi float64) {
	s := len(y)
	k := int(math.Ceil(prob * float64(s)))
	if k < 2 || s-k < 1 {
		return math.NaN(), math.NaN()
	}
	best := math.Inf(1)
	var minima []int
	for i := 0; i < s-k; i++ {
		switch w := y[i+k] - y[i]; {
		case w < best:
			best = w
			minima = append(minima[:0], i)
		case w == best:
			minima = append(minima, i)
		}
	}
	i := minima[0]
	if len(minima) > 1 {
		contiguous := true
		for j := 1; j < len(minima); j++ {
			if minima[j] != minima[j-1]+1 {
				contiguous = false
				break
			}
		}
		if contiguous {
			sum := 0
			for _, m := range minima {
				sum += m + 1 // bayestestR averages 1-based indices
			}
			i = int(math.Floor(float64(sum)/float64(len(minima)))) - 1
		} else {
			i = minima[len(minima)-1]
		}
	}
	return y[i], y[i+k]
}

// Mean returns the arithmetic mean of x (internal/stats, as in risk and gate).
func Mean(x []float64) float64 { return stats.Mean(x) }

// SD returns the sample standard deviation of x (denominator n−1, as R's sd).
func SD(x []float64) float64 { return math.Sqrt(stats.Variance(x)) }

// MAD returns the median absolute deviation scaled by 1.4826 to estimate the
// standard deviation of normal data (R's mad with its defaults).
func MAD(x []float64) float64 {
	med := Quantile(x, 0.5)
	dev := make([]float64, len(x))
	for i, v := range x {
		dev[i] = math.Abs(v - med)
	}
	return 1.4826 * Quantile(dev, 0.5)
}

// ProbLess returns the share of draws strictly less than threshold: the
// posterior probability P(θ < threshold | data) estimated from the draws.
func ProbLess(draws []float64, threshold float64) float64 {
	n := 0
	for _, v := range draws {
		if v < threshold {
			n++
		}
	}
	return float64(n) / float64(len(draws))
}

// ProbGreater returns the share of draws strictly greater than threshold: the
// posterior probability P(θ > threshold | data) estimated from the draws.
func ProbGreater(draws []float64, threshold float64) float64 {
	n := 0
	for _, v := range draws {
		if v > threshold {
			n++
		}
	}
	return float64(n) / float64(len(draws))
}

// VarSummary is everything riskgate reports about one scalar's draws: what R's
// posterior::summarise_draws prints (mean, median, sd, mad, quantiles, rhat,
// ess_bulk, ess_tail) and its extra measures (rhat_basic, ess_basic, the
// Monte Carlo standard errors), plus the 95% HDI. Quantiles are R's type 7;
// MAD is R's mad (1.4826 × the median absolute deviation from the median).
// NaN marks a value posterior reports as NA (see the package's diagnostics);
// in JSON it is null.
type VarSummary struct {
	Mean      float64 `json:"mean"`
	Median    float64 `json:"median"`
	SD        float64 `json:"sd"`
	MAD       float64 `json:"mad"`
	Q2_5      float64 `json:"q2_5"`
	Q5        float64 `json:"q5"`
	Q50       float64 `json:"q50"`
	Q95       float64 `json:"q95"`
	Q97_5     float64 `json:"q97_5"`
	HDILo     float64 `json:"hdi_lo"` // 95% highest-density interval (HDI)
	HDIHi     float64 `json:"hdi_hi"`
	Rhat      float64 `json:"rhat"`
	RhatBasic float64 `json:"rhat_basic"`
	ESSBulk   float64 `json:"ess_bulk"`
	ESSTail   float64 `json:"ess_tail"`
	ESSBasic  float64 `json:"ess_basic"`
	MCSEMean  float64 `json:"mcse_mean"`
	MCSESd    float64 `json:"mcse_sd"`
	MCSEQ2_5  float64 `json:"mcse_q2_5"`
	MCSEQ97_5 float64 `json:"mcse_q97_5"`
}

// Summarize returns the VarSummary of one scalar's draws, sorting the draws
// once for the quantiles, the ranks and the folded ranks. It gives bit for bit
// what Rhat, ESSBulk, MCSEQuantile etc. give one at a time.
//
// Conventions of Summarize and of the diagnostics (Rhat, ESS*, MCSE*):
//
// Input: the draws of one scalar as chains[m][i], M chains of N iterations
// each, warmup removed. All chains must have the same length; the functions
// panic otherwise (a programming error, not bad data).
//
// Split chains: each chain is cut into its first ⌊N/2⌋ and its last ⌊N/2⌋
// draws (the middle draw of an odd N is dropped), giving 2M chains of ⌊N/2⌋.
// As in posterior, N = 1 is not split, and for N = 2 or 3 R's dropping of
// dimensions turns the split into 2 "chains" of M draws (first and last).
//
// NaN wherever posterior returns NA:
//   - any draw is NaN or ±Inf: then Summarize returns NaN in every field
//     (posterior's summaries would print Inf or fail; riskgate refuses);
//   - the draws, or the transformed draws a diagnostic is computed on, are
//     constant: max − min < 2⁻⁵² (posterior's is_constant, an absolute test);
//     summaries of constant draws are still given, their diagnostics are NaN;
//   - too few draws: an ESS needs at least 3 draws per split chain, an R̂ at
//     least 2;
//   - a probability outside [0, 1] for ESSQuantile and MCSEQuantile.
//
// Chains each constant but at different values have no within-chain
// variance: R̂ (rank-normalised and basic) is +Inf, certainly not converged.
// posterior gives Inf or, from the rounding of its long-double means, a
// finite value near 1e15.
//
// Means are correctly rounded from the exact sum and quantiles are
// computed with R's own arithmetic (see Quantile), so that the diagnostics
// built on them, ESS of indicators included, follow posterior's to rounding.
func Summarize(chains [][]float64) VarSummary {
	m, n := shape(chains)
	return newWorkspace().summarize(chains, m, n)
}

// SummarizeAll returns the summaries of many variables, vars[v][m][i], using up
// to workers goroutines (GOMAXPROCS when workers ≤ 0). The result does not
// depend on workers: each variable is summarised on its own.
func SummarizeAll(vars [][][]float64, workers int) []VarSummary {
	return SummarizeAllChecked(vars, nil, workers)
}

// SummarizeAllChecked is SummarizeAll of draws whose convergence was
// checked: conv[v], when given, is SummarizeConvergence's of vars[v] (a
// fit's convergence check of its final draws), and the summary takes its
// R̂, bulk- and tail-ESS from it instead of computing them again, which is
// about a third of a summary's cost. An entry NaN in all three fields (a
// quantity a sequential fit did not check), or beyond len(conv), is
// computed; the result is SummarizeAll's bit for bit, as
// SummarizeConvergence's figures are Summarize's.
func SummarizeAllChecked(vars [][][]float64, conv []Convergence, workers int) []VarSummary {
	return eachVariable(vars, workers, func(w *workspace, v int, chains [][]float64, m, n int) VarSummary {
		var known *Convergence
		if v < len(conv) && !(math.IsNaN(conv[v].Rhat) && math.IsNaN(conv[v].ESSBulk) && math.IsNaN(conv[v].ESSTail)) {
			known = &conv[v]
		}
		return w.summarizeChecked(chains, m, n, known)
	})
}

// eachVariable returns f of every variable, vars[v][m][i] (chains m of
// length n), computed by up to workers goroutines (GOMAXPROCS when
// workers ≤ 0), each with its own workspace; the result does not depend on
// workers.
func eachVariable[T any](vars [][][]float64, workers int, f func(w *workspace, v int, chains [][]float64, m, n int) T) []T {
	out := make([]T, len(vars))
	parallel.For(len(vars), workers, func() func(int) {
		w := newWorkspace()
		return func(v int) {
			m, n := shape(vars[v])
			out[v] = f(w, v, vars[v], m, n)
		}
	})
	return out
}

// Convergence is what a convergence check reads of one scalar's draws:
// R̂ (Rhat), bulk- and tail-ESS, each equal to Summarize's; NaN where
// Summarize's is (see its conventions).
type Convergence struct {
	Rhat, ESSBulk, ESSTail float64
}

// SummarizeConvergence returns the Convergence of many variables, vars[v][m][i],
// as SummarizeAll does their summaries (the result does not depend on
// workers). It costs about half as much as SummarizeAll, for fits that
// check convergence (riskgate calibrate runs thousands) before anything
// asks for their summaries.
func SummarizeConvergence(vars [][][]float64, workers int) []Convergence {
	return eachVariable(vars, workers, func(w *workspace, _ int, chains [][]float64, m, n int) Convergence {
		return w.convergence(chains, m, n)
	})
}

// ConvergenceOf returns the Convergence of one scalar's draws, chains[m][i].
func ConvergenceOf(chains [][]float64) Convergence {
	m, n := shape(chains)
	return newWorkspace().convergence(chains, m, n)
}

// convergence is the Convergence of the draws; NaN in every field unless
// they are all finite.
func (w *workspace) convergence(chains [][]float64, m, n int) Convergence {
	if !w.load(chains, m, n) {
		nan := math.NaN()
		return Convergence{nan, nan, nan}
	}
	w.sortPooled()
	return w.convergenceLoaded()
}

// convergenceLoaded is convergence of the draws loaded and sorted in w.
func (w *workspace) convergenceLoaded() Convergence {
	var c Convergence
	w.rankNormalise(w.split, w.orderX, w.sortedX)
	rhatBulk, essBulk := w.rhatAndESS(w.split, w.nc, w.rows)
	c.ESSBulk = essBulk
	w.fold()
	w.rankNormalise(w.split, w.orderF, w.sortedF)
	c.Rhat = max(rhatBulk, w.rhatOf(w.split, w.nc, w.rows))
	c.ESSTail = min(w.essQuantile(0.05), w.essQuantile(0.95))
	return c
}

// summarize computes every field from the same sorted and split draws: the
// mean and SD, the Convergence, then the quantiles, HDI, MAD, the basic R̂
// and ESS and the MCSEs.
func (w *workspace) summarize(chains [][]float64, m, n int) VarSummary {
	return w.summarizeChecked(chains, m, n, nil)
}

// summarizeChecked is summarize taking the Convergence from known when
// given (SummarizeAllChecked).
func (w *workspace) summarizeChecked(chains [][]float64, m, n int, known *Convergence) VarSummary {
	nan := math.NaN()
	s := VarSummary{nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan}
	if !w.load(chains, m, n) {
		return s
	}
	w.sortPooled()
	s.Mean = accurateMean(w.flat)
	s.SD = sampleSD(w.flat, s.Mean)
	var c Convergence
	if known != nil {
		c = *known
		w.fold() // for the MAD; convergenceLoaded folds too
	} else {
		c = w.convergenceLoaded()
	}
	s.Rhat, s.ESSBulk, s.ESSTail = c.Rhat, c.ESSBulk, c.ESSTail
	y := w.sortedX
	s.Median = w.median
	s.Q2_5, s.Q5, s.Q50 = QuantileSorted(y, 0.025), QuantileSorted(y, 0.05), QuantileSorted(y, 0.5)
	s.Q95, s.Q97_5 = QuantileSorted(y, 0.95), QuantileSorted(y, 0.975)
	s.HDILo, s.HDIHi = HDISorted(y, 0.95)
	s.MAD = 1.4826 * medianSorted(w.sortedF)

	w.splitRaw()
	s.RhatBasic, s.ESSBasic = w.rhatAndESS(w.split, w.nc, w.rows)
	s.MCSEMean = s.SD / math.Sqrt(s.ESSBasic)

	s.MCSEQ2_5 = w.mcseQuantile(0.025)
	s.MCSEQ97_5 = w.mcseQuantile(0.975)
	s.MCSESd = w.mcseSD(s.Mean)
	return s
}

// MarshalJSON writes the summary as an object with snake_case keys, NaN and
// ±Inf as null.
func (s VarSummary) MarshalJSON() ([]byte, error) {
	v := reflect.ValueOf(s)
	t := v.Type()
	b := []byte{'{'}
	for i := range t.NumField() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, t.Field(i).Tag.Get("json"))
		b = append(b, ':')
		b = jsonfloat.Append(b, v.Field(i).Float())
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads what MarshalJSON writes; null and absent keys become NaN.
func (s *VarSummary) UnmarshalJSON(data []byte) error {
	var m map[string]*float64
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	v := reflect.ValueOf(s).Elem()
	t := v.Type()
	for i := range t.NumField() {
		f := math.NaN()
		if p := m[t.Field(i).Tag.Get("json")]; p != nil {
			f = *p
		}
		v.Field(i).SetFloat(f)
	}
	return nil
}
