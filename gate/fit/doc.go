// Package fit is riskgate fit's report of one hierarchical model fit:
// its JSON contract, its table and markdown views, and the BRisk extras
// (topics at risk, forecasts, pool-size sweeps, prior sensitivity).
package fit
