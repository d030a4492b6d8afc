// Package bench times riskgate where users wait — eval, the fits, BRisk, BCa,
// randomised Tukey HSD, calibrate — on built-in simulated data and the user's,
// against reference tools where they are installed, for riskgate bench.
package bench
