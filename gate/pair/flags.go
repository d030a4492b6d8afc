package pair

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/bayes/twosample"
)

// ParseThresholds reads --threshold, "diff=0,glass=0.2,rho=0.9", over the
// defaults in th.
func ParseThresholds(s string, th twosample.Thresholds) (twosample.Thresholds, error) {
	if strings.TrimSpace(s) == "" {
		return th, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if !ok || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return th, fmt.Errorf("--threshold %q: expected KEY=NUMBER pairs separated by commas, e.g. diff=0,glass=0.2,rho=0.9", kv)
		}
		switch strings.TrimSpace(k) {
		case "diff":
			th.Diff = x
		case "glass":
			th.Glass1, th.Glass2 = x, x
		case "glass1":
			th.Glass1 = x
		case "glass2":
			th.Glass2 = x
		case "rho":
			th.Rho = x
		default:
			return th, fmt.Errorf("--threshold: unknown quantity %q (valid: diff, glass, glass1, glass2, rho)", k)
		}
	}
	return th, nil
}
