package policies

import (
	"fmt"
	"math"
)

// MaxLossWeight is the largest loss weight accepted: a loss counted a
// million times already outweighs any gain a score in [0, 1] can make,
// and larger weights take the risk-adjusted scores towards overflow.
const MaxLossWeight = 1e6

// CheckLossWeight says what is wrong with w as a loss weight — how many
// times a loss against the champion counts, w = 1 + α (URisk_α, Wang et al.,
// SIGIR 2012; Benham et al.'s r) — wherever it is given: a policy's or a
// rule's loss_weight, or a command's --loss-weight, --alpha or --risk-sweep.
// It returns "" for a finite w from 1 to MaxLossWeight; else the problem,
// with alphaHint set when w is in [0, 1), where α was probably meant.
func CheckLossWeight(w float64) (problem string, alphaHint bool) {
	switch {
	case math.IsNaN(w) || math.IsInf(w, 0):
		return fmt.Sprintf("expected a finite number, got %s", formatNumber(w)), false
	case w < 1:
		return fmt.Sprintf("must be at least 1 (losses count w times; 1 = no extra weight), got %s", formatNumber(w)), w >= 0
	case w > MaxLossWeight:
		return fmt.Sprintf("must be at most %s (losses count w times), got %s", formatNumber(MaxLossWeight), formatNumber(w)), false
	}
	return "", false
}

// CheckAlpha says what is wrong with a as the extra weight of losses α
// (losses count 1 + α times): "" for a finite α from 0 to MaxLossWeight − 1.
func CheckAlpha(a float64) string {
	switch {
	case math.IsNaN(a) || math.IsInf(a, 0):
		return fmt.Sprintf("expected a finite number, got %s", formatNumber(a))
	case a < 0:
		return fmt.Sprintf("must be at least 0 (losses count 1 + alpha times), got %s", formatNumber(a))
	case a > MaxLossWeight-1:
		return fmt.Sprintf("must be at most %s (losses count 1 + alpha times), got %s", formatNumber(MaxLossWeight-1), formatNumber(a))
	}
	return ""
}
