package mcmc

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/riskgate/riskgate/internal/stats"
)

// NUTSOptions are the settings of the No-U-Turn sampler. A zero field means
// Stan's default, given in brackets (statistics.md §3; rstanarm raises
// AdaptDelta to 0.95 and MaxDepth to 15).
type NUTSOptions struct {
	Chains     int     // number of chains [4]
	Warmup     int     // warmup (adaptation) iterations per chain; negative for none [1000]
	Draws      int     // kept draws per chain [1000]
	Thin       int     // keep every Thin-th post-warmup transition [1]
	Seed       uint64  // chain m draws from PCG(Seed, m)
	MaxDepth   int     // maximum tree depth [10]
	AdaptDelta float64 // target mean acceptance statistic δ [0.8]
	StepSize   float64 // initial nominal step size [1]
	InitRadius float64 // initial points θ_i ~ Uniform(−R, R) [2]
	MaxDeltaH  float64 // a leapfrog step with H − H0 above this is divergent [1000]

	// Dual averaging of log ε (Hoffman & Gelman 2014, §3.2.1): γ [0.05], κ [0.75], t0 [10].
	Gamma, Kappa, T0 float64
	// Windowed metric adaptation: initial fast buffer [75], final fast
	// buffer [50], first slow window [25].
	InitBuffer, TermBuffer, BaseWindow int

	// Context, when done, stops every chain at its next transition: Run and
	// Extend return its error. Nil never stops. It changes no draw.
	Context context.Context

	// WarmStart, when set, replaces Stan's adaptation by a shorter one that
	// starts from another fit's (see Adaptation): every chain starts from the
	// model's own estimate of its mode when it has one, keeps WarmStart's
	// inverse metric and tunes only the step size, from WarmStart's, over
	// Warmup iterations [warmStartWarmup; a model without a mode estimate
	// (not a ModeStarter) starts its chains at random and needs a cold
	// start's burn-in: bayes.FitHier then keeps Stan's 1000].
	WarmStart *Adaptation
}

// done is the channel that says the sampling was cancelled (nil: never).
func (o NUTSOptions) done() <-chan struct{} {
	if o.Context == nil {
		return nil
	}
	return o.Context.Done()
}

// WithDefaults returns o with every zero field set to its default.
func (o NUTSOptions) WithDefaults() NUTSOptions {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	defi := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	defi(&o.Chains, 4)
	if o.WarmStart != nil {
		defi(&o.Warmup, warmStartWarmup)
	}
	defi(&o.Warmup, 1000)
	defi(&o.Draws, 1000)
	defi(&o.Thin, 1)
	defi(&o.MaxDepth, 10)
	def(&o.AdaptDelta, 0.8)
	def(&o.StepSize, 1)
	def(&o.InitRadius, 2)
	def(&o.MaxDeltaH, 1000)
	def(&o.Gamma, 0.05)
	def(&o.Kappa, 0.75)
	def(&o.T0, 10)
	defi(&o.InitBuffer, 75)
	defi(&o.TermBuffer, 50)
	defi(&o.BaseWindow, 25)
	return o
}

// Transition describes one NUTS iteration, as Stan's sampler parameters do.
type Transition struct {
	AcceptStat float64 // mean Metropolis acceptance probability over the trajectory (accept_stat__)
	StepSize   float64 // step size used (stepsize__)
	TreeDepth  int     // treedepth__
	NLeapfrog  int     // n_leapfrog__
	Divergent  bool    // divergent__
	Energy     float64 // Hamiltonian at the selected state (energy__)
	LogDensity float64 // log density at the selected state (lp__ up to a constant)
}

// point is a point in phase space: position q, momentum p, log density lp
// and its gradient g at q.
type point struct {
	q, p, g []float64
	lp      float64
}

func newPoint(n int) point {
	return point{q: make([]float64, n), p: make([]float64, n), g: make([]float64, n)}
}

func (z *point) copyFrom(y *point) {
	copy(z.q, y.q)
	copy(z.p, y.p)
	copy(z.g, y.g)
	z.lp = y.lp
}

// levelScratch holds build_tree's vectors for one depth, so that the
// recursion allocates nothing.
type levelScratch struct {
	pInitEnd, pSharpInitEnd, rhoInit    []float64
	pFinalBeg, pSharpFinalBeg, rhoFinal []float64
	rhoSubtree                          []float64
	zProposeFinal                       point
}

