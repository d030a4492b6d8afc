# Reference for riskgate discriminate (gate/discriminate/r_test.go).
#
# Regenerate (from this folder; the rb04 file is optional):
#   Rscript discriminate.R . ../../../../../shared/data/bayesian-risk/rb04.csv
# It writes pool.csv (a synthetic pool: 12 systems x 25 topics x 3 measures,
# seeded, one measure coarse so that system means tie) and r_reference.csv:
#   significant,MEASURE,ALPHA,COUNT,PAIRS  pairs with t.test(paired = TRUE)$p.value < ALPHA
#     (identical systems give p = NaN, not significant; differences that are
#     constant but not 0, where t.test stops, count as p = 0, as t = ±Inf)
#   kendall,MEASURE1,MEASURE2,TAU           cor(means1, means2, method = "kendall"), %.17g
# with MEASURE "rb04" for the rb04 file's average precision when given.
# R 4.2; stats only.
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args) >= 1) args[1] else "."
set.seed(20240527)
systems <- sprintf("sys%02d", 1:12)
topics <- sprintf("t%02d", 1:25)
ability <- seq(0, 0.22, length.out = 12)
difficulty <- runif(25, 0.05, 0.6)
rows <- list()
for (i in seq_along(systems)) {
  base <- pmin(1, pmax(0, difficulty + ability[i] + rnorm(25, 0, 0.15)))
  m2 <- pmin(1, pmax(0, base^1.5 + rnorm(25, 0, 0.08)))
  m3 <- floor(base * 4) / 4
  if (i == 12) m3 <- floor((pmin(1, pmax(0, difficulty + ability[11] + rnorm(25, 0, 0.15)))) * 4) / 4
  rows[[length(rows) + 1]] <- data.frame(system = systems[i], topic = topics, measure = "alpha", score = round(base, 6))
  rows[[length(rows) + 1]] <- data.frame(system = systems[i], topic = topics, measure = "beta", score = round(m2, 6))
  rows[[length(rows) + 1]] <- data.frame(system = systems[i], topic = topics, measure = "coarse", score = m3)
}
pool <- do.call(rbind, rows)
# Two systems with the same coarse scores: a tie in the coarse ranking.
pool$score[pool$measure == "coarse" & pool$system == "sys07"] <- pool$score[pool$measure == "coarse" & pool$system == "sys06"]
write.csv(pool, file.path(out, "pool.csv"), row.names = FALSE, quote = FALSE)

ref <- character(0)
significant <- function(name, wide, alphas) {
  p <- c()
  s <- colnames(wide)
  for (a in 1:(length(s) - 1)) for (b in (a + 1):length(s)) {
    x <- wide[, s[b]]
    y <- wide[, s[a]]
    p <- c(p, tryCatch(t.test(x, y, paired = TRUE)$p.value,
                       error = function(e) if (mean(x - y) != 0) 0 else NaN))
  }
  for (alpha in alphas) {
    ref <<- c(ref, sprintf("significant,%s,%s,%d,%d", name, alpha, sum(p < alpha, na.rm = TRUE), length(p)))
  }
}
wides <- list()
for (m in c("alpha", "beta", "coarse")) {
  d <- pool[pool$measure == m, ]
  wide <- sapply(systems, function(s) d$score[d$system == s][order(d$topic[d$system == s])])
  wides[[m]] <- wide
  significant(m, wide, c(0.05, 0.01))
}
for (m1 in names(wides)) for (m2 in names(wides)) {
  tau <- cor(colMeans(wides[[m1]]), colMeans(wides[[m2]]), method = "kendall")
  ref <- c(ref, sprintf("kendall,%s,%s,%.17g", m1, m2, tau))
}
if (length(args) >= 2 && file.exists(args[2])) {
  rb <- read.csv(args[2], check.names = FALSE)
  s <- unique(rb$system)
  wide <- sapply(s, function(x) rb$score[rb$system == x][order(rb$topic[rb$system == x])])
  significant("rb04", wide, c(0.05, 0.01))
}
writeLines(ref, file.path(out, "r_reference.csv"))
