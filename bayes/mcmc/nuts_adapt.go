package mcmc

import (
	"fmt"
	"math"

	"github.com/riskgate/riskgate/internal/stats"
)

// dualAveraging is Nesterov dual averaging of log ε towards a mean acceptance
// statistic δ (Hoffman & Gelman 2014, §3.2.1; Stan stepsize_adaptation).
type dualAveraging struct {
	delta, gamma, kappa, t0 float64
	mu                      float64 // shrinkage point log(10·ε)
	counter, sBar, xBar     float64
}

func (d *dualAveraging) restart() { d.counter, d.sBar, d.xBar = 0, 0, 0 }

// learn updates the state with acceptance statistic a and returns the next ε.
func (d *dualAveraging) learn(a float64) float64 {
	d.counter++
	a = math.Min(1, a)
	eta := 1 / (d.counter + d.t0)
	d.sBar = (1-eta)*d.sBar + eta*(d.delta-a)
	x := d.mu - d.sBar*math.Sqrt(d.counter)/d.gamma
	w := math.Pow(d.counter, -d.kappa)
	d.xBar = (1-w)*d.xBar + w*x
	return math.Exp(x)
}

// final is the step size used after warmup, exp(x̄).
func (d *dualAveraging) final() float64 { return math.Exp(d.xBar) }

// windowedVariance is Stan's windowed adaptation of a diagonal metric
// (windowed_adaptation.hpp, var_adaptation.hpp): draws between the initial
// and terminal buffers are collected in doubling windows; at the end of each
// the inverse metric becomes their regularised variance.
type windowedVariance struct {
	numWarmup, initBuffer, termBuffer, baseWindow int
	counter, windowSize, nextWindow               int
	enabled                                       bool

	n        int
	mean, m2 []float64
}

func newWindowedVariance(dim, numWarmup, initBuffer, termBuffer, baseWindow int) windowedVariance {
	w := windowedVariance{numWarmup: numWarmup, mean: make([]float64, dim), m2: make([]float64, dim)}
	if numWarmup < 20 { // Stan: "No adaptation will take place" of the metric
		return w
	}
	w.enabled = true
	if initBuffer+baseWindow+termBuffer > numWarmup {
		// Stan's fallback: 15% / 75% / 10%, truncated to integers.
		initBuffer = int(0.15 * float64(numWarmup))
		termBuffer = int(0.1 * float64(numWarmup))
		baseWindow = numWarmup - (initBuffer + termBuffer)
	}
	w.initBuffer, w.termBuffer, w.baseWindow = initBuffer, termBuffer, baseWindow
	w.windowSize = baseWindow
	w.nextWindow = initBuffer + baseWindow - 1
	return w
}

func (w *windowedVariance) inWindow() bool {
	return w.counter >= w.initBuffer && w.counter < w.numWarmup-w.termBuffer && w.counter != w.numWarmup
}

func (w *windowedVariance) endOfWindow() bool {
	return w.counter == w.nextWindow && w.counter != w.numWarmup
}

func (w *windowedVariance) computeNextWindow() {
	last := w.numWarmup - w.termBuffer - 1
	if w.nextWindow == last {
		return
	}
	w.windowSize *= 2
	w.nextWindow = w.counter + w.windowSize
	if w.nextWindow != last && w.nextWindow+2*w.windowSize >= w.numWarmup-w.termBuffer {
		w.nextWindow = last
	}
}

// learn adds q if the counter is inside a slow window and, at a window's end,
// writes the regularised variance n/(n+5)·var + 10⁻³·5/(n+5) into invMetric
// and returns true.
func (w *windowedVariance) learn(invMetric, q []float64) (bool, error) {
	if !w.enabled {
		return false, nil
	}
	if w.inWindow() {
		w.n++
		for i, x := range q { // Welford
			d := x - w.mean[i]
			w.mean[i] += d / float64(w.n)
			w.m2[i] += d * (x - w.mean[i])
		}
	}
	if w.endOfWindow() {
		w.computeNextWindow()
		n := float64(w.n)
		for i := range invMetric {
			v := w.m2[i] / (n - 1)
			invMetric[i] = n/(n+5)*v + 1e-3*5/(n+5)
			if !stats.Finite(invMetric[i]) {
				return false, fmt.Errorf("metric adaptation: variance of parameter %d is not finite", i)
			}
		}
		w.n = 0
		clear(w.mean)
		clear(w.m2)
		w.counter++
		return true, nil
	}
	w.counter++
	return false, nil
}
