package gate

import (
	"context"
	"errors"

	"github.com/riskgate/riskgate/policies"
	"github.com/urfave/cli/v3"
)

// The flags that override a policy's settings (riskgate gate, calibrate) and
// the loss-weight flags (gate, calibrate, compare). A flag that overrides
// something — a policy's setting, an input the policy names, a default that
// depends on others — is an optional value: its flag's destination holds
// the value (the default until given) and its action records that it was
// given, so that the compiler, not a list of names, knows which flags a
// command asks about.

// optional is a flag's value and whether the flag was given.
type optional[T any] struct {
	Value T
	Set   bool
}

// given is the flag's action: it runs only for a flag that was given.
func (o *optional[T]) given(_ context.Context, _ *cli.Command, v T) error {
	o.Value, o.Set = v, true
	return nil
}

// lossWeightFlags are --loss-weight W and --alpha A (W = 1 + A), of which
// a command takes at most one.
type lossWeightFlags struct {
	Weight optional[float64] // its value is def when not given
	Alpha  optional[float64]
	// def is the command's loss weight when neither flag is given (0 for
	// none).
	def float64
}

// flags binds --loss-weight and --alpha, with their usage texts, to l.
// A default for --loss-weight (def > 0) is shown in the help.
func (l *lossWeightFlags) flags(def float64, weightUsage, alphaUsage string) []cli.Flag {
	l.def = def
	weight := &cli.FloatFlag{Name: "loss-weight", Destination: &l.Weight.Value, Action: l.Weight.given, Usage: weightUsage}
	if def > 0 {
		weight.Value = def
	} else {
		weight.HideDefault = true
	}
	return []cli.Flag{weight,
		&cli.FloatFlag{Name: "alpha", Destination: &l.Alpha.Value, Action: l.Alpha.given, HideDefault: true, Usage: alphaUsage}}
}

// resolve is the loss weight — W, or 1 + A, or the command's default —
// and whether it came as A; set is false when neither flag was given. It
// is checked as a policy's loss_weight (or alpha) is.
func (l lossWeightFlags) resolve() (w float64, fromAlpha, set bool, err error) {
	switch {
	case l.Weight.Set && l.Alpha.Set:
		return 0, false, false, errors.New("give --loss-weight W or --alpha A (meaning W = 1 + A), not both")
	case l.Weight.Set:
		w, set = l.Weight.Value, true
	case l.Alpha.Set:
		w, fromAlpha, set = 1+l.Alpha.Value, true, true
	case l.def == 0:
		return 0, false, false, nil // the policy's
	default:
		w = l.def
	}
	// The policy's own check (policies.CheckLossWeight), so that a flag
	// accepts what a policy file accepts and nothing else.
	if l.Alpha.Set {
		err = checkAlphaFlag(l.Alpha.Value)
	} else {
		err = checkLossWeightFlag("--loss-weight", w)
	}
	if err != nil {
		return 0, false, false, err
	}
	return w, fromAlpha, set, nil
}

// policyOverrides are the flags that override a policy's roles and loss
// weight: --champion, --challenger (replacing the policy's challengers),
// --loss-weight and --alpha.
type policyOverrides struct {
	Champion    optional[string]
	Challengers optional[[]string] // names or globs (* and ?)
	Loss        lossWeightFlags
	// Runs says the inputs are TREC runs scored against qrels: without
	// --policy, the default policy for runs applies (policies.DefaultForRuns).
	Runs bool
}

// flags binds the overriding flags to o, with the command's usage texts of
// --challenger and --loss-weight.
func (o *policyOverrides) flags(challengerUsage, weightUsage string) []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "champion", Destination: &o.Champion.Value, Action: o.Champion.given,
			Usage: "the production system's `NAME`, overriding the policy's"},
		&cli.StringSliceFlag{Name: "challenger", Destination: &o.Challengers.Value, Action: o.Challengers.given, Usage: challengerUsage},
	}, o.Loss.flags(0, weightUsage, "the loss weight as W = 1 + `A` (not with --loss-weight)")...)
}

// loadPolicy loads the policy at path (the built-in default policy when
// path is "") and applies the overrides given.
func (o *policyOverrides) loadPolicy(path string) (*policies.Policy, error) {
	var p *policies.Policy
	switch {
	case path == "" && o.Runs:
		p = policies.DefaultForRuns()
	case path == "":
		p = policies.Default()
	default:
		var err error
		if p, err = policies.Load(path); err != nil {
			return nil, err
		}
	}
	if o.Champion.Set {
		p.Champion, p.ChampionPos = o.Champion.Value, policies.Pos{}
	}
	if o.Challengers.Set {
		p.Challengers = nil
		for _, c := range o.Challengers.Value {
			p.Challengers = append(p.Challengers, policies.Pattern{Text: c})
		}
	}
	w, fromAlpha, set, err := o.Loss.resolve()
	if err != nil {
		return nil, err
	}
	if set {
		p.LossWeight, p.FromAlpha = w, fromAlpha
	}
	return p, nil
}
