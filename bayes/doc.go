// Package bayes holds riskgate's Bayesian machinery: models, a NUTS sampler,
// convergence diagnostics and posterior summaries. It does no I/O.
package bayes
