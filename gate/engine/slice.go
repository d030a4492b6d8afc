package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/judgments"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
	"github.com/riskgate/riskgate/risk"
)

// A slice is the data one set of analyses runs on, with the analyses
// computed on it: each lazily, at most once per setting (loss weight,
// level, test), only when a query asks for it, and never when the policy
// does not need it — except the cheap descriptive and closed-form risk
// measures, which the risk table of every report shows.
//
// Its key names the data: a rule's measure (several score tables per
// gate), a segment of a topic attribute (the table's topics in that
// segment: segments.go), a judgment variant (the challenger scored under
// another assumption about unjudged documents: judged.go). core.keyOf
// names the slice a query reads and core.tableOf builds a slice's table;
// the analyses, their caches and their readers are the slice's.
type slice struct {
	*core
	key   sliceKey
	t     *scores.Table
	champ int   // index of the champion in t
	chals []int // indexes of the challengers in t, in roles order

	pairs  map[int]risk.Pair                 // champion and challenger on their common topics
	riskAt map[float64]*riskMeasures         // closed-form risk measures per loss weight
	bcaAt  map[[2]float64]map[int]bcaOutcome // (w, level) → challenger → BCa
	// bcaEnds are the ends of BCa intervals settled sequentially against a
	// rule's threshold (bca_sequential.go).
	bcaEnds map[bcaEndKey]bcaEnd
	tests   map[testKey]testOutcome // per test, alternative and challenger
	raw     *fitted                 // the raw-score fit
	brisk   map[float64]*fitted     // the risk-adjusted fits per loss weight
	// segFits are the partially pooled segment fits per dimension and
	// loss weight (segfit.go), for the by: rules' Bayesian quantities.
	segFits map[segFitKey]*segFitted
}

// sliceKey names a slice: see slice.
type sliceKey struct {
	measure string // the table's
	// variant is the assumption about unjudged documents the champion's
	// and the challengers' scores are under (judged.go); Standard for the
	// scores as loaded.
	variant judgments.Variant
	// dimension and segment name a segment of a topic attribute: the
	// slice is the table's topics in it (segments.go); "" for every topic.
	dimension, segment string
}

func newSlice(c *core, key sliceKey, t *scores.Table) *slice {
	s := &slice{core: c, key: key, t: t, champ: t.SystemIndex(c.roles.Champion),
		pairs: map[int]risk.Pair{}, riskAt: map[float64]*riskMeasures{}, bcaAt: map[[2]float64]map[int]bcaOutcome{},
		bcaEnds: map[bcaEndKey]bcaEnd{}, tests: map[testKey]testOutcome{}, brisk: map[float64]*fitted{}, segFits: map[segFitKey]*segFitted{}}
	for _, name := range c.roles.Challengers {
		s.chals = append(s.chals, t.SystemIndex(name))
	}
	return s
}

// gateBootstrapSamples is B of the BCa bootstrap and of the permutation and
// bootstrap tests: the defaults table's, as riskgate compare's default.
var gateBootstrapSamples = policies.DefaultSettings().BootstrapSamples

type riskMeasures struct {
	w       float64
	urisk   map[int]risk.URisk
	trisk   map[int]risk.TRisk
	errs    map[int]error
	pool    []int // systems of ZRisk/GeoRisk: champion and challengers
	zrisk   map[int]float64
	georisk map[int]float64
	poolErr error
}

type bcaOutcome struct {
	r   risk.BCa
	err error
}

type testKey struct {
	name   string
	alt    policies.Alternative
	margin float64
	c      int
}

type testOutcome struct {
	p   float64
	err error
}

// of names the slice's measure in a progress line (" of ndcg_cut_10") when
// the gate has several; nothing for a one-measure gate.
func (s *slice) of() string {
	if len(s.tables) < 2 {
		return ""
	}
	return " of " + s.key.measure
}

