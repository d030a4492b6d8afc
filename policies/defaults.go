package policies

import "sync"

// Defaults are the analyses' settings when no policy rule or flag gives
// them: one table every command reads, so that a command without flags
// computes what the gate computes with the default policy (riskgate compare's
// BCa bound at its default loss weight, level and correction is the default
// policy's not-riskier bound before its margin). They are read off the
// default policy itself, the one source of truth; the bootstrap's B, which a
// policy does not set, is stated here.
type Defaults struct {
	// LossWeight is the default policy's loss_weight.
	LossWeight float64
	// Level and Correction are those of the default policy's risk rule
	// (RiskDefinition): an interval's level before its correction over the
	// challengers.
	Level      float64
	Correction Correction
	// Seed is the default policy's seed.
	Seed uint64
	// BootstrapSamples is B of the BCa bootstrap and of the permutation
	// and bootstrap tests.
	BootstrapSamples int
}

// DefaultSettings returns the defaults table (see Defaults). It is read
// off the default policy once: every command's flags ask for it, and parsing
// the policy is most of building the command line.
func DefaultSettings() Defaults { return defaultSettings() }

var defaultSettings = sync.OnceValue(func() Defaults {
	p := Default()
	d := Defaults{LossWeight: p.LossWeight, Level: DefaultLevel, Correction: CorrectBonferroni, Seed: p.Seed, BootstrapSamples: 100_000}
	if _, q, ok := p.RiskDefinition(); ok {
		d.Level, d.Correction = q.Level, q.Correction
	}
	return d
})