// chain is one NUTS chain with Stan's diag_e metric and adaptation.
type chain struct {
	m   Model
	opt NUTSOptions
	r   *rand.Rand
	n   int

	invMetric []float64
	eps       float64 // nominal step size
	z         point   // current state (q, g and lp valid between transitions)

	da  dualAveraging
	win windowedVariance

	// scratch
	zFwd, zBck, zSample, zPropose       point
	pFwdFwd, pSharpFwdFwd, pFwdBck      []float64
	pSharpFwdBck, pBckFwd, pSharpBckFwd []float64
	pBckBck, pSharpBckBck, rho, rhoFwd  []float64
	rhoBck, rhoExt                      []float64
	levels                              []levelScratch
	nLeapfrog                           int
	sumMetroProb                        float64
	divergent                           bool
}

func newChain(m Model, opt NUTSOptions, r *rand.Rand) *chain {
	n := m.Dim()
	c := &chain{m: m, opt: opt, r: r, n: n, eps: opt.StepSize}
	c.invMetric = make([]float64, n)
	for i := range c.invMetric {
		c.invMetric[i] = 1
	}
	c.z, c.zFwd, c.zBck, c.zSample, c.zPropose = newPoint(n), newPoint(n), newPoint(n), newPoint(n), newPoint(n)
	vec := func() []float64 { return make([]float64, n) }
	c.pFwdFwd, c.pSharpFwdFwd, c.pFwdBck, c.pSharpFwdBck = vec(), vec(), vec(), vec()
	c.pBckFwd, c.pSharpBckFwd, c.pBckBck, c.pSharpBckBck = vec(), vec(), vec(), vec()
	c.rho, c.rhoFwd, c.rhoBck, c.rhoExt = vec(), vec(), vec(), vec()
	c.levels = make([]levelScratch, opt.MaxDepth+1)
	for d := range c.levels {
		c.levels[d] = levelScratch{vec(), vec(), vec(), vec(), vec(), vec(), vec(), newPoint(n)}
	}
	return c
}

const maxInitTries = 100 // Stan's MAX_INIT_TRIES

// initialize draws the starting point: the model's own Init if it has one,
// else θ_i ~ Uniform(−R, R), retried until the log density and its gradient
// are finite (Stan services/util/initialize.hpp).
func (c *chain) initialize() error {
	for try := 0; try < maxInitTries; try++ {
		if in, ok := c.m.(Initializer); ok && try == 0 {
			in.Init(c.r, c.z.q)
		} else {
			for i := range c.z.q {
				c.z.q[i] = c.opt.InitRadius * (2*c.r.Float64() - 1)
			}
		}
		c.z.lp = c.m.LogDensity(c.z.q, c.z.g)
		if stats.Finite(c.z.lp) && stats.AllFinite(c.z.g) {
			return nil
		}
	}
	return fmt.Errorf("no initial point with a finite log density and gradient after %d tries", maxInitTries)
}

// samplep draws a momentum p_i ~ N(0, 1/invMetric_i).
func (c *chain) samplep(z *point) {
	for i := range z.p {
		z.p[i] = c.r.NormFloat64() / math.Sqrt(c.invMetric[i])
	}
}

// hamiltonian is H = −log p(q) + ½ Σ p_i² invMetric_i; NaN becomes +Inf.
func (c *chain) hamiltonian(z *point) float64 {
	k := 0.0
	for i, p := range z.p {
		k += p * p * c.invMetric[i]
	}
	h := -z.lp + 0.5*k
	if math.IsNaN(h) {
		return math.Inf(1)
	}
	return h
}

// leapfrog advances z by one step of size eps (negative backwards), with
// V = −log p: p ← p − ε/2·∇V, q ← q + ε·M⁻¹p, p ← p − ε/2·∇V.
func (c *chain) leapfrog(z *point, eps float64) {
	h := eps / 2
	for i := range z.p {
		z.p[i] += h * z.g[i]
	}
	for i := range z.q {
		z.q[i] += eps * c.invMetric[i] * z.p[i]
	}
	z.lp = c.m.LogDensity(z.q, z.g)
	for i := range z.p {
		z.p[i] += h * z.g[i]
	}
}

