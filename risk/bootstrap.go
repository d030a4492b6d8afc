package risk

import (
	"fmt"
	"math"
	"slices"

	"github.com/riskgate/riskgate/internal/stats"
)

// BootstrapOptions set a bootstrap: B replicates from the streams of Seed,
// intervals at confidence Level.
type BootstrapOptions struct {
	B     int     // replicates (R's boot R); 100,000 gives endpoints stable to about ±0.002
	Level float64 // confidence level in (0, 1), e.g. 0.95 or 1 − 0.05/m after Bonferroni
	Seed  uint64
}

func (o BootstrapOptions) check() error {
	if o.B < 2 {
		return fmt.Errorf("risk: bootstrap needs at least 2 replicates, got B = %d", o.B)
	}
	return checkLevel(o.Level)
}

func checkLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return fmt.Errorf("risk: confidence level %v must lie strictly between 0 and 1", level)
	}
	return nil
}

// Interval is a two-sided confidence interval at confidence Level.
type Interval struct {
	Lo, Hi, Level float64
}

// BCa is a nonparametric bootstrap of a mean with Efron's bias-corrected and
// accelerated interval and the percentile interval, exactly as R's
// boot(x, function(v, i) mean(v[i]), R = B) followed by
// boot.ci(type = c("bca", "perc")) (boot 1.3; Efron 1987, JASA 82:171–185;
// Davison & Hinkley 1997, §5.3):
//
//	z0 = Φ⁻¹(#{t*_b < t0}/B)                  (strict "<", as boot.ci)
//
// t0 and every t*_b are means from the exact sum (stats.ExactMean), so that
// a resample with the values of x has exactly t0, as with R's mean.
//
//	a  = Σ L_i³ / (6·(Σ L_i²)^{3/2}),  L_i = x_i − x̄
//	α_j' = Φ(z0 + (z0 + z_j)/(1 − a(z0 + z_j))),  z_j = Φ⁻¹((1 ∓ Level)/2)
//	endpoints = norm.inter(t*, α')            (percentile: norm.inter(t*, (1 ∓ Level)/2))
//
// Influence values. boot.ci computes L with empinf(), which for an ordinary
// bootstrap with B ≥ n regresses t*_b on the resampling frequencies ("reg");
// with B < n it takes the usual jackknife (n − 1)(t0 − t_(−i)); the empirical
// influence function is a third choice. For the mean all three are exactly
// x_i − x̄: the mean of a resample is linear in its frequencies f_j,
// t* = Σ_j (f_j/n)·x_j = x_1 + Σ_{j≥2} (f_j/n)(x_j − x_1), so the regression on
// (1, f_2/n, …, f_n/n) is exact with coefficients x_j − x_1 (and L_1 = 0),
// which boot then centres to x_j − x̄; and (n − 1)(x̄ − (n·x̄ − x_i)/(n − 1)) =
// x_i − x̄. No regression is needed.
//
// norm.inter interpolates between order statistics on the normal scale:
// with rk = (B + 1)α and k = ⌊rk⌋, the endpoint is t*_(k) when rk is an
// integer, t*_(1) when k = 0, t*_(B) when k = B, and otherwise
// t*_(k) + (Φ⁻¹(α) − Φ⁻¹(k/(B+1))) / (Φ⁻¹((k+1)/(B+1)) − Φ⁻¹(k/(B+1)))·(t*_(k+1) − t*_(k)).
// The order statistics are found by selection, not a full sort.
//
// Degenerate cases give NaN endpoints and a warning, where boot.ci returns
// NULL or stops: all replicates equal (constant data), or z0 infinite (t0
// below or above every replicate). When the adjusted levels fall outside the
// order statistics (rk ≤ 1 or rk ≥ B), Warnings repeats boot's "extreme order
// statistics used as endpoints". R's random stream is not reproduced: the
// endpoints agree with R's within Monte-Carlo error, not digit for digit.
type BCa struct {
	Estimate     float64  // t0 = x̄
	BCa          Interval // bias-corrected and accelerated interval
	Percentile   Interval // percentile interval
	Z0           float64  // bias correction
	Acceleration float64  // a
	B            int
	Warnings     []string
}

// BCa bootstraps the URisk of X against Base (the mean of Pair.Adjusted(w)).
// Every pair bootstrapped with the same seed resamples the same topics, as R
// does after set.seed before each boot(): a challenger's interval does not
// depend on which other challengers were compared.
func (p Pair) BCa(w float64, o BootstrapOptions) (BCa, error) {
	if err := p.check(); err != nil {
		return BCa{}, err
	}
	if err := checkWeight(w); err != nil {
		return BCa{}, err
	}
	return BCaMean(p.Adjusted(w), o)
}

// bootstrapChunk is the number of replicates drawn from one random stream.
const bootstrapChunk = 2048

// BCaMean bootstraps the mean of x (see BCa).
func BCaMean(x []float64, o BootstrapOptions) (BCa, error) {
	if err := checkBootstrap(x, o); err != nil {
		return BCa{}, err
	}
	t := bootstrapMeans(x, o.B, o.Seed)
	return bcaFromReplicates(x, t, o.Level), nil
}

// bootstrapMeans returns B means of resamples of x drawn with replacement,
// each correctly rounded from its exact sum as the estimate is: a resample
// holding the same values as x, in whatever order, has exactly the mean t0.
// With discrete scores many resamples do, and boot.ci's strict t* < t0
// counts them right only if they compare equal (R's mean gives equal
// multisets equal doubles too; a left-to-right sum can be an ulp off).
func bootstrapMeans(x []float64, b int, seed uint64) []float64 {
	t := make([]float64, b)
	fillBootstrapMeans(x, t, 0, seed)
	return t
}

