package calibrate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/riskgate/riskgate/gate/engine"
	"github.com/riskgate/riskgate/gate/scores"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/policies"
)

// The pools of a calibration of several measures are drawn from the user's
// own data, not from a parametric model: each simulated pool resamples the
// data's topics with replacement, and each drawn topic brings every
// system's scores on every measure together, so that the correlation
// between measures (and between systems) within a topic is the data's.
// The simulated challenger on a drawn topic t is the champion's score on t
// shifted, on each measure m, by the cell's shift Δ_m plus the risk scale r
// times the centred improvement u_m(k, t) of one of the data's challengers
// k (drawn with the topic) over the champion on t:
//
//	y_m(challenger, t) = clamp_m(y_m(champion, t) + dir_m·(Δ_m + r·u_m(k, t)))
//
// where dir_m is +1 for a higher-is-better measure and −1 for a
// lower-is-better one (the improvement is then champion − challenger),
// u_m(k, t) = dir_m·(y_m(k, t) − y_m(champion, t)) minus its mean over t,
// and clamp_m is the clamp to [0, 1] for a measure all of whose scores in
// the data lie in [0, 1] (an IR measure, a rate), none otherwise.
//
// The population a pool is drawn from is the data's topics × challengers,
// uniformly; its true quantities are exact averages over it: the true
// mean improvement f_m(Δ) = E[d] and the true risk-adjusted improvement
// g_m,w(Δ) = E[d⁺ − w·d⁻] (URisk at loss weight w), d being the clamped
// improvement dir_m·(y_m(challenger, t) − y_m(champion, t)). Both are
// continuous and nondecreasing in Δ, so the shift of a true effect is
// solved by bisection, exactly for the population (no clamping bias).

// resampled is the population of a calibration of several measures.
type resampled struct {
	measures []string // the tables' measures, the default measure's first
	lower    []bool   // measure m's lower scores are better
	bounded  []bool   // measure m is clamped to [0, 1]
	primary  int      // the primary measure: that of the policy's first fail rule
	// champ[m][t] is the champion's score, arts[m][a][t] artifact a's and
	// u[m][k][t] challenger k's centred improvement over the champion.
	champ [][]float64
	arts  [][][]float64
	u     [][][]float64
	rules []failRule // the policy's fail rules, in policy order
	// corr is the between-measure correlation of the data's centred
	// improvements, pooled over the challengers.
	corr [][]float64
}

// failRule is one fail-severity rule of the policy and the null
// hypothesis it tests on its measure: for a rule whose quantity takes a
// margin (a non-inferiority rule: bca.lo, urisk, brisk.*), "the true
// risk-adjusted improvement at loss weight w is −δ or less"; for mean_diff
// at_least v, "the true mean improvement is v or less"; for any other (a
// superiority rule: a test's p-value, P(better)), "the true mean
// improvement is 0 or less".
type failRule struct {
	id    string
	index int // in policies.Policy.Rules
	m     int // its measure
	risk  bool
	w     float64 // loss weight of a non-inferiority rule
	delta float64 // its absolute margin δ (a relative one resolved on the data's champion)
	mean  float64 // the mean improvement at the null edge of a rule on the mean
}

// edge is the true value of the rule's statistic at its null edge.
func (r failRule) edge() float64 {
	if r.risk {
		return -r.delta
	}
	return r.mean
}

