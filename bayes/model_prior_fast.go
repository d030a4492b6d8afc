package bayes

import "math"

// The collapsed models evaluate the priors of σ and the group SDs at every
// leapfrog step, where the constants of the log densities (log β, lnΓ(α),
// log Scale) cost as much as the rest of the model. compiledScales computes
// them once per chain; every value is bit for bit the uncompiled one.

// priorFn is a prior's LogPDF.
type priorFn func(x float64) (lp, dlp float64)

// compiledPrior returns p's LogPDF with its constants computed once, for
// the priors the reference models use (Exponential, Gamma); any other
// prior's own LogPDF.
func compiledPrior(p Prior) priorFn {
	switch d := p.(type) {
	case Named:
		return compiledPrior(d.Prior)
	case Exponential:
		logRate := math.Log(d.Rate)
		return func(x float64) (float64, float64) {
			if x <= 0 {
				return math.Inf(-1), 0
			}
			return logRate - d.Rate*x, -d.Rate
		}
	case Gamma:
		lg, _ := math.Lgamma(d.Shape)
		c0 := d.Shape*math.Log(d.Rate) - lg
		return func(x float64) (float64, float64) {
			if x <= 0 {
				return math.Inf(-1), 0
			}
			if d.Shape == 1 && !math.IsInf(x, 1) {
				// (α − 1)·log x is 0 when α = 1 and x is finite
				return c0 - d.Rate*x, (d.Shape-1)/x - d.Rate
			}
			return c0 + (d.Shape-1)*math.Log(x) - d.Rate*x, (d.Shape-1)/x - d.Rate
		}
	}
	return p.LogPDF
}

// compiledScales are the scratch of ScalePriors.eval with the priors
// compiled; the ScalePriors must not change afterwards (the collapsed models
// hold theirs unexported).
func (p *ScalePriors) compiledScales() scales {
	s := newScales(len(p.SD))
	c := p.scale()
	xc := 1.0
	if !p.Relative {
		xc = c
	}
	s.fast = &scaleConsts{logC: math.Log(c), logXC: math.Log(xc), sigma: compiledPrior(p.Sigma), sd: make([]priorFn, len(p.SD))}
	for k, q := range p.SD {
		s.fast.sd[k] = compiledPrior(q)
	}
	return s
}

// scaleConsts are compiledScales' constants.
type scaleConsts struct {
	logC, logXC float64
	sigma       priorFn
	sd          []priorFn
}

// evalCompiled is eval with s's compiled priors: the same arithmetic in the
// same order, with the constants precomputed.
func (p *ScalePriors) evalCompiled(u []float64, v float64, s *scales) {
	c := p.scale()
	f := s.fast
	s.sigma = c * math.Exp(v)
	lp, d := f.sigma(s.sigma)
	s.lp = lp + v + f.logC
	s.dlpdv = d*s.sigma + 1
	for k := range u {
		xc := 1.0
		if !p.Relative {
			xc = c
		}
		x := xc * math.Exp(u[k])
		s.x[k] = x
		lp, d := f.sd[k](x)
		s.lp += lp + u[k] + f.logXC
		s.dlpdu[k] = d*x + 1
		if p.Relative {
			s.sd[k] = x * s.sigma
		} else {
			s.sd[k] = x
		}
	}
}
