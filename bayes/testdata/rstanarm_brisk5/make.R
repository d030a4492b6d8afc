# Quantile Monte Carlo errors of the shared BRisk reference fit.
#
# Refits exactly the model of ../shared/reference/rstanarm/rb04_brisk5_*
# (reference/scripts/rstanarm_ref.R with risk_r = 5: stan_glmer(score ~
# (1|topic) + (1|system)), 4 chains x 4,000 iterations, cores = 2,
# adapt_delta 0.99, seed 12345, on the BRisk pool of rb04.csv at w = 5) and
# summarises the draws with posterior::summarise_draws, adding what
# summary.stanreg does not print: the Monte Carlo standard errors of the
# 2.5/50/97.5% quantiles (posterior's mcse_quantile, from the quantile's own
# ESS) and the bulk- and tail-ESS. The same seed reproduces the shared
# reference's draws, so the means here equal its means (the test checks).
#
# Run from this directory (R 4.2 with Debian's r-cran-rstanarm 2.21.3 and
# r-cran-posterior 1.4):
#   Rscript make.R ../../../../shared/data/bayesian-risk/rb04.csv
# It writes rb04_brisk5_quantile_mcse.csv and rb04_brisk5_time.txt here.
suppressMessages({library(rstanarm); library(posterior)})
a <- commandArgs(trailingOnly=TRUE)
d <- read.csv(a[1])
r <- 5
champ <- d[d$system == "Champion", c("topic", "score")]
names(champ)[2] <- "champ"
d <- merge(d, champ, by="topic")
diff <- d$score - d$champ
adj <- ifelse(diff >= 0, diff, r * diff)
d$score <- ifelse(d$system == "Champion", d$score, d$champ + adj)
d$champ <- NULL
t0 <- proc.time()
fit <- stan_glmer(score ~ (1 | topic) + (1 | system), data=d, chains=4, cores=2,
                  seed=12345, iter=4000, family=gaussian, adapt_delta=0.99, refresh=0)
el <- (proc.time() - t0)[["elapsed"]]
dr <- as_draws_df(as.array(fit))
s <- summarise_draws(dr, "mean", "sd", ~quantile(.x, probs=c(0.025, 0.5, 0.975)),
                     "ess_bulk", "ess_tail", "mcse_mean",
                     ~mcse_quantile(.x, probs=c(0.025, 0.5, 0.975)))
s2 <- data.frame(variable=as.character(s$variable))
for (nm in names(s)[-1]) s2[[nm]] <- as.numeric(unclass(s[[nm]]))
write.csv(s2, "rb04_brisk5_quantile_mcse.csv", row.names=FALSE)
cat(sprintf("elapsed_s=%.1f chains=4 iter=4000\n", el), file="rb04_brisk5_time.txt")
cat(sprintf("elapsed_s=%.1f\n", el))
