package gate

import (
	"fmt"
	"math"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/internal/numfmt"
	"github.com/riskgate/riskgate/internal/suggest"
	"github.com/riskgate/riskgate/policies"
)

// The --family and --target-ess flags of the commands that fit the
// hierarchical model (fit, compare).

const familyFlagUsage = "`FAMILY` of the BRisk model's likelihood: gaussian (rstanarm's priors; exact collapsed sampler on a complete table) or skew_normal (brms's skew normal and priors; NUTS)"

// parseFamily reads --family.
func parseFamily(s string) (bayes.Family, error) {
	fam, err := bayes.FamilyNamed(s)
	if err != nil {
		return nil, fmt.Errorf("--family %q: expected one of %s%s", s, strings.Join(bayes.FamilyNames, ", "), suggest.DidYouMean(s, bayes.FamilyNames))
	}
	return fam, nil
}

// defaultTargetESS is the ESS a BRisk fit samples to when --target-ess is not
// given: 10,000 for the Gaussian model (Kruschke's recommendation for the
// limits of 95% intervals, seconds on the collapsed sampler) and 2,000 for
// the skew normal, whose every draw needs NUTS over all the effects.
func defaultTargetESS(fam bayes.Family) float64 {
	if _, g := fam.(bayes.Gaussian); g {
		return 10000
	}
	return 2000
}

// checkSamplerFlags checks fit's --chains, --warmup, --draws, --max-draws
// and --target-ess against a policy's model bounds (policies.MaxChains,
// policies.MaxDrawsPerChain): beyond them a fit would take days, or its
// draws more memory than any machine has. --draws 0 (the default) draws as
// many as the ESS target needs, ⌈1.4·target/chains⌉ (bayes.FitHier), which
// is held to the same bound.
func checkSamplerFlags(chains, warmup, draws, maxDraws int, targetESS float64) error {
	switch {
	case chains < 1 || chains > policies.MaxChains:
		return fmt.Errorf("--chains %d: expected 1 to %d", chains, policies.MaxChains)
	case warmup < 0 || warmup > policies.MaxDrawsPerChain:
		return fmt.Errorf("--warmup %d: expected 0 to %s iterations per chain", warmup, numfmt.Thousands(policies.MaxDrawsPerChain))
	case draws < 0 || draws > policies.MaxDrawsPerChain:
		return fmt.Errorf("--draws %d: expected 0 (enough for --target-ess) to %s draws per chain", draws, numfmt.Thousands(policies.MaxDrawsPerChain))
	case maxDraws < 0 || maxDraws > policies.MaxDrawsPerChain:
		return fmt.Errorf("--max-draws %d: expected 0 (the default) to %s draws per chain", maxDraws, numfmt.Thousands(policies.MaxDrawsPerChain))
	}
	return checkTargetESS(targetESS, 0, chains, draws)
}

// checkTargetESS checks --target-ess: a number at least least and, when
// draws is 0 (drawn to the target), one that chains can reach within
// policies.MaxDrawsPerChain draws each.
func checkTargetESS(ess, least float64, chains, draws int) error {
	if !(ess >= least) || math.IsInf(ess, 0) {
		return fmt.Errorf("--target-ess %v: expected a number ≥ %s", ess, numfmt.G(least))
	}
	if perChain := math.Ceil(1.4 * ess / float64(chains)); draws == 0 && perChain > policies.MaxDrawsPerChain {
		return fmt.Errorf("--target-ess %v: would take %s draws per chain; expected at most %s (lower the target, or give --draws)",
			ess, numfmt.G(perChain), numfmt.Thousands(policies.MaxDrawsPerChain))
	}
	return nil
}
