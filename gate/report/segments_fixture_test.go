package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/gate/result"
	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/policies"

	"gonum.org/v1/gonum/stat/distuv"
)

// A synthetic gate Result with rules per segment (issue 26), for the
// reports' tests: synthResult's run with its topics in segments of one
// dimension, three by: rules — all_pass on bca.lo, no_harm on a paired t
// harm test with Holm, no_harm on the segment model's P(δ_g < −margin) —
// their per-segment results, and the segment table (Result.Segments). The
// numbers follow from the synthetic scores as the engine would compute them
// (per-segment mean differences and paired t intervals exactly; bca.lo is
// stood in for by the t interval's lower end and the pooled δ_g by a
// shrunken Δ_g): they are not checked here, the gate's and bayes' tests
// check the real ones against R and rstanarm.

// segSpec is one segment of the fixture's dimension and its topic count.
type segSpec struct {
	name   string
	topics int
}

// segConfig configures segmentedResult.
type segConfig struct {
	dimension   string
	segments    []segSpec
	challengers []string
	// harm is the shift of a challenger's scores in a segment (a regression).
	harm map[[2]string]float64
	// unjudged are the (challenger, segment) pairs whose all_pass rule has
	// no value there (inconclusive): unjudged documents could flip it.
	unjudged map[[2]string]bool
	seed     uint64
}

// originSegments are rb04's topics by origin (issue 26): 301–450 from TREC
// 6–8 (30 of rb04's 50), 601–650 new in Robust 2003 (10) and 651–700 in
// Robust 2004 (10).
var originSegments = []segSpec{{"trec678", 30}, {"robust03", 10}, {"robust04", 10}}

// segmentedOrigin is the fixture of the segmented goldens: by origin, two
// challengers, Chal. 1 regressing by 0.13 in robust04 (it fails there),
// Chal. 2 with unjudged documents in robust03 (inconclusive there).
func segmentedOrigin() *result.Result {
	return segmentedResult(segConfig{dimension: "origin", segments: originSegments, challengers: []string{"Chal. 1", "Chal. 2"},
		harm: map[[2]string]float64{{"Chal. 1", "robust04"}: -0.13}, unjudged: map[[2]string]bool{{"Chal. 2", "robust03"}: true}, seed: 11})
}

const (
	segMarginAllPass = 0.05
	segMarginHarm    = 0.02
)

