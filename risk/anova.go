package risk

import (
	"math"

	"github.com/riskgate/riskgate/internal/stats"
)

// ANOVARow is one line of an analysis-of-variance table.
type ANOVARow struct {
	Source string  // "system", "topic" or "residuals"
	DF     float64 // degrees of freedom
	SS     float64 // sum of squares
	MS     float64 // mean square SS/DF
	F      float64 // MS/MS_residuals (NaN on the residuals row)
	P      float64 // P(F_{DF, DF_residuals} > F) (NaN on the residuals row)
}

// ANOVA is an analysis-of-variance table of a topic × system score matrix.
type ANOVA struct {
	Model string     // "two-way" (system + topic) or "one-way" (system)
	Rows  []ANOVARow // system, [topic,] residuals
	// EtaSquared is SS_system/SS_total; PartialEtaSquared SS_system/(SS_system + SS_residuals).
	EtaSquared, PartialEtaSquared float64
	Warnings                      []string
}

// MSE returns the residual mean square.
func (a ANOVA) MSE() float64 { return a.Rows[len(a.Rows)-1].MS }

// DFResidual returns the residual degrees of freedom.
func (a ANOVA) DFResidual() float64 { return a.Rows[len(a.Rows)-1].DF }

// TwoWayANOVA is the additive two-way ANOVA without replication,
// x_ij = μ + a_i + b_j + e_ij, R's aov(score ~ system + topic) on a complete
// table (m systems, n topics; Sakai's and Carterette's setting):
//
//	SS_system = n·Σ_i (x̄_i· − x̄)²                 df = m − 1
//	SS_topic  = m·Σ_j (x̄_·j − x̄)²                 df = n − 1
//	SS_E      = Σ_ij (x_ij − x̄_i· − x̄_·j + x̄)²     df = (m − 1)(n − 1)
//	F = MS/MS_E,  p = P(F_{df, df_E} > F).
//
// SS_E is summed from the residuals rather than by subtraction, so it keeps
// its precision when the effects dominate.
func (s Systems) TwoWayANOVA() (ANOVA, error) {
	if err := s.check(); err != nil {
		return ANOVA{}, err
	}
	m, n := len(s), len(s[0])
	sysMean := s.means()
	topicMean := make([]float64, n)
	grand := 0.0
	for _, row := range s {
		for j, v := range row {
			topicMean[j] += v
			grand += v
		}
	}
	for j := range topicMean {
		topicMean[j] /= float64(m)
	}
	grand /= float64(m * n)
	var ssSys, ssTopic, ssE, ssT float64
	for _, v := range sysMean {
		ssSys += (v - grand) * (v - grand)
	}
	ssSys *= float64(n)
	for _, v := range topicMean {
		ssTopic += (v - grand) * (v - grand)
	}
	ssTopic *= float64(m)
	for i, row := range s {
		for j, v := range row {
			e := v - sysMean[i] - topicMean[j] + grand
			ssE += e * e
			ssT += (v - grand) * (v - grand)
		}
	}
	dfE := float64((m - 1) * (n - 1))
	a := ANOVA{Model: "two-way"}
	a.Rows = []ANOVARow{
		effectRow("system", float64(m-1), ssSys),
		effectRow("topic", float64(n-1), ssTopic),
		residualRow(dfE, ssE),
	}
	a.finish(ssSys, ssE, ssT)
	return a, nil
}

// OneWayANOVA is the one-way ANOVA of scores by system, ignoring topics,
// R's aov(score ~ system):
//
//	SS_system = n·Σ_i (x̄_i· − x̄)²      df = m − 1
//	SS_E      = Σ_ij (x_ij − x̄_i·)²     df = m(n − 1)
func (s Systems) OneWayANOVA() (ANOVA, error) {
	if err := s.check(); err != nil {
		return ANOVA{}, err
	}
	m, n := len(s), len(s[0])
	sysMean := s.means()
	grand := stats.Mean(sysMean) // balanced: the mean of the means
	var ssSys, ssE, ssT float64
	for i, row := range s {
		d := sysMean[i] - grand
		ssSys += float64(n) * d * d
		for _, v := range row {
			ssE += (v - sysMean[i]) * (v - sysMean[i])
			ssT += (v - grand) * (v - grand)
		}
	}
	a := ANOVA{Model: "one-way"}
	a.Rows = []ANOVARow{
		effectRow("system", float64(m-1), ssSys),
		residualRow(float64(m*(n-1)), ssE),
	}
	a.finish(ssSys, ssE, ssT)
	return a, nil
}

func effectRow(source string, df, ss float64) ANOVARow {
	return ANOVARow{Source: source, DF: df, SS: ss, MS: ss / df}
}

func residualRow(df, ss float64) ANOVARow {
	return ANOVARow{Source: "residuals", DF: df, SS: ss, MS: ss / df, F: math.NaN(), P: math.NaN()}
}

func (a *ANOVA) finish(ssSys, ssE, ssT float64) {
	res := a.Rows[len(a.Rows)-1]
	for i := range a.Rows[:len(a.Rows)-1] {
		r := &a.Rows[i]
		r.F = r.MS / res.MS
		r.P = fSurvival(r.F, r.DF, res.DF)
	}
	a.EtaSquared = ssSys / ssT
	a.PartialEtaSquared = ssSys / (ssSys + ssE)
	if res.MS == 0 {
		a.Warnings = append(a.Warnings, "the residual mean square is zero (the model fits exactly): F is infinite or undefined")
	}
}
