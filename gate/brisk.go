package gate

import (
	"fmt"
	"math"
	"strings"

	"github.com/riskgate/riskgate/bayes"
	"github.com/riskgate/riskgate/gate/scores"
)

// What compare and fit share of the Bayesian risk model (BRisk): the
// likelihood flag and the conversion of the score table.

// families are the values of --family.
var families = []string{"gaussian", "skew_normal"}

// familyFlagUsage is the usage of --family on compare and fit.
const familyFlagUsage = "`FAMILY` of the BRisk model's likelihood: gaussian (rstanarm's priors; exact collapsed sampler on a complete table) or skew_normal (brms's skew normal and priors; NUTS)"

// parseFamily reads --family.
func parseFamily(s string) (bayes.Family, error) {
	switch strings.ReplaceAll(strings.ToLower(s), "-", "_") {
	case "gaussian", "normal":
		return bayes.Gaussian{}, nil
	case "skew_normal", "skewnormal":
		return bayes.SkewNormal{}, nil
	}
	return nil, fmt.Errorf("--family %q: expected one of %s", s, strings.Join(families, ", "))
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

// bayesTable is the score table as package bayes takes it (no copy).
func bayesTable(t *scores.Table) *bayes.Table {
	return &bayes.Table{Systems: t.Systems, Topics: t.Topics, Scores: t.Scores}
}

// minMaxDiagnostics returns the smallest bulk- and tail-ESS and the largest
// R̂ of a fit (NaN if any is undefined).
func minMaxDiagnostics(f *bayes.HierFit) (minBulk, minTail, maxRhat float64) {
	minBulk, minTail, maxRhat = math.Inf(1), math.Inf(1), math.Inf(-1)
	for _, s := range f.Summary {
		minBulk, minTail, maxRhat = nanMin(minBulk, s.ESSBulk), nanMin(minTail, s.ESSTail), nanMax(maxRhat, s.Rhat)
	}
	return minBulk, minTail, maxRhat
}

// priorStrings names a fit's priors as the reports print them.
func priorStrings(p bayes.HierPriors, fam bayes.Family) map[string]string {
	m := map[string]string{"intercept": p.Intercept.String(), "sigma": p.Sigma.String()}
	if p.Relative {
		m["sd_topic"] = "τ·sigma, τ ~ " + p.SDTopic.String()
		m["sd_system"] = "τ·sigma, τ ~ " + p.SDSystem.String()
	} else {
		m["sd_topic"], m["sd_system"] = p.SDTopic.String(), p.SDSystem.String()
	}
	if fam != nil {
		for _, fp := range fam.Params() {
			m[fp.Name] = fp.Prior.String()
		}
	}
	return m
}
