package engine

import (
	"fmt"

	"github.com/riskgate/riskgate/policies"
)

// reader computes one statistic of one analysis for challenger c (an index
// in the table), with the query's parameters.
type reader func(g *gateRun, c int, q policies.Query, quant *policies.Quantity) policies.Observation

// readers say how the engine computes every statistic of every analysis.
// The policies registry says which analysis and statistic each quantity is;
// TestEveryQuantityIsComputed walks the registry, with every parameter each
// quantity declares, through a policy on the example pool.
var readers = map[policies.Analysis]map[policies.Statistic]reader{
	policies.AnalysisDescriptive: byStatistic(readDescriptive,
		policies.StatMean, policies.StatMeanDiff, policies.StatWins, policies.StatLosses, policies.StatTies),
	policies.AnalysisRisk: byStatistic(readRisk,
		policies.StatURisk, policies.StatTRisk, policies.StatTRiskP, policies.StatZRisk, policies.StatGeoRisk),
	policies.AnalysisBCa:   byStatistic(readBCa, policies.StatLo, policies.StatHi),
	policies.AnalysisTests: byStatistic(readTest, policies.StatPValue),
	policies.AnalysisBayes: byStatistic(readBayes,
		policies.StatPGreater, policies.StatDiffMean, policies.StatLo, policies.StatHi, policies.StatROPE),
	policies.AnalysisBRisk: byStatistic(readBRisk,
		policies.StatPLess, policies.StatDiffMean, policies.StatLo, policies.StatHi, policies.StatAtRisk),
}

func byStatistic(r reader, stats ...policies.Statistic) map[policies.Statistic]reader {
	m := map[policies.Statistic]reader{}
	for _, s := range stats {
		m[s] = r
	}
	return m
}

// observe computes one query for challenger c (an index in the table).
func (g *gateRun) observe(c int, q policies.Query) policies.Observation {
	if quant := policies.LookupQuantity(q.Quantity); quant != nil {
		if read := readers[quant.Analysis][quant.Statistic]; read != nil {
			return read(g, c, q, quant)
		}
	}
	return policies.Unavailable(fmt.Sprintf("the gate cannot compute %s", q.Quantity))
}

// number is an observation of x, or of why there is none.
func number(x float64, err error) policies.Observation {
	if err != nil {
		return policies.Unavailable(err.Error())
	}
	return policies.Number(x)
}

func readDescriptive(g *gateRun, c int, _ policies.Query, quant *policies.Quantity) policies.Observation {
	return number(g.descriptive(c, quant.Statistic))
}

func readRisk(g *gateRun, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	return number(g.riskValue(c, quant.Statistic, q.LossWeight, q.Margin))
}

func readBCa(g *gateRun, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	if threshold, ok := g.bcaThreshold(q); ok && g.decisionOnly && g.earlyStop {
		end, err := g.bcaDecisionEnd(c, q, quant.Statistic == policies.StatHi, threshold)
		return number(end+q.Margin, err)
	}
	b := g.bcaFor(c, q.LossWeight, q.IntervalLevel(len(g.chals)))
	if b.err != nil {
		return policies.Unavailable(b.err.Error())
	}
	// With a margin δ the interval is that of URisk + δ.
	if quant.Statistic == policies.StatLo {
		return policies.Number(b.r.BCa.Lo + q.Margin)
	}
	return policies.Number(b.r.BCa.Hi + q.Margin)
}

func readTest(g *gateRun, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	t := g.test(quant.Test, q.Alternative, c)
	return number(t.p, t.err)
}

func readBayes(g *gateRun, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	return g.bayesFit().observe(g.t.Systems[c], q, quant.Statistic)
}

func readBRisk(g *gateRun, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	return g.briskFit(q.LossWeight).observe(g.t.Systems[c], q, quant.Statistic)
}
