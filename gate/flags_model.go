package gate

import (
	"fmt"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/internal/suggest"
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
