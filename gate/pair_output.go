package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseROPEFlag parses "LO,HI" into a ROPE-like pair; name is the flag for messages.
func parseLoHi(name, s string) (lo, hi float64, err error) {
	parts := strings.Split(s, ",")
	if len(parts) == 2 {
		lo, err1 := strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
		hi, err2 := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		if err1 == nil && err2 == nil && !math.IsNaN(lo) && !math.IsNaN(hi) && !math.IsInf(lo, 0) && !math.IsInf(hi, 0) && lo <= hi {
			return lo, hi, nil
		}
	}
	return 0, 0, fmt.Errorf("%s %q: expected LO,HI with finite numbers and LO ≤ HI, e.g. -0.01,0.01", name, s)
}
