package policies

import (
	"bytes"
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
func Default() *Policy { return parseBuiltin(starter) }

// parseBuiltin parses a built-in policy's text.
func parseBuiltin(text []byte) *Policy {
	p, err := Parse(StarterName, text)
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

// runsGuard is the rule the default policy gains when the inputs are TREC
// runs scored against qrels (docs/policies.md, "A coverage guard for
// runs"): judged@10 is known only then.
const runsGuard = `  - id: judged-coverage
    description: The challenger's top 10 is judged about as much as the champion's (else its scores may rest on unjudged documents).
    quantity: mean_diff           # the challenger's mean judged@10 minus the champion's
    measure: judged@10
    at_least: -0.10
    severity: warn
`

// DefaultForRuns is Default with the coverage guard for runs + qrels
// inputs: a warning when the challenger's mean judged@10 is below the
// champion's by more than 0.10.
func DefaultForRuns() *Policy {
	at := bytes.Index(starter, []byte("\n# best: ship the best"))
	if at < 0 {
		panic("policies: the built-in starter policy has no end of its rules before select") // a test guards this
	}
	text := append(append(append([]byte(nil), starter[:at+1]...), runsGuard...), starter[at+1:]...)
	return parseBuiltin(text)
}
