package engine

import (
	"math"

	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// bcaThreshold is the one threshold the policy's rules put on the end of a
// BCa interval that query q reads, on the scale of the end itself (a rule
// bounds end + margin): ok is false when no rule, or rules with different
// numbers or a range, bound it — the end is then computed in full.
func (c *core) bcaThreshold(q policies.Query) (threshold float64, ok bool) {
	for _, r := range c.p.Rules {
		if c.p.Query(r) != q {
			continue
		}
		if r.Bound.Op != policies.AtLeast && r.Bound.Op != policies.AtMost {
			return 0, false
		}
		t := r.Bound.Value - c.absolute(q).Margin
		if ok && t != threshold {
			return 0, false
		}
		threshold, ok = t, true
	}
	return threshold, ok
}

// bcaDecisionEnd is the end of challenger c's BCa interval that stat
// names (bca.lo or bca.hi) as calibrate's decision needs it: risk.BCaMeanBoundSequential settles the side of the
// rule's threshold the end lies on from 8,192 or 32,768 replicates when it
// is more than 5 Monte Carlo SEs away, else from all of the gate's. The
// decision is the gate's except where the gate's end is within Monte Carlo
// error of the threshold (TestBCaBoundSequentialAgrees,
// TestDecideBCaAgreesWithTheGate).
func (s *slice) bcaDecisionEnd(c int, q policies.Query, stat policies.Statistic, threshold float64) (float64, error) {
	key := bcaEndKey{c: c, w: q.LossWeight, level: q.IntervalLevel(len(s.chals)), upper: stat == policies.StatHi, threshold: threshold}
	if e, ok := s.bcaEnds[key]; ok {
		return e.end, e.err
	}
	s.ran[policies.AnalysisBCa] = true
	var b risk.SequentialBound
	var err error
	s.timed("bca", func() {
		p := s.pair(c)
		b, err = risk.BCaMeanBoundSequential(p.Adjusted(q.LossWeight), risk.BootstrapOptions{B: gateBootstrapSamples, Level: key.level, Seed: s.p.Seed}, key.upper, threshold)
	})
	end := b.Bound
	if err != nil {
		end = math.NaN()
	}
	s.bcaEnds[key] = bcaEnd{end, err}
	return end, err
}

type bcaEndKey struct {
	c         int
	w, level  float64
	upper     bool
	threshold float64
}

type bcaEnd struct {
	end float64
	err error
}
