package engine

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/riskgate/riskgate/bayes/posterior"
	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
)

// What would decide a rule that did not pass: for each challenger and each
// such rule, the rule's quantity is read as a difference d on its own scale
// (the score difference to the champion, or the risk-adjusted difference at
// the rule's loss weight plus its margin) with a standard error se on this
// pool, and the rule as "d beyond its bound by z·se": z is the standard
// normal quantile of the rule's threshold — Φ⁻¹(b) for P(better) ≥ b,
// Φ⁻¹(1 − b) for P(riskier) ≤ b, Φ⁻¹((1 + L)/2) for the lower end of a
// central interval at level L, Φ⁻¹(1 − α) (or 1 − α/2, two-sided) for a
// p-value at most α, the bound itself for TRisk, 0 for a mean. Then
//
//   - the resolvable difference is (z + z_0.8)·se: a true d that large
//     passes the rule with 80% probability on a pool like this one;
//   - the topics that would likely decide it are n·((z + z_0.8)·se/d̂)², the
//     n at which the observed d̂ is resolvable — for the tests and the
//     risk-adjusted mean Sakai's topic set size design (IR Journal 2016),
//     iterated with Student's t quantiles on n − 1 degrees of freedom; for a
//     Bayesian quantity the posterior SD taken to shrink as 1/√topics, which
//     holds for the effects of the hierarchical model while its variances
//     stay as estimated;
//   - it passes at the loss weights of the risk sweep where the same rule,
//     at that weight, holds.

// maxTopicsToDecide caps TopicsToDecide: beyond, no test collection would do.
const maxTopicsToDecide = 100_000

// z80 is Φ⁻¹(0.8): the normal quantile of 80% power.
var z80 = distuv.UnitNormal.Quantile(0.8)

// reading is a rule's quantity read as a difference.
type reading struct {
	est, se float64 // beyond the bound (positive: passing side), and its SE
	z       float64 // the rule's threshold, in SEs
	studT   bool    // t quantiles on n − 1 degrees of freedom (the tests, URisk)
	scale   string
	w       float64
}

// evidence computes the evidence of every rule each challenger did not pass.
func (c *core) evidence(d *policies.Decision) []result.Evidence {
	var out []result.Evidence
	for ci, cd := range d.Challengers {
		for _, rr := range cd.Rules {
			if rr.Outcome == policies.OutcomePass || rr.By != "" {
				continue // a by: rule's evidence is its segments' results (RuleResult.Segments, Result.Segments)
			}
			s := c.sliceOf(rr.Query)
			ch := s.chals[ci]
			quant := policies.LookupQuantity(rr.Quantity)
			rd, ok := s.reading(ch, cd.Name, quant, c.absolute(rr.Query), rr.Bound)
			if !ok {
				continue
			}
			n := len(s.pair(ch).X)
			ev := result.Evidence{Challenger: cd.Name, Rule: rr.Rule, Scale: rd.scale, LossWeight: rd.w,
				Estimate: jsonfloat.Float(rd.est), SE: jsonfloat.Float(rd.se), Topics: n}
			z := rd.z
			if rd.studT {
				z = studentQuantile(rd.z, n)
			}
			res := (z + z80) * rd.se
			ev.ResolvableDifference = jsonfloat.Ptr(res)
			switch {
			case !(rd.est > 0):
				ev.TopicsNote = "the estimate is on the failing side: more topics would firm up the failure, not pass the rule"
			default:
				m := topicsToDecide(rd, n)
				if m > maxTopicsToDecide {
					ev.TopicsNote = "more than " + numfmt.Thousands(maxTopicsToDecide) + " topics: the difference is too small to resolve"
				} else {
					ev.TopicsToDecide = &m
				}
			}
			if quant.Accepts(policies.ParamMargin) {
				ev.PassesAtLossWeight = s.passesAt(ch, cd.Name, quant, rr)
			}
			out = append(out, ev)
		}
	}
	return out
}

