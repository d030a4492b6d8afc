package mcmc

import (
	"math"
	"testing"
)

func TestTransforms(t *testing.T) {
	t.Parallel()
	for _, tr := range []Transform{Identity{}, Lower{L: 1, Scale: 0.3}, Upper{U: 2}, Interval{L: -1, U: 3}} {
		for _, u := range []float64{-3, -0.5, 0, 0.7, 4} {
			x, dxdu, lj, dlj := tr.Constrain(u)
			if back := tr.Unconstrain(x); math.Abs(back-u) > 1e-9 {
				t.Errorf("%T: unconstrain(constrain(%g)) = %g", tr, u, back)
			}
			h := 1e-6
			xp, _, ljp, _ := tr.Constrain(u + h)
			xm, _, ljm, _ := tr.Constrain(u - h)
			if fd := (xp - xm) / (2 * h); math.Abs(fd-dxdu) > 1e-6*math.Max(1, math.Abs(fd)) {
				t.Errorf("%T at %g: dx/du %g, finite difference %g", tr, u, dxdu, fd)
			}
			if math.Abs(math.Log(math.Abs(dxdu))-lj) > 1e-9 {
				t.Errorf("%T at %g: log|J| %g, log|dx/du| %g", tr, u, lj, math.Log(math.Abs(dxdu)))
			}
			if fd := (ljp - ljm) / (2 * h); math.Abs(fd-dlj) > 1e-6 {
				t.Errorf("%T at %g: dlogJ/du %g, finite difference %g", tr, u, dlj, fd)
			}
		}
	}
}
