package bayes

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/integrate/quad"
)

// WithRisk returns the model with the challenger's per-topic differences to
// the champion scaled by k around their mean (DiffSD·k, the same skewness):
// at the same true effect, k > 1 is a riskier challenger — its losses are
// larger and more frequent — and k < 1 a steadier one.
func (m PoolModel) WithRisk(k float64) PoolModel {
	m.DiffSD *= k
	return m
}

// Truth returns what a challenger of true effect effect is, in the
// generating model, against the champion: its true mean difference and its
// true risk-adjusted difference at loss weight w,
//
//	MeanDiff = E[y_c − y_0],  RiskDiff = E[r_w(y_c − y_0)],  r_w(x) = x if x ≥ 0, w·x otherwise,
//
// expectations over the topic population, the noise and the champion's
// system effect S_0 ~ N(0, SD_system²), with y_0 = clamp(L),
// y_c = clamp(L + Δ + u), L ~ N(β0 + S_0, SD_topic² + σ²), u the skew
// normal of Simulate and Δ = LatentShift(effect, β0 + S_0), as every
// simulated pool draws them. MeanDiff equals effect by construction (it is
// computed, not assumed, and checks LatentShift); RiskDiff is what a risk
// rule at loss weight w judges.
//
// Given S_0, L and the skew normal's half-normal component |Z0| = z, the
// challenger's unclamped score X is normal and r_w(clamp(X) − clamp(L)) is
// piecewise linear in X (breaks at 0, clamp(L) and 1), so its expectation is
// exact in normal CDFs and densities. What remains is smooth on each side of
// L = 0 and L = 1: L is integrated by 96-point Gauss–Legendre on each of
// (−∞, 0], [0, 1], [1, ∞) (cut at ±10 SD), S_0 by 32-point Gauss–Legendre
// on ±5 SD (the normal mass beyond, 6·10⁻⁷, is left out and the weights
// renormalised: no pool is drawn there in practice), z by the 64-point rule
// of meanClamped.
//
// Truth takes about a tenth of a CPU-second (BenchmarkTruth); cancelling ctx
// stops it within one of the 32 S_0 nodes, with ctx's error.
func (m PoolModel) Truth(ctx context.Context, effect, w float64) (meanDiff, riskDiff float64, err error) {
	if !(w >= 1) {
		return math.NaN(), math.NaN(), fmt.Errorf("loss weight %v: expected w ≥ 1", w)
	}
	s := math.Hypot(m.SDTopic, m.Sigma)
	alpha := skewNormalAlpha(m.DiffSkew)
	b, k, _ := skewNormalShape(alpha)
	omega := k * m.DiffSD
	xi := -omega * b // the skew normal's location for mean 0
	delta := alpha / math.Sqrt(1+alpha*alpha)
	sdX := omega * math.Sqrt(1-delta*delta) // X's SD given L and z
	zs, zw := halfNormalNodes()
	if m.DiffSD == 0 {
		zs, zw = []float64{0}, []float64{1}
	}
	hs, hw := normalNodes(32, -5, 5)
	for i := range hs { // S_0 ~ N(0, SD_system²)
		if err := ctx.Err(); err != nil {
			return math.NaN(), math.NaN(), err
		}
		s0 := m.SDSystem * hs[i]
		mu0 := m.Intercept + s0
		ls, lw := normalPieces(mu0, s, 96)
		shift, err := m.LatentShift(effect, mu0)
		if err != nil {
			side := "above"
			if hs[i] < 0 {
				side = "below"
			}
			return math.NaN(), math.NaN(), fmt.Errorf("%w, as a champion simulated %.1f SDs of the system spread (sd_system %.3g) %s the pool's mean is; your champion's mean score is %.3g",
				err, math.Abs(hs[i]), m.SDSystem, side, m.ChampionMean)
		}
		var md, rd float64
		for j := range ls { // L ~ N(mu0, s²)
			l := ls[j]
			c0 := min(1, max(0, l))
			var md1, rd1 float64
			for q := range zs {
				mx := l + shift + xi + omega*delta*zs[q]
				d := newClampedDiff(mx, sdX, c0)
				md1 += zw[q] * d.mean(1)
				rd1 += zw[q] * d.mean(w)
			}
			md += lw[j] * md1
			rd += lw[j] * rd1
		}
		meanDiff += hw[i] * md
		riskDiff += hw[i] * rd
	}
	return meanDiff, riskDiff, nil
}

