// Package bayes holds riskgate's Bayesian models of a score table: the
// hierarchical system/topic model, BRisk on it, posterior predictive
// forecasts, simulation from the model and the sensitivity analyses. It does
// no I/O. The sampler is bayes/mcmc's, the diagnostics and summaries
// bayes/posterior's; Sakai's and Zhang et al.'s two-sample models, which
// need neither, are bayes/twosample.
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
// HierFit holds the draws and the convergence checks. BRisk fits the same
// model to the risk-adjusted pool — the champion's scores kept, every other
// system's replaced by champion + d_w with losses counted w times — and
// gives each challenger's difference to the champion and P(riskier);
// BRiskResult.TopicsAtRisk its topics at risk at any level. OneToOne is the
// paper's one-to-one model d ~ 1. Forecast gives per-cell posterior
// predictive intervals; PoolSweep and PriorSensitivity repeat a fit over
// pool sizes and prior sets. EstimatePoolModel estimates a generating model
// from a pool by moments and simulates pools from it, to calibrate a policy.
//
// # Fitting, describing
//
// On a complete Gaussian table FitHier integrates the intercept and the
// effects out exactly (the collapsed path: bayes/mcmc's NUTS over the three
// variance parameters, O(1) log density) and draws the effects exactly for
// each draw; missing cells use a Schur complement on the smaller factor; any
// other case runs NUTS on rstanarm's full non-centred density (the general
// path, MixedModel). A fit extends its chains until every bulk- and tail-ESS
// reaches the target and checks R̂ (HierFit.Convergence, Converged).
//
// Fitting computes what a decision reads and nothing more. What only
// reports show is a separate step the caller takes: HierFit.Describe
// summarises every quantity (posterior.SummarizeAll), BRiskResult.Describe
// gives every system's effect and each challenger's per-topic predictive
// intervals. Each is computed on its first call and kept.
//
// A fit that only decides (riskgate calibrate) can instead stop sampling
// once its decision quantities — P(S_a − S_b > t), a mean or a quantile of
// S_a − S_b against a rule's bounds — are beyond every bound by K = 4 Monte
// Carlo standard errors with the convergence checks passing
// (HierOptions.Sequential); on the collapsed path they are estimated
// Rao–Blackwellised, from the exact normal distribution of S_a − S_b given
// the variance parameters. A fit's adaptation (step size and metric) can
// warm-start fits of tables of the same shape (mcmc.NUTSOptions.WarmStart).
//
// ../shared/docs/statistics.md gives every formula and source.
//
// # Determinism
//
// Every random procedure takes a seed. Sampler chain m draws from PCG(seed,
// m), and every other stream is derived from (seed, purpose), so the same
// table, options and seed give bit-identical draws whatever GOMAXPROCS is.
package bayes
