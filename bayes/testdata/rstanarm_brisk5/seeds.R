# rstanarm 2.21.3 refits of the BRisk pool (w = 5) with seeds 1-3, printing the quantiles of the
# reference test's closest checks, to show the spread of rstanarm's own estimates around ours.
# Run: Rscript seeds.R ../../../../shared/data/bayesian-risk/rb04.csv > seeds.log
suppressMessages({library(rstanarm)})
d <- read.csv(commandArgs(trailingOnly=TRUE)[1])
r <- 5
champ <- d[d$system == "Champion", c("topic", "score")]; names(champ)[2] <- "champ"
d <- merge(d, champ, by="topic"); diff <- d$score - d$champ
adj <- ifelse(diff >= 0, diff, r * diff)
d$score <- ifelse(d$system == "Champion", d$score, d$champ + adj); d$champ <- NULL
for (seed in c(1, 2, 3)) {
  fit <- stan_glmer(score ~ (1 | topic) + (1 | system), data=d, chains=4, cores=2,
                    seed=seed, iter=4000, family=gaussian, adapt_delta=0.99, refresh=0)
  m <- as.matrix(fit)
  for (v in c("b[(Intercept) system:input.fub04Dge]", "b[(Intercept) topic:t_621]", "b[(Intercept) system:input.fub04Dg]")) {
    q <- quantile(m[, v], c(0.025, 0.975))
    cat(sprintf("seed=%d %s q2.5=%.5f q97.5=%.5f\n", seed, v, q[1], q[2]))
  }
}
