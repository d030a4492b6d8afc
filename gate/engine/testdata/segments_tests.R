# The per-segment paired tests of rb04 (../shared/data/bayesian-risk/rb04.csv)
# by topic origin, with a margin: R's t.test / wilcox.test with mu = -margin
# and the sign test of d + margin (binom.test), for TestSegmentTestsAgainstR.
# Regenerate from the repository root:
#   Rscript gate/engine/testdata/segments_tests.R ../shared/data/bayesian-risk/rb04.csv > gate/engine/testdata/segments_tests.csv
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1], check.names = FALSE)
num <- as.integer(sub("^t_", "", d$topic))
d$origin <- ifelse(num <= 450, "trec678", ifelse(num <= 650, "robust03", "robust04"))
margin <- 0.02
champ <- d[d$system == "Champion", ]
out <- NULL
for (ch in c("Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4")) {
  x <- d[d$system == ch, ]
  for (g in c("trec678", "robust03", "robust04")) {
    xt <- x[x$origin == g, ]
    yt <- champ[match(xt$topic, champ$topic), ]
    a <- xt$score; b <- yt$score
    dd <- a - b - (-margin)
    tt <- t.test(a, b, paired = TRUE, mu = -margin, alternative = "less")
    t2 <- t.test(a, b, paired = TRUE, mu = -margin)
    ci <- t.test(a, b, paired = TRUE, conf.level = 0.95)$conf.int
    w <- suppressWarnings(wilcox.test(a, b, paired = TRUE, mu = -margin, alternative = "less"))
    s <- binom.test(sum(dd > 0), sum(dd != 0), alternative = "less")
    out <- rbind(out, data.frame(challenger = ch, segment = g, topics = length(a),
      t_less = tt$p.value, t_two = t2$p.value, wilcoxon_less = w$p.value, sign_less = s$p.value,
      delta = mean(a - b), lo = ci[1], hi = ci[2]))
  }
}
write.csv(out, stdout(), row.names = FALSE, quote = TRUE)