func segmentedResult(cfg segConfig) *result.Result {
	var segOf []int // topic j → its segment
	for g, s := range cfg.segments {
		for range s.topics {
			segOf = append(segOf, g)
		}
	}
	names := func(j int) string {
		g := segOf[j]
		k := j
		for _, s := range cfg.segments[:g] {
			k -= s.topics
		}
		switch cfg.segments[g].name {
		case "trec678":
			return fmt.Sprint(301 + k)
		case "robust03":
			return fmt.Sprint(601 + k)
		case "robust04":
			return fmt.Sprint(651 + k)
		}
		return fmt.Sprintf("%d-%d", g, k)
	}
	r := synthResult(synthConfig{challengers: cfg.challengers, artifacts: 4, topics: len(segOf), weights: []float64{5}, seed: cfg.seed, topicNames: names,
		shift: func(c string, j int) float64 { return cfg.harm[[2]string{c, cfg.segments[segOf[j]].name}] }})
	r.Policy.Description = "Ship a challenger that is better on average, not riskier, and harms no origin."

	champ := r.Data.SystemScores(r.Data.Champion)
	type segStats struct {
		topics                 int
		champMean, delta, se   float64
		lo, hi, tQuantile, dof float64
	}
	stat := func(c string, g int) segStats {
		chal := r.Data.SystemScores(c)
		var ds []float64
		cm := 0.0
		for j := range segOf {
			if segOf[j] == g {
				ds = append(ds, float64(chal[j])-float64(champ[j]))
				cm += float64(champ[j])
			}
		}
		n := float64(len(ds))
		mean := 0.0
		for _, d := range ds {
			mean += d
		}
		mean /= n
		ss := 0.0
		for _, d := range ds {
			ss += (d - mean) * (d - mean)
		}
		se := math.Sqrt(ss/(n-1)) / math.Sqrt(n)
		q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(0.975)
		return segStats{topics: len(ds), champMean: cm / n, delta: mean, se: se, lo: mean - q*se, hi: mean + q*se, tQuantile: q, dof: n - 1}
	}

	allPass := policies.Query{Quantity: "bca.lo", Level: 0.95, Margin: segMarginAllPass, By: cfg.dimension}
	harm := policies.Query{Quantity: "tests.paired_t.p", Alternative: policies.Less, Margin: segMarginHarm, Correction: policies.CorrectHolm, By: cfg.dimension}
	worse := policies.Query{Quantity: "bayes.p_worse", Margin: segMarginHarm, By: cfg.dimension}
	rules := []struct {
		q         policies.Query
		rule      result.Rule
		semantics policies.SegmentSemantics
	}{
		{allPass, result.Rule{ID: "every-origin-non-inferior", Line: 27, Column: 5, Quantity: allPass.Quantity, Query: allPass.String(),
			Bound: policies.Bound{Op: policies.AtLeast, Value: 0}, BoundWords: "at least 0", Severity: policies.SeverityFail}, policies.SegmentsAllPass},
		{harm, result.Rule{ID: "no-origin-harmed", Line: 34, Column: 5, Quantity: harm.Quantity, Query: harm.String(),
			Bound: policies.Bound{Op: policies.AtLeast, Value: 0.05}, BoundWords: "at least 0.05", Severity: policies.SeverityFail}, policies.SegmentsNoHarm},
		{worse, result.Rule{ID: "no-origin-probably-worse", Line: 43, Column: 5, Quantity: worse.Quantity, Query: worse.String(),
			Bound: policies.Bound{Op: policies.AtMost, Value: 0.9}, BoundWords: "at most 0.9", Severity: policies.SeverityFail}, policies.SegmentsNoHarm},
	}
	for _, x := range rules {
		r.Policy.Rules = append(r.Policy.Rules, x.rule)
	}

	// The harm test's p-values, Holm-adjusted over segments × challengers.
	var ps []float64
	for _, c := range cfg.challengers {
		for g := range cfg.segments {
			s := stat(c, g)
			ps = append(ps, distuv.StudentsT{Mu: 0, Sigma: 1, Nu: s.dof}.CDF((s.delta+segMarginHarm)/s.se))
		}
	}
	adjusted := policies.AdjustPValues(ps, policies.CorrectHolm, len(ps))

	table := result.SegmentTable{Dimension: cfg.dimension, Measure: r.Data.Measure}
	d := r.Decision
	for ci, c := range cfg.challengers {
		cd := &d.Challengers[ci]
		sc := result.SegmentChallenger{Name: c}
		overall := 0.0
		for g := range cfg.segments {
			overall += stat(c, g).delta * float64(cfg.segments[g].topics)
		}
		overall /= float64(len(segOf))
		results := make([]policies.RuleResult, len(rules))
		for k, x := range rules {
			results[k] = policies.RuleResult{Rule: x.rule.ID, Quantity: x.q.Quantity, Query: x.q, Severity: x.rule.Severity, Bound: x.rule.Bound,
				BoundWords: x.rule.BoundWords, Outcome: policies.OutcomePass, By: cfg.dimension, BySemantics: x.semantics}
			if x.q.Correction != "" {
				results[k].Correction = x.q.Correction
			}
		}
		for g, spec := range cfg.segments {
			s := stat(c, g)
			// The segment model shrinks Δ_g toward the challenger's overall
			// difference, more so in a small segment.
			shrink := float64(spec.topics) / (float64(spec.topics) + 8)
			pm, psd := shrink*s.delta+(1-shrink)*overall, 0.8*s.se
			pWorse := 1 - normalCDF((pm+segMarginHarm)/psd)
			row := result.SegmentRow{Segment: spec.name, Topics: s.topics, ChampionMean: jsonfloat.Float(s.champMean), Delta: jsonfloat.Float(s.delta),
				Lo: jsonfloat.Float(s.lo), Hi: jsonfloat.Float(s.hi), Level: 0.95, Outcome: policies.OutcomePass,
				Pooled: &result.PooledDifference{Fit: "raw scores", Mean: jsonfloat.Float(pm), Lo: jsonfloat.Float(pm - z975*psd), Hi: jsonfloat.Float(pm + z975*psd),
					Level: 0.95, Margin: segMarginHarm, PWorse: jsonfloat.Float(pWorse), PWorseMCSE: jsonfloat.Float(math.Sqrt(pWorse * (1 - pWorse) / 4000))}}
			observed := []policies.SegmentResult{
				{Observed: policies.Number(s.lo + segMarginAllPass), BeforeMargin: obsPtr(s.lo)},
				{Observed: policies.Number(adjusted[ci*len(cfg.segments)+g]), Unadjusted: obsPtr(ps[ci*len(cfg.segments)+g])},
				{Observed: policies.Number(pWorse)},
			}
			for k, x := range rules {
				sr := observed[k]
				sr.Segment, sr.Topics, sr.Outcome = spec.name, s.topics, policies.OutcomePass
				switch {
				case k == 0 && cfg.unjudged[[2]string{c, spec.name}]:
					sr.Observed = policies.Unavailable(fmt.Sprintf("37 unjudged documents in %s's top 10 could flip the rule in segment %s", c, spec.name))
					sr.BeforeMargin = nil
					sr.Outcome, sr.Reason = policies.OutcomeInconclusive, sr.Observed.Missing()
				case !x.rule.Bound.Holds(sr.Observed):
					sr.Outcome, sr.Reason = policies.OutcomeFail, fmt.Sprintf("observed %s; needs %s", observedText(sr.Observed, x.rule.Bound), x.rule.BoundWords)
				}
				results[k].Segments = append(results[k].Segments, sr)
				if outcomeRank(sr.Outcome) < outcomeRank(row.Outcome) {
					row.Outcome = sr.Outcome
				}
				row.Rules = append(row.Rules, x.rule.ID)
			}
			sc.Rows = append(sc.Rows, row)
		}
		sc.Worst = result.WorstSegmentRow(sc).Segment
		table.Challengers = append(table.Challengers, sc)

		// Each rule: its worst segment, its outcome and reason.
		for k := range results {
			rr := &results[k]
			worst := -1
			passing := 0
			for g, sr := range rr.Segments {
				if sr.Outcome == policies.OutcomePass {
					passing++
				}
				if worst < 0 || outcomeRank(sr.Outcome) < outcomeRank(rr.Segments[worst].Outcome) {
					worst = g
				}
			}
			if rr.Segments[worst].Outcome == policies.OutcomePass {
				// The one closest to its bound.
				for g, sr := range rr.Segments {
					v, _ := sr.Observed.Number()
					w, _ := rr.Segments[worst].Observed.Number()
					if math.Abs(v-rr.Bound.Value) < math.Abs(w-rr.Bound.Value) {
						worst = g
					}
				}
			}
			ws := rr.Segments[worst]
			rr.Segment, rr.Observed, rr.BeforeMargin, rr.Unadjusted, rr.Outcome = ws.Segment, ws.Observed, ws.BeforeMargin, ws.Unadjusted, ws.Outcome
			rr.Reason = fmt.Sprintf("in segment %s (%d topics): observed %s; needs %s; %d of %d segments pass", ws.Segment, ws.Topics, observedText(ws.Observed, rr.Bound),
				rr.BoundWords, passing, len(rr.Segments))
			if ws.Outcome == policies.OutcomeInconclusive {
				rr.Reason = ws.Reason + fmt.Sprintf("; %d of %d segments pass", passing, len(rr.Segments))
			}
			if ws.Outcome == policies.OutcomePass {
				rr.Reason = ""
			}
			cd.Rules = append(cd.Rules, *rr)
			switch {
			case rr.Outcome == policies.OutcomeFail:
				cd.Verdict = policies.Fail
			case rr.Outcome == policies.OutcomeInconclusive && cd.Verdict == policies.Pass:
				cd.Verdict = policies.Inconclusive
			}
		}
		if cd.Verdict != policies.Pass {
			cd.Selected = false
		}
		// The reason: the failing rules, then the inconclusive ones.
		var failing, open []string
		for _, rr := range cd.Rules {
			switch rr.Outcome {
			case policies.OutcomeFail:
				failing = append(failing, rr.Rule)
			case policies.OutcomeInconclusive:
				open = append(open, rr.Rule)
			}
		}
		var why []string
		if len(failing) > 0 {
			why = append(why, "fails "+joinWords(failing))
		}
		if len(open) > 0 {
			why = append(why, "inconclusive on "+joinWords(open))
		}
		cd.Reason = string(cd.Verdict)
		if len(why) > 0 {
			cd.Reason = strings.Join(why, "; ")
		}
	}
	r.Segments = []result.SegmentTable{table}

	// The verdict: a passing challenger is selected, else inconclusive when
	// one is, else fail.
	d.Selected, d.Verdict = []string{}, policies.Fail
	for i := range d.Challengers {
		if d.Challengers[i].Verdict == policies.Inconclusive {
			d.Verdict = policies.Inconclusive
		}
	}
	for i := range d.Challengers {
		if d.Challengers[i].Verdict == policies.Pass && len(d.Selected) == 0 {
			d.Challengers[i].Selected = true
			d.Selected = []string{d.Challengers[i].Name}
			d.Verdict = policies.Pass
		}
	}
	d.Raw = d.Verdict
	r.Summary = result.NewSummary(r)
	return r
}

// outcomeRank orders outcomes, the most severe first.
func outcomeRank(o policies.Outcome) int {
	return slices.Index([]policies.Outcome{policies.OutcomeFail, policies.OutcomeWarn, policies.OutcomeInconclusive, policies.OutcomePass}, o)
}

// joinWords joins names as a sentence does: "a", "a and b", "a, b and c".
func joinWords(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	s := ""
	for i, w := range ws[:len(ws)-1] {
		if i > 0 {
			s += ", "
		}
		s += w
	}
	return s + " and " + ws[len(ws)-1]
}

func obsPtr(v float64) *policies.Observation { o := policies.Number(v); return &o }
