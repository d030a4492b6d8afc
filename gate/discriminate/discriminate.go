// Package discriminate is riskgate discriminate: which measure should a gate
// decide on? On the user's own pool it ranks candidate measures by
// discriminative power (Sakai, SIGIR 2006 and 2007; seed 001's lecture) —
// the share of system pairs that a paired test finds significantly different
// at α — with each measure's ASL curve, the difference of means it needs for
// significance at the pool's size, and Kendall's τ and τ_AP between the
// system rankings of every two measures. The tests are package risk's.
package discriminate

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/riskgate/riskgate/internal/jsonfloat"
	"github.com/riskgate/riskgate/internal/parallel"
	"github.com/riskgate/riskgate/internal/stats"
	"github.com/riskgate/riskgate/risk"
)

// Tests: the paired test each pair of systems is compared with.
const (
	TestT         = "t"         // Student's paired t test, two-sided (R's t.test(paired = TRUE))
	TestBootstrap = "bootstrap" // Sakai's paired studentised bootstrap test (B resamples)
	TestTukey     = "tukey"     // Carterette's randomised Tukey HSD over all systems (B permutations)
)

// Tests lists the valid --test values.
var Tests = []string{TestT, TestBootstrap, TestTukey}

// Options are the test and its settings.
type Options struct {
	Test  string
	Alpha float64 // significance level of every comparison
	B     int     // resamples (bootstrap) or permutations (Tukey); unused by t
	Seed  uint64
}

// Input is one measure's aligned table: Scores[s][t] is system s's score on
// topic t, every one present.
type Input struct {
	Measure string
	Systems []string
	Topics  []string
	Scores  [][]float64
}

// Report is the result; its JSON form is the command's contract (extend
// it, don't rename).
type Report struct {
	Test    string          `json:"test"` // "t", "bootstrap" or "tukey"
	TestDoc string          `json:"test_description"`
	Alpha   jsonfloat.Float `json:"alpha"`
	B       int             `json:"b,omitempty"`
	Seed    uint64          `json:"seed,omitempty"`
	Systems []string        `json:"systems"`
	Pairs   int             `json:"pairs"` // system pairs compared per measure
	// Measures, most discriminative first (then the smaller relative
	// difference required, then by name).
	Measures []Measure `json:"measures"`
	// KendallTau[i][j] is Kendall's τ_b between the system rankings
	// (by mean score) of Measures[i] and Measures[j], R's
	// cor(method = "kendall").
	KendallTau [][]jsonfloat.Float `json:"kendall_tau"`
	// TauAP[i][j] is Yilmaz, Aslam and Robertson's τ_AP of Measures[i]'s
	// ranking with Measures[j]'s as the reference (not symmetric).
	TauAP    [][]jsonfloat.Float `json:"tau_ap"`
	Warnings []string            `json:"warnings"`
}

// Measure is one candidate's discriminative power and what it rests on.
type Measure struct {
	Name   string          `json:"name"`
	Topics int             `json:"topics"`
	Mean   jsonfloat.Float `json:"mean"` // grand mean over systems and topics
	// Significant counts the pairs with ASL < α; Power is
	// Significant / Pairs, the discriminative power.
	Significant int             `json:"significant"`
	Power       jsonfloat.Float `json:"discriminative_power"`
	// Required is Sakai's difference required: the largest over pairs of
	// the smallest difference of means the test would call significant for
	// that pair at this number of topics (see Pair.Required). RequiredMedian
	// is its median over pairs; RequiredRelative is Required / Mean.
	Required         jsonfloat.Float `json:"difference_required"`
	RequiredMedian   jsonfloat.Float `json:"difference_required_median"`
	RequiredRelative jsonfloat.Float `json:"difference_required_relative"`
	// Pairs holds every pair (A before B in Systems order): the ASL curve
	// is their ASLs sorted.
	Pairs []Pair `json:"pairs"`
}

// Pair is one comparison of two systems on one measure.
type Pair struct {
	A    string          `json:"a"`
	B    string          `json:"b"`
	Diff jsonfloat.Float `json:"diff"` // mean of B − mean of A
	ASL  jsonfloat.Float `json:"asl"`  // achieved significance level (two-sided p-value)
	// Required is the smallest |mean difference| the test calls significant
	// for this pair: t, t_{1−α/2, n−1}·s_d/√n; bootstrap, c·s_d/√n with c the
	// m-th largest |t*|, m = ⌈αB⌉ (Sakai, SIGIR 2006); Tukey, the m-th
	// largest permutation range (the same for every pair).
	Required jsonfloat.Float `json:"difference_required"`
}

