# A high-precision repeat of the one-to-one brms references.
#
# The fits of ../shared/reference/brms/rb04_one_to_one.csv (made by
# reference/scripts/brms_ref.R: brm(y ~ 1, family = skew_normal() | gaussian(),
# chains = 4, iter = 4000, seed = 12345) on the risk-adjusted differences of
# Chal. 3 and Chal. 4 against Champion, w = 1, 2, 5, 10, each family's first
# fit compiled and the others made by update(newdata = ...)) carry 8,000 draws
# each, whose Monte Carlo error at the 2.5% and 97.5% quantiles reaches about
# 0.05 posterior sd. This script runs the same models the same way with
# 80,000 draws per fit (4 chains x 21,000 iterations, 1,000 of them warmup)
# and summarises them with posterior::summarise_draws, including the Monte
# Carlo standard errors of the quantiles.
#
# As in brms_ref.R, update(newdata = ...) keeps the first fit's priors
# ("Data-dependent default priors will not be updated automatically",
# ?update.brmsfit): every fit has student_t(3, 0, 2.5) on the intercept and
# sigma, the defaults for Chal. 3's differences at w = 1. The prior columns
# record what prior_summary printed for each fit.
#
# Run from this directory (R 4.2 with Debian's r-cran-brms 2.18 and
# r-cran-posterior 1.4):
#   Rscript make.R ../../../../shared/data/bayesian-risk/rb04.csv
# It writes rb04_one_to_one_80k.csv and make_time.txt here.
suppressMessages({library(brms); library(posterior)})
a <- commandArgs(trailingOnly=TRUE)
d <- read.csv(a[1])
champ <- d[d$system == "Champion", c("topic", "score")]; names(champ)[2] <- "champ"
adj <- function(x, c, r) { df <- x - c; ifelse(df >= 0, df, r * df) }
res <- list(); fits <- list()
t0 <- proc.time()
for (s in c("Chal. 3", "Chal. 4")) for (r in c(1, 2, 5, 10)) {
  x <- merge(d[d$system == s, c("topic","score")], champ, by="topic")
  dd <- data.frame(y = adj(x$score, x$champ, r))
  for (fam in c("skew_normal", "gaussian")) {
    if (is.null(fits[[fam]])) {
      fits[[fam]] <- brm(y ~ 1, data=dd, family=get(fam)(), chains=4, iter=21000, warmup=1000,
                         seed=12345, refresh=0, silent=2)
      f <- fits[[fam]]
    } else {
      f <- update(fits[[fam]], newdata=dd, recompile=FALSE, chains=4, iter=21000, warmup=1000,
                  seed=12345, refresh=0, silent=2)
    }
    ps <- prior_summary(f)
    sm <- summarise_draws(as_draws_df(f), "mean", "sd", ~quantile(.x, probs=c(0.025, 0.5, 0.975)),
                          "ess_bulk", "ess_tail", "mcse_mean",
                          ~mcse_quantile(.x, probs=c(0.025, 0.5, 0.975)))
    sm <- sm[sm$variable %in% c("b_Intercept", "sigma", "alpha"), ]
    for (i in seq_len(nrow(sm))) {
      row <- data.frame(system=s, r=r, family=fam, param=as.character(sm$variable[i]))
      for (nm in names(sm)[-1]) row[[nm]] <- as.numeric(unclass(sm[[nm]]))[i]
      row$intercept_prior <- ps$prior[ps$class == "Intercept"][1]
      row$sigma_prior <- ps$prior[ps$class == "sigma"][1]
      res[[length(res)+1]] <- row
    }
  }
}
el <- (proc.time() - t0)[["elapsed"]]
write.csv(do.call(rbind, res), "rb04_one_to_one_80k.csv", row.names=FALSE)
cat(sprintf("elapsed_s=%.1f\n", el), file="make_time.txt")
