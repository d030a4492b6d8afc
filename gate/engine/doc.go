// Package engine runs a policy over a score table: it assigns the roles,
// checks the data requirements, computes only the analyses the rules need
// (read through the policies registry: each quantity names its analysis and
// statistic), evaluates the rules, and builds the result.Result every report
// is rendered from (Run). Decide is the same decision without the reports'
// extras, for the simulated pools of gate/calibrate, and Pilot the same fits
// for their warm starts: Run, Decide and Pilot resolve their settings and
// invoke the steps of one core (core.go), whose analyses live on slices of
// the data (slice.go).
//
// It does no I/O: inputs arrive as a scores.Table, and the caller writes the
// reports. Cancelling the context stops the fits.
package engine
