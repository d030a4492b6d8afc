// Package mcmc is riskgate's Markov chain Monte Carlo sampler: Stan's
// No-U-Turn sampler (NUTS) over a differentiable log density (Model) on an
// unconstrained space, with Stan's constraint transforms (Lower, Upper,
// Interval; the Stan reference manual, "Constraint transforms").
//
// NUTS is multinomial sampling with the generalised U-turn criterion
// (Hoffman & Gelman 2014; Betancourt 2017; the Stan reference manual),
// Stan's step-size heuristic, dual-averaged step size (Hoffman & Gelman
// §3.2.1) and windowed diagonal metric adaptation, as Stan's base_nuts and
// run_adaptive_sampler do. Chains
// run in parallel and can be extended; a sampler's adaptation can warm-start
// another's on a model of the same shape (NUTSOptions.WarmStart), starting
// near the model's mode when it can estimate one (ModeStarter).
//
// Chain m draws every random number from its own source PCG(Seed, m), so the
// draws are bit-identical for a given seed whatever GOMAXPROCS is;
// NUTSOptions.Context stops a sampler without changing a draw. The draws'
// diagnostics are bayes/posterior's.
package mcmc
