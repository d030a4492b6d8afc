# Reference values per query segment of rb04 by topic origin (issue 26, "Done
# when" 1): for every system against Champion in each origin (301-450 the TREC
# 6-8 ad hoc tracks, 601-650 new in Robust 2003, 651-700 new in Robust 2004;
# derived from the topic numbers and checked against rb04_topics.csv):
#   - Student's paired t: t.test(x, champion, paired = TRUE) with t, df and the
#     two-sided, "less" and "greater" p-values; and the harm test of margin
#     0.02, t.test(..., paired = TRUE, mu = -0.02, alternative = "less"),
#     H0: mean difference >= -0.02;
#   - the 95% BCa interval of URisk at loss weights 1 and 5 (the mean of the
#     risk-adjusted differences d_i, or w*d_i for a loss; risk.Pair.Adjusted)
#     by boot(R = 1e5) after set.seed(12345) and boot.ci(type = "bca"), with
#     each end's Monte Carlo standard error (below).
# Read by risk/segments_ref_test.go and gate/gate_rb04_segments_test.go.
#
# Monte Carlo standard error of a BCa end: the end is the alpha'-quantile of
# the B replicates, alpha' = pnorm(z0 + (z0 + z)/(1 - a (z0 + z))), and both the
# quantile and z0 = qnorm(#{t* < t0}/B) are estimated from the replicates. In
# alpha' units
#   se_q  = sqrt(alpha' (1 - alpha') / B)                     (the order statistic)
#   se_z0 = dalpha'/dz0 * sqrt(p0 (1 - p0) / B) / dnorm(z0)   (delta method, p0 = #{t* < t0}/B)
# added (not in quadrature: the two are not independent, so their sum bounds
# the standard error), and turned into score units by the replicates' quantile
# density: (quantile(alpha' + h) - quantile(alpha' - h)) / (2 h), h = 0.005.
#
# Regenerate (from the repository root; about 5 minutes):
#   Rscript risk/testdata/rb04_segments/rb04_segments_ref.R \
#     ../shared/data/bayesian-risk risk/testdata/rb04_segments
# R 4.2, boot 1.3-28.1.
library(boot)
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]; out <- args[2]
scores <- read.csv(file.path(dir, "rb04.csv"), stringsAsFactors = FALSE)
attrs <- read.csv(file.path(dir, "rb04_topics.csv"), stringsAsFactors = FALSE)

origin_of <- function(topic) {
  n <- as.integer(sub("^t_", "", topic))
  ifelse(n >= 301 & n <= 450, "trec6-8",
    ifelse(n >= 601 & n <= 650, "robust03",
      ifelse(n >= 651 & n <= 700, "robust04", NA)))
}
stopifnot(!anyNA(origin_of(attrs$topic)), identical(origin_of(attrs$topic), attrs$origin))
origins <- c("trec6-8", "robust03", "robust04")

wide <- function(sys) {
  s <- scores[scores$system == sys, ]
  v <- s$score; names(v) <- s$topic
  v
}
champion <- wide("Champion")
systems <- setdiff(unique(scores$system), "Champion")
f <- function(v) sprintf("%.17g", v)

level <- 0.95; B <- 100000; margin <- 0.02
tests <- list(); bcas <- list()
for (sys in systems) {
  x <- wide(sys)
  for (g in origins) {
    topics <- sort(names(champion)[origin_of(names(champion)) == g])
    a <- x[topics]; b <- champion[topics]
    two <- t.test(a, b, paired = TRUE)
    less <- t.test(a, b, paired = TRUE, alternative = "less")
    greater <- t.test(a, b, paired = TRUE, alternative = "greater")
    harm <- t.test(a, b, paired = TRUE, mu = -margin, alternative = "less")
    tests[[length(tests) + 1]] <- data.frame(system = sys, origin = g, topics = length(topics),
      mean_diff = f(mean(a - b)), t = f(two$statistic), df = f(two$parameter), p = f(two$p.value),
      p_less = f(less$p.value), p_greater = f(greater$p.value),
      harm_t = f(harm$statistic), harm_p_less = f(harm$p.value))
    for (w in c(1, 5)) {
      d <- a - b
      d <- ifelse(d < 0, w * d, d)
      set.seed(12345)
      bt <- boot(d, function(v, i) mean(v[i]), R = B)
      ci <- boot.ci(bt, conf = level, type = "bca")
      tstar <- bt$t[, 1]; t0 <- bt$t0
      p0 <- sum(tstar < t0) / B; z0 <- qnorm(p0)
      L <- d - mean(d); acc <- sum(L^3) / (6 * sum(L^2)^1.5)
      mcse <- sapply(qnorm(c((1 - level) / 2, (1 + level) / 2)), function(z) {
        u <- z0 + z; alpha <- pnorm(z0 + u / (1 - acc * u))
        dalpha <- dnorm(z0 + u / (1 - acc * u)) * (1 + 1 / (1 - acc * u)^2)
        se <- sqrt(alpha * (1 - alpha) / B) + dalpha * sqrt(p0 * (1 - p0) / B) / dnorm(z0)
        h <- 0.005
        q <- quantile(tstar, c(max(alpha - h, 0), min(alpha + h, 1)), names = FALSE, type = 7)
        se * (q[2] - q[1]) / (min(alpha + h, 1) - max(alpha - h, 0))
      })
      bcas[[length(bcas) + 1]] <- data.frame(system = sys, origin = g, topics = length(topics),
        loss_weight = w, urisk = f(t0), lo = f(ci$bca[4]), hi = f(ci$bca[5]),
        lo_mcse = f(mcse[1]), hi_mcse = f(mcse[2]))
    }
  }
}
write.csv(do.call(rbind, tests), file.path(out, "ttest.csv"), row.names = FALSE, quote = TRUE)
write.csv(do.call(rbind, bcas), file.path(out, "bca.csv"), row.names = FALSE, quote = TRUE)
