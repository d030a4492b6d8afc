// Package calibrate measures a policy's operating characteristics: it
// estimates a generating model from the user's pool, simulates pools with
// known true effects, runs the gate's own decision (engine.Decide) on each,
// and reports pass, warn, fail and inconclusive rates with Monte Carlo errors.
package calibrate