// newResampled checks and prepares the population from the data's tables
// (default measure first, the policy's roles on ts[0]'s systems).
func newResampled(p *policies.Policy, ts engine.Tables, roles policies.Roles) (*resampled, error) {
	t0 := ts[0]
	champ := t0.SystemIndex(roles.Champion)
	var chals, arts []int
	for _, name := range roles.Challengers {
		chals = append(chals, t0.SystemIndex(name))
	}
	for _, name := range roles.Artifacts {
		arts = append(arts, t0.SystemIndex(name))
	}
	n := len(t0.Topics)
	if n < 2 {
		return nil, fmt.Errorf("calibrate resamples your topics: it needs at least 2, the inputs have %d", n)
	}
	w := &resampled{}
	for _, t := range ts {
		if t.Missing() > 0 {
			return nil, fmt.Errorf("measure %q has %d missing cell(s): calibrating several measures resamples whole topics and needs every system scored on every topic (use --topics intersect or zero)", t.Measure, t.Missing())
		}
		lower := p.LowerIsBetter(t.Measure)
		dir := 1.0
		if lower {
			dir = -1
		}
		bounded := true
		for _, row := range t.Scores {
			for _, v := range row {
				bounded = bounded && v >= 0 && v <= 1
			}
		}
		w.measures = append(w.measures, t.Measure)
		w.lower = append(w.lower, lower)
		w.bounded = append(w.bounded, bounded)
		w.champ = append(w.champ, slices.Clone(t.Scores[champ]))
		var as [][]float64
		for _, a := range arts {
			as = append(as, slices.Clone(t.Scores[a]))
		}
		w.arts = append(w.arts, as)
		var us [][]float64
		for _, k := range chals {
			d := make([]float64, n)
			for j := range d {
				d[j] = dir * (t.Scores[k][j] - t.Scores[champ][j])
			}
			mean := stats.Mean(d)
			for j := range d {
				d[j] -= mean
			}
			us = append(us, d)
		}
		w.u = append(w.u, us)
	}
	w.primary = -1
	for i, r := range p.Rules {
		if r.Severity != policies.SeverityFail {
			continue
		}
		m := measureIndex(ts, r.Measure)
		if m < 0 {
			return nil, fmt.Errorf("rule %s: measure %q is not in the inputs", r.ID, r.Measure)
		}
		if w.primary < 0 {
			w.primary = m
		}
		q := p.Query(r)
		fr := failRule{id: r.ID, index: i, m: m, risk: r.Quantity.RiskAdjusted()} // tests take a margin too, but are not of the risk-adjusted difference
		if r.Quantity.Name == "mean_diff" && r.Bound.Op == policies.AtLeast {
			fr.mean = r.Bound.Value
		}
		if fr.risk {
			fr.w = q.LossWeight
			if fr.w == 0 {
				fr.w = 1
			}
			fr.delta = q.Margin
			if q.MarginPercent > 0 {
				fr.delta = q.MarginPercent / 100 * math.Abs(stats.Mean(w.champ[m]))
			}
		}
		w.rules = append(w.rules, fr)
	}
	if w.primary < 0 {
		return nil, fmt.Errorf("the policy has no fail rule: nothing blocks a challenger, so there is nothing to calibrate")
	}
	w.corr = w.correlations()
	return w, nil
}

// measureIndex is the index of the table of measure name ("" is the
// default measure's, the first), -1 when none.
func measureIndex(ts engine.Tables, name string) int {
	if name == "" {
		return 0
	}
	return slices.IndexFunc(ts, func(t *scores.Table) bool {
		return t.Measure == name || policies.CanonicalMeasure(t.Measure) == name
	})
}

// correlations is the Pearson correlation, between every two measures, of
// the data's centred improvements u_m(k, t) over every challenger k and
// topic t: the correlation the simulated pools' differences keep.
func (w *resampled) correlations() [][]float64 {
	flat := make([][]float64, len(w.measures))
	for m := range flat {
		flat[m] = slices.Concat(w.u[m]...)
	}
	out := make([][]float64, len(flat))
	for a := range flat {
		out[a] = make([]float64, len(flat))
		for b := range flat {
			out[a][b] = Pearson(flat[a], flat[b])
		}
	}
	return out
}

// topics and challengers of the population.
func (w *resampled) topics() int      { return len(w.champ[0]) }
func (w *resampled) challengers() int { return len(w.u[0]) }

// score is the simulated challenger's score on measure m for the drawn
// topic t and challenger k, at shift and risk scale r.
func (w *resampled) score(m, k, t int, shift, r float64) float64 {
	dir := 1.0
	if w.lower[m] {
		dir = -1
	}
	v := w.champ[m][t] + dir*(shift+r*w.u[m][k][t])
	if w.bounded[m] {
		v = min(1, max(0, v))
	}
	return v
}

