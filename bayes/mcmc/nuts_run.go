package mcmc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

// NUTS runs parallel chains of the No-U-Turn sampler with Stan's adaptation
// on a model, keeping the quantities the model generates at every
// post-warmup iteration.
//
// Chain m draws all its random numbers from its own source PCG(Seed, m) and
// runs in its own goroutine, so the draws are bit-identical for a given seed
// whatever GOMAXPROCS is.
type NUTS struct {
	Options NUTSOptions // with defaults filled in
	Names   []string    // the model's generated quantities
	// Draws[v][m][i] is quantity v in chain m at post-warmup iteration i
	// (the chains[m][i] layout of the diagnostics).
	Draws [][][]float64
	// Stats[m][i] describes the transition that produced kept draw i of chain m.
	Stats [][]Transition
	// Divergent[m] and DepthHits[m] count chain m's divergent post-warmup
	// transitions and those stopped at MaxDepth, thinned out or not.
	Divergent []int
	DepthHits []int
	// StepSize[m] and InvMetric[m] are chain m's adapted step size and
	// inverse diagonal metric.
	StepSize  []float64
	InvMetric [][]float64

	chains []*chain
	warm   bool
}

// NewNUTS prepares opt.Chains chains on m; Run starts them.
func NewNUTS(m Model, opt NUTSOptions) *NUTS {
	opt = opt.WithDefaults()
	s := &NUTS{Options: opt, Names: m.Names()}
	s.Draws = make([][][]float64, len(s.Names))
	for v := range s.Draws {
		s.Draws[v] = make([][]float64, opt.Chains)
	}
	s.Stats = make([][]Transition, opt.Chains)
	s.Divergent = make([]int, opt.Chains)
	s.DepthHits = make([]int, opt.Chains)
	s.StepSize = make([]float64, opt.Chains)
	s.InvMetric = make([][]float64, opt.Chains)
	for k := range opt.Chains {
		cm := m
		if f, ok := m.(Forker); ok {
			cm = f.Fork()
		}
		s.chains = append(s.chains, newChain(cm, opt, rand.New(rand.NewPCG(opt.Seed, uint64(k)))))
	}
	return s
}

// Run initialises and warms up every chain (the first time) and then draws
// Options.Draws iterations per chain.
func (s *NUTS) Run() error { return s.Extend(s.Options.Draws) }

// Extend continues every chain for n more kept draws with its
// adapted step size and metric, warming up first if that has not been done.
func (s *NUTS) Extend(n int) error {
	errs := make([]error, len(s.chains))
	var wg sync.WaitGroup
	for k, c := range s.chains {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = s.runChain(k, c, n)
		}()
	}
	wg.Wait()
	s.warm = true
	for k, err := range errs {
		if err != nil {
			return fmt.Errorf("chain %d: %w", k+1, err)
		}
	}
	return nil
}

func (s *NUTS) runChain(k int, c *chain, n int) error {
	if !s.warm {
		if err := c.warmup(); err != nil {
			return err
		}
		s.StepSize[k] = c.eps
		s.InvMetric[k] = slices.Clone(c.invMetric)
	}
	out := make([]float64, len(s.Names))
	for v := range s.Draws {
		s.Draws[v][k] = slices.Grow(s.Draws[v][k], n)
	}
	s.Stats[k] = slices.Grow(s.Stats[k], n)
	done := s.Options.done()
	for range n {
		select {
		case <-done:
			return s.Options.Context.Err()
		default:
		}
		var t Transition
		for range s.Options.Thin {
			t = c.transition()
			if t.Divergent {
				s.Divergent[k]++
			}
			if t.TreeDepth >= s.Options.MaxDepth {
				s.DepthHits[k]++
			}
		}
		s.Stats[k] = append(s.Stats[k], t)
		c.m.Generate(c.z.q, c.r, out)
		for v, x := range out {
			s.Draws[v][k] = append(s.Draws[v][k], x)
		}
	}
	return nil
}

// warmup is Stan's run_adaptive_sampler: initial point, step-size heuristic,
// then Warmup transitions adapting ε by dual averaging and the metric in
// windows, re-initialising ε after every metric update.
func (c *chain) warmup() error {
	if c.opt.WarmStart != nil {
		return c.warmupFrom(c.opt.WarmStart)
	}
	if err := c.initialize(); err != nil {
		return err
	}
	c.da = dualAveraging{delta: c.opt.AdaptDelta, gamma: c.opt.Gamma, kappa: c.opt.Kappa, t0: c.opt.T0,
		mu: math.Log(10 * c.eps)}
	c.win = newWindowedVariance(c.n, c.opt.Warmup, c.opt.InitBuffer, c.opt.TermBuffer, c.opt.BaseWindow)
	if err := c.initStepSize(); err != nil {
		return err
	}
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
		updated, err := c.win.learn(c.invMetric, c.z.q)
		if err != nil {
			return err
		}
		if updated {
			if err := c.initStepSize(); err != nil {
				return err
			}
			c.da.mu = math.Log(10 * c.eps)
			c.da.restart()
		}
	}
	c.eps = c.da.final()
	return nil
}

// Divergences returns the number of divergent post-warmup transitions.
func (s *NUTS) Divergences() int {
	n := 0
	for _, d := range s.Divergent {
		n += d
	}
	return n
}

// MaxDepthHits returns the number of post-warmup transitions that stopped at
// the maximum tree depth.
func (s *NUTS) MaxDepthHits() int {
	n := 0
	for _, d := range s.DepthHits {
		n += d
	}
	return n
}

// Energies returns chain m's post-warmup energies (for E-BFMI).
func (s *NUTS) Energies(m int) []float64 {
	e := make([]float64, len(s.Stats[m]))
	for i, t := range s.Stats[m] {
		e[i] = t.Energy
	}
	return e
}

// Len is the number of post-warmup draws per chain.
func (s *NUTS) Len() int { return len(s.Stats[0]) }
