package policies

import (
	_ "embed"
)

// starter is the commented policy `riskgate policy init` writes and the gate
// uses when no --policy is given.
//
//go:embed starter.yaml
var starter []byte

// Starter returns the text of the commented starter policy.
func Starter() []byte { return append([]byte(nil), starter...) }

// StarterName is the name the starter policy is parsed under by Default.
const StarterName = "default policy"

// Default returns the starter policy, parsed: the policy the gate applies
// when given none. Each call returns a fresh copy the caller may override.
func Default() *Policy {
	p, err := Parse(StarterName, starter)
	if err != nil {
		panic("policies: the built-in starter policy is invalid: " + err.Error()) // a test guards this
	}
	// The user never saw this file: messages about its roles point to the
	// flags rather than to its lines.
	p.ChampionPos = Pos{}
	for i := range p.Challengers {
		p.Challengers[i].Pos = Pos{}
	}
	return p
}
