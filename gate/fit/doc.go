// Package fit is riskgate fit's report of one hierarchical model fit:
// its JSON contract, its table and markdown views, and the BRisk extras
// (topics at risk, forecasts, pool-size sweeps, prior sensitivity), and the
// priors its --prior-* flags ask for (PriorFlags).
package fit
