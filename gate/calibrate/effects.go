package calibrate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DefaultEffects are the true effects calibrate simulates by default: worse,
// equal, a little better, and the +0.05 and +0.10 a ranker change is
// usually worth shipping for (on an average-precision-like scale).
const DefaultEffects = "-0.02,0,0.02,0.05,0.1"

// DefaultRisks are the risk scales simulated by default: the pool's own
// spread of per-topic differences only (one axis).
const DefaultRisks = "1"

// ParseEffects reads --effects: distinct finite numbers in (−1, 1), kept in
// the order given.
func ParseEffects(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= -1 || v >= 1 {
			return nil, fmt.Errorf("--effects %q: %q is not an effect; expected numbers between -1 and 1 on the score scale, e.g. %s", s, f, DefaultEffects)
		}
		for _, w := range out {
			if w == v {
				return nil, fmt.Errorf("--effects %q: %s is given twice", s, f)
			}
		}
		out = append(out, v)
	}
	return out, nil
}

// ParseRisks reads --risks: distinct positive scales of the challenger's
// per-topic differences relative to the pool's (1: as the pool's
// challengers; 2: twice as spread, so more and larger losses at the same
// mean), at most 10, kept in the order given.
func ParseRisks(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !(v > 0) || v > 10 {
			return nil, fmt.Errorf("--risks %q: %q is not a risk scale; expected numbers above 0 and at most 10 (1 is the pool's own spread of per-topic differences), e.g. 0.5,1,2", s, f)
		}
		for _, w := range out {
			if w == v {
				return nil, fmt.Errorf("--risks %q: %s is given twice", s, f)
			}
		}
		out = append(out, v)
	}
	return out, nil
}
