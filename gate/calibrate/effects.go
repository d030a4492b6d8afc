package calibrate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// defaultEffects are the true effects calibrate simulates by default.
const DefaultEffects = "-0.02,-0.01,0,0.01,0.02"

// parseEffects reads --effects: distinct finite numbers in (−1, 1), kept in
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