// pair returns the champion's and challenger c's scores on the topics both
// were scored on (every topic unless --topics keep left cells missing).
func (s *slice) pair(c int) risk.Pair {
	if p, ok := s.pairs[c]; ok {
		return p
	}
	var p risk.Pair
	x, base := s.t.Scores[c], s.t.Scores[s.champ]
	for j := range x {
		if !math.IsNaN(x[j]) && !math.IsNaN(base[j]) {
			p.X = append(p.X, x[j])
			p.Base = append(p.Base, base[j])
		}
	}
	s.pairs[c] = p
	return p
}

// descriptive reads a statistic off the score table: the challenger's mean,
// its mean difference to the champion, or its wins, losses or ties.
func (s *slice) descriptive(c int, stat policies.Statistic) (float64, error) {
	s.ran[policies.AnalysisDescriptive] = true
	p := s.pair(c)
	switch stat {
	case policies.StatMean:
		return stats.MeanDefined(s.t.Scores[c]), nil
	case policies.StatMeanDiff:
		if len(p.X) == 0 {
			return math.NaN(), fmt.Errorf("the challenger and the champion have no topic in common")
		}
		return stats.MeanDefined(p.X) - stats.MeanDefined(p.Base), nil
	}
	o, err := p.Outcomes()
	if err != nil {
		return math.NaN(), err
	}
	switch stat {
	case policies.StatWins:
		return float64(o.Wins), nil
	case policies.StatLosses:
		return float64(o.Losses), nil
	case policies.StatTies:
		return float64(o.Ties), nil
	}
	return math.NaN(), fmt.Errorf("the score table gives no %s", stat)
}

// risk returns the closed-form risk measures at loss weight w.
func (s *slice) risk(w float64) *riskMeasures {
	if m, ok := s.riskAt[w]; ok {
		return m
	}
	s.ran[policies.AnalysisRisk] = true
	m := &riskMeasures{w: w, urisk: map[int]risk.URisk{}, trisk: map[int]risk.TRisk{}, errs: map[int]error{},
		zrisk: map[int]float64{}, georisk: map[int]float64{}}
	s.timed("risk", func() {
		for _, c := range s.chals {
			p := s.pair(c)
			u, err := p.URisk(w)
			if err != nil {
				m.errs[c] = err
				continue
			}
			t, err := p.TRisk(w)
			if err != nil {
				m.errs[c] = err
				continue
			}
			m.urisk[c], m.trisk[c] = u, t
			s.warn(c, "TRisk", t.Warnings, about{policies.AnalysisRisk, w, []string{"trisk", "trisk_p"}})
		}
		// ZRisk and GeoRisk over the champion and the challengers, on the
		// topics every one of them was scored on.
		m.pool = append([]int{s.champ}, s.chals...)
		sys := completeRows(s.t, m.pool)
		geo, err := sys.GeoRisk(w)
		if err != nil {
			m.poolErr = err
			return
		}
		for i, sy := range m.pool {
			m.zrisk[sy], m.georisk[sy] = geo.ZRisk.Values[i], geo.Values[i]
		}
		for _, msg := range geo.Warnings {
			s.warnings = append(s.warnings, analysisWarning(fmt.Sprintf("ZRisk/GeoRisk at w = %s: %s", numfmt.G(w), msg),
				about{policies.AnalysisRisk, w, []string{"zrisk", "georisk"}}))
		}
	})
	s.riskAt[w] = m
	return m
}

// completeRows returns the rows of the systems idx on the topics every one
// of them was scored on.
func completeRows(t *scores.Table, idx []int) risk.Systems {
	var keep []int
	for j := range t.Topics {
		ok := true
		for _, s := range idx {
			if math.IsNaN(t.Scores[s][j]) {
				ok = false
				break
			}
		}
		if ok {
			keep = append(keep, j)
		}
	}
	out := make(risk.Systems, len(idx))
	for i, s := range idx {
		for _, j := range keep {
			out[i] = append(out[i], t.Scores[s][j])
		}
	}
	return out
}

