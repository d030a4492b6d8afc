// Package github publishes a gate result to GitHub from inside GitHub
// Actions: one sticky pull-request comment per policy, a check run (or a
// commit status when the token cannot create check runs), the job summary,
// the step outputs and ::error / ::warning workflow commands.
//
// It knows nothing of the analyses. Its input is a Report the gate fills —
// a verdict, an already rendered markdown body, a one-line summary and
// annotations pointing into the policy file — and an Env read from the
// standard Actions variables. Publishing never changes a verdict: a failure
// to publish (a fork's read-only token, a validation error, the network) is
// reported on the log and in the job summary, and is an error only when
// Options.RequirePublish asks for it.
//
// Every field GitHub shows is escaped for the place it goes: markdown text
// with escape.Markdown, workflow commands with GitHub's %-encoding, plain-text
// API fields stripped of control characters and cut to GitHub's limits. The
// token is read from the environment only, held as a Secret that formats as
// "[redacted]", and scrubbed from everything the package writes.
package github
