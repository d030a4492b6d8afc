# The Monte Carlo errors the shared segment reference does not list, and the
# prior rstanarm uses, for TestRstanarmSegments (bayes/hier_segments_ref_test.go).
#
# It refits exactly the model of reference/scripts/rstanarm_segments_ref.R —
# stan_glmer(score ~ 1 + (1|topic) + (1|system) + (1|system:segment),
# gaussian, chains = 4, iter = 6000, seed = 12345, cores = 2,
# adapt_delta = 0.995) on rb04.csv with each topic's origin — which gives the
# same draws (the means below equal rb04_segments_diffs.csv's; the test checks
# them), and writes with posterior 1.4:
#   rb04_segments_mcse.csv   for every non-champion system and segment, the
#       draws of (b[system:s] + b[system:segment:s:g]) − (b[system:Champion] +
#       b[system:segment:Champion:g]): mean, mcse_sd, mcse_q50, p_below0 and
#       mcse_p_below0 = mcse_mean of the indicator (v < 0) with its ess_mean;
#       and for the intercept, sigma and the three Sigma[...] rows: mean,
#       mcse_sd, mcse_q2.5, mcse_q50, mcse_q97.5;
#   rb04_segments_prior.txt  prior_summary(fit) and the lengths of the decov
#       parameters in the stanfit (tau: one per term; zeta, rho, z_T: none).
#
# Run from this directory (R 4.2 with Debian's r-cran-rstanarm 2.21.3,
# r-cran-posterior 1.4.0); it takes about 10 minutes on 2 cores:
#   Rscript make.R ../../../../shared/data/bayesian-risk/rb04.csv ../../../../shared/data/bayesian-risk/rb04_topics.csv
suppressMessages({library(rstanarm); library(posterior)})
a <- commandArgs(TRUE)
d <- read.csv(a[1], colClasses = c("character", "character", "numeric"))
tp <- read.csv(a[2], colClasses = "character")
d$segment <- tp[["origin"]][match(d$topic, tp$topic)]
champ <- "Champion"
fit <- stan_glmer(score ~ 1 + (1 | topic) + (1 | system) + (1 | system:segment), data = d, family = gaussian(),
                  chains = 4, iter = 6000, seed = 12345, refresh = 0, cores = 2, adapt_delta = 0.995)
ar <- as.array(fit)
nm <- function(s) gsub(" ", "_", s)
col <- function(s) ar[, , sprintf("b[(Intercept) system:%s]", nm(s))]
coli <- function(s, g) ar[, , sprintf("b[(Intercept) system:segment:%s:%s]", nm(s), g)]
res <- data.frame()
for (c in setdiff(unique(d$system), champ)) for (g in sort(unique(d$segment))) {
  v <- (col(c) + coli(c, g)) - (col(champ) + coli(champ, g))
  ind <- (v < 0) + 0
  res <- rbind(res, data.frame(variable = "diff", challenger = c, segment = g, mean = mean(v),
    mcse_sd = mcse_sd(v), mcse_q2.5 = mcse_quantile(v, 0.025), mcse_q50 = mcse_quantile(v, 0.5),
    mcse_q97.5 = mcse_quantile(v, 0.975), p_below0 = mean(ind), mcse_p_below0 = mcse_mean(ind),
    ess_p_below0 = ess_mean(ind)))
}
for (p in c("(Intercept)", "sigma", "Sigma[topic:(Intercept),(Intercept)]", "Sigma[system:(Intercept),(Intercept)]",
            "Sigma[system:segment:(Intercept),(Intercept)]")) {
  v <- ar[, , p]
  res <- rbind(res, data.frame(variable = p, challenger = "", segment = "", mean = mean(v),
    mcse_sd = mcse_sd(v), mcse_q2.5 = mcse_quantile(v, 0.025), mcse_q50 = mcse_quantile(v, 0.5),
    mcse_q97.5 = mcse_quantile(v, 0.975), p_below0 = NA, mcse_p_below0 = NA, ess_p_below0 = NA))
}
write.csv(res, "rb04_segments_mcse.csv", row.names = FALSE)
sink("rb04_segments_prior.txt")
print(prior_summary(fit))
cat(sprintf("\nmean(score) = %.6f, sd(score) = %.6f\n", mean(d$score), sd(d$score)))
cat("lengths of the decov parameters in the stanfit:\n")
dims <- fit$stanfit@par_dims
for (p in c("tau", "zeta", "rho", "z_T", "theta_L")) cat(sprintf("  %s: %d\n", p, prod(dims[[p]])))
sink()