// riskValue reads a closed-form risk measure of challenger c at loss weight
// w; URisk and TRisk with a non-inferiority margin δ are those of d_w + δ:
// URisk + δ, and (URisk + δ)/SE.
func (s *slice) riskValue(c int, stat policies.Statistic, w, margin float64) (float64, error) {
	m := s.risk(w)
	switch stat {
	case policies.StatZRisk, policies.StatGeoRisk:
		if m.poolErr != nil {
			return math.NaN(), m.poolErr
		}
		if stat == policies.StatZRisk {
			return m.zrisk[c], nil
		}
		return m.georisk[c], nil
	}
	if err := m.errs[c]; err != nil {
		return math.NaN(), err
	}
	switch stat {
	case policies.StatURisk:
		return m.urisk[c].Value + margin, nil
	case policies.StatTRisk:
		if margin == 0 {
			return m.trisk[c].T, nil
		}
		return (m.trisk[c].URisk + margin) / m.trisk[c].SE, nil
	case policies.StatTRiskP:
		return m.trisk[c].P, nil
	}
	return math.NaN(), fmt.Errorf("the risk measures give no %s", stat)
}

// bca returns the BCa intervals of URisk at loss weight w and level for
// every challenger (the risk table's column).
func (s *slice) bca(w, level float64) map[int]bcaOutcome {
	m := map[int]bcaOutcome{}
	for _, c := range s.chals {
		m[c] = s.bcaFor(c, w, level)
	}
	return m
}

// bcaFor returns challenger c's BCa interval of URisk at loss weight w and
// level, bootstrapped once: a rule's evidence at the risk sweep's weights
// asks for the challengers that did not pass it only.
func (s *slice) bcaFor(c int, w, level float64) bcaOutcome {
	key := [2]float64{w, level}
	if o, ok := s.bcaAt[key][c]; ok {
		return o
	}
	if s.bcaAt[key] == nil {
		s.bcaAt[key] = map[int]bcaOutcome{}
		s.phase(fmt.Sprintf("bootstrapping URisk%s at loss weight %s", s.of(), numfmt.G(w)))
	}
	s.ran[policies.AnalysisBCa] = true
	var o bcaOutcome
	s.timed("bca", func() {
		r, err := s.pair(c).BCa(w, risk.BootstrapOptions{B: gateBootstrapSamples, Level: level, Seed: s.p.Seed})
		o = bcaOutcome{r, err}
		if err == nil {
			s.warn(c, "BCa", r.Warnings, about{analysis: policies.AnalysisBCa, w: w})
		}
	})
	s.bcaAt[key][c] = o
	return o
}

// test returns the p-value of a significance test of challenger c against
// the champion with alternative alt, of d + margin (testPValue), computed
// once.
func (s *slice) test(name string, alt policies.Alternative, margin float64, c int) testOutcome {
	key := testKey{name, alt, margin, c}
	if t, ok := s.tests[key]; ok {
		return t
	}
	s.ran[policies.AnalysisTests] = true
	s.phase("running the significance tests" + s.of())
	var t testOutcome
	s.timed("tests", func() {
		var warns []string
		t.p, warns, t.err = testPValue(s.pair(c), name, alt, margin, gateBootstrapSamples, s.p.Seed)
		s.warn(c, strings.ReplaceAll(name, "_", " ")+" test", warns, about{analysis: policies.AnalysisTests, quantities: []string{"tests." + name + ".p"}})
	})
	s.tests[key] = t
	return t
}

// warn records the warnings of an analysis of system sy, once each, with
// the values they concern.
func (s *slice) warn(sy int, what string, warnings []string, a about) {
	for _, w := range warnings {
		msg := fmt.Sprintf("%s, %s: %s", s.t.Systems[sy], what, w)
		if !slices.ContainsFunc(s.warnings, func(x warning) bool { return x.text == msg }) {
			s.warnings = append(s.warnings, analysisWarning(msg, a))
		}
	}
}

// modelTable is the table the Bayesian models are fitted to — every
// system, a small pool too (its system spread then has the day-one prior:
// hierOptions) — with the champion's and the challengers' indexes in it.
func (s *slice) modelTable() (t *bayes.Table, champ int, chals []int) {
	return &bayes.Table{Systems: s.t.Systems, Topics: s.t.Topics, Scores: s.t.Scores}, s.champ, s.chals
}
