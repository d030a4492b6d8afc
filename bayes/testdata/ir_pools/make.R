# The system spread of published IR pools, relative to the residual SD
# (τ = SD_system / σ, rstanarm's decov scale), behind the ir_pools prior
# τ_system ~ gamma(2, 4) (bayes.IRPools; docs/fit.md "The day-one prior").
#
# Regenerate (R 4.2; from this folder, with ../shared beside the checkout):
#   Rscript make.R ../../../../shared > make.log
# It writes published_pools.csv: one row per pool, its SD_system, σ, τ and
# the prior's CDF at τ (pgamma(τ, 2, 4)); TestIRPoolsCoverPublishedPools
# checks the prior against it.
args <- commandArgs(trailingOnly = TRUE)
shared <- if (length(args) > 0) args[1] else "../../../../shared"

# 1. rb04 (45 systems × 50 topics, the paper's public repository):
#    rstanarm 2.21's stan_glmer(score ~ (1|topic) + (1|system)) fits in
#    reference/rstanarm (HOW.md), on the AP scores and on the BRisk pool at
#    w = 5. SD_system is the square root of the posterior median of
#    Sigma[system] (its 2.5% and 97.5% quantiles give the interval);
#    σ the posterior mean of sigma.
fit <- function(file) {
  d <- read.csv(file.path(shared, "reference/rstanarm", file), check.names = FALSE)
  v <- d[d$param == "Sigma[system:(Intercept),(Intercept)]", ]
  s <- d[d$param == "sigma", ]
  c(sd = sqrt(v[["50%"]]), lo = sqrt(v[["2.5%"]]), hi = sqrt(v[["97.5%"]]), sigma = s$mean)
}
rb <- fit("rb04_plain_summary.csv")
br <- fit("rb04_brisk5_summary.csv")

# 2. Benham et al. (SIGIR 2020, seed 002), Table 2: mean AP over 50 topics
#    of the champion (BM25) and challengers 1–4 on ROBUST04, TREC17 (CORE
#    2017) and TREC18 (CORE 2018). The paper reports no variance components,
#    so SD_system is the method-of-moments estimate from these means:
#    SD² = var(means) − σ²/50 (a mean over 50 topics carries σ²/50 of
#    noise), with σ = rb04's (AP on 50 news topics; the paper gives no σ for
#    TREC17/18 — an assumption, stated in docs/fit.md). First over the four
#    Terrier systems (BM25, DPH + Bo1, DPH + DRF + SD + Bo1, DPH + DRF + SD),
#    then with Challenger 4, the fusion of the three best TREC runs — a
#    system built to be an outlier, not a draw from the population.
t2 <- list(ROBUST04 = c(0.274, 0.323, 0.322, 0.264, 0.380),
           TREC17   = c(0.210, 0.289, 0.290, 0.216, 0.572),
           TREC18   = c(0.236, 0.301, 0.300, 0.231, 0.459))
moment <- function(x) sqrt(var(x) - rb[["sigma"]]^2 / 50)

rows <- data.frame(
  pool = c("rb04", "rb04_brisk_w5"),
  source = c("reference/rstanarm/rb04_plain_summary.csv", "reference/rstanarm/rb04_brisk5_summary.csv"),
  systems = c(45, 45),
  sd_system = c(rb[["sd"]], br[["sd"]]),
  sd_lo = c(rb[["lo"]], br[["lo"]]), sd_hi = c(rb[["hi"]], br[["hi"]]),
  sigma = c(rb[["sigma"]], br[["sigma"]]))
for (n in names(t2)) {
  for (k in c(4, 5)) {
    rows <- rbind(rows, data.frame(pool = sprintf("%s_table2_%d", n, k),
      source = sprintf("seed 002 Table 2, %s column, %s", n, if (k == 4) "champion and challengers 1-3" else "all five systems"),
      systems = k, sd_system = moment(t2[[n]][1:k]), sd_lo = NA, sd_hi = NA, sigma = rb[["sigma"]]))
  }
}
rows$tau <- rows$sd_system / rows$sigma
rows$tau_lo <- rows$sd_lo / rows$sigma
rows$tau_hi <- rows$sd_hi / rows$sigma
rows$prior_cdf <- pgamma(rows$tau, shape = 2, rate = 4)
write.csv(rows, "published_pools.csv", row.names = FALSE)
print(rows[, c("pool", "systems", "sd_system", "sigma", "tau", "tau_lo", "tau_hi", "prior_cdf")], digits = 4)
cat("gamma(2, 4): 2.5%, 50%, 97.5%:", format(qgamma(c(0.025, 0.5, 0.975), 2, 4), digits = 17), "\n")
cat("mode", 1 / 4, "mean", 2 / 4, "\n")
cat(R.version.string, "\n")