// Build compares every pair of the systems common to the inputs on each
// input's measure. A system missing from some input is left out (with a
// warning); a missing score is an error.
func Build(inputs []Input, opt Options) (*Report, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	if len(inputs) == 0 {
		return nil, errors.New("discriminate: no measure to compare")
	}
	rep := &Report{Test: opt.Test, TestDoc: testDoc(opt), Alpha: jsonfloat.Float(opt.Alpha), Warnings: []string{}}
	if opt.Test != TestT {
		rep.B, rep.Seed = opt.B, opt.Seed
	}
	systems, warns := commonSystems(inputs)
	rep.Warnings = append(rep.Warnings, warns...)
	if len(systems) < 2 {
		return nil, fmt.Errorf("discriminate: %d system(s) scored on every measure; at least 2 are needed", len(systems))
	}
	rep.Systems = systems
	rep.Pairs = len(systems) * (len(systems) - 1) / 2
	tables := make([]risk.Systems, len(inputs))
	for k, in := range inputs {
		t, err := table(in, systems)
		if err != nil {
			return nil, err
		}
		tables[k] = t
	}
	rep.Measures = make([]Measure, len(inputs))
	for k, in := range inputs {
		m, err := measure(in.Measure, tables[k], systems, opt)
		if err != nil {
			return nil, fmt.Errorf("discriminate: measure %s: %w", in.Measure, err)
		}
		rep.Measures[k] = m
	}
	order := make([]int, len(inputs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ma, mb := rep.Measures[a], rep.Measures[b]
		switch {
		case ma.Power != mb.Power:
			return cmpDesc(float64(ma.Power), float64(mb.Power))
		case ma.RequiredRelative != mb.RequiredRelative:
			return cmpAsc(float64(ma.RequiredRelative), float64(mb.RequiredRelative))
		}
		return strings.Compare(ma.Name, mb.Name)
	})
	means := make([][]float64, len(inputs))
	for k := range inputs {
		means[k] = systemMeans(tables[order[k]])
	}
	sorted := make([]Measure, len(order))
	for i, k := range order {
		sorted[i] = rep.Measures[k]
	}
	rep.Measures = sorted
	rep.KendallTau, rep.TauAP = make([][]jsonfloat.Float, len(order)), make([][]jsonfloat.Float, len(order))
	for i := range order {
		rep.KendallTau[i], rep.TauAP[i] = make([]jsonfloat.Float, len(order)), make([]jsonfloat.Float, len(order))
		for j := range order {
			rep.KendallTau[i][j] = jsonfloat.Float(KendallTau(means[i], means[j]))
			rep.TauAP[i][j] = jsonfloat.Float(TauAP(means[i], means[j], systems))
		}
	}
	return rep, nil
}

func cmpDesc(a, b float64) int { return cmpAsc(b, a) }

func cmpAsc(a, b float64) int {
	switch {
	case a < b || (math.IsNaN(b) && !math.IsNaN(a)):
		return -1
	case a > b || (math.IsNaN(a) && !math.IsNaN(b)):
		return 1
	}
	return 0
}

// Check validates the options (the errors name the flags).
func (o Options) Check() error {
	if !slices.Contains(Tests, o.Test) {
		return fmt.Errorf("--test %q: expected one of %s", o.Test, strings.Join(Tests, ", "))
	}
	if !(o.Alpha > 0 && o.Alpha < 1) {
		return fmt.Errorf("--alpha %v: expected a significance level between 0 and 1 (e.g. 0.05)", o.Alpha)
	}
	if o.Test != TestT && (o.B < 100 || o.B > 10_000_000) {
		return fmt.Errorf("-B %d: expected from 100 to 10,000,000 resamples (Sakai uses 1,000 for the bootstrap)", o.B)
	}
	return nil
}

func testDoc(o Options) string {
	switch o.Test {
	case TestBootstrap:
		return fmt.Sprintf("Sakai's paired studentised bootstrap test (SIGIR 2006), B = %d, two-sided, α = %v", o.B, o.Alpha)
	case TestTukey:
		return fmt.Sprintf("randomised Tukey HSD over all systems (Carterette, TOIS 2012), B = %d, family-wise α = %v", o.B, o.Alpha)
	}
	return fmt.Sprintf("Student's paired t test, two-sided, α = %v", o.Alpha)
}

// commonSystems returns the systems of the first input that every input
// holds, in its order, and a warning per input that lacks some.
func commonSystems(inputs []Input) ([]string, []string) {
	var out, warns []string
	for _, s := range inputs[0].Systems {
		all := true
		for _, in := range inputs[1:] {
			all = all && slices.Contains(in.Systems, s)
		}
		if all {
			out = append(out, s)
		}
	}
	for _, in := range inputs {
		if n := len(in.Systems) - len(out); n > 0 {
			warns = append(warns, fmt.Sprintf("%d system(s) of measure %s are not scored on every measure and are left out", n, in.Measure))
		}
	}
	return out, warns
}

