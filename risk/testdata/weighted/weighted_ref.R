# Reference values of the weighted mean difference and its standard error
# (risk.WeightedT; issue 26 item 4, docs/weights.md): every rb04 system
# against Champion over the 50 topics, each topic weighted by a traffic share
# (Zipf: w = 1/k for a seeded permutation k of 1..50, written to weights.csv).
#   estimate  weighted.mean(d, w)                        d = x - champion
#   se        sqrt(sandwich::vcovHC(lm(d ~ 1, weights = w), type = "HC1")):
#             the linearisation (ratio-estimator) standard error,
#             n/(n-1) * sum(w^2 (d - mean_w)^2) / sum(w)^2, from the sandwich
#             package rather than the formula riskgate computes
#   t, df     estimate/se on n - 1 degrees of freedom
#   p, p_less, p_greater, lo, hi   from pt/qt with df = n - 1, 95% interval
# sandwich 3.0.2, R 4.2.2. Regenerate (from the repository root; a second):
#   Rscript risk/testdata/weighted/weighted_ref.R ../shared/data/bayesian-risk risk/testdata/weighted
library(sandwich)
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]; out <- args[2]
scores <- read.csv(file.path(dir, "rb04.csv"), stringsAsFactors = FALSE)
topics <- sort(unique(scores$topic))
set.seed(26)
w <- 1 / sample(length(topics)); names(w) <- topics
f <- function(v) sprintf("%.17g", v)
write.csv(data.frame(topic = topics, weight = f(w)), file.path(out, "weights.csv"), row.names = FALSE, quote = TRUE)
wide <- function(sys) {
  s <- scores[scores$system == sys, ]
  v <- s$score; names(v) <- s$topic
  v[topics]
}
champion <- wide("Champion")
rows <- list()
for (sys in setdiff(unique(scores$system), "Champion")) {
  d <- wide(sys) - champion
  n <- length(d)
  est <- weighted.mean(d, w)
  m <- lm(d ~ 1, weights = w)
  stopifnot(abs(coef(m)[[1]] - est) < 1e-15)
  se <- sqrt(vcovHC(m, type = "HC1")[1, 1])
  formula_se <- sqrt(n / (n - 1) * sum(w^2 * (d - est)^2) / sum(w)^2)
  stopifnot(abs(se - formula_se) <= 1e-12 * se)
  tt <- est / se; df <- n - 1; q <- qt(0.975, df)
  rows[[length(rows) + 1]] <- data.frame(system = sys, topics = n, estimate = f(est), se = f(se),
    t = f(tt), df = df, p = f(2 * pt(-abs(tt), df)), p_less = f(pt(tt, df)),
    p_greater = f(pt(tt, df, lower.tail = FALSE)), lo = f(est - q * se), hi = f(est + q * se),
    effective_n = f(sum(w)^2 / sum(w^2)))
}
write.csv(do.call(rbind, rows), file.path(out, "weighted.csv"), row.names = FALSE, quote = TRUE)