// fillBootstrapMeans sets t[from:] to the replicates bootstrapMeans draws
// there (from a multiple of bootstrapChunk): t[:from] drawn earlier stays,
// so a run can be extended without drawing its first replicates again.
func fillBootstrapMeans(x, t []float64, from int, seed uint64) {
	n := len(x)
	forChunksFrom(from, len(t), bootstrapChunk, func(k, lo, hi int) {
		ix := newIndexer(chunkSource(seed, procBootstrapMean, k), n)
		idx := make([]uint32, n)
		mean := stats.NewIndexedMean(x)
		for r := lo; r < hi; r++ {
			ix.fill(idx)
			t[r] = mean.Mean(idx)
		}
	})
}

// checkBootstrap checks the options and that x has at least 2 values, all
// finite.
func checkBootstrap(x []float64, o BootstrapOptions) error {
	if err := o.check(); err != nil {
		return err
	}
	if len(x) < 2 {
		return fmt.Errorf("risk: need at least 2 observations to bootstrap, have %d", len(x))
	}
	for _, v := range x {
		if !finite(v) {
			return fmt.Errorf("risk: cannot bootstrap a non-finite value %v", v)
		}
	}
	return nil
}

// bcaFromReplicates computes the intervals from the data x and its bootstrap
// means t (reordered in place).
func bcaFromReplicates(x, t []float64, level float64) BCa {
	return bcaWithEstimate(x, t, stats.ExactMean(x), level)
}

// bcaWithEstimate is bcaFromReplicates with the estimate t0 given.
func bcaWithEstimate(x, t []float64, t0, level float64) BCa {
	nan := math.NaN()
	r := BCa{
		Estimate:   t0,
		B:          len(t),
		BCa:        Interval{nan, nan, level},
		Percentile: Interval{nan, nan, level},
		Z0:         nan,
	}
	var s2, s3 float64
	for _, v := range x {
		l := v - r.Estimate
		s2 += l * l
		s3 += l * l * l
	}
	r.Acceleration = s3 / (6 * math.Pow(s2, 1.5))

	tbar := stats.Mean(t)
	// One pass for the extremes and the replicates below the estimate.
	lo, hi, below := t[0], t[0], 0
	for _, v := range t {
		lo, hi = min(lo, v), max(hi, v)
		if v < r.Estimate {
			below++
		}
	}
	if lo == hi || math.Max(hi-tbar, tbar-lo) < math.Min(1e-8, math.Abs(tbar)/1e6) {
		r.Warnings = append(r.Warnings, fmt.Sprintf("all bootstrap replicates equal %.6g (constant data): no interval", tbar))
		return r
	}
	r.Z0 = normalQuantile(float64(below) / float64(len(t)))

	lower, upper := (1-level)/2, (1+level)/2
	alphas := []float64{lower, upper}
	bcaOK := finite(r.Z0) && finite(r.Acceleration)
	if bcaOK {
		for _, z := range []float64{normalQuantile(lower), normalQuantile(upper)} {
			zz := r.Z0 + z
			alphas = append(alphas, normalCDF(r.Z0+zz/(1-r.Acceleration*zz)))
		}
	} else {
		r.Warnings = append(r.Warnings, fmt.Sprintf("BCa bias correction is infinite (%d of %d replicates below the estimate): no BCa interval", below, len(t)))
	}
	ends, extreme := normInterRange(t, alphas, lo, hi)
	r.Percentile.Lo, r.Percentile.Hi = ends[0], ends[1]
	if bcaOK {
		r.BCa.Lo, r.BCa.Hi = ends[2], ends[3]
	}
	if extreme {
		r.Warnings = append(r.Warnings, "extreme order statistics used as endpoints (too few replicates for this level)")
	}
	return r
}

// normInter is boot's norm.inter(t, alpha): the α-quantiles of the
// replicates t, interpolated on the normal-quantile scale (Davison & Hinkley
// 1997, eq. 5.8). t is partially reordered. extreme reports rk = (B+1)α
// outside (1, B) for some α, boot's "extreme order statistics" warning.
func normInter(t []float64, alphas []float64) (ends []float64, extreme bool) {
	return normInterRange(t, alphas, slices.Min(t), slices.Max(t))
}

// normInterRange is normInter given the replicates' minimum lo and maximum
// hi, t*_(1) and t*_(B), which need no selection.
func normInterRange(t []float64, alphas []float64, lo, hi float64) (ends []float64, extreme bool) {
	b := len(t)
	fb := float64(b)
	ks := make([]int, len(alphas))
	var ranks []int // 0-based ranks of the order statistics to select
	for i, a := range alphas {
		rk := (fb + 1) * a
		if !(rk > 1 && rk < fb) {
			extreme = true
		}
		k := int(math.Trunc(rk))
		ks[i] = k
		if k > 0 && k < b {
			ranks = append(ranks, k-1, k)
		}
	}
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	stats.SelectRanks(t, ranks)
	order := func(k int) float64 { return t[k-1] } // t*_(k), 1-based
	ends = make([]float64, len(alphas))
	for i, a := range alphas {
		k := ks[i]
		rk := (fb + 1) * a
		switch {
		case k <= 0:
			ends[i] = lo
		case k >= b:
			ends[i] = hi
		case float64(k) == rk:
			ends[i] = order(k)
		default:
			z := normalQuantile(a)
			zk := normalQuantile(float64(k) / (fb + 1))
			zk1 := normalQuantile(float64(k+1) / (fb + 1))
			tk, tk1 := order(k), order(k+1)
			ends[i] = tk + (z-zk)/(zk1-zk)*(tk1-tk)
		}
	}
	return ends, extreme
}