// clampedDiff is the distribution of clamp(X) − c0 for X ~ N(mu, sd²) and
// c0 in [0, 1], by the pieces of r_w(clamp(X) − c0): the integrand is −w·c0
// below 0, w·(X − c0) on [0, c0), X − c0 on [c0, 1] and 1 − c0 above 1, and
// each piece's expectation is closed-form (partial moments of the normal).
// The pieces do not depend on w: Truth reads the mean and the risk-adjusted
// difference from one set of three normal CDFs and densities (at 0, c0 and
// 1), a fifth of the cost of computing each piece's two ends apart per loss
// weight, with the same numbers bit for bit.
type clampedDiff struct {
	c0             float64
	pBelow, pAbove float64 // P(X < 0), P(X > 1)
	pLoss, exLoss  float64 // P(0 < X < c0) and E[X; 0 < X < c0]
	pGain, exGain  float64 // P(c0 < X < 1) and E[X; c0 < X < 1]
	deterministic  bool    // sd = 0: X = mu
	mu             float64
}

func newClampedDiff(mu, sd, c0 float64) clampedDiff {
	if sd == 0 {
		return clampedDiff{c0: c0, deterministic: true, mu: mu}
	}
	// Φ and φ at the standardised 0, c0 and 1; at ±∞ they are 0 or 1 and 0.
	z0, zc, z1 := (0-mu)/sd, (c0-mu)/sd, (1-mu)/sd
	p0, pc, p1 := stdNormalCDF(z0), stdNormalCDF(zc), stdNormalCDF(z1)
	d0, dc, d1 := stdNormalPDF(z0), stdNormalPDF(zc), stdNormalPDF(z1)
	return clampedDiff{
		c0:     c0,
		pBelow: p0 - 0,
		pLoss:  pc - p0, exLoss: mu*(pc-p0) - sd*(dc-d0),
		pGain: p1 - pc, exGain: mu*(p1-pc) - sd*(d1-dc),
		pAbove: 1 - p1,
	}
}

// mean is E[r_w(clamp(X) − c0)], r_w(x) = x if x ≥ 0, w·x otherwise.
func (d clampedDiff) mean(w float64) float64 {
	c0 := d.c0
	if d.deterministic {
		x := min(1, max(0, d.mu)) - c0
		if x < 0 {
			return w * x
		}
		return x
	}
	return -w*c0*d.pBelow + w*(d.exLoss-c0*d.pLoss) + (d.exGain - c0*d.pGain) + (1-c0)*d.pAbove
}

// normalNodes are n points and weights for E[f(Z)], Z ~ N(0, 1) restricted
// to [lo, hi]: n-point Gauss–Legendre on [lo, hi] with the normal density in
// the weights, renormalised to sum to 1.
func normalNodes(n int, lo, hi float64) ([]float64, []float64) {
	x, w := make([]float64, n), make([]float64, n)
	quad.Legendre{}.FixedLocations(x, w, lo, hi)
	sum := 0.0
	for i := range x {
		w[i] *= stdNormalPDF(x[i])
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum
	}
	return x, w
}

// normalPieces are points and weights for E[f(L)], L ~ N(mu, s²), with f
// smooth on (−∞, 0], [0, 1] and [1, ∞): n-point Gauss–Legendre on each piece
// within mu ± 10s, the normal density in the weights.
func normalPieces(mu, s float64, n int) ([]float64, []float64) {
	lo, hi := mu-10*s, mu+10*s
	var xs, ws []float64
	for _, piece := range [][2]float64{{lo, min(0, hi)}, {max(0, lo), min(1, hi)}, {max(1, lo), hi}} {
		a, b := piece[0], piece[1]
		if !(b > a) {
			continue
		}
		x, w := make([]float64, n), make([]float64, n)
		quad.Legendre{}.FixedLocations(x, w, a, b)
		for i := range x {
			xs = append(xs, x[i])
			ws = append(ws, w[i]*stdNormalPDF((x[i]-mu)/s)/s)
		}
	}
	return xs, ws
}
