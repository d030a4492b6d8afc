package gate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/policies"
)

// The loss weight on the command line (--loss-weight, --alpha, --risk-sweep
// of gate, calibrate, compare and fit) is checked by the policy's own check
// (policies.CheckLossWeight), so that a flag accepts what a policy file
// accepts and nothing else.

// checkLossWeightFlag checks w given by flag (--loss-weight, or a weight of
// --risk-sweep).
func checkLossWeightFlag(flag string, w float64) error {
	problem, alphaHint := policies.CheckLossWeight(w)
	if problem == "" {
		return nil
	}
	if alphaHint {
		problem += fmt.Sprintf("; if you meant the extra weight alpha %s, give --loss-weight %s (= 1 + alpha)", numfmt.G(w), numfmt.G(1+w))
	}
	return fmt.Errorf("%s: %s", flag, problem)
}

// checkAlphaFlag checks --alpha A, the loss weight as W = 1 + A.
func checkAlphaFlag(a float64) error {
	if problem := policies.CheckAlpha(a); problem != "" {
		return fmt.Errorf("--alpha: %s", problem)
	}
	return nil
}

// parseLossWeights parses a comma-separated list of loss weights, each
// checked as a policy's loss_weight is.
func parseLossWeights(flag, s string) ([]float64, error) {
	var ws []float64
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		w, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("%s %q: expected loss weights ≥ 1 separated by commas, e.g. 1,2,5,10", flag, s)
		}
		if err := checkLossWeightFlag(flag, w); err != nil {
			return nil, fmt.Errorf("%w (in %q)", err, s)
		}
		ws = append(ws, w)
	}
	return ws, nil
}