func (c *chain) psharp(dst, p []float64) {
	for i := range p {
		dst[i] = c.invMetric[i] * p[i]
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// criterion is the generalised no-U-turn criterion (Betancourt 2017):
// the trajectory may continue while p♯₊·ρ > 0 and p♯₋·ρ > 0.
func criterion(pSharpMinus, pSharpPlus, rho []float64) bool {
	return dot(pSharpPlus, rho) > 0 && dot(pSharpMinus, rho) > 0
}

func logSumExp(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	if a > b {
		return a + math.Log1p(math.Exp(b-a))
	}
	return b + math.Log1p(math.Exp(a-b))
}

func add(dst, a, b []float64) {
	for i := range dst {
		dst[i] = a[i] + b[i]
	}
}

// transition is one multinomial NUTS iteration from c.z, as Stan's
// base_nuts::transition: trajectories doubled in a random direction, biased
// progressive sampling between subtrees, uniform multinomial sampling within
// them, and the no-U-turn criterion checked across the whole trajectory and
// across the junction of the merged subtrees.
func (c *chain) transition() Transition {
	c.samplep(&c.z)
	c.zFwd.copyFrom(&c.z)
	c.zBck.copyFrom(&c.z)
	c.zSample.copyFrom(&c.z)
	c.zPropose.copyFrom(&c.z)

	copy(c.pFwdFwd, c.z.p)
	c.psharp(c.pSharpFwdFwd, c.z.p)
	copy(c.pFwdBck, c.z.p)
	copy(c.pSharpFwdBck, c.pSharpFwdFwd)
	copy(c.pBckFwd, c.z.p)
	copy(c.pSharpBckFwd, c.pSharpFwdFwd)
	copy(c.pBckBck, c.z.p)
	copy(c.pSharpBckBck, c.pSharpFwdFwd)
	copy(c.rho, c.z.p)

	logSumWeight := 0.0
	H0 := c.hamiltonian(&c.z)
	c.nLeapfrog, c.sumMetroProb, c.divergent = 0, 0, false
	depth := 0

	for depth < c.opt.MaxDepth {
		clear(c.rhoFwd)
		clear(c.rhoBck)
		lswSubtree := math.Inf(-1)
		var valid bool
		if c.r.Float64() > 0.5 {
			// Extend forward: the old trajectory becomes the backward subtree.
			c.z.copyFrom(&c.zFwd)
			copy(c.rhoBck, c.rho)
			copy(c.pBckFwd, c.pFwdFwd)
			copy(c.pSharpBckFwd, c.pSharpFwdFwd)
			valid = c.buildTree(depth, &c.zPropose, c.pSharpFwdBck, c.pSharpFwdFwd, c.rhoFwd,
				c.pFwdBck, c.pFwdFwd, H0, 1, &lswSubtree)
			c.zFwd.copyFrom(&c.z)
		} else {
			// Extend backward: the old trajectory becomes the forward subtree.
			c.z.copyFrom(&c.zBck)
			copy(c.rhoFwd, c.rho)
			copy(c.pFwdBck, c.pBckBck)
			copy(c.pSharpFwdBck, c.pSharpBckBck)
			valid = c.buildTree(depth, &c.zPropose, c.pSharpBckFwd, c.pSharpBckBck, c.rhoBck,
				c.pBckFwd, c.pBckBck, H0, -1, &lswSubtree)
			c.zBck.copyFrom(&c.z)
		}
		if !valid {
			break
		}
		depth++
		// Biased progressive sampling: prefer the new subtree.
		if lswSubtree > logSumWeight {
			c.zSample.copyFrom(&c.zPropose)
		} else if c.r.Float64() < math.Exp(lswSubtree-logSumWeight) {
			c.zSample.copyFrom(&c.zPropose)
		}
		logSumWeight = logSumExp(logSumWeight, lswSubtree)

		add(c.rho, c.rhoBck, c.rhoFwd)
		persist := criterion(c.pSharpBckBck, c.pSharpFwdFwd, c.rho)
		add(c.rhoExt, c.rhoBck, c.pFwdBck)
		persist = persist && criterion(c.pSharpBckBck, c.pSharpFwdBck, c.rhoExt)
		add(c.rhoExt, c.rhoFwd, c.pBckFwd)
		persist = persist && criterion(c.pSharpBckFwd, c.pSharpFwdFwd, c.rhoExt)
		if !persist {
			break
		}
	}

	c.z.copyFrom(&c.zSample)
	return Transition{
		AcceptStat: c.sumMetroProb / float64(c.nLeapfrog),
		StepSize:   c.eps,
		TreeDepth:  depth,
		NLeapfrog:  c.nLeapfrog,
		Divergent:  c.divergent,
		Energy:     c.hamiltonian(&c.z),
		LogDensity: c.z.lp,
	}
}

// buildTree is Stan's base_nuts::build_tree: it extends c.z by 2^depth
// leapfrog steps in direction sign, returning false on a divergence or a
// U-turn inside the new subtree.
func (c *chain) buildTree(depth int, zPropose *point, pSharpBeg, pSharpEnd, rho, pBeg, pEnd []float64,
	H0, sign float64, logSumWeight *float64) bool {
	if depth == 0 {
		c.leapfrog(&c.z, sign*c.eps)
		c.nLeapfrog++
		h := c.hamiltonian(&c.z)
		if h-H0 > c.opt.MaxDeltaH {
			c.divergent = true
		}
		*logSumWeight = logSumExp(*logSumWeight, H0-h)
		if H0-h > 0 {
			c.sumMetroProb++
		} else {
			c.sumMetroProb += math.Exp(H0 - h)
		}
		zPropose.copyFrom(&c.z)
		c.psharp(pSharpBeg, c.z.p)
		copy(pSharpEnd, pSharpBeg)
		for i, p := range c.z.p {
			rho[i] += p
		}
		copy(pBeg, c.z.p)
		copy(pEnd, c.z.p)
		return !c.divergent
	}
	s := &c.levels[depth]

	lswInit := math.Inf(-1)
	clear(s.rhoInit)
	if !c.buildTree(depth-1, zPropose, pSharpBeg, s.pSharpInitEnd, s.rhoInit, pBeg, s.pInitEnd, H0, sign, &lswInit) {
		return false
	}
	s.zProposeFinal.copyFrom(&c.z)
	lswFinal := math.Inf(-1)
	clear(s.rhoFinal)
	if !c.buildTree(depth-1, &s.zProposeFinal, s.pSharpFinalBeg, pSharpEnd, s.rhoFinal, s.pFinalBeg, pEnd, H0, sign, &lswFinal) {
		return false
	}

	// Uniform multinomial sampling between the two halves.
	lswSubtree := logSumExp(lswInit, lswFinal)
	*logSumWeight = logSumExp(*logSumWeight, lswSubtree)
	if lswFinal > lswSubtree {
		zPropose.copyFrom(&s.zProposeFinal)
	} else if c.r.Float64() < math.Exp(lswFinal-lswSubtree) {
		zPropose.copyFrom(&s.zProposeFinal)
	}

	add(s.rhoSubtree, s.rhoInit, s.rhoFinal)
	for i, v := range s.rhoSubtree {
		rho[i] += v
	}
	persist := criterion(pSharpBeg, pSharpEnd, s.rhoSubtree)
	add(s.rhoSubtree, s.rhoInit, s.pFinalBeg)
	persist = persist && criterion(pSharpBeg, s.pSharpFinalBeg, s.rhoSubtree)
	add(s.rhoSubtree, s.rhoFinal, s.pInitEnd)
	persist = persist && criterion(s.pSharpInitEnd, pSharpEnd, s.rhoSubtree)
	return persist
}

var errImproper = errors.New("step size initialisation diverged (ε > 1e7): the posterior is improper")

// initStepSize is Stan's base_hmc::init_stepsize heuristic: double or halve ε
// until one leapfrog step from fresh momenta crosses an acceptance of 0.8.
func (c *chain) initStepSize() error {
	if c.n == 0 || c.eps == 0 || c.eps > 1e7 || math.IsNaN(c.eps) {
		return nil
	}
	init := &c.zSample // scratch: the saved state
	init.copyFrom(&c.z)
	defer c.z.copyFrom(init)

	step := func() float64 {
		c.z.copyFrom(init)
		c.samplep(&c.z)
		h0 := c.hamiltonian(&c.z)
		c.leapfrog(&c.z, c.eps)
		h := c.hamiltonian(&c.z)
		return h0 - h
	}
	logp8 := math.Log(0.8)
	direction := -1.0
	if step() > logp8 {
		direction = 1
	}
	for {
		dH := step()
		if direction == 1 && !(dH > logp8) {
			break
		}
		if direction == -1 && !(dH < logp8) {
			break
		}
		if direction == 1 {
			c.eps *= 2
		} else {
			c.eps /= 2
		}
		if c.eps > 1e7 {
			return errImproper
		}
		if c.eps == 0 {
			return errors.New("step size initialisation found no acceptable step size: the posterior may not be continuous")
		}
	}
	return nil
}
