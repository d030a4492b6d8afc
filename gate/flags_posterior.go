package gate

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Flags of the commands that draw an exact posterior (pair, classify).

// maxDraws bounds --draws of pair and classify (memory grows linearly with it).
const maxDraws = 5_000_000

// checkPosteriorFlags checks the flags pair and classify share (--paired,
// --unpaired, --draws, --level) and says whether the paired model is wanted:
// the default, unless --unpaired.
func checkPosteriorFlags(paired, unpaired bool, draws int, level float64) (pairedModel bool, err error) {
	if paired && unpaired {
		return false, errors.New("give --paired or --unpaired, not both")
	}
	if draws < 100 || draws > maxDraws {
		return false, fmt.Errorf("--draws %d: expected 100 to %d", draws, maxDraws)
	}
	if !(level > 0 && level < 1) {
		return false, fmt.Errorf("--level %v: expected a mass strictly between 0 and 1", level)
	}
	return !unpaired, nil
}

// parseLoHi parses "LO,HI", the bounds of a region of practical equivalence;
// name is the flag, for messages.
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
