package calibrate

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	t.Parallel()
	// Wilson's interval, z = 1.959964: for 0 of 500, [0, z²/(n + z²)] =
	// [0, 0.00762]; for 10 of 20 symmetric about 0.5 with half-width
	// z√(0.25/20 + z²/1600)/(1 + z²/20) = 0.20086 (Newcombe 1998, method 3).
	lo, hi := wilson(0, 500)
	if lo != 0 || math.Abs(hi-0.0076243) > 1e-6 {
		t.Errorf("wilson(0, 500) = [%v, %v]", lo, hi)
	}
	lo, hi = wilson(0.5, 20)
	if math.Abs(lo-(0.5-0.2007020)) > 1e-6 || math.Abs(hi-(0.5+0.2007020)) > 1e-6 {
		t.Errorf("wilson(0.5, 20) = [%v, %v]", lo, hi)
	}
}
