package twosample

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/riskgate/riskgate/bayes/posterior"
)

// PowerScenario is a true state of the world for a power analysis of the
// classifier models (Zhang et al., SIGIR 2016, §4.1): the class prevalence μ,
// the joint prediction probabilities θ⁺ and θ⁻ (order Both11, OnlyA10,
// OnlyB01, Both00), the decision the study hopes for and the ROPE it uses.
type PowerScenario struct {
	Name               string
	Mu                 float64
	ThetaPos, ThetaNeg [4]float64
	Goal               posterior.Decision
	ROPE               posterior.ROPE
}

// Zhang et al.'s two scenarios, with their ROPE [−0.05, 0.05].
var (
	// ZhangScenarioA: F1_A = 0.6, F1_B = 0.5; the goal is A ≫ B.
	ZhangScenarioA = PowerScenario{Name: "a", Mu: 0.5,
		ThetaPos: [4]float64{0.3, 0.3, 0.2, 0.2}, ThetaNeg: [4]float64{0.2, 0.2, 0.3, 0.3},
		Goal: posterior.MuchBetter, ROPE: posterior.ROPE{Lo: -0.05, Hi: 0.05}}
	// ZhangScenarioB: F1_A = F1_B = 0.5, positively correlated; the goal is A ≈ B.
	ZhangScenarioB = PowerScenario{Name: "b", Mu: 0.5,
		ThetaPos: [4]float64{0.3, 0.2, 0.2, 0.3}, ThetaNeg: [4]float64{0.3, 0.2, 0.2, 0.3},
		Goal: posterior.Equivalent, ROPE: posterior.ROPE{Lo: -0.05, Hi: 0.05}}
)

// PowerPoint is the estimated power of both models at one test-set size.
// The same simulated data sets serve both models (common random numbers), so
// PairedOnly and UnpairedOnly — the data sets on which only one model reached
// the goal — measure the difference between them directly.
type PowerPoint struct {
	N                        int
	Reps                     int
	Paired, Unpaired         float64 // share of data sets on which the goal was reached
	PairedSE, UnpairedSE     float64 // binomial standard errors √(p(1−p)/reps)
	PairedOnly, UnpairedOnly int
}

// PowerOptions configure ClassifierPower.
type PowerOptions struct {
	Sizes    []int             // test-set sizes N
	Reps     int               // simulated data sets per size
	Draws    int               // posterior draws per fit
	Measure  ClassifierMeasure // default F1
	CredMass float64           // default 0.95
	Seed     uint64
}

// ClassifierPower estimates, for each N, the probability that a test set of N
// documents drawn from the scenario leads the paired and the unpaired model to
// the scenario's goal decision (HDI+ROPE, DecideHDI), with uniform priors.
// Data set j of size index i uses random stream i·Reps + j of the seed, and
// the work is spread over GOMAXPROCS goroutines without changing the result.
func ClassifierPower(sc PowerScenario, opt PowerOptions) ([]PowerPoint, error) {
	if opt.Reps < 1 || opt.Draws < 2 || len(opt.Sizes) == 0 {
		return nil, errors.New("power analysis: needs sizes, at least 1 replicate and 2 draws")
	}
	if opt.Measure.Kind == "" {
		opt.Measure = ClassifierMeasure{"f1", 1}
	}
	if opt.CredMass == 0 {
		opt.CredMass = 0.95
	}
	type outcome struct{ paired, unpaired bool }
	out := make([][]outcome, len(opt.Sizes))
	for i := range out {
		out[i] = make([]outcome, opt.Reps)
	}
	parallelFor(len(opt.Sizes)*opt.Reps, func(job int) {
		i, j := job/opt.Reps, job%opt.Reps
		r := NewStream(opt.Seed, uint64(job))
		c := simulateJointCounts(sc, opt.Sizes[i], r)
		if c.NPos() == 0 || c.NNeg() == 0 {
			return // no decision possible: a miss for both models
		}
		buf := make([]float64, opt.Draws)
		var o outcome
		for _, m := range []struct {
			s   classifierSampler
			hit *bool
		}{{newPairedSampler(c, 1), &o.paired}, {newUnpairedSampler(c, 1), &o.unpaired}} {
			for k := range buf {
				a, b := m.s.draw(r)
				buf[k] = opt.Measure.Of(a) - opt.Measure.Of(b)
			}
			slices.Sort(buf)
			lo, hi := posterior.HDISorted(buf, opt.CredMass)
			*m.hit = posterior.DecideHDI(lo, hi, sc.ROPE) == sc.Goal
		}
		out[i][j] = o
	})
	pts := make([]PowerPoint, len(opt.Sizes))
	for i, n := range opt.Sizes {
		p := PowerPoint{N: n, Reps: opt.Reps}
		var hp, hu int
		for _, o := range out[i] {
			if o.paired {
				hp++
			}
			if o.unpaired {
				hu++
			}
			if o.paired && !o.unpaired {
				p.PairedOnly++
			}
			if o.unpaired && !o.paired {
				p.UnpairedOnly++
			}
		}
		reps := float64(opt.Reps)
		p.Paired, p.Unpaired = float64(hp)/reps, float64(hu)/reps
		p.PairedSE = math.Sqrt(p.Paired * (1 - p.Paired) / reps)
		p.UnpairedSE = math.Sqrt(p.Unpaired * (1 - p.Unpaired) / reps)
		pts[i] = p
	}
	return pts, nil
}

// simulateJointCounts draws a test set of n documents from the scenario.
func simulateJointCounts(sc PowerScenario, n int, r *rand.Rand) JointCounts {
	var c JointCounts
	for range n {
		pos := r.Float64() < sc.Mu
		theta := &sc.ThetaNeg
		if pos {
			theta = &sc.ThetaPos
		}
		u := r.Float64()
		o := 3
		for k, acc := 0, 0.0; k < 3; k++ {
			acc += theta[k]
			if u < acc {
				o = k
				break
			}
		}
		if pos {
			c.Pos[o]++
		} else {
			c.Neg[o]++
		}
	}
	return c
}

// TrueMeasures returns the scenario's true measure of A and of B.
func (sc PowerScenario) TrueMeasures(m ClassifierMeasure) (a, b float64) {
	ca, cb := pairedConfusions(sc.Mu, &sc.ThetaPos, &sc.ThetaNeg)
	return m.Of(ca), m.Of(cb)
}