// read is the rule's quantity as a difference beyond its bound; ok is false
// for quantities that are not a difference (counts, categories, ZRisk,
// GeoRisk) and for bounds that are ranges.
func (s *slice) reading(c int, name string, quant *policies.Quantity, q policies.Query, b policies.Bound) (reading, bool) {
	if b.Op == policies.In {
		return reading{}, false
	}
	sign := 1.0 // the passing side of a bound on the value
	if b.Op == policies.AtMost {
		sign = -1
	}
	p := s.pair(c)
	n := float64(len(p.X))
	if n < 2 {
		return reading{}, false
	}
	switch quant.Analysis {
	case policies.AnalysisDescriptive:
		if quant.Statistic != policies.StatMeanDiff {
			return reading{}, false
		}
		d := p.Deltas()
		return reading{est: sign * (stats.Mean(d) - b.Value), se: sd(d) / math.Sqrt(n), studT: true, scale: "score difference"}, true
	case policies.AnalysisTests:
		d := p.Deltas()
		se := sd(d) / math.Sqrt(n)
		if quant.Test == "welch_t" {
			se = math.Sqrt(stats.Variance(p.X)/n + stats.Variance(p.Base)/n)
		}
		mean := stats.Mean(d) + q.Margin // the test is of d + δ
		alpha := b.Value
		var est, z float64
		switch q.Alternative {
		case policies.Greater:
			est, z = mean, normQuantile(1-alpha)
		case policies.Less:
			est, z = -mean, normQuantile(1-alpha)
		default:
			est, z = math.Abs(mean), normQuantile(1-alpha/2)
		}
		if b.Op != policies.AtMost { // a lower bound on a p-value asks for no difference: not a difference to resolve
			return reading{}, false
		}
		return reading{est: est, se: se, z: z, studT: true, scale: "score difference"}, true
	case policies.AnalysisRisk, policies.AnalysisBCa:
		if quant.Statistic == policies.StatZRisk || quant.Statistic == policies.StatGeoRisk || quant.Statistic == policies.StatTRiskP {
			return reading{}, false
		}
		dw := p.Adjusted(q.LossWeight)
		mean, se := stats.Mean(dw)+q.Margin, sd(dw)/math.Sqrt(n)
		rd := reading{se: se, studT: true, scale: "risk-adjusted difference", w: q.LossWeight}
		switch quant.Statistic {
		case policies.StatURisk:
			rd.est = sign * (mean - b.Value)
		case policies.StatTRisk:
			// mean/se ≥ bound: the bound is already on the t scale.
			rd.est, rd.z, rd.studT = sign*mean, sign*b.Value, false
		case policies.StatLo, policies.StatHi:
			rd.est, rd.z = sign*(mean-b.Value), normQuantile((1+q.IntervalLevel(len(s.chals)))/2)
		}
		return rd, true
	case policies.AnalysisBayes, policies.AnalysisBRisk:
		f := s.raw
		scale := "score difference (the model's system effects)"
		if quant.Analysis == policies.AnalysisBRisk {
			f, scale = s.brisk[q.LossWeight], "risk-adjusted difference (BRisk's system effects)"
		}
		if f == nil || f.res.Unavailable != "" || !f.res.Converged {
			return reading{}, false
		}
		draws := f.diffs[name]
		mean, se := posterior.Mean(draws)+q.Margin, posterior.SD(draws)
		rd := reading{se: se, scale: scale}
		if quant.Analysis == policies.AnalysisBRisk {
			rd.w = q.LossWeight
		}
		switch quant.Statistic {
		case policies.StatPGreater: // P(δ > 0) ≥ b
			rd.est, rd.z = mean, normQuantile(b.Value)
		case policies.StatPLess: // P(δ < −margin) ≤ b
			rd.est, rd.z = mean, normQuantile(1-b.Value)
		case policies.StatDiffMean:
			rd.est = sign * (mean - b.Value)
		case policies.StatLo, policies.StatHi:
			rd.est, rd.z = sign*(mean-b.Value), normQuantile((1+q.Level)/2)
		default:
			return reading{}, false
		}
		return rd, true
	}
	return reading{}, false
}

// topicsToDecide is the n at which the observed difference would pass the
// rule with 80% probability: n·((z + z_0.8)·se/est)², with Student's t
// quantiles on n − 1 degrees of freedom iterated to a fixed point for the
// tests and the risk-adjusted mean (Sakai's topic set size design).
func topicsToDecide(rd reading, n int) int {
	sdUnit := rd.se * math.Sqrt(float64(n)) // the SD of one topic's contribution
	need := func(z, z2 float64) int {
		return int(math.Ceil(math.Pow((z+z2)*sdUnit/rd.est, 2)))
	}
	m := need(rd.z, z80)
	if !rd.studT {
		return max(m, 2)
	}
	for range 20 {
		if m > maxTopicsToDecide {
			return m
		}
		next := need(studentQuantile(rd.z, max(m, 2)), studentQuantile(z80, max(m, 2)))
		if next == m {
			break
		}
		m = next
	}
	return max(m, 2)
}

// passesAt lists the loss weights of the risk sweep (and the policy's
// weights) at which the rule, with its margin and bound, holds.
func (s *slice) passesAt(c int, name string, quant *policies.Quantity, rr policies.RuleResult) []float64 {
	ws := slices.Clone(s.set.sweep)
	for w := range s.brisk {
		if !slices.Contains(ws, w) {
			ws = append(ws, w)
		}
	}
	slices.Sort(ws)
	var out []float64
	for _, w := range ws {
		if w == rr.Query.LossWeight {
			continue
		}
		q := s.absolute(rr.Query)
		q.LossWeight = w
		var obs policies.Observation
		switch quant.Analysis {
		case policies.AnalysisBRisk:
			f, ok := s.brisk[w]
			if !ok {
				continue
			}
			obs = f.observe(name, q, quant.Statistic)
		default:
			obs = s.observe(c, q)
		}
		if rr.Bound.Holds(obs) {
			out = append(out, w)
		}
	}
	return out
}

// studentQuantile is the quantile of Student's t on n − 1 degrees of
// freedom at the probability the standard normal gives z.
func studentQuantile(z float64, n int) float64 {
	if n < 2 {
		return math.Inf(1)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(distuv.UnitNormal.CDF(z))
}

func normQuantile(p float64) float64 { return distuv.UnitNormal.Quantile(p) }

func sd(x []float64) float64 { return math.Sqrt(stats.Variance(x)) }
