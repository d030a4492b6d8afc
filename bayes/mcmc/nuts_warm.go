package mcmc

import (
	"errors"
	"fmt"
	"math"

	"github.com/riskgate/riskgate/internal/stats"
)

// Warm starts: many fits of models of the same shape (riskgate calibrate
// fits thousands of simulated pools like one user's pool) have posteriors of
// about the same widths, so the metric and step size that one fit's full
// warmup learned serve every other. A warm-started chain starts near the
// model's mode, keeps the given metric and only tunes its step size, for a
// short warmup. The chain is still a valid MCMC chain whatever the metric
// (the metric changes how fast it mixes, not what it samples); R̂ and the
// ESS checks still judge every fit.

// warmStartWarmup is the default warmup of a warm-started chain: a burn-in
// from the model's mode estimate and dual averaging of the step size from a
// value that is already about right. In the three dimensions of the
// collapsed model, 50 transitions move a chain several posterior SDs.
const warmStartWarmup = 50

// Adaptation is what NUTS's warmup learns: a nominal step size and the
// inverse diagonal metric (one entry per unconstrained coordinate). It is
// passed to NUTSOptions.WarmStart to warm-start another sampler of a model
// with the same coordinates and a posterior of similar widths.
type Adaptation struct {
	StepSize  float64
	InvMetric []float64
}

// Adaptation returns the chains' adaptation combined: the geometric mean
// of their step sizes and the arithmetic mean of their inverse metrics (the
// posterior variances each chain's last metric window estimated). It is
// deterministic given the draws. Before the warmup has run it is the zero
// Adaptation.
func (s *NUTS) Adaptation() Adaptation {
	if !s.warm || len(s.InvMetric) == 0 {
		return Adaptation{}
	}
	a := Adaptation{InvMetric: make([]float64, len(s.InvMetric[0]))}
	logEps := 0.0
	for k, inv := range s.InvMetric {
		logEps += math.Log(s.StepSize[k])
		for i, v := range inv {
			a.InvMetric[i] += v
		}
	}
	n := float64(len(s.InvMetric))
	a.StepSize = math.Exp(logEps / n)
	for i := range a.InvMetric {
		a.InvMetric[i] /= n
	}
	return a
}

// Validate checks a warm start against a model of dimension n.
func (a *Adaptation) Validate(n int) error {
	if !(a.StepSize > 0) || math.IsInf(a.StepSize, 0) {
		return fmt.Errorf("warm start: step size %v is not a positive number", a.StepSize)
	}
	if len(a.InvMetric) != n {
		return fmt.Errorf("warm start: the metric has %d coordinates, the model %d (a warm start serves models of the same shape)", len(a.InvMetric), n)
	}
	for i, v := range a.InvMetric {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("warm start: inverse metric entry %d is %v, not a positive number", i, v)
		}
	}
	return nil
}

// ModeStarter is implemented by models that can estimate their posterior
// mode cheaply (by moments): ModeStart writes the estimate, in the
// unconstrained coordinates, into theta and reports whether it could. A
// warm-started chain starts near it (see NUTSOptions.WarmStart).
type ModeStarter interface {
	ModeStart(theta []float64) bool
}

// warmupFrom is the warm-started warmup: the initial point, then Warmup
// transitions adapting only the step size by dual averaging (Hoffman &
// Gelman 2014, §3.2.1, Stan's settings) with the shrinkage point log ε_a at
// the given step size itself rather than Stan's log 10ε (which makes
// Stan's first iterations try large steps, for a cold start).
func (c *chain) warmupFrom(a *Adaptation) error {
	if err := a.Validate(c.n); err != nil {
		return err
	}
	copy(c.invMetric, a.InvMetric)
	c.eps = a.StepSize
	if err := c.initializeNear(); err != nil {
		return err
	}
	c.da = dualAveraging{delta: c.opt.AdaptDelta, gamma: c.opt.Gamma, kappa: c.opt.Kappa, t0: c.opt.T0, mu: math.Log(c.eps)}
	if c.opt.Warmup <= 0 {
		return nil
	}
	done := c.opt.done()
	for range c.opt.Warmup {
		select {
		case <-done:
			return c.opt.Context.Err()
		default:
		}
		t := c.transition()
		c.eps = c.da.learn(t.AcceptStat)
	}
	c.eps = c.da.final()
	return nil
}

// initializeNear starts a warm-started chain at the model's mode estimate
// moved by θ_i += 2·√invMetric_i·U(−1, 1) — up to two posterior SDs in
// every coordinate, so that the chains start apart and R̂ can see whether
// they meet — retried until the log density and its gradient are finite.
// A model without a mode estimate starts as a cold chain does.
func (c *chain) initializeNear() error {
	ms, ok := c.m.(ModeStarter)
	if !ok {
		return c.initialize()
	}
	mode := make([]float64, c.n)
	if !ms.ModeStart(mode) {
		return c.initialize()
	}
	for range maxInitTries {
		for i := range c.z.q {
			c.z.q[i] = mode[i] + 2*math.Sqrt(c.invMetric[i])*(2*c.r.Float64()-1)
		}
		c.z.lp = c.m.LogDensity(c.z.q, c.z.g)
		if stats.Finite(c.z.lp) && stats.AllFinite(c.z.g) {
			return nil
		}
	}
	return errors.New("warm start: no point near the mode estimate has a finite log density and gradient")
}
