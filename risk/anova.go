package risk

import (
	"fmt"
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
// its precision when the effects dominate. The means are correctly rounded
// (stats.ExactMean), so a sum of squares that is zero in exact arithmetic
// comes out below N·(16·ε·max|x|)², and is then taken as 0 with a warning
// (see roundingLevel): identical systems, or systems equal up to a constant
// shift, give rounding noise, and the ratio of two noises is no F statistic
// (R's aov reports it all the same).
func (s Systems) TwoWayANOVA() (ANOVA, error) {
	if err := s.check(); err != nil {
		return ANOVA{}, err
	}
	m, n := len(s), len(s[0])
	sysMean := make([]float64, m)
	all := make([]float64, 0, m*n)
	for i, row := range s {
		sysMean[i] = stats.ExactMean(row)
		all = append(all, row...)
	}
	topicMean := make([]float64, n)
	col := make([]float64, m)
	for j := range topicMean {
		for i, row := range s {
			col[i] = row[j]
		}
		topicMean[j] = stats.ExactMean(col)
	}
	grand := stats.ExactMean(all)
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
	a := ANOVA{Model: "two-way"}
	tol := roundingLevel(s)
	ssSys = a.atRoundingLevel(ssSys, tol, "system")
	ssTopic = a.atRoundingLevel(ssTopic, tol, "topic")
	ssE = a.atRoundingLevel(ssE, tol, "residual")
	dfE := float64((m - 1) * (n - 1))
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
//
// Sums of squares at rounding level are 0, as in TwoWayANOVA.
func (s Systems) OneWayANOVA() (ANOVA, error) {
	if err := s.check(); err != nil {
		return ANOVA{}, err
	}
	m, n := len(s), len(s[0])
	sysMean := make([]float64, m)
	all := make([]float64, 0, m*n)
	for i, row := range s {
		sysMean[i] = stats.ExactMean(row)
		all = append(all, row...)
	}
	grand := stats.ExactMean(all)
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
	tol := roundingLevel(s)
	ssSys = a.atRoundingLevel(ssSys, tol, "system")
	ssE = a.atRoundingLevel(ssE, tol, "residual")
	a.Rows = []ANOVARow{
		effectRow("system", float64(m-1), ssSys),
		residualRow(float64(m*(n-1)), ssE),
	}
	a.finish(ssSys, ssE, ssT)
	return a, nil
}

// roundingLevel is the largest sum of squares rounding alone can produce
// from a table whose true sum of squares is 0: with correctly rounded means,
// each deviation or residual (x − x̄_i· − x̄_·j + x̄) is off by at most about
// 4 roundings of max|x| (2⁻⁵³ each) plus 3 of the subtractions, under 8·ε·max|x|
// with ε = 2⁻⁵², so N deviations square to under N·(8·ε·max|x|)²; the bound
// takes twice that deviation for margin. Genuine sums of squares of scores
// are many orders of magnitude above it.
func roundingLevel(s Systems) float64 {
	big, cells := 0.0, 0
	for _, row := range s {
		for _, v := range row {
			big = math.Max(big, math.Abs(v))
		}
		cells += len(row)
	}
	dev := 16 * 0x1p-52 * big
	return float64(cells) * dev * dev
}

// atRoundingLevel returns ss, or 0 with a warning when ss is at most tol.
func (a *ANOVA) atRoundingLevel(ss, tol float64, source string) float64 {
	if ss == 0 || ss > tol {
		return ss
	}
	what := "the systems' means are equal"
	switch source {
	case "topic":
		what = "the topics' means are equal"
	case "residual":
		what = "the model fits exactly (the systems are equal up to a constant shift)"
	}
	if a.Model == "one-way" && source == "residual" {
		what = "every system scores every topic the same"
	}
	a.Warnings = append(a.Warnings, fmt.Sprintf("the %s sum of squares (%.3g) is at rounding level: %s up to rounding, and it is taken as 0", source, ss, what))
	return 0
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
