// Package engine runs a policy over a score table: it assigns the roles,
// checks the data requirements, computes only the analyses the rules need
// (read through the policies registry: each quantity names its analysis and
// statistic), evaluates the rules, and builds the result.Result every report
// is rendered from (Run). Decide is the same decision without the reports'
// extras, for the simulated pools of gate/calibrate: one code path for both.
//
// It does no I/O: inputs arrive as a scores.Table, and the caller writes the
// reports. Cancelling the context stops the fits.
package engine
