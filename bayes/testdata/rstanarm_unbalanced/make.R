# Reference posterior for the hierarchical model on an UNBALANCED table:
# rb04.csv with the 200 artifact cells listed in removed.csv deleted (10% of
# the 40 artifact systems × 50 topics, chosen by the seeded rule
# removedArtifactCells in bayes/testdata_test.go; TestRemovedCellsFile keeps
# the list in step with the rule). The fit is exactly that of the shared
# reference script reference/scripts/rstanarm_ref.R.
#
# Run from this directory (R 4.2 with Debian's r-cran-rstanarm 2.21.3):
#   Rscript make.R ../../../../shared/data/bayesian-risk/rb04.csv
# It writes rb04_unbalanced_summary.csv, _prior.txt and _time.txt here.
suppressMessages(library(rstanarm))
a <- commandArgs(trailingOnly=TRUE)
d <- read.csv(a[1])
rm <- read.csv("removed.csv")
key <- paste(d$system, d$topic, sep="\r")
drop <- key %in% paste(rm$system, rm$topic, sep="\r")
stopifnot(sum(drop) == nrow(rm))
d <- d[!drop, ]
out <- "rb04_unbalanced"
t0 <- proc.time()
fit <- stan_glmer(score ~ (1 | topic) + (1 | system), data=d, chains=4, cores=2,
                  seed=12345, iter=4000, family=gaussian, adapt_delta=0.99, refresh=0)
el <- (proc.time() - t0)[["elapsed"]]
s <- as.data.frame(summary(fit, probs=c(0.025, 0.5, 0.975)))
s$param <- rownames(s)
write.csv(s, paste0(out, "_summary.csv"), row.names=FALSE)
sink(paste0(out, "_prior.txt")); print(prior_summary(fit)); sink()
cat(sprintf("elapsed_s=%.1f chains=4 iter=4000 rows=%d removed=%d\n", el, nrow(d), sum(drop)),
    file=paste0(out, "_time.txt"))
cat(sprintf("elapsed_s=%.1f\n", el))
