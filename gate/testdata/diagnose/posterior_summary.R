# Reference for gate's diagnose test: posterior::summarise_draws on draws.csv
# (a synthetic file, rows shuffled), as riskgate diagnose --extra computes it.
# Run from gate/testdata/diagnose:  Rscript posterior_summary.R
# Produced with R 4.2.2 and posterior 1.4.0. The variable with_na is left out:
# quantile() stops on NA; riskgate reports NA for all its measures.
suppressMessages(library(posterior))
d <- read.csv("draws.csv", check.names = FALSE)
names(d)[1:2] <- c(".chain", ".iteration")
d <- d[order(d$.chain, d$.iteration), ]
d$with_na <- NULL
s <- summarise_draws(suppressWarnings(as_draws_df(d)), "mean", "median", "sd", "mad",
                     ~quantile(.x, probs = c(0.025, 0.05, 0.5, 0.95, 0.975)),
                     "rhat", "rhat_basic", "ess_bulk", "ess_tail", "ess_basic", "mcse_mean", "mcse_sd",
                     ~mcse_quantile(.x, probs = c(0.025, 0.975)))
out <- data.frame(variable = as.character(s$variable))
for (nm in names(s)[-1]) {
  x <- as.numeric(unclass(s[[nm]]))
  out[[nm]] <- ifelse(is.na(x), "NA", sprintf("%.17g", x))
}
write.csv(out, "posterior_summary.csv", row.names = FALSE, quote = FALSE)
