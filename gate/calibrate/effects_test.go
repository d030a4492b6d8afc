package calibrate

import (
	"strings"
	"testing"
)

// parseEffects accepts only distinct finite effects in (−1, 1), one per
// comma-separated field, and never panics.
func FuzzParseEffects(f *testing.F) {
	for _, s := range []string{DefaultEffects, "0", " -0.5 , 0.5", "", "1,,2", "1", "-1", "x", "NaN", "Inf", "1e-300", "0x1p-2", "0.1,0.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		es, err := ParseEffects(s)
		if err != nil {
			if strings.Count(err.Error(), "\n") != 0 {
				t.Errorf("%q: a multi-line error %q", s, err)
			}
			return
		}
		if len(es) != len(strings.Split(s, ",")) {
			t.Errorf("%q: %d effects", s, len(es))
		}
		seen := map[float64]bool{}
		for _, e := range es {
			if !(e > -1 && e < 1) || seen[e] {
				t.Errorf("%q: effect %v out of (−1, 1) or repeated", s, e)
			}
			seen[e] = true
		}
	})
}
