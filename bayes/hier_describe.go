package bayes

import (
	"fmt"
	"math"
	"strings"

	"github.com/riskgate/riskgate/bayes/posterior"
)

// FamilyNames are the names FamilyNamed knows, as policies and flags spell them.
var FamilyNames = []string{"gaussian", "skew_normal"}

// FamilyNamed returns the likelihood family called name: "gaussian" (also
// "normal") or "skew_normal" (also "skew-normal", "skewnormal"), in any case.
func FamilyNamed(name string) (Family, error) {
	switch strings.ReplaceAll(strings.ToLower(name), "-", "_") {
	case "gaussian", "normal":
		return Gaussian{}, nil
	case "skew_normal", "skewnormal":
		return SkewNormal{}, nil
	}
	return nil, fmt.Errorf("unknown family %q (valid: %s)", name, strings.Join(FamilyNames, ", "))
}

// Describe spells each prior of the model, keyed by parameter (intercept,
// sigma, sd_topic, sd_system and the family's own), as reports show them.
// Relative priors scale the group SDs by sigma, as rstanarm's decov does.
func (p HierPriors) Describe(fam Family) map[string]string {
	m := map[string]string{"intercept": priorText(p.Intercept), "sigma": priorText(p.Sigma)}
	if p.Relative {
		m["sd_topic"] = "τ·sigma, τ ~ " + priorText(p.SDTopic)
		m["sd_system"] = "τ·sigma, τ ~ " + priorText(p.SDSystem)
	} else {
		m["sd_topic"], m["sd_system"] = priorText(p.SDTopic), priorText(p.SDSystem)
	}
	if fam != nil {
		for _, fp := range fam.Params() {
			m[fp.Name] = priorText(fp.Prior)
		}
	}
	return m
}

// priorText is a prior as reports spell it: its distribution, and a named
// prior's name with it ("ir_pools = gamma(2, 4)").
func priorText(p Prior) string {
	if n, ok := p.(Named); ok {
		return n.Definition()
	}
	return p.String()
}

// WorstConvergence is the smallest bulk- and tail-ESS and the largest R-hat
// over every quantity of the fit; NaN when any of them is undefined (math.Min
// and math.Max propagate NaN), so that an undefined diagnostic shows.
func (f *HierFit) WorstConvergence() (minBulk, minTail, maxRhat float64) {
	minBulk, minTail, maxRhat = math.Inf(1), math.Inf(1), math.Inf(-1)
	for _, s := range f.Convergence {
		minBulk, minTail, maxRhat = math.Min(minBulk, s.ESSBulk), math.Min(minTail, s.ESSTail), math.Max(maxRhat, s.Rhat)
	}
	return minBulk, minTail, maxRhat
}

// AllConvergence returns every quantity's R̂, bulk- and tail-ESS, per
// Names: the fit's checks' (Convergence) wherever it made them, computed
// from the draws for the quantities a sequential fit did not check (NaN in
// Convergence). They are Describe's, bit for bit.
func (f *HierFit) AllConvergence() []posterior.Convergence {
	out := make([]posterior.Convergence, len(f.Names))
	var unchecked []int
	for v := range out {
		if v < len(f.Convergence) {
			if c := f.Convergence[v]; !(math.IsNaN(c.Rhat) && math.IsNaN(c.ESSBulk) && math.IsNaN(c.ESSTail)) {
				out[v] = c
				continue
			}
		}
		unchecked = append(unchecked, v)
	}
	if len(unchecked) == 0 {
		return out
	}
	vars := make([][][]float64, len(unchecked))
	for i, v := range unchecked {
		vars[i] = f.Sampler.Draws[v]
	}
	for i, c := range posterior.SummarizeConvergence(vars, f.workers) {
		out[unchecked[i]] = c
	}
	return out
}

// SystemDiffChains returns the posterior draws of S_a − S_b, the difference
// of two system effects (a and b index f.Systems), chain by chain.
func (f *HierFit) SystemDiffChains(a, b int) [][]float64 {
	da, db := f.Sampler.Draws[f.SystemIndex(a)], f.Sampler.Draws[f.SystemIndex(b)]
	chains := make([][]float64, len(da))
	for m := range da {
		chains[m] = make([]float64, len(da[m]))
		for i := range da[m] {
			chains[m][i] = da[m][i] - db[m][i]
		}
	}
	return chains
}

// PoolChains returns the draws of every chain, one chain after the other.
func PoolChains(chains [][]float64) []float64 {
	n := 0
	for _, c := range chains {
		n += len(c)
	}
	out := make([]float64, 0, n)
	for _, c := range chains {
		out = append(out, c...)
	}
	return out
}

// Notes are the fit's warnings that are not convergence failures (tree-depth
// hits, E-BFMI, extension): Warnings lists the Failures first, then these.
func (f *HierFit) Notes() []string {
	if len(f.Failures) > len(f.Warnings) {
		return nil
	}
	return f.Warnings[len(f.Failures):]
}
