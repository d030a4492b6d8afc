// Package bayes holds riskgate's Bayesian machinery: models, a NUTS sampler,
// convergence diagnostics and posterior summaries. It does no I/O.
//
// # Models
//
// The hierarchical system/topic model of Benham et al. (SIGIR 2020, eq. 3),
//
//	y_st = β0 + T_t + S_s + e_st,  T_t ~ N(0, sd_topic²),  S_s ~ N(0, sd_system²),
//
// is fitted by FitHier over a Table of systems × topics, with rstanarm's
// default priors for the Gaussian family (DefaultPriors; stan_glmer's decov)
// and brms's for the skew normal (family SkewNormal, brms's parameterisation).
// HierFit holds the draws, their summaries and the diagnostics. BRisk fits
// the same model to the risk-adjusted pool — the champion's scores kept,
// every other system's replaced by champion + d_w with losses counted w
// times — and lists each challenger's difference to the champion, P(riskier)
// and topics at risk. Forecast gives per-cell posterior predictive intervals;
// PoolSweep and PriorSensitivity repeat a fit over pool sizes and prior sets.
//
// Beside them: Sakai's paired and unpaired two-system models (SIGIR 2017),
// sampled exactly (CompareTwoSystems), and Zhang et al.'s Bayesian comparison
// of classifiers (SIGIR 2016, CompareClassifiers), with Kruschke's HDI+ROPE
// decisions (ROPEDecision). EstimatePoolModel estimates a generating model
// from a pool by moments and simulates pools from it, to calibrate a policy.
//
// # Sampling
//
// NUTS is Stan's No-U-Turn sampler: multinomial sampling with the generalised
// U-turn criterion, dual-averaged step size and Stan's windowed diagonal
// metric (Hoffman & Gelman 2014; Betancourt 2017; the Stan reference
// manual). On a complete Gaussian table FitHier integrates the intercept and
// the effects out exactly (the collapsed path: O(1) log density over the
// three variance parameters) and draws the effects exactly for each draw;
// missing cells use a Schur complement on the smaller factor; any other case
// runs NUTS on rstanarm's full non-centred density (the general path). A fit
// extends its chains until every bulk- and tail-ESS reaches the target.
//
// A fit that only decides (riskgate calibrate) can instead stop sampling
// once its decision quantities — P(S_a − S_b > t), a mean or a quantile of
// S_a − S_b against a rule's bounds — are beyond every bound by K = 4 Monte
// Carlo standard errors with the convergence checks passing
// (HierOptions.Sequential); on the collapsed path they are estimated
// Rao–Blackwellised, from the exact normal distribution of S_a − S_b given
// the variance parameters. A fit's adaptation (step size and metric) can
// warm-start fits of tables of the same shape (NUTSOptions.WarmStart).
//
// # Diagnostics and summaries
//
// Rhat, ESSBulk, ESSTail, the MCSEs and EBFMI are those of R's posterior
// package (Vehtari et al. 2021): rank-normalised split-R̂, bulk- and tail-ESS
// from Geyer's initial monotone sequence. Quantiles are R's type 7; HDI is
// the shortest interval with bayestestR's tie rule; P(event) is the share of
// joint draws. ../shared/docs/statistics.md gives every formula and source.
//
// # Determinism
//
// Every random procedure takes a seed. Chain m draws from PCG(seed, m) in its
// own goroutine, and every other stream is derived from (seed, purpose), so
// the same table, options and seed give bit-identical draws whatever
// GOMAXPROCS is. NUTSOptions.Context stops a sampler without changing a draw.
package bayes
