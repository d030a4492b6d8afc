package risk

import (
	"fmt"
	"math"

	"github.com/riskgate/riskgate/internal/stats"
)

// ZRisk is Dinçer, Macdonald and Ounis's multiple-baseline risk measure
// (SIGIR 2016, "Risk-sensitive evaluation and learning to rank using
// multiple baselines"), one value per system. For r systems over c topics,
//
//	S_i = Σ_j x_ij,  T_j = Σ_i x_ij,  N = Σ_ij x_ij,  e_ij = S_i·T_j/N,
//	z_ij = (x_ij − e_ij)/√e_ij          (z_ij = 0 where e_ij = 0),
//	ZRisk(i) = Σ_{z_ij > 0} z_ij + w·Σ_{z_ij < 0} z_ij,
//
// with losses counted w = 1 + α times (Dinçer et al. write 1 + α). Larger is
// better. e_ij is the score expected of system i on topic j if systems and
// topics were independent (a chi-square table); scores must be non-negative.
// Benham et al.'s ZRisk⁻ column (SIGIR 2020, Table 3) is −ZRisk at w = 6
// (α = 5), although their URisk⁻ and TRisk⁻ columns use w = 5.
type ZRisk struct {
	Values   []float64 // ZRisk of each system, in the order given
	W        float64
	Warnings []string
}

// GeoRisk is Dinçer et al.'s (SIGIR 2016) geometric mean of a system's mean
// effectiveness and its normalised ZRisk:
//
//	GeoRisk(i) = √( (S_i/c) · Φ(ZRisk(i)/c) ),
//
// larger is better. This is Dinçer's definition. Benham et al.'s GeoRisk⁻
// column (SIGIR 2020, Table 3) is not its negation: it equals
// −√((S_i/c)·Φ(ZRisk⁻(i)/c)), Φ applied to the risk-oriented ZRisk⁻ = −ZRisk
// (at w = 6); see the package's tests, which reproduce that column.
type GeoRisk struct {
	Values   []float64 // GeoRisk of each system
	ZRisk    ZRisk     // the ZRisk it is built on
	W        float64
	Warnings []string
}

// ZRisk returns the ZRisk of every system in s against all the others, with
// losses counted w times: Σ_{z>0} z_ij + w·Σ_{z<0} z_ij, z_ij = (x_ij − e_ij)/√e_ij,
// e_ij = S_i·T_j/N (Dinçer et al., SIGIR 2016).
func (s Systems) ZRisk(w float64) (ZRisk, error) {
	if err := s.check(); err != nil {
		return ZRisk{}, err
	}
	if err := checkWeight(w); err != nil {
		return ZRisk{}, err
	}
	nt := len(s[0])
	rowSum := make([]float64, len(s))
	colSum := make([]float64, nt)
	total := 0.0
	for i, row := range s {
		for j, v := range row {
			if v < 0 {
				return ZRisk{}, fmt.Errorf("risk: ZRisk needs non-negative scores; system %d has %v on topic %d", i, v, j)
			}
			rowSum[i] += v
			colSum[j] += v
			total += v
		}
	}
	z := ZRisk{Values: make([]float64, len(s)), W: w}
	if total == 0 {
		z.Warnings = append(z.Warnings, "every score is zero: ZRisk is 0 for every system")
		return z, nil
	}
	zeroTopics := 0
	for j := range colSum {
		if colSum[j] == 0 {
			zeroTopics++
		}
	}
	if zeroTopics > 0 {
		z.Warnings = append(z.Warnings, fmt.Sprintf("%d topic(s) scored 0 by every system contribute z = 0", zeroTopics))
	}
	for i, row := range s {
		var gain, loss float64
		for j, x := range row {
			e := rowSum[i] * colSum[j] / total
			if e == 0 {
				continue
			}
			zij := (x - e) / math.Sqrt(e)
			if zij > 0 {
				gain += zij
			} else {
				loss += zij
			}
		}
		z.Values[i] = gain + w*loss
	}
	return z, nil
}

// GeoRisk returns the GeoRisk of every system in s against all the others,
// with losses counted w times: √((S_i/c)·Φ(ZRisk_i/c)) (Dinçer et al., SIGIR 2016).
func (s Systems) GeoRisk(w float64) (GeoRisk, error) {
	z, err := s.ZRisk(w)
	if err != nil {
		return GeoRisk{}, err
	}
	c := float64(len(s[0]))
	g := GeoRisk{Values: make([]float64, len(s)), ZRisk: z, W: w, Warnings: z.Warnings}
	for i, row := range s {
		g.Values[i] = math.Sqrt(stats.Mean(row) * normalCDF(z.Values[i]/c))
	}
	return g, nil
}