// improvement is d: the simulated challenger's improvement over the
// champion on measure m, topic t, challenger k.
func (w *resampled) improvement(m, k, t int, shift, r float64) float64 {
	d := w.score(m, k, t, shift, r) - w.champ[m][t]
	if w.lower[m] {
		return -d
	}
	return d
}

// truth is the population's mean of the per-unit statistic of a rule on
// measure m at the shift and risk scale: the improvement d (lossWeight 0),
// or d⁺ − w·d⁻ (URisk at loss weight w); and its standard deviation over
// the units.
func (w *resampled) truth(m int, shift, r, lossWeight float64) (mean, sd float64) {
	var xs []float64
	for k := range w.u[m] {
		for t := range w.champ[m] {
			d := w.improvement(m, k, t, shift, r)
			if lossWeight > 0 && d < 0 {
				d *= lossWeight
			}
			xs = append(xs, d)
		}
	}
	return stats.Mean(xs), math.Sqrt(stats.Variance(xs))
}

// solve returns the shift Δ at which the population's statistic of measure
// m (truth at lossWeight) equals target, by bisection: it is continuous and
// nondecreasing in Δ. A target beyond what clamped scores can reach is an
// error naming it.
func (w *resampled) solve(m int, r, lossWeight, target float64) (float64, error) {
	f := func(s float64) float64 { v, _ := w.truth(m, s, r, lossWeight); return v }
	step := 1 + math.Abs(target)
	lo, hi := -step, step
	for i := 0; f(lo) > target; i++ {
		if i == 64 {
			return 0, w.unreachable(m, target, lossWeight)
		}
		lo -= step
		step *= 2
	}
	for i := 0; f(hi) < target; i++ {
		if i == 64 {
			return 0, w.unreachable(m, target, lossWeight)
		}
		hi += step
		step *= 2
	}
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid == lo || mid == hi {
			break
		}
		if f(mid) < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, nil
}

func (w *resampled) unreachable(m int, target, lossWeight float64) error {
	what := "a true mean effect"
	if lossWeight > 0 {
		what = fmt.Sprintf("a true risk-adjusted effect (losses counted %s times)", numfmt.G(lossWeight))
	}
	return fmt.Errorf("%s of %s on %s cannot be reached: its scores are bounded to [0, 1] and your champion's mean is %.3g", what, numfmt.G(target), w.measures[m], stats.Mean(w.champ[m]))
}

// simulate draws one pool of the cell's shifts and risk scale from rng:
// n topics drawn with replacement, each with a challenger whose
// improvements it carries; one table per measure, in the data's order,
// with the systems names (champion, challenger, artifacts) and topics.
func (w *resampled) simulate(rng *rand.Rand, shifts []float64, r float64, systems, topics []string) engine.Tables {
	n, nk := w.topics(), w.challengers()
	ts, ks := make([]int, n), make([]int, n)
	for j := range ts {
		ts[j], ks[j] = rng.IntN(n), rng.IntN(nk)
	}
	out := make(engine.Tables, len(w.measures))
	for m := range out {
		t := scores.NewTable(w.measures[m], systems, topics)
		for j, tj := range ts {
			t.Scores[0][j] = w.champ[m][tj]
			t.Scores[1][j] = w.score(m, ks[j], tj, shifts[m], r)
			for a := range w.arts[m] {
				t.Scores[2+a][j] = w.arts[m][a][tj]
			}
		}
		out[m] = t
	}
	return out
}

// Pearson is the sample correlation of x and y, Σ(x − x̄)(y − ȳ) /
// √(Σ(x − x̄)² Σ(y − ȳ)²); NaN when either is constant.
func Pearson(x, y []float64) float64 {
	mx, my := stats.Mean(x), stats.Mean(y)
	var sxy, sxx, syy float64
	for i := range x {
		a, b := x[i]-mx, y[i]-my
		sxy += a * b
		sxx += a * a
		syy += b * b
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}
