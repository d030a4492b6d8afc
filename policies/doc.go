// Package policies defines riskgate's YAML policy files: their schema,
// validation with positioned errors, and the evaluation of rules into verdicts.
//
// The gate uses it in five steps:
//
//	p, err := policies.Load(path)           // or policies.Default(); errors are file:line:column
//	roles, err := p.Roles(table.Systems)    // champion, challengers, artifacts
//	for _, q := range p.Queries() { … }     // compute only these (p.Needs() lists the analyses)
//	d := p.Evaluate(policies.Evidence{Challengers: roles.Challengers, Values: v, Facts: f, Now: time.Now()})
//	d.Verdict                               // pass, warn, fail or inconclusive; the gate maps it to an exit status
//
// The package is pure: it reads no score data and does no I/O beyond Load
// reading the policy file itself. Every quantity a rule can bound is in one
// registry (Quantities), which also drives the parser's messages, Explain and
// the JSON Schema.
package policies
