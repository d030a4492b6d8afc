// Package diagnose is riskgate diagnose: MCMC draws read from CSV, and the
// table, CSV and JSON of R posterior's summarise_draws computed by package
// bayes, with convergence warnings.
package diagnose
