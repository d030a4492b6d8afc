// Package policies defines riskgate's YAML policy files: their schema,
// validation with positioned errors, and the evaluation of rules into verdicts.
package policies
