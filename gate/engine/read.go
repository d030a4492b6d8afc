package engine

import (
	"fmt"

	"github.com/riskgate/riskgate/policies"
)

// reader computes one statistic of one analysis for challenger c (an index
// in the slice's table), with the query's parameters.
type reader func(s *slice, c int, q policies.Query, quant *policies.Quantity) policies.Observation

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
		policies.StatPGreater, policies.StatPLess, policies.StatDiffMean, policies.StatLo, policies.StatHi, policies.StatROPE),
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

// resolveReader says how query q is computed under the run's settings: the
// reader of its analysis and statistic, except that a run that settles BCa
// ends sequentially reads an end the rules bound by one threshold that way
// (bca_sequential.go).
func (c *core) resolveReader(q policies.Query) reader {
	quant := policies.LookupQuantity(q.Quantity)
	var read reader
	if quant != nil {
		read = readers[quant.Analysis][quant.Statistic]
	}
	if read == nil {
		return func(*slice, int, policies.Query, *policies.Quantity) policies.Observation {
			return policies.Unavailable(fmt.Sprintf("the gate cannot compute %s", q.Quantity))
		}
	}
	if c.set.sequential && quant.Analysis == policies.AnalysisBCa {
		if threshold, ok := c.bcaThreshold(q); ok {
			return func(s *slice, ci int, q policies.Query, quant *policies.Quantity) policies.Observation {
				end, err := s.bcaDecisionEnd(ci, q, quant.Statistic, threshold)
				return number(end+q.Margin, err)
			}
		}
	}
	return read
}

// observe computes one query for challenger c (an index in the table): by
// its resolved reader, or — a query no rule asks, such as the evidence's at
// another loss weight — by the reader its analysis and statistic resolve to.
func (s *slice) observe(c int, q policies.Query) policies.Observation {
	read, ok := s.readers[q]
	if !ok {
		read = s.resolveReader(q)
	}
	return read(s, c, s.absolute(q), policies.LookupQuantity(q.Quantity))
}

// number is an observation of x, or of why there is none.
func number(x float64, err error) policies.Observation {
	if err != nil {
		return policies.Unavailable(err.Error())
	}
	return policies.Number(x)
}

func readDescriptive(s *slice, c int, _ policies.Query, quant *policies.Quantity) policies.Observation {
	return number(s.descriptive(c, quant.Statistic))
}

func readRisk(s *slice, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	return number(s.riskValue(c, quant.Statistic, q.LossWeight, q.Margin))
}

func readBCa(s *slice, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	b := s.bcaFor(c, q.LossWeight, q.IntervalLevel(len(s.chals)))
	if b.err != nil {
		return policies.Unavailable(b.err.Error())
	}
	// With a margin δ the interval is that of URisk + δ.
	if quant.Statistic == policies.StatLo {
		return policies.Number(b.r.BCa.Lo + q.Margin)
	}
	return policies.Number(b.r.BCa.Hi + q.Margin)
}

func readTest(s *slice, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	t := s.test(quant.Test, q.Alternative, q.Margin, c)
	return number(t.p, t.err)
}

// readBayes reads the raw-score fit; in a segment, the segment model's δ_g.
func readBayes(s *slice, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	if q.Segment != "" {
		return s.segFit(q.By, 0).observe(s.t.Systems[c], q, quant.Statistic)
	}
	return s.rawFit().observe(s.t.Systems[c], q, quant.Statistic)
}

// readBRisk reads the BRisk fit at the query's loss weight; in a segment,
// the segment model of the risk-adjusted pool.
func readBRisk(s *slice, c int, q policies.Query, quant *policies.Quantity) policies.Observation {
	if q.Segment != "" {
		return s.segFit(q.By, q.LossWeight).observe(s.t.Systems[c], q, quant.Statistic)
	}
	return s.briskFit(q.LossWeight).observe(s.t.Systems[c], q, quant.Statistic)
}
