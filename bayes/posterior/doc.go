// Package posterior describes draws from a posterior distribution: the
// convergence diagnostics and Monte Carlo standard errors of MCMC draws, the
// summaries riskgate reports, and Kruschke's HDI+ROPE decisions. It knows
// nothing of the models that produced the draws.
//
// Rhat, ESSBulk, ESSTail, the other ESSs, the MCSEs and EBFMI are those of
// R's posterior package 1.4 (Vehtari, Gelman, Simpson, Carpenter & Bürkner
// 2021, "Rank-normalization, folding, and localization: An improved R̂ for
// assessing convergence of MCMC"): rank-normalised split-R̂, bulk- and
// tail-ESS from Geyer's initial monotone sequence. Summarize gives what
// posterior::summarise_draws prints and more (VarSummary); SummarizeAll
// does it for many quantities in parallel, SummarizeConvergence only what a
// convergence check reads (Convergence), bit for bit the same. Quantiles are
// R's type 7 (Hyndman & Fan 1996); HDI is the shortest interval with
// bayestestR's tie rule (Kruschke 2015); ROPEDecision is Kruschke's HDI+ROPE
// rule in Zhang et al.'s (SIGIR 2016) six outcomes; SavageDickey the
// Savage–Dickey Bayes factor from kernel densities (R's bw.nrd0).
// ../shared/docs/statistics.md gives every formula and source; the tests
// check them against R on the same draws.
//
// Input is one scalar's draws as chains[m][i] (see Summarize for the
// conventions: split chains, NaN where posterior gives NA). Every function
// is deterministic; none draws random numbers.
package posterior
