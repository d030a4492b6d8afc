package posterior

import (
	"math"
	"testing"
)

// Regression tests for the disagreements with R's posterior 1.4.0 that
// random chain sets found (issue 16, and TestDifferentialPosterior since),
// each on its minimal input. Expected values: R 4.2.2, posterior 1.4.0, by
// the R lines quoted.

// adjacentOrderStatistics is 4 chains × 25 draws whose 5th and 6th order
// statistics are 23/997 and the next double up:
//
//	v <- numeric(100); for (k in 0:99) v[k+1] <- if (k < 4) (k+1)/997 else
//	  if (k == 4) 23/997 else if (k == 5) 23/997 + 2^-58 else (k+18)/997
//	x <- numeric(100); for (i in 0:99) x[i+1] <- v[(37*i) %% 100 + 1]
//	m <- matrix(x, 25, 4)
func adjacentOrderStatistics() [][]float64 {
	v := make([]float64, 100)
	for k := range v {
		switch {
		case k < 4:
			v[k] = float64(k+1) / 997
		case k == 4:
			v[k] = 23.0 / 997
		case k == 5:
			v[k] = 23.0/997 + 0x1p-58
		default:
			v[k] = float64(k+18) / 997
		}
	}
	chains := make([][]float64, 4)
	for i := range 100 {
		chains[i/25] = append(chains[i/25], v[(37*i)%100])
	}
	return chains
}

// TestQuantileAsR: R's quantile interpolates (1 − h)·a + h·b, here
// quantile(x, 0.05) = 0x1.79f745123b0eap-6 = 23/997 where a + h·(b − a)
// rounds up to the 6th order statistic, which then joins the indicator
// x ≤ q: ess_tail(m) = 128.78703186137503, mcse_quantile(m, 0.05) =
// 0.011033099297893681. Tolerance: the quantile exactly; the ESS and MCSE
// 1e-12 relative (rounding of the autocovariances).
func TestQuantileAsR(t *testing.T) {
	t.Parallel()
	chains := adjacentOrderStatistics()
	var all []float64
	for _, c := range chains {
		all = append(all, c...)
	}
	if q := Quantile(all, 0.05); q != 23.0/997 {
		t.Errorf("quantile(x, 0.05) = %x, R %x", q, 23.0/997)
	}
	if got := ESSTail(chains); relErr(got, 128.78703186137503) > 1e-12 {
		t.Errorf("ess_tail %.17g, R 128.78703186137503", got)
	}
	if got := MCSEQuantile(chains, 0.05); relErr(got, 0.011033099297893681) > 1e-12 {
		t.Errorf("mcse_quantile %.17g, R 0.011033099297893681", got)
	}
	if got := Quantile([]float64{1, 2}, 1); got != 2 {
		t.Errorf("quantile(c(1, 2), 1) = %v", got)
	}
}

// TestMeanOfDraws: R's mean(c(0.1, 0.2, -0.3, 0)) is 2⁻⁵⁷, the exact mean
// (a left-to-right sum with one correction pass gave 1.04e-17).
func TestMeanOfDraws(t *testing.T) {
	t.Parallel()
	if got := Summarize([][]float64{{0.1, 0.2, -0.3, 0}}).Mean; got != 0x1p-57 {
		t.Errorf("mean %v, R 2^-57 = 6.938893903907228e-18", got)
	}
}

// TestTinySpread: draws 1 + k·2⁻⁴⁶, |k| ≤ 105, 1 ± 1.5e-12:
//
//	x <- numeric(400); for (i in 0:399) x[i+1] <- 1 + (((i*7919) %% 211) - 105) * 2^-46
//	m <- matrix(x, 100, 4)
//
// R: mean 0x1.fffffffffffcdp-1, sd 8.6738075283405741e-13, mcse_mean
// 3.4308912723813708e-14, ess_mean 639.15420659534038, ess_bulk
// 524.65398497581521, rhat 0.99121479460754791, mcse_sd NA (the squared
// deviations are "constant" to posterior's absolute 2⁻⁵²). Centring on a
// mean a few ulps off shifted mcse_mean by 1e-4 relative. Tolerance: the
// mean exactly, the rest 1e-12 relative.
func TestTinySpread(t *testing.T) {
	t.Parallel()
	chains := make([][]float64, 4)
	for i := range 400 {
		chains[i/100] = append(chains[i/100], 1+float64((i*7919)%211-105)*0x1p-46)
	}
	s := Summarize(chains)
	if s.Mean != 0x1.fffffffffffcdp-1 {
		t.Errorf("mean %x, R 0x1.fffffffffffcdp-1", s.Mean)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"sd", s.SD, 8.6738075283405741e-13},
		{"mcse_mean", s.MCSEMean, 3.4308912723813708e-14},
		{"ess_mean", ESSMean(chains), 639.15420659534038},
		{"ess_bulk", s.ESSBulk, 524.65398497581521},
		{"rhat", s.Rhat, 0.99121479460754791},
	} {
		if relErr(c.got, c.want) > 1e-12 {
			t.Errorf("%s %.17g, R %.17g", c.name, c.got, c.want)
		}
	}
	if !math.IsNaN(s.MCSESd) {
		t.Errorf("mcse_sd %v, R NA", s.MCSESd)
	}
}

// TestRhatConstantChains: chains each constant, at different values, have
// no within-chain variance: R̂ is +Inf, the documented answer. posterior
// prints Inf or ~1e15 depending on how the rounding of its long-double
// means falls: with 25 draws of 0.1, 0.7 and 0.3, rhat 4547777141870275
// and rhat_basic 3627997477810847.5.
func TestRhatConstantChains(t *testing.T) {
	t.Parallel()
	chains := make([][]float64, 3)
	for j, v := range []float64{0.1, 0.7, 0.3} {
		for range 25 {
			chains[j] = append(chains[j], v)
		}
	}
	s := Summarize(chains)
	if !math.IsInf(s.Rhat, 1) || !math.IsInf(s.RhatBasic, 1) || !math.IsInf(Rhat(chains), 1) {
		t.Errorf("rhat %v, rhat_basic %v; want +Inf", s.Rhat, s.RhatBasic)
	}
}