// table returns the scores of systems, in that order, refusing a missing one.
func table(in Input, systems []string) (risk.Systems, error) {
	if len(in.Topics) < 2 {
		return nil, fmt.Errorf("discriminate: measure %s has %d topic(s); at least 2 are needed", in.Measure, len(in.Topics))
	}
	t := make(risk.Systems, len(systems))
	for i, s := range systems {
		row := in.Scores[slices.Index(in.Systems, s)]
		for j, v := range row {
			if !stats.Finite(v) {
				return nil, fmt.Errorf("discriminate: measure %s: system %q has no score for topic %q; every system needs a score on every topic (--topics intersect or zero)", in.Measure, s, in.Topics[j])
			}
		}
		t[i] = row
	}
	return t, nil
}

func systemMeans(t risk.Systems) []float64 {
	out := make([]float64, len(t))
	for i, row := range t {
		out[i] = stats.Mean(row)
	}
	return out
}

// measure compares every pair of systems on one measure.
func measure(name string, t risk.Systems, systems []string, opt Options) (Measure, error) {
	m := Measure{Name: name, Topics: len(t[0])}
	all := make([]float64, 0, len(t)*len(t[0]))
	for _, row := range t {
		all = append(all, row...)
	}
	m.Mean = jsonfloat.Float(stats.Mean(all))
	type job struct{ a, b int }
	var jobs []job
	for a := range t {
		for b := a + 1; b < len(t); b++ {
			jobs = append(jobs, job{a, b})
		}
	}
	m.Pairs = make([]Pair, len(jobs))
	errs := make([]error, len(jobs))
	var tukey risk.RandomizedTukeyHSD
	tukeyCritical := math.NaN()
	if opt.Test == TestTukey {
		var err error
		if tukey, tukeyCritical, err = t.RandomizedTukeyHSDCritical(opt.B, pairSeed(opt.Seed, name, "", ""), opt.Alpha); err != nil {
			return m, err
		}
	}
	parallel.Each(len(jobs), func(k int) {
		a, b := jobs[k].a, jobs[k].b
		p := risk.Pair{X: t[b], Base: t[a]}
		pr := Pair{A: systems[a], B: systems[b]}
		se := math.Sqrt(stats.Variance(p.Deltas()) / float64(len(t[a]))) // s_d/√n
		switch opt.Test {
		case TestT:
			r, err := p.PairedT(1 - opt.Alpha)
			if err != nil {
				errs[k] = err
				return
			}
			pr.Diff, pr.ASL = jsonfloat.Float(r.Estimate), jsonfloat.Float(r.P)
			pr.Required = jsonfloat.Float((r.CI.Hi - r.CI.Lo) / 2)
		case TestBootstrap:
			r, c, err := p.StudentizedBootstrapCritical(opt.B, pairSeed(opt.Seed, name, systems[a], systems[b]), opt.Alpha)
			if err != nil {
				errs[k] = err
				return
			}
			pr.Diff, pr.ASL = jsonfloat.Float(stats.Mean(t[b])-stats.Mean(t[a])), jsonfloat.Float(r.P)
			pr.Required = jsonfloat.Float(c * se)
		case TestTukey:
			r := tukey.Pairs[k]
			pr.Diff, pr.ASL, pr.Required = jsonfloat.Float(r.Diff), jsonfloat.Float(r.P), jsonfloat.Float(tukeyCritical)
		}
		m.Pairs[k] = pr
	})
	if err := errors.Join(errs...); err != nil {
		return m, err
	}
	req := make([]float64, 0, len(m.Pairs))
	for _, p := range m.Pairs {
		if float64(p.ASL) < opt.Alpha {
			m.Significant++
		}
		if v := float64(p.Required); !math.IsNaN(v) {
			req = append(req, v)
		}
	}
	m.Power = jsonfloat.Float(float64(m.Significant) / float64(len(m.Pairs)))
	m.Required, m.RequiredMedian = jsonfloat.Float(math.NaN()), jsonfloat.Float(math.NaN())
	if len(req) > 0 {
		m.Required, m.RequiredMedian = jsonfloat.Float(slices.Max(req)), jsonfloat.Float(stats.Median(req))
	}
	m.RequiredRelative = jsonfloat.Float(float64(m.Required) / float64(m.Mean))
	return m, nil
}

// pairSeed is the seed of one pair's bootstrap (or, with empty names, one
// measure's permutations): seed mixed with the names, so that a pair's ASL
// depends on neither the order of the inputs nor the other systems.
func pairSeed(seed uint64, measure, a, b string) uint64 {
	h := fnv.New64a()
	for _, s := range []string{measure, a, b} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	x := seed ^ h.Sum64()
	// splitmix64's finaliser spreads nearby seeds apart.
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
